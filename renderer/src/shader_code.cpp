#include "shader_code.h"

namespace nudge::render {

namespace {

// Each .spv.inc is glslc's -mfmt=num output: the SPIR-V words, comma separated.
constexpr std::uint32_t kGridVert[] = {
#include "grid.vert.spv.inc"
};
constexpr std::uint32_t kGridFrag[] = {
#include "grid.frag.spv.inc"
};
constexpr std::uint32_t kSphereVert[] = {
#include "sphere.vert.spv.inc"
};
constexpr std::uint32_t kSphereFrag[] = {
#include "sphere.frag.spv.inc"
};
constexpr std::uint32_t kSphereFragPerSample[] = {
#include "sphere_per_sample.frag.spv.inc"
};
constexpr std::uint32_t kSpherePointVert[] = {
#include "sphere_point.vert.spv.inc"
};
constexpr std::uint32_t kSpherePointFrag[] = {
#include "sphere_point.frag.spv.inc"
};
constexpr std::uint32_t kLineVert[] = {
#include "line.vert.spv.inc"
};
constexpr std::uint32_t kThinLineVert[] = {
#include "thin_line.vert.spv.inc"
};
constexpr std::uint32_t kArrowVert[] = {
#include "arrow.vert.spv.inc"
};
constexpr std::uint32_t kFlatColorFrag[] = {
#include "flat_color.frag.spv.inc"
};
constexpr std::uint32_t kMeshVert[] = {
#include "mesh.vert.spv.inc"
};
constexpr std::uint32_t kMeshFrag[] = {
#include "mesh.frag.spv.inc"
};
constexpr std::uint32_t kQuadVert[] = {
#include "quad.vert.spv.inc"
};
constexpr std::uint32_t kQuadFrag[] = {
#include "quad.frag.spv.inc"
};
constexpr std::uint32_t kOverlayVert[] = {
#include "overlay.vert.spv.inc"
};

template <std::size_t N>
SpirV code(const std::uint32_t (&words)[N]) {
  return SpirV{words, N * sizeof(std::uint32_t)};
}

}  // namespace

SpirV spirv(Shader shader) {
  switch (shader) {
    case Shader::GridVert: return code(kGridVert);
    case Shader::GridFrag: return code(kGridFrag);
    case Shader::SphereVert: return code(kSphereVert);
    case Shader::SphereFrag: return code(kSphereFrag);
    case Shader::SphereFragPerSample: return code(kSphereFragPerSample);
    case Shader::SpherePointVert: return code(kSpherePointVert);
    case Shader::SpherePointFrag: return code(kSpherePointFrag);
    case Shader::LineVert: return code(kLineVert);
    case Shader::ThinLineVert: return code(kThinLineVert);
    case Shader::ArrowVert: return code(kArrowVert);
    case Shader::FlatColorFrag: return code(kFlatColorFrag);
    case Shader::MeshVert: return code(kMeshVert);
    case Shader::MeshFrag: return code(kMeshFrag);
    case Shader::QuadVert: return code(kQuadVert);
    case Shader::QuadFrag: return code(kQuadFrag);
    case Shader::OverlayVert: return code(kOverlayVert);
  }
  return {};
}

}  // namespace nudge::render

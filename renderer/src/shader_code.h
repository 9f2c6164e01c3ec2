// The SPIR-V of every shader stage, compiled by glslc at build time and embedded in the
// library, so that nothing is looked up on disk at run time.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nudge::render {

enum class Shader {
  GridVert,
  GridFrag,
  SphereVert,
  SphereFrag,           // one sample per pixel
  SphereFragPerSample,  // ray cast per sample: anti-aliased silhouettes (sampleRateShading)
  SpherePointVert,      // small spheres as point sprites
  SpherePointFrag,
  LineVert,
  ThinLineVert,  // line list primitives (thin lines)
  ArrowVert,
  FlatColorFrag,
  MeshVert,
  MeshFrag,
  QuadVert,
  QuadFrag,
  OverlayVert,
};

struct SpirV {
  const std::uint32_t* words = nullptr;
  std::size_t size_bytes = 0;
};

SpirV spirv(Shader shader);

}  // namespace nudge::render

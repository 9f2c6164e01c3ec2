// Surface lighting written once for the GPU (spheres, meshes) and the CPU (tests, which
// compute the colour a lit pixel must have). The language-neutral subset of GLSL and glm.
//
// Colours are sRGB-encoded; lighting happens in linear light (gamma 2.2) and is encoded
// back. A key light from the draw list's light direction, a weaker fill light from the
// camera so that faces turned from the key still show their form, a sky/ground ambient
// term, and a small white highlight.
#ifndef NUDGE_SHADERS_SHARED_SHADING_H
#define NUDGE_SHADERS_SHARED_SHADING_H

#ifdef __cplusplus
#include <glm/glm.hpp>
namespace nudge::render::gpu {
using vec3 = glm::vec3;
using glm::clamp;
using glm::dot;
using glm::max;
using glm::mix;
using glm::normalize;
using glm::pow;
using glm::sqrt;
#define NUDGE_SHARED_FN inline
#else
#define NUDGE_SHARED_FN
#endif

// Two pow() calls of the lighting are spelled out: pow() is exp2(y log2(x)), which CPU
// rasterisers (lavapipe) evaluate as long polynomials, and the lighting runs for every
// pixel of every sphere, thousands of them in a large scene.

// x^60 by squaring: exact up to rounding.
NUDGE_SHARED_FN float pow60(float x) {
  float x4 = (x * x) * (x * x);
  float x8 = x4 * x4;
  float x16 = x8 * x8;
  return x16 * x16 * x16 * x8 * x4;
}

// x^(1/2.2) for x in [0, 1] to within 0.75 / 255, exact at 0 and 1: a blend of x^(1/2),
// x^(1/4) and x^(1/8) (minimax fit), three square roots in all.
NUDGE_SHARED_FN vec3 encode_gamma(vec3 x) {
  vec3 r2 = sqrt(x);
  vec3 r4 = sqrt(r2);
  vec3 r8 = sqrt(r4);
  return max(0.82370359f * r2 + 0.22528918f * r4 - 0.04899277f * r8, vec3(0.0f));
}

// The linear albedo of an sRGB-encoded surface colour. Apart from shade_albedo so that
// shaders with one colour per primitive (spheres) can compute it per vertex.
NUDGE_SHARED_FN vec3 surface_albedo(vec3 base_srgb) { return pow(base_srgb, vec3(2.2f)); }

// albedo: surface_albedo(); n: unit normal facing the viewer; to_light, to_eye: unit.
NUDGE_SHARED_FN vec3 shade_albedo(vec3 albedo, vec3 n, vec3 to_light, vec3 to_eye) {
  float key = max(dot(n, to_light), 0.0f);
  float fill = max(dot(n, to_eye), 0.0f);
  vec3 ambient = mix(vec3(0.030f, 0.028f, 0.026f), vec3(0.10f, 0.11f, 0.13f), 0.5f + 0.5f * n.y);
  vec3 half_vector = normalize(to_light + to_eye);
  float highlight = key > 0.0f ? 0.22f * pow60(max(dot(n, half_vector), 0.0f)) : 0.0f;
  vec3 radiance = albedo * (ambient + vec3(0.78f * key + 0.18f * fill)) + vec3(highlight);
  return encode_gamma(clamp(radiance, 0.0f, 1.0f));
}

// base_srgb: surface colour; n: unit normal facing the viewer; to_light, to_eye: unit.
NUDGE_SHARED_FN vec3 shade_surface(vec3 base_srgb, vec3 n, vec3 to_light, vec3 to_eye) {
  return shade_albedo(surface_albedo(base_srgb), n, to_light, to_eye);
}

#ifdef __cplusplus
}  // namespace nudge::render::gpu
#endif
#undef NUDGE_SHARED_FN

#endif  // NUDGE_SHADERS_SHARED_SHADING_H

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
#define NUDGE_SHARED_FN inline
#else
#define NUDGE_SHARED_FN
#endif

// base_srgb: surface colour; n: unit normal facing the viewer; to_light, to_eye: unit.
NUDGE_SHARED_FN vec3 shade_surface(vec3 base_srgb, vec3 n, vec3 to_light, vec3 to_eye) {
  vec3 albedo = pow(base_srgb, vec3(2.2f));
  float key = max(dot(n, to_light), 0.0f);
  float fill = max(dot(n, to_eye), 0.0f);
  vec3 ambient = mix(vec3(0.030f, 0.028f, 0.026f), vec3(0.10f, 0.11f, 0.13f), 0.5f + 0.5f * n.y);
  vec3 half_vector = normalize(to_light + to_eye);
  float highlight = key > 0.0f ? 0.22f * pow(max(dot(n, half_vector), 0.0f), 60.0f) : 0.0f;
  vec3 radiance = albedo * (ambient + vec3(0.78f * key + 0.18f * fill)) + vec3(highlight);
  return pow(clamp(radiance, 0.0f, 1.0f), vec3(1.0f / 2.2f));
}

#ifdef __cplusplus
}  // namespace nudge::render::gpu
#endif
#undef NUDGE_SHARED_FN

#endif  // NUDGE_SHADERS_SHARED_SHADING_H

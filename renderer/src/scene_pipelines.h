// The graphics pipelines of the scene's passes. All share one pipeline layout (descriptor
// set 0 of shared_types.h, no push constants) and differ in shaders and fixed state.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

#include "nudge/render/result.h"

namespace nudge::render {

struct PipelineTarget {
  VkRenderPass render_pass = VK_NULL_HANDLE;
  std::uint32_t subpass = 0;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  bool srgb = false;                // the colour attachment is an _SRGB format
  bool per_sample_spheres = false;  // the device has sampleRateShading enabled
};

struct ScenePipelines {
  VkPipeline meshes = VK_NULL_HANDLE;
  VkPipeline spheres = VK_NULL_HANDLE;
  VkPipeline point_spheres = VK_NULL_HANDLE;  // small spheres as point sprites
  VkPipeline quads = VK_NULL_HANDLE;
  VkPipeline lines = VK_NULL_HANDLE;
  VkPipeline thin_lines = VK_NULL_HANDLE;         // line primitives; the width is dynamic state
  VkPipeline thin_opaque_lines = VK_NULL_HANDLE;  // the same without blending
  VkPipeline arrows = VK_NULL_HANDLE;
  VkPipeline grid = VK_NULL_HANDLE;
  VkPipeline overlay = VK_NULL_HANDLE;
};

Expected<ScenePipelines> create_scene_pipelines(VkDevice device, VkPipelineLayout layout, const PipelineTarget& target);
void destroy_scene_pipelines(VkDevice device, ScenePipelines& pipelines);

}  // namespace nudge::render

#include "scene_pipelines.h"

#include "shader_code.h"
#include "shared_types.h"
#include "vk_check.h"

namespace nudge::render {

namespace {

struct PipelineDesc {
  Shader vertex;
  Shader fragment;
  bool depth_test = true;
  bool depth_write = true;
  bool blend = false;
  bool depth_bias = false;  // pushed back slightly, so that what lies on it wins
  bool per_sample = false;  // shade every sample (sample shading)
  // Line lists take their width from vkCmdSetLineWidth.
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
};

Expected<VkShaderModule> create_module(VkDevice device, Shader shader) {
  const SpirV code = spirv(shader);
  VkShaderModuleCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  info.codeSize = code.size_bytes;
  info.pCode = code.words;
  VkShaderModule module = VK_NULL_HANDLE;
  NUDGE_VK_TRY(vkCreateShaderModule(device, &info, nullptr, &module));
  return module;
}

Expected<VkPipeline> create_pipeline(VkDevice device, VkPipelineLayout layout, const PipelineTarget& target,
                                     const PipelineDesc& desc) {
  // Shader modules are only needed while the pipeline is created.
  struct Modules {
    VkDevice device;
    VkShaderModule vertex = VK_NULL_HANDLE, fragment = VK_NULL_HANDLE;
    ~Modules() {
      if (vertex) vkDestroyShaderModule(device, vertex, nullptr);
      if (fragment) vkDestroyShaderModule(device, fragment, nullptr);
    }
  } modules{device};
  Expected<VkShaderModule> vertex = create_module(device, desc.vertex);
  if (!vertex) return vertex.error();
  modules.vertex = *vertex;
  Expected<VkShaderModule> fragment = create_module(device, desc.fragment);
  if (!fragment) return fragment.error();
  modules.fragment = *fragment;

  const VkBool32 srgb = target.srgb ? VK_TRUE : VK_FALSE;
  const VkSpecializationMapEntry srgb_entry{NUDGE_SPEC_TARGET_IS_SRGB, 0, sizeof(VkBool32)};
  const VkSpecializationInfo specialization{1, &srgb_entry, sizeof srgb, &srgb};
  VkPipelineShaderStageCreateInfo stages[2]{};
  stages[0].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = modules.vertex;
  stages[0].pName = "main";
  stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = modules.fragment;
  stages[1].pName = "main";
  stages[1].pSpecializationInfo = &specialization;

  // Every pass pulls its vertices from storage buffers: no vertex input state.
  VkPipelineVertexInputStateCreateInfo vertex_input{};
  vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  VkPipelineInputAssemblyStateCreateInfo assembly{};
  assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  assembly.topology = desc.topology;
  const bool lines = desc.topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  VkPipelineViewportStateCreateInfo viewport{};
  viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;  // cloth has two sides; impostors face the eye anyway
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  raster.depthBiasEnable = desc.depth_bias ? VK_TRUE : VK_FALSE;
  raster.depthBiasConstantFactor = desc.depth_bias ? 2.0f : 0.0f;
  raster.depthBiasSlopeFactor = desc.depth_bias ? 1.5f : 0.0f;
  VkPipelineMultisampleStateCreateInfo multisample{};
  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = target.samples;
  if (desc.per_sample && target.samples != VK_SAMPLE_COUNT_1_BIT) {
    multisample.sampleShadingEnable = VK_TRUE;
    multisample.minSampleShading = 1.0f;
  }
  VkPipelineDepthStencilStateCreateInfo depth{};
  depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  depth.depthTestEnable = desc.depth_test ? VK_TRUE : VK_FALSE;
  depth.depthWriteEnable = desc.depth_write ? VK_TRUE : VK_FALSE;
  depth.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  if (desc.blend) {
    blend.blendEnable = VK_TRUE;
    blend.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
    blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    blend.colorBlendOp = VK_BLEND_OP_ADD;
    blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;  // an opaque target stays opaque
    blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    blend.alphaBlendOp = VK_BLEND_OP_ADD;
  }
  VkPipelineColorBlendStateCreateInfo blending{};
  blending.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blending.attachmentCount = 1;
  blending.pAttachments = &blend;
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                                           VK_DYNAMIC_STATE_LINE_WIDTH};
  VkPipelineDynamicStateCreateInfo dynamic{};
  dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  dynamic.dynamicStateCount = lines ? 3 : 2;
  dynamic.pDynamicStates = dynamic_states;

  VkGraphicsPipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blending;
  info.pDynamicState = &dynamic;
  info.layout = layout;
  info.renderPass = target.render_pass;
  info.subpass = target.subpass;
  VkPipeline pipeline = VK_NULL_HANDLE;
  NUDGE_VK_TRY(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
  return pipeline;
}

}  // namespace

Expected<ScenePipelines> create_scene_pipelines(VkDevice device, VkPipelineLayout layout,
                                                const PipelineTarget& target) {
  ScenePipelines pipelines;
  struct Guard {
    VkDevice device;
    ScenePipelines* pipelines;
    ~Guard() {
      if (pipelines) destroy_scene_pipelines(device, *pipelines);
    }
  } guard{device, &pipelines};

  const bool per_sample = target.per_sample_spheres && target.samples != VK_SAMPLE_COUNT_1_BIT;
  const struct {
    VkPipeline* pipeline;
    PipelineDesc desc;
  } passes[] = {
      {&pipelines.meshes, {Shader::MeshVert, Shader::MeshFrag}},
      {&pipelines.spheres,
       {Shader::SphereVert, per_sample ? Shader::SphereFragPerSample : Shader::SphereFrag, true, true, false, false,
        per_sample}},
      {&pipelines.point_spheres,
       {Shader::SpherePointVert, Shader::SpherePointFrag, true, true, false, false, per_sample,
        VK_PRIMITIVE_TOPOLOGY_POINT_LIST}},
      {&pipelines.quads, {Shader::QuadVert, Shader::QuadFrag, true, true, true}},
      {&pipelines.lines, {Shader::LineVert, Shader::FlatColorFrag, true, true, true}},
      {&pipelines.thin_lines,
       {Shader::ThinLineVert, Shader::FlatColorFrag, true, true, true, false, false, VK_PRIMITIVE_TOPOLOGY_LINE_LIST}},
      // Blending costs CPU rasterisers a read of every pixel; most lines are opaque.
      {&pipelines.thin_opaque_lines,
       {Shader::ThinLineVert, Shader::FlatColorFrag, true, true, false, false, false, VK_PRIMITIVE_TOPOLOGY_LINE_LIST}},
      {&pipelines.arrows, {Shader::ArrowVert, Shader::FlatColorFrag, true, true, true}},
      // Translucent and drawn after the solids: it must not hide what lies below it.
      {&pipelines.grid, {Shader::GridVert, Shader::GridFrag, true, false, true, true}},
      {&pipelines.overlay, {Shader::OverlayVert, Shader::FlatColorFrag, false, false, true}},
  };
  for (const auto& pass : passes) {
    Expected<VkPipeline> pipeline = create_pipeline(device, layout, target, pass.desc);
    if (!pipeline) return pipeline.error();
    *pass.pipeline = *pipeline;
  }
  guard.pipelines = nullptr;
  return pipelines;
}

void destroy_scene_pipelines(VkDevice device, ScenePipelines& pipelines) {
  for (VkPipeline pipeline :
       {pipelines.meshes, pipelines.spheres, pipelines.point_spheres, pipelines.quads, pipelines.lines,
        pipelines.thin_lines, pipelines.thin_opaque_lines, pipelines.arrows, pipelines.grid, pipelines.overlay}) {
    if (pipeline) vkDestroyPipeline(device, pipeline, nullptr);
  }
  pipelines = {};
}

}  // namespace nudge::render

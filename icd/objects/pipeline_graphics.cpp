// vkCreateGraphicsPipelines: compile the shader stages and copy the
// fixed-function state out of the create info (raster/graphics_state.h),
// of the parts of a pipeline the create info describes; the other parts
// come from the libraries it links (objects/pipeline_library.h).
#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <string>

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/pipeline.h"
#include "objects/pipeline_feedback.h"
#include "objects/stage_compile.h"
#include "objects/pipeline_library.h"
#include "objects/render_pass.h"
#include "spirv_exec/shader_module.h"
#include "spirv_exec/spirv_ingest.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"

namespace duet {
namespace raster {

int DynamicStateIndex(VkDynamicState state) {
  static constexpr VkDynamicState kSupported[] = {
      VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_LINE_WIDTH,
      VK_DYNAMIC_STATE_DEPTH_BIAS, VK_DYNAMIC_STATE_BLEND_CONSTANTS, VK_DYNAMIC_STATE_DEPTH_BOUNDS,
      VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK, VK_DYNAMIC_STATE_STENCIL_REFERENCE,
      VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_FRONT_FACE, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
      VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT,
      VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
      VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP, VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE,
      VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE, VK_DYNAMIC_STATE_STENCIL_OP, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
      VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE, VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
      VK_DYNAMIC_STATE_LOGIC_OP_EXT, VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT, VK_DYNAMIC_STATE_VERTEX_INPUT_EXT,
      // VK_EXT_extended_dynamic_state3 (the states whose features it advertises)
      VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT, VK_DYNAMIC_STATE_POLYGON_MODE_EXT, VK_DYNAMIC_STATE_SAMPLE_MASK_EXT,
      VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT, VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT,
      VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT, VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT,
      VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT, VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT,
      VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT, VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT,
      VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT, VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT,
      VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT, VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT,
      VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT, VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT,
      // VK_EXT_line_rasterization
      VK_DYNAMIC_STATE_LINE_STIPPLE_EXT,
      // VK_EXT_extended_dynamic_state2
      VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT,
  };
  for (int i = 0; i < int(std::size(kSupported)); ++i)
    if (kSupported[i] == state) return i;
  return -1;
}

}  // namespace raster

namespace {

raster::StencilFaceState Stencil(const VkStencilOpState& s) {
  return {s.failOp, s.passOp, s.depthFailOp, s.compareOp, s.compareMask, s.writeMask, s.reference};
}

// Which of the fragment-side state a pipeline reads (the rest the spec lets
// the application leave as garbage).
struct RasterizerUse {
  bool rasterizes = true;     // rasterization not statically discarded
  bool depth_stencil = true;  // the subpass / rendering has a depth or stencil attachment
  bool colors = true;         // ... and colour attachments
};

RasterizerUse FindRasterizerUse(const VkGraphicsPipelineCreateInfo& info, VkGraphicsPipelineLibraryFlagsEXT parts,
                                const raster::GraphicsPipelineState& state) {
  RasterizerUse use;
  const int discard_index = raster::DynamicStateIndex(VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE);
  // (A fragment part made on its own reads its state: the rasterization
  // state belongs to another part.)
  use.rasterizes = (parts & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT) == 0 ||
                   info.pRasterizationState == nullptr || !info.pRasterizationState->rasterizerDiscardEnable ||
                   state.dynamic.test(size_t(discard_index));
  if (const RenderPass* pass = FromHandle<RenderPass>(info.renderPass)) {
    if (info.subpass < pass->subpasses.size()) {
      const SubpassDescription& subpass = pass->subpasses[info.subpass];
      use.depth_stencil = subpass.depth_stencil.used();
      use.colors = std::any_of(subpass.colors.begin(), subpass.colors.end(),
                               [](const AttachmentReference& a) { return a.used(); });
    }
  } else {
    // Dynamic rendering: no VkPipelineRenderingCreateInfo means no attachments.
    const auto* rendering =
        FindInChain<VkPipelineRenderingCreateInfo>(info.pNext, VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
    use.depth_stencil = rendering != nullptr && (rendering->depthAttachmentFormat != VK_FORMAT_UNDEFINED ||
                                                 rendering->stencilAttachmentFormat != VK_FORMAT_UNDEFINED);
    use.colors = rendering != nullptr && rendering->colorAttachmentCount > 0;
  }
  return use;
}

// The state of `parts` (the create info's other structs may be garbage).
VkResult FillState(const VkGraphicsPipelineCreateInfo& info, VkGraphicsPipelineLibraryFlagsEXT parts,
                   raster::GraphicsPipelineState* out) {
  raster::GraphicsState& g = out->state;
  const bool vertex_input = (parts & VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT) != 0;
  const bool pre_rasterization = (parts & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT) != 0;
  const bool fragment = (parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT) != 0;
  const bool fragment_output = (parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT) != 0;
  if (info.pDynamicState != nullptr) {
    for (uint32_t i = 0; i < info.pDynamicState->dynamicStateCount; ++i) {
      const int index = raster::DynamicStateIndex(info.pDynamicState->pDynamicStates[i]);
      if (index < 0) {
        DUET_WARN("vkCreateGraphicsPipelines: dynamic state %d is not supported",
                  info.pDynamicState->pDynamicStates[i]);
        return VK_ERROR_INITIALIZATION_FAILED;
      }
      out->dynamic.set(size_t(index));
    }
  }
  // With dynamic vertex input the state struct is ignored (it may be any pointer).
  const bool dynamic_vertex_input =
      out->dynamic.test(size_t(raster::DynamicStateIndex(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT)));
  if (const auto* vi = info.pVertexInputState; vi != nullptr && vertex_input && !dynamic_vertex_input) {
    g.vertex_input.bindings.assign(vi->pVertexBindingDescriptions,
                                   vi->pVertexBindingDescriptions + vi->vertexBindingDescriptionCount);
    g.vertex_input.divisors.assign(vi->vertexBindingDescriptionCount, 1);
    // VK_EXT_vertex_attribute_divisor: instance-rate bindings that step every `divisor` instances (0: never).
    if (const auto* divisors = FindInChain<VkPipelineVertexInputDivisorStateCreateInfoEXT>(
            vi->pNext, VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT)) {
      for (uint32_t i = 0; i < divisors->vertexBindingDivisorCount; ++i) {
        const VkVertexInputBindingDivisorDescriptionEXT& d = divisors->pVertexBindingDivisors[i];
        for (size_t b = 0; b < g.vertex_input.bindings.size(); ++b)
          if (g.vertex_input.bindings[b].binding == d.binding) g.vertex_input.divisors[b] = d.divisor;
      }
    }
    g.vertex_input.attributes.assign(vi->pVertexAttributeDescriptions,
                                     vi->pVertexAttributeDescriptions + vi->vertexAttributeDescriptionCount);
  }
  if (const auto* ia = info.pInputAssemblyState; ia != nullptr && vertex_input) {
    g.topology = ia->topology;
    g.primitive_restart = ia->primitiveRestartEnable;
  }
  // Tessellation state is ignored (may be any pointer) without tessellation shaders.
  if (const auto* ts = info.pTessellationState; ts != nullptr && pre_rasterization && out->has_tessellation) {
    g.patch_control_points = ts->patchControlPoints;
    if (const auto* origin = FindInChain<VkPipelineTessellationDomainOriginStateCreateInfo>(
            ts->pNext, VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO))
      g.domain_origin_lower_left = origin->domainOrigin == VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
  }
  // State the spec says to ignore may be any pointer (even garbage): the
  // viewport, multisample, depth/stencil and colour blend state when
  // rasterization is statically discarded, depth/stencil state without a
  // depth or stencil attachment, colour blend state without colour
  // attachments.
  const RasterizerUse use = FindRasterizerUse(info, parts, *out);
  if (const auto* rs = info.pRasterizationState; rs != nullptr && pre_rasterization) {
    raster::RasterizationState& r = g.rasterization;
    r.depth_clamp = rs->depthClampEnable;
    r.discard = rs->rasterizerDiscardEnable;
    r.polygon_mode = rs->polygonMode;
    r.cull_mode = rs->cullMode;
    r.front_face = rs->frontFace;
    r.depth_bias = rs->depthBiasEnable;
    r.depth_bias_constant = rs->depthBiasConstantFactor;
    r.depth_bias_clamp = rs->depthBiasClamp;
    r.depth_bias_slope = rs->depthBiasSlopeFactor;
    r.line_width = rs->lineWidth;
    r.depth_clip = !rs->depthClampEnable;
    if (const auto* clip = FindInChain<VkPipelineRasterizationDepthClipStateCreateInfoEXT>(
            rs->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT)) {
      r.depth_clip = clip->depthClipEnable;
      r.depth_clip_from_clamp = false;
    }
    if (const auto* provoking = FindInChain<VkPipelineRasterizationProvokingVertexStateCreateInfoEXT>(
            rs->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT))
      r.provoking_last = provoking->provokingVertexMode == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
    if (const auto* stream = FindInChain<VkPipelineRasterizationStateStreamCreateInfoEXT>(
            rs->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT))
      r.stream = stream->rasterizationStream;
    if (const auto* line = FindInChain<VkPipelineRasterizationLineStateCreateInfoEXT>(
            rs->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT)) {
      r.line_mode = line->lineRasterizationMode;
      r.line_stipple = line->stippledLineEnable;
      r.stipple_factor = line->lineStippleFactor;
      r.stipple_pattern = line->lineStipplePattern;
    }
  }
  if (const auto* vp = info.pViewportState; vp != nullptr && pre_rasterization && use.rasterizes) {
    // Dynamic viewports and scissors leave their arrays unread.
    auto is_dynamic = [&](VkDynamicState a, VkDynamicState b) {
      return out->dynamic.test(size_t(raster::DynamicStateIndex(a))) ||
             out->dynamic.test(size_t(raster::DynamicStateIndex(b)));
    };
    if (vp->pViewports != nullptr && !is_dynamic(VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT))
      g.viewports.assign(vp->pViewports, vp->pViewports + vp->viewportCount);
    if (vp->pScissors != nullptr && !is_dynamic(VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT))
      g.scissors.assign(vp->pScissors, vp->pScissors + vp->scissorCount);
    if (const auto* control = FindInChain<VkPipelineViewportDepthClipControlCreateInfoEXT>(
            vp->pNext, VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT))
      g.rasterization.negative_one_to_one = control->negativeOneToOne;
  }
  if (const auto* ms = info.pMultisampleState; ms != nullptr && (fragment || fragment_output) && use.rasterizes) {
    raster::MultisampleState& m = g.multisample;
    m.samples = ms->rasterizationSamples;
    m.sample_shading = ms->sampleShadingEnable;
    m.min_sample_shading = ms->minSampleShading;
    if (ms->pSampleMask != nullptr) m.sample_mask = ms->pSampleMask[0];
    m.alpha_to_coverage = ms->alphaToCoverageEnable;
    m.alpha_to_one = ms->alphaToOneEnable;
  }
  if (const auto* ds = info.pDepthStencilState; ds != nullptr && fragment && use.rasterizes && use.depth_stencil) {
    raster::DepthStencilState& d = g.depth_stencil;
    d.depth_test = ds->depthTestEnable;
    d.depth_write = ds->depthWriteEnable;
    d.depth_compare = ds->depthCompareOp;
    d.depth_bounds_test = ds->depthBoundsTestEnable;
    d.min_depth_bounds = ds->minDepthBounds;
    d.max_depth_bounds = ds->maxDepthBounds;
    d.stencil_test = ds->stencilTestEnable;
    d.front = Stencil(ds->front);
    d.back = Stencil(ds->back);
  }
  if (const auto* cb = info.pColorBlendState; cb != nullptr && fragment_output && use.rasterizes && use.colors) {
    raster::ColorBlendState& b = g.blend;
    b.logic_op_enable = cb->logicOpEnable;
    b.logic_op = cb->logicOp;
    // With blend enables, equations and write masks all dynamic the array
    // is ignored (VK_EXT_extended_dynamic_state3); the count still holds.
    const bool all_dynamic = out->dynamic.test(size_t(raster::DynamicStateIndex(VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT))) &&
                             out->dynamic.test(size_t(raster::DynamicStateIndex(VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT))) &&
                             out->dynamic.test(size_t(raster::DynamicStateIndex(VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT)));
    if (cb->pAttachments != nullptr && !all_dynamic)
      b.attachments.assign(cb->pAttachments, cb->pAttachments + cb->attachmentCount);
    else
      b.attachments.assign(cb->attachmentCount, VkPipelineColorBlendAttachmentState{});
    for (int i = 0; i < 4; ++i) b.blend_constants[i] = cb->blendConstants[i];
    if (const auto* write = FindInChain<VkPipelineColorWriteCreateInfoEXT>(
            cb->pNext, VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT);
        write != nullptr && write->pColorWriteEnables != nullptr)
      for (uint32_t i = 0; i < write->attachmentCount && i < 32; ++i)
        if (!write->pColorWriteEnables[i]) b.write_enable &= ~(1u << i);
  }
  return VK_SUCCESS;
}

VkResult CreateGraphicsPipeline(const Device& device, const VkGraphicsPipelineCreateInfo& info, PipelineCache* cache,
                                const VkAllocationCallbacks* allocator,
                                Pipeline** out) {
  auto* pipeline = HostNew<Pipeline>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (pipeline == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  pipeline->bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
  raster::GraphicsPipelineState& g = pipeline->graphics;
  g.state.depth_unrestricted = device.IsEnabled(dispatch::Extension::EXT_depth_range_unrestricted);
  PipelineFeedback feedback(info.pNext, info.stageCount);
  const VkGraphicsPipelineLibraryFlagsEXT parts = OwnGraphicsParts(info);
  const bool pre_rasterization = (parts & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT) != 0;
  const bool fragment = (parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT) != 0;
  VkResult result = VK_SUCCESS;
  bool has_tess_control = false, has_tess_evaluation = false;
  // The stages this create info makes (those of parts it does not
  // describe are ignored), found in the caches first.
  struct Stage {
    uint32_t index;
    std::unique_ptr<ShaderStageMaker> maker;
    bool found = false, app_hit = false;
    uint64_t nanoseconds = 0;
  };
  std::vector<Stage> stages;
  for (uint32_t i = 0; i < info.stageCount && result == VK_SUCCESS; ++i) {
    const VkPipelineShaderStageCreateInfo& stage = info.pStages[i];
    if (stage.stage == VK_SHADER_STAGE_FRAGMENT_BIT ? !fragment : !pre_rasterization) {
      feedback.SetStage(i, 0, false);
      continue;
    }
    spirv_exec::Program* program = nullptr;
    spirv_exec::ShaderStage kind{};
    if (stage.stage == VK_SHADER_STAGE_VERTEX_BIT) {
      program = &g.vertex, kind = spirv_exec::ShaderStage::kVertex;
      g.has_vertex = true;
    } else if (stage.stage == VK_SHADER_STAGE_GEOMETRY_BIT) {
      program = &g.geometry, kind = spirv_exec::ShaderStage::kGeometry;
      g.has_geometry = true;
    } else if (stage.stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT) {
      program = &g.tess_control, kind = spirv_exec::ShaderStage::kTessControl;
      has_tess_control = true;
    } else if (stage.stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT) {
      program = &g.tess_evaluation, kind = spirv_exec::ShaderStage::kTessEvaluation;
      has_tess_evaluation = true;
    } else if (stage.stage == VK_SHADER_STAGE_FRAGMENT_BIT) {
      program = &g.fragment, kind = spirv_exec::ShaderStage::kFragment;
      g.has_fragment = true;
    } else {
      DUET_ERROR("vkCreateGraphicsPipelines: shader stage 0x%x is not supported", stage.stage);
      result = VK_ERROR_UNKNOWN;
      break;
    }
    Stage& s = stages.emplace_back();
    s.index = i;
    s.maker = std::make_unique<ShaderStageMaker>(device, stage, kind, cache, "vkCreateGraphicsPipelines", program);
    const auto start = std::chrono::steady_clock::now();
    result = s.maker->Find(&s.found, &s.app_hit);
    s.nanoseconds = Nanoseconds(std::chrono::steady_clock::now() - start);
  }
  // What no cache holds is compiled, each stage on a thread of its own
  // (the first on this one): a pipeline takes the time of its longest stage.
  std::vector<Stage*> misses;
  for (Stage& s : stages)
    if (!s.found) misses.push_back(&s);
  if (result == VK_SUCCESS && !misses.empty() &&
      (info.flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) != 0)
    result = VK_PIPELINE_COMPILE_REQUIRED;
  if (result == VK_SUCCESS && !misses.empty()) {
    auto compile = [](Stage* s) {
      const auto start = std::chrono::steady_clock::now();
      const VkResult r = s->maker->Compile();
      s->nanoseconds += Nanoseconds(std::chrono::steady_clock::now() - start);
      return r;
    };
    std::vector<std::future<VkResult>> others;
    for (size_t k = 1; k < misses.size(); ++k) others.push_back(std::async(std::launch::async, compile, misses[k]));
    result = compile(misses[0]);
    for (std::future<VkResult>& f : others) {
      const VkResult r = f.get();
      if (result == VK_SUCCESS) result = r;
    }
  }
  if (result == VK_SUCCESS)
    for (const Stage& s : stages) feedback.SetStage(s.index, s.nanoseconds, s.app_hit);
  uint32_t app_hits = 0;
  for (const Stage& s : stages) app_hits += s.app_hit ? 1 : 0;
  const uint32_t made_stages = uint32_t(stages.size());
  if (result == VK_SUCCESS && pre_rasterization && (!g.has_vertex || has_tess_control != has_tess_evaluation))
    result = VK_ERROR_UNKNOWN;
  if (result == VK_SUCCESS && has_tess_control) {
    g.has_tessellation = true;
    g.tessellation = spirv_exec::MergeTessellationModes(g.tess_evaluation.tessellation, g.tess_control.tessellation);
    if (g.tessellation.domain == spirv_exec::TessellationModes::Domain::kNone) {
      DUET_ERROR("vkCreateGraphicsPipelines: no tessellation domain (Triangles, Quads or Isolines)");
      result = VK_ERROR_UNKNOWN;
    }
    // (Either shader may give the output patch size.)
    if (g.tessellation.output_vertices == 0 || g.tessellation.output_vertices > 32) {
      DUET_ERROR("vkCreateGraphicsPipelines: no OutputVertices in 1..32 in the tessellation shaders");
      result = VK_ERROR_UNKNOWN;
    }
    if (g.tessellation.spacing == spirv_exec::TessellationModes::Spacing::kNone)
      g.tessellation.spacing = spirv_exec::TessellationModes::Spacing::kEqual;
  }
  if (result == VK_SUCCESS) result = FillState(info, parts, &g);
  // The parts of the libraries it links.
  VkGraphicsPipelineLibraryFlagsEXT all_parts = parts;
  if (const auto* linked = FindInChain<VkPipelineLibraryCreateInfoKHR>(
          info.pNext, VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
      linked != nullptr && result == VK_SUCCESS) {
    for (uint32_t i = 0; i < linked->libraryCount; ++i) {
      const Pipeline* library = FromHandle<Pipeline>(linked->pLibraries[i]);
      if (library == nullptr || library->bind_point != VK_PIPELINE_BIND_POINT_GRAPHICS) continue;
      CopyGraphicsParts(library->graphics, library->library_parts & ~all_parts, &g);
      all_parts |= library->library_parts;
    }
  }
  pipeline->library = (info.flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) != 0;
  pipeline->library_parts = all_parts;
  // A pipeline to bind needs vertices to draw.
  if (result == VK_SUCCESS && !pipeline->library && !g.has_vertex) {
    DUET_ERROR("vkCreateGraphicsPipelines: no vertex shader (no pre-rasterization part)");
    result = VK_ERROR_UNKNOWN;
  }
  if (result != VK_SUCCESS) {
    HostDelete(allocator, pipeline);
    return result;
  }
  ReportPipelineCode(pipeline, allocator);
  feedback.Finish(made_stages > 0 && app_hits == made_stages);
  *out = pipeline;
  return VK_SUCCESS;
}

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(VkDevice _device, VkPipelineCache pipelineCache,
                                                       uint32_t createInfoCount,
                                                       const VkGraphicsPipelineCreateInfo* pCreateInfos,
                                                       const VkAllocationCallbacks* pAllocator,
                                                       VkPipeline* pPipelines) {
  Device* device = FromHandle<Device>(_device);
  PipelineCache* cache = FromHandle<PipelineCache>(pipelineCache);
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  return CreateEachPipeline(createInfoCount, pCreateInfos, pPipelines,
                            [&](const VkGraphicsPipelineCreateInfo& info, Pipeline** pipeline) {
                              return CreateGraphicsPipeline(*device, info, cache, allocator, pipeline);
                            });
}

}  // namespace duet::api

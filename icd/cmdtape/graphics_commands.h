// Replay of the commands that set draw state: vertex and index buffers and
// every dynamic state of Vulkan 1.0, extended dynamic state 1 and 2, vertex
// input, colour write enables and the supported part of extended dynamic
// state 3.
// Each overload writes the value into DrawBindings and marks it set.
#pragma once

#include <algorithm>

#include "cmdtape/tape_records.h"
#include "objects/buffer.h"
#include "raster/draw.h"

namespace duet::cmdtape {

namespace detail {
inline void Mark(raster::DrawBindings& b, VkDynamicState s) {
  const int i = raster::DynamicStateIndex(s);
  if (i >= 0) b.dynamic_set.set(size_t(i));
}
template <typename F>
void ForFaces(VkStencilFaceFlags faces, raster::DrawBindings& b, F f) {
  if (faces & VK_STENCIL_FACE_FRONT_BIT) f(b.dynamic.depth_stencil.front);
  if (faces & VK_STENCIL_FACE_BACK_BIT) f(b.dynamic.depth_stencil.back);
}
}  // namespace detail

inline void ApplyDrawState(const CmdBindVertexBuffersRecord& r, raster::DrawBindings& b) {
  for (uint32_t i = 0; i < r.bindingCount && r.firstBinding + i < raster::kMaxVertexBindings; ++i)
    b.vertex_buffers[r.firstBinding + i] = {FromHandle<Buffer>(r.pBuffers[i]), r.pOffsets[i], 0, false};
}
inline void ApplyDrawState(const CmdBindVertexBuffers2Record& r, raster::DrawBindings& b) {
  for (uint32_t i = 0; i < r.bindingCount && r.firstBinding + i < raster::kMaxVertexBindings; ++i)
    b.vertex_buffers[r.firstBinding + i] = {FromHandle<Buffer>(r.pBuffers[i]), r.pOffsets[i],
                                            r.pStrides != nullptr ? r.pStrides[i] : 0, r.pStrides != nullptr};
}
inline void ApplyDrawState(const CmdBindIndexBufferRecord& r, raster::DrawBindings& b) {
  b.index_buffer = FromHandle<Buffer>(r.buffer);
  b.index_offset = r.offset;
  b.index_type = r.indexType;
}
inline void ApplyDrawState(const CmdSetViewportRecord& r, raster::DrawBindings& b) {
  auto& v = b.dynamic.viewports;
  if (v.size() < r.firstViewport + r.viewportCount) v.resize(r.firstViewport + r.viewportCount);
  std::copy_n(r.pViewports, r.viewportCount, v.begin() + r.firstViewport);
  detail::Mark(b, VK_DYNAMIC_STATE_VIEWPORT);
}
inline void ApplyDrawState(const CmdSetViewportWithCountRecord& r, raster::DrawBindings& b) {
  b.dynamic.viewports.assign(r.pViewports, r.pViewports + r.viewportCount);
  detail::Mark(b, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT);
}
inline void ApplyDrawState(const CmdSetScissorRecord& r, raster::DrawBindings& b) {
  auto& s = b.dynamic.scissors;
  if (s.size() < r.firstScissor + r.scissorCount) s.resize(r.firstScissor + r.scissorCount);
  std::copy_n(r.pScissors, r.scissorCount, s.begin() + r.firstScissor);
  detail::Mark(b, VK_DYNAMIC_STATE_SCISSOR);
}
inline void ApplyDrawState(const CmdSetScissorWithCountRecord& r, raster::DrawBindings& b) {
  b.dynamic.scissors.assign(r.pScissors, r.pScissors + r.scissorCount);
  detail::Mark(b, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT);
}
inline void ApplyDrawState(const CmdSetLineWidthRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.line_width = r.lineWidth;
  detail::Mark(b, VK_DYNAMIC_STATE_LINE_WIDTH);
}
inline void ApplyDrawState(const CmdSetDepthBiasRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.depth_bias_constant = r.depthBiasConstantFactor;
  b.dynamic.rasterization.depth_bias_clamp = r.depthBiasClamp;
  b.dynamic.rasterization.depth_bias_slope = r.depthBiasSlopeFactor;
  detail::Mark(b, VK_DYNAMIC_STATE_DEPTH_BIAS);
}
inline void ApplyDrawState(const CmdSetBlendConstantsRecord& r, raster::DrawBindings& b) {
  std::copy_n(r.blendConstants, 4, b.dynamic.blend.blend_constants);
  detail::Mark(b, VK_DYNAMIC_STATE_BLEND_CONSTANTS);
}
inline void ApplyDrawState(const CmdSetDepthBoundsRecord& r, raster::DrawBindings& b) {
  b.dynamic.depth_stencil.min_depth_bounds = r.minDepthBounds;
  b.dynamic.depth_stencil.max_depth_bounds = r.maxDepthBounds;
  detail::Mark(b, VK_DYNAMIC_STATE_DEPTH_BOUNDS);
}
inline void ApplyDrawState(const CmdSetStencilCompareMaskRecord& r, raster::DrawBindings& b) {
  detail::ForFaces(r.faceMask, b, [&](raster::StencilFaceState& f) { f.compare_mask = r.compareMask; });
  detail::Mark(b, VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK);
}
inline void ApplyDrawState(const CmdSetStencilWriteMaskRecord& r, raster::DrawBindings& b) {
  detail::ForFaces(r.faceMask, b, [&](raster::StencilFaceState& f) { f.write_mask = r.writeMask; });
  detail::Mark(b, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK);
}
inline void ApplyDrawState(const CmdSetStencilReferenceRecord& r, raster::DrawBindings& b) {
  detail::ForFaces(r.faceMask, b, [&](raster::StencilFaceState& f) { f.reference = r.reference; });
  detail::Mark(b, VK_DYNAMIC_STATE_STENCIL_REFERENCE);
}
inline void ApplyDrawState(const CmdSetStencilOpRecord& r, raster::DrawBindings& b) {
  detail::ForFaces(r.faceMask, b, [&](raster::StencilFaceState& f) {
    f.fail = r.failOp;
    f.pass = r.passOp;
    f.depth_fail = r.depthFailOp;
    f.compare = r.compareOp;
  });
  detail::Mark(b, VK_DYNAMIC_STATE_STENCIL_OP);
}
inline void ApplyDrawState(const CmdSetCullModeRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.cull_mode = r.cullMode;
  detail::Mark(b, VK_DYNAMIC_STATE_CULL_MODE);
}
inline void ApplyDrawState(const CmdSetFrontFaceRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.front_face = r.frontFace;
  detail::Mark(b, VK_DYNAMIC_STATE_FRONT_FACE);
}
inline void ApplyDrawState(const CmdSetPrimitiveTopologyRecord& r, raster::DrawBindings& b) {
  b.dynamic.topology = r.primitiveTopology;
  detail::Mark(b, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY);
}
inline void ApplyDrawState(const CmdSetDepthTestEnableRecord& r, raster::DrawBindings& b) {
  b.dynamic.depth_stencil.depth_test = r.depthTestEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE);
}
inline void ApplyDrawState(const CmdSetDepthWriteEnableRecord& r, raster::DrawBindings& b) {
  b.dynamic.depth_stencil.depth_write = r.depthWriteEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE);
}
inline void ApplyDrawState(const CmdSetDepthCompareOpRecord& r, raster::DrawBindings& b) {
  b.dynamic.depth_stencil.depth_compare = r.depthCompareOp;
  detail::Mark(b, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP);
}
inline void ApplyDrawState(const CmdSetDepthBoundsTestEnableRecord& r, raster::DrawBindings& b) {
  b.dynamic.depth_stencil.depth_bounds_test = r.depthBoundsTestEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE);
}
inline void ApplyDrawState(const CmdSetStencilTestEnableRecord& r, raster::DrawBindings& b) {
  b.dynamic.depth_stencil.stencil_test = r.stencilTestEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE);
}
inline void ApplyDrawState(const CmdSetRasterizerDiscardEnableRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.discard = r.rasterizerDiscardEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE);
}
inline void ApplyDrawState(const CmdSetDepthBiasEnableRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.depth_bias = r.depthBiasEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE);
}
inline void ApplyDrawState(const CmdSetPrimitiveRestartEnableRecord& r, raster::DrawBindings& b) {
  b.dynamic.primitive_restart = r.primitiveRestartEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE);
}
inline void ApplyDrawState(const CmdSetLogicOpEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.blend.logic_op = r.logicOp;
  detail::Mark(b, VK_DYNAMIC_STATE_LOGIC_OP_EXT);
}
// VK_EXT_vertex_input_dynamic_state: the bindings (with their divisors) and attributes.
inline void ApplyDrawState(const CmdSetVertexInputEXTRecord& r, raster::DrawBindings& b) {
  raster::VertexInputState& v = b.dynamic.vertex_input;
  v.bindings.clear();
  v.divisors.clear();
  v.attributes.clear();
  for (uint32_t i = 0; i < r.vertexBindingDescriptionCount; ++i) {
    const VkVertexInputBindingDescription2EXT& d = r.pVertexBindingDescriptions[i];
    v.bindings.push_back({d.binding, d.stride, d.inputRate});
    v.divisors.push_back(d.divisor);
  }
  for (uint32_t i = 0; i < r.vertexAttributeDescriptionCount; ++i) {
    const VkVertexInputAttributeDescription2EXT& a = r.pVertexAttributeDescriptions[i];
    v.attributes.push_back({a.location, a.binding, a.format, a.offset});
  }
  detail::Mark(b, VK_DYNAMIC_STATE_VERTEX_INPUT_EXT);
}
inline void ApplyDrawState(const CmdSetColorWriteEnableEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.blend.write_enable = ~0u;
  for (uint32_t i = 0; i < r.attachmentCount && i < 32 && r.pColorWriteEnables != nullptr; ++i)
    if (!r.pColorWriteEnables[i]) b.dynamic.blend.write_enable &= ~(1u << i);
  detail::Mark(b, VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT);
}

// VK_EXT_extended_dynamic_state3.
inline void ApplyDrawState(const CmdSetDepthClampEnableEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.depth_clamp = r.depthClampEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT);
}
inline void ApplyDrawState(const CmdSetDepthClipEnableEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.depth_clip = r.depthClipEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT);
}
inline void ApplyDrawState(const CmdSetPolygonModeEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.polygon_mode = r.polygonMode;
  detail::Mark(b, VK_DYNAMIC_STATE_POLYGON_MODE_EXT);
}
inline void ApplyDrawState(const CmdSetProvokingVertexModeEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.provoking_last = r.provokingVertexMode == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
  detail::Mark(b, VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT);
}
inline void ApplyDrawState(const CmdSetDepthClipNegativeOneToOneEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.negative_one_to_one = r.negativeOneToOne;
  detail::Mark(b, VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT);
}
inline void ApplyDrawState(const CmdSetRasterizationStreamEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.stream = r.rasterizationStream;
  detail::Mark(b, VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT);
}
inline void ApplyDrawState(const CmdSetRasterizationSamplesEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.multisample.samples = r.rasterizationSamples;
  detail::Mark(b, VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT);
}
inline void ApplyDrawState(const CmdSetLineStippleEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.stipple_factor = r.lineStippleFactor;
  b.dynamic.rasterization.stipple_pattern = r.lineStipplePattern;
  detail::Mark(b, VK_DYNAMIC_STATE_LINE_STIPPLE_EXT);
}
inline void ApplyDrawState(const CmdSetLineRasterizationModeEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.line_mode = r.lineRasterizationMode;
  detail::Mark(b, VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT);
}
inline void ApplyDrawState(const CmdSetLineStippleEnableEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.rasterization.line_stipple = r.stippledLineEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT);
}
inline void ApplyDrawState(const CmdSetPatchControlPointsEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.patch_control_points = r.patchControlPoints;
  detail::Mark(b, VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT);
}
inline void ApplyDrawState(const CmdSetTessellationDomainOriginEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.domain_origin_lower_left = r.domainOrigin == VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
  detail::Mark(b, VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT);
}
inline void ApplyDrawState(const CmdSetSampleMaskEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.multisample.sample_mask = r.pSampleMask != nullptr ? r.pSampleMask[0] : ~0u;
  detail::Mark(b, VK_DYNAMIC_STATE_SAMPLE_MASK_EXT);
}
inline void ApplyDrawState(const CmdSetAlphaToCoverageEnableEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.multisample.alpha_to_coverage = r.alphaToCoverageEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT);
}
inline void ApplyDrawState(const CmdSetAlphaToOneEnableEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.multisample.alpha_to_one = r.alphaToOneEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT);
}
inline void ApplyDrawState(const CmdSetLogicOpEnableEXTRecord& r, raster::DrawBindings& b) {
  b.dynamic.blend.logic_op_enable = r.logicOpEnable;
  detail::Mark(b, VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT);
}
namespace detail {
// The dynamic blend state of attachments [first, first + count), grown to hold them.
template <typename F>
void ForAttachments(raster::DrawBindings& b, uint32_t first, uint32_t count, F f) {
  auto& a = b.dynamic.blend.attachments;
  if (first > raster::kMaxColorAttachments || count > raster::kMaxColorAttachments - first) return;
  if (a.size() < first + count) a.resize(first + count);
  for (uint32_t i = 0; i < count; ++i) f(a[first + i], i);
}
}  // namespace detail
inline void ApplyDrawState(const CmdSetColorBlendEnableEXTRecord& r, raster::DrawBindings& b) {
  if (r.pColorBlendEnables == nullptr) return;
  detail::ForAttachments(b, r.firstAttachment, r.attachmentCount,
                         [&](VkPipelineColorBlendAttachmentState& a, uint32_t i) { a.blendEnable = r.pColorBlendEnables[i]; });
  detail::Mark(b, VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT);
}
inline void ApplyDrawState(const CmdSetColorBlendEquationEXTRecord& r, raster::DrawBindings& b) {
  if (r.pColorBlendEquations == nullptr) return;
  detail::ForAttachments(b, r.firstAttachment, r.attachmentCount, [&](VkPipelineColorBlendAttachmentState& a, uint32_t i) {
    const VkColorBlendEquationEXT& e = r.pColorBlendEquations[i];
    a.srcColorBlendFactor = e.srcColorBlendFactor;
    a.dstColorBlendFactor = e.dstColorBlendFactor;
    a.colorBlendOp = e.colorBlendOp;
    a.srcAlphaBlendFactor = e.srcAlphaBlendFactor;
    a.dstAlphaBlendFactor = e.dstAlphaBlendFactor;
    a.alphaBlendOp = e.alphaBlendOp;
  });
  detail::Mark(b, VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT);
}
inline void ApplyDrawState(const CmdSetColorWriteMaskEXTRecord& r, raster::DrawBindings& b) {
  if (r.pColorWriteMasks == nullptr) return;
  detail::ForAttachments(b, r.firstAttachment, r.attachmentCount,
                         [&](VkPipelineColorBlendAttachmentState& a, uint32_t i) { a.colorWriteMask = r.pColorWriteMasks[i]; });
  detail::Mark(b, VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT);
}

}  // namespace duet::cmdtape

// ExecuteDraw: resolve state, then for each instance shade vertices,
// set up triangles and rasterize them.
#include "raster/draw.h"

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "objects/buffer.h"
#include "objects/image.h"
#include "objects/pipeline.h"
#include "raster/deferred_clear.h"
#include "raster/fragment_output.h"
#include "primitive/geometry_stage.h"
#include "primitive/tessellation_stage.h"
#include "primitive/input_assembly.h"
#include "primitive/primitive_setup.h"
#include "primitive/transform_feedback.h"
#include "raster/tile_raster.h"
#include "primitive/vertex_stage.h"
#include "spirv_exec/resource_roots.h"
#include "util/log.h"
#include "util/thread_pool.h"
#include "util/thread_scratch.h"

namespace duet::raster {
namespace {

// The pipeline's state with the command buffer's dynamic values applied.
GraphicsState EffectiveState(const GraphicsPipelineState& pipeline, const DrawBindings& b) {
  GraphicsState s = pipeline.state;
  const GraphicsState& d = b.dynamic;
  auto dynamic = [&](VkDynamicState state) {
    const int i = DynamicStateIndex(state);
    return i >= 0 && pipeline.dynamic[size_t(i)] && b.dynamic_set[size_t(i)];
  };
  if (dynamic(VK_DYNAMIC_STATE_VIEWPORT) || dynamic(VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT)) s.viewports = d.viewports;
  if (dynamic(VK_DYNAMIC_STATE_SCISSOR) || dynamic(VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT)) s.scissors = d.scissors;
  if (dynamic(VK_DYNAMIC_STATE_LINE_WIDTH)) s.rasterization.line_width = d.rasterization.line_width;
  if (dynamic(VK_DYNAMIC_STATE_DEPTH_BIAS)) {
    s.rasterization.depth_bias_constant = d.rasterization.depth_bias_constant;
    s.rasterization.depth_bias_clamp = d.rasterization.depth_bias_clamp;
    s.rasterization.depth_bias_slope = d.rasterization.depth_bias_slope;
  }
  if (dynamic(VK_DYNAMIC_STATE_BLEND_CONSTANTS)) std::memcpy(s.blend.blend_constants, d.blend.blend_constants, 16);
  if (dynamic(VK_DYNAMIC_STATE_DEPTH_BOUNDS)) {
    s.depth_stencil.min_depth_bounds = d.depth_stencil.min_depth_bounds;
    s.depth_stencil.max_depth_bounds = d.depth_stencil.max_depth_bounds;
  }
  if (dynamic(VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK)) {
    s.depth_stencil.front.compare_mask = d.depth_stencil.front.compare_mask;
    s.depth_stencil.back.compare_mask = d.depth_stencil.back.compare_mask;
  }
  if (dynamic(VK_DYNAMIC_STATE_STENCIL_WRITE_MASK)) {
    s.depth_stencil.front.write_mask = d.depth_stencil.front.write_mask;
    s.depth_stencil.back.write_mask = d.depth_stencil.back.write_mask;
  }
  if (dynamic(VK_DYNAMIC_STATE_STENCIL_REFERENCE)) {
    s.depth_stencil.front.reference = d.depth_stencil.front.reference;
    s.depth_stencil.back.reference = d.depth_stencil.back.reference;
  }
  if (dynamic(VK_DYNAMIC_STATE_CULL_MODE)) s.rasterization.cull_mode = d.rasterization.cull_mode;
  if (dynamic(VK_DYNAMIC_STATE_FRONT_FACE)) s.rasterization.front_face = d.rasterization.front_face;
  if (dynamic(VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY)) s.topology = d.topology;
  if (dynamic(VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE)) s.depth_stencil.depth_test = d.depth_stencil.depth_test;
  if (dynamic(VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE)) s.depth_stencil.depth_write = d.depth_stencil.depth_write;
  if (dynamic(VK_DYNAMIC_STATE_DEPTH_COMPARE_OP)) s.depth_stencil.depth_compare = d.depth_stencil.depth_compare;
  if (dynamic(VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE))
    s.depth_stencil.depth_bounds_test = d.depth_stencil.depth_bounds_test;
  if (dynamic(VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE)) s.depth_stencil.stencil_test = d.depth_stencil.stencil_test;
  if (dynamic(VK_DYNAMIC_STATE_STENCIL_OP)) {
    auto ops = [](StencilFaceState& to, const StencilFaceState& from) {
      to.fail = from.fail;
      to.pass = from.pass;
      to.depth_fail = from.depth_fail;
      to.compare = from.compare;
    };
    ops(s.depth_stencil.front, d.depth_stencil.front);
    ops(s.depth_stencil.back, d.depth_stencil.back);
  }
  if (dynamic(VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE)) s.rasterization.discard = d.rasterization.discard;
  if (dynamic(VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE)) s.rasterization.depth_bias = d.rasterization.depth_bias;
  if (dynamic(VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE)) s.primitive_restart = d.primitive_restart;
  if (dynamic(VK_DYNAMIC_STATE_LOGIC_OP_EXT)) s.blend.logic_op = d.blend.logic_op;
  if (dynamic(VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT)) s.blend.write_enable = d.blend.write_enable;
  if (dynamic(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT)) s.vertex_input = d.vertex_input;
  // VK_EXT_extended_dynamic_state3.
  if (dynamic(VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT)) {
    s.rasterization.depth_clamp = d.rasterization.depth_clamp;
    if (s.rasterization.depth_clip_from_clamp) s.rasterization.depth_clip = !s.rasterization.depth_clamp;
  }
  if (dynamic(VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT)) s.rasterization.depth_clip = d.rasterization.depth_clip;
  if (dynamic(VK_DYNAMIC_STATE_POLYGON_MODE_EXT)) s.rasterization.polygon_mode = d.rasterization.polygon_mode;
  if (dynamic(VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT))
    s.rasterization.provoking_last = d.rasterization.provoking_last;
  if (dynamic(VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT))
    s.rasterization.negative_one_to_one = d.rasterization.negative_one_to_one;
  if (dynamic(VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT)) s.rasterization.stream = d.rasterization.stream;
  if (dynamic(VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT))
    s.domain_origin_lower_left = d.domain_origin_lower_left;
  if (dynamic(VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT)) s.patch_control_points = d.patch_control_points;
  if (dynamic(VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT)) s.rasterization.line_mode = d.rasterization.line_mode;
  if (dynamic(VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT)) s.rasterization.line_stipple = d.rasterization.line_stipple;
  // (The attachments' sample count is the one rasterized; this must match it.)
  if (dynamic(VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT)) s.multisample.samples = d.multisample.samples;
  if (dynamic(VK_DYNAMIC_STATE_LINE_STIPPLE_EXT)) {
    s.rasterization.stipple_factor = d.rasterization.stipple_factor;
    s.rasterization.stipple_pattern = d.rasterization.stipple_pattern;
  }
  if (dynamic(VK_DYNAMIC_STATE_SAMPLE_MASK_EXT)) s.multisample.sample_mask = d.multisample.sample_mask;
  if (dynamic(VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT))
    s.multisample.alpha_to_coverage = d.multisample.alpha_to_coverage;
  if (dynamic(VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT)) s.multisample.alpha_to_one = d.multisample.alpha_to_one;
  if (dynamic(VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT)) s.blend.logic_op_enable = d.blend.logic_op_enable;
  // Per attachment, what vkCmdSetColorBlend*EXT / vkCmdSetColorWriteMaskEXT set.
  const bool blend_enable = dynamic(VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT);
  const bool equation = dynamic(VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT);
  const bool write_mask = dynamic(VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT);
  // (A pipeline whose blend state is all dynamic may have no colour blend state.)
  if ((blend_enable || equation || write_mask) && s.blend.attachments.size() < d.blend.attachments.size()) {
    VkPipelineColorBlendAttachmentState all{};
    all.colorWriteMask = 0xF;
    s.blend.attachments.resize(d.blend.attachments.size(), all);
  }
  for (size_t i = 0; i < s.blend.attachments.size() && i < d.blend.attachments.size(); ++i) {
    VkPipelineColorBlendAttachmentState& to = s.blend.attachments[i];
    const VkPipelineColorBlendAttachmentState& from = d.blend.attachments[i];
    if (blend_enable) to.blendEnable = from.blendEnable;
    if (write_mask) to.colorWriteMask = from.colorWriteMask;
    if (equation) {
      to.srcColorBlendFactor = from.srcColorBlendFactor;
      to.dstColorBlendFactor = from.dstColorBlendFactor;
      to.colorBlendOp = from.colorBlendOp;
      to.srcAlphaBlendFactor = from.srcAlphaBlendFactor;
      to.dstAlphaBlendFactor = from.dstAlphaBlendFactor;
      to.alphaBlendOp = from.alphaBlendOp;
    }
  }
  const int stride_index = DynamicStateIndex(VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE);
  s.vertex_input.dynamic_strides = pipeline.dynamic[size_t(stride_index)];
  return s;
}

// The vertex index of each element of the draw, and whether it is a
// primitive restart (kept apart: with fullDrawIndexUint32 every 32-bit
// vertex index is a vertex). Returns whether any element is a restart.
bool DrawIndices(const DrawBindings& b, const GraphicsState& s, const DrawCall& draw, std::vector<uint32_t>* out,
                 std::vector<uint8_t>* restarts) {
  std::vector<uint32_t>& ids = *out;
  ids.resize(draw.count);
  if (!draw.indexed) {
    for (uint32_t i = 0; i < draw.count; ++i) ids[i] = draw.first + i;
    return false;
  }
  const uint32_t size = b.index_type == VK_INDEX_TYPE_UINT16 ? 2 : b.index_type == VK_INDEX_TYPE_UINT8_EXT ? 1 : 4;
  const uint32_t restart = size == 2 ? 0xFFFF : size == 1 ? 0xFF : 0xFFFFFFFF;
  const std::byte* data = b.index_buffer != nullptr ? b.index_buffer->Data() : nullptr;
  const VkDeviceSize limit = b.index_buffer != nullptr ? b.index_buffer->size : 0;
  restarts->assign(draw.count, 0);
  bool any_restart = false;
  for (uint32_t i = 0; i < draw.count; ++i) {
    const VkDeviceSize at = b.index_offset + VkDeviceSize(draw.first + i) * size;
    uint32_t index = 0;  // robust buffer access: indices past the buffer read 0
    if (data != nullptr && at + size <= limit) std::memcpy(&index, data + at, size);
    const bool is_restart = s.primitive_restart && index == restart;
    (*restarts)[i] = is_restart;
    any_restart |= is_restart;
    ids[i] = uint32_t(int64_t(index) + draw.vertex_offset);
  }
  return any_restart;
}

// What a draw builds, kept by each replaying thread from draw to draw: a
// draw of many vertices would otherwise map fresh pages for it every time
// (large allocations come from mmap) and fault them in.
struct DrawScratch {
  std::vector<uint32_t> ids, unique, slots;
  std::vector<uint8_t> restarts;
  ShadedVertices vertices;
  std::vector<uint32_t> geometry_primitives;
  GeometryOutput geometry;
  TessellationOutput tessellation;
  TriangleSetup setup;
};

// Whether shaders with these resources may read memory a deferred clear has
// not written yet: one of its images bound, descriptor arrays (not looked
// into), or input attachments.
bool ReadsAttachments(const RenderTargets& targets, const spirv_exec::ShaderResources& resources) {
  if (!targets.inputs.empty() || resources.tables != nullptr) return true;
  for (const spirv_exec::ImageBinding& binding : resources.images)
    if (binding.view != nullptr && targets.deferred->Writes(binding.view->image)) return true;
  return false;
}

VkRect2D ScissorInRenderArea(const VkRect2D& scissor, const VkRect2D& area) {
  const int64_t x0 = std::max(scissor.offset.x, area.offset.x);
  const int64_t y0 = std::max(scissor.offset.y, area.offset.y);
  const int64_t x1 = std::min<int64_t>(int64_t(scissor.offset.x) + scissor.extent.width,
                                       int64_t(area.offset.x) + area.extent.width);
  const int64_t y1 = std::min<int64_t>(int64_t(scissor.offset.y) + scissor.extent.height,
                                       int64_t(area.offset.y) + area.extent.height);
  if (x1 <= x0 || y1 <= y0) return {{int32_t(x0), int32_t(y0)}, {0, 0}};
  return {{int32_t(x0), int32_t(y0)}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
}

// Depth clamping clamps to the primitive's viewport's depth range.
void SetDepthRange(const VkViewport& viewport, const GraphicsState& state, OutputTargets* outputs) {
  outputs->depth_clamp = state.rasterization.depth_clamp;
  outputs->min_depth = std::min(viewport.minDepth, viewport.maxDepth);
  outputs->max_depth = std::max(viewport.minDepth, viewport.maxDepth);
}

// Primitives that chose their layer or viewport (ViewportIndex, Layer):
// rasterized in primitive order, one run of consecutive primitives with the
// same (layer, viewport) at a time (overlapping viewports keep the API's
// order), each into its layer with its viewport's depth range, the fragment
// shader seeing both. Layers outside the framebuffer's are not drawn (their
// contents are undefined).
void RasterizeGroups(const RenderTargets& targets, const GraphicsState& state,
                     std::span<const SetupParameters> viewports, uint32_t view_layer, TriangleSetup* setup,
                     FragmentStage* fragment, uint64_t* samples_passed, uint64_t* invocations) {
  const bool multiview = targets.view_mask != 0;  // the view picks the layer; Layer is ignored
  const std::vector<Triangle>& all = setup->triangles;
  TriangleSetup run;
  run.varying_floats = setup->varying_floats;
  run.varyings.swap(setup->varyings);  // the triangles' offsets stay valid
  for (size_t begin = 0, end = 0; begin < all.size(); begin = end) {
    const uint32_t layer = all[begin].layer, viewport = all[begin].viewport;
    while (end < all.size() && all[end].layer == layer && all[end].viewport == viewport) ++end;
    const uint32_t target_layer = multiview ? view_layer : layer;
    if (target_layer >= targets.layer_count) continue;
    run.triangles.assign(all.begin() + ptrdiff_t(begin), all.begin() + ptrdiff_t(end));
    OutputTargets outputs = ResolveOutputs(targets, state, target_layer);
    SetDepthRange(viewports[viewport].viewport, state, &outputs);
    fragment->layer = layer;
    fragment->viewport_index = viewport;
    RasterizeTriangles(run, *fragment, outputs, samples_passed, invocations);
  }
  setup->varyings.swap(run.varyings);
  fragment->layer = fragment->viewport_index = 0;
}

// The primitives each vertex stream of the last pre-rasterization stage
// made: counted by the active queries, captured by active transform
// feedback. A vertex shader has stream 0 only.
void CountAndCapture(const spirv_exec::Program& last, const VaryingLayout& layout, const GraphicsState& state,
                     const GeometryOutput* geometry, const ShadedVertices& vertices, const std::vector<uint32_t>& slots,
                     VkPrimitiveTopology topology, const DrawCounters& counters) {
  for (uint32_t stream = 0; stream < 4; ++stream) {
    StreamPrimitives primitives;
    if (geometry != nullptr)
      primitives = {&geometry->vertices, &geometry->indices[stream], geometry->topology};
    else if (stream == 0)
      primitives = {&vertices, &slots, topology};
    else
      break;
    if (counters.primitives_generated[stream] != nullptr)
      *counters.primitives_generated[stream] += StripPrimitives(primitives.topology, *primitives.indices);
    if (counters.transform_feedback != nullptr)
      CaptureTransformFeedback(last, layout, primitives, stream, state.rasterization.provoking_last,
                               counters.transform_feedback, counters.xfb_written[stream], counters.xfb_needed[stream]);
  }
}

}  // namespace

void ExecuteDraw(Device* device, const DrawBindings& bindings, const RenderTargets& targets, const DrawCall& draw,
                 const DrawCounters& counters) {
  const Pipeline* pipeline = bindings.shader.pipeline;
  if (pipeline == nullptr || pipeline->bind_point != VK_PIPELINE_BIND_POINT_GRAPHICS) {
    DUET_ERROR("draw without a graphics pipeline bound");
    return;
  }
  if (!targets.active) {
    DUET_ERROR("draw outside a render pass");
    return;
  }
  const GraphicsPipelineState& gp = pipeline->graphics;
  const GraphicsState state = EffectiveState(gp, bindings);
  if (draw.count == 0) return;
  // Each viewport's scissor, inside the render area.
  std::vector<VkRect2D> scissors(state.viewports.size());
  bool any_pixel = false;
  for (size_t i = 0; i < scissors.size(); ++i) {
    scissors[i] = ScissorInRenderArea(i < state.scissors.size() ? state.scissors[i] : targets.render_area,
                                      targets.render_area);
    any_pixel |= scissors[i].extent.width != 0 && scissors[i].extent.height != 0;
  }
  // Without rasterization (discarded, no viewport, no pixel of a scissor
  // in the render area) only the vertex shader's stores and atomics remain.
  const bool rasterizes = !state.rasterization.discard && any_pixel;
  // (Pipeline statistics still count the vertices and primitives.)
  const bool geometry = gp.has_geometry;
  const bool tessellation = gp.has_tessellation;
  if (!rasterizes && !gp.vertex.writes_memory && !(geometry && gp.geometry.writes_memory) &&
      !(tessellation && (gp.tess_control.writes_memory || gp.tess_evaluation.writes_memory)) &&
      counters.statistics == nullptr && !counters.CountsStreams() && counters.transform_feedback == nullptr)
    return;
  // The draw's waves (here and on the pool's threads) stop once the device is
  // lost or one of them has looped past the limit.
  const spirv_exec::ShaderWatchdog watchdog = spirv_exec::DeviceWatchdog(device);
  if (watchdog.Stopped()) return;
  const ScopedWorkContext work_context(WorkContext{&watchdog});

  const spirv_exec::ShaderResources vertex_resources = spirv_exec::ResolveResources(gp.vertex, bindings.shader);
  const spirv_exec::ShaderResources fragment_resources =
      gp.has_fragment ? spirv_exec::ResolveResources(gp.fragment, bindings.shader) : spirv_exec::ShaderResources{};
  const spirv_exec::ShaderResources geometry_resources =
      geometry ? spirv_exec::ResolveResources(gp.geometry, bindings.shader) : spirv_exec::ShaderResources{};
  const spirv_exec::ShaderResources control_resources =
      tessellation ? spirv_exec::ResolveResources(gp.tess_control, bindings.shader) : spirv_exec::ShaderResources{};
  const spirv_exec::ShaderResources evaluation_resources =
      tessellation ? spirv_exec::ResolveResources(gp.tess_evaluation, bindings.shader) : spirv_exec::ShaderResources{};
  // What each stage hands the next: the vertex shader the tessellation
  // control or geometry shader, the evaluation shader the geometry shader,
  // and the last of them the rasterizer.
  const spirv_exec::Program& before_geometry = tessellation ? gp.tess_evaluation : gp.vertex;
  const VaryingLayout layout =
      MatchVaryings(geometry ? gp.geometry : before_geometry, gp.has_fragment ? &gp.fragment : nullptr);
  const VaryingLayout geometry_input_layout = geometry ? MatchVaryings(before_geometry, &gp.geometry) : layout;
  const VaryingLayout vertex_layout = tessellation ? MatchVaryings(gp.vertex, &gp.tess_control)
                                      : geometry   ? geometry_input_layout
                                                   : layout;
  if (targets.deferred != nullptr && !targets.deferred->Empty() &&
      (ReadsAttachments(targets, vertex_resources) || ReadsAttachments(targets, fragment_resources) ||
       (geometry && ReadsAttachments(targets, geometry_resources)) ||
       (tessellation &&
        (ReadsAttachments(targets, control_resources) || ReadsAttachments(targets, evaluation_resources)))))
    targets.deferred->Flush();

  SetupParameters params{{}, {}, &state.rasterization,
                         targets.depth.view != nullptr ? targets.depth.view->image->format : VK_FORMAT_UNDEFINED};

  std::vector<bool> flat(layout.floats, false);
  if (gp.has_fragment)
    for (size_t s = 0; s < gp.fragment.inputs.size(); ++s)
      if (gp.fragment.inputs[s].flat || gp.fragment.inputs[s].integer)
        for (uint32_t c = 0; c < layout.varyings[s].count; ++c) flat[layout.varyings[s].offset + c] = true;
  params.flat = &flat;
  params.clip_offset = kVaryingsOffset + layout.clip_offset;
  params.clip_count = layout.clip_count;
  params.cull_offset = kVaryingsOffset + layout.cull_offset;
  params.cull_count = layout.cull_count;
  if (layout.viewport_index_offset != UINT32_MAX) params.viewport_index_at = kVaryingsOffset + layout.viewport_index_offset;
  if (layout.layer_offset != UINT32_MAX) params.layer_at = kVaryingsOffset + layout.layer_offset;
  params.primitive_ids = gp.has_fragment && gp.fragment.BuiltinInput(uint32_t(spv::BuiltIn::PrimitiveId)) != UINT32_MAX;
  if (layout.primitive_id_offset != UINT32_MAX) params.primitive_id_at = kVaryingsOffset + layout.primitive_id_offset;
  std::vector<SetupParameters> viewports(std::max<size_t>(state.viewports.size(), 1), params);
  for (size_t i = 0; i < state.viewports.size(); ++i) {
    viewports[i].viewport = state.viewports[i];
    viewports[i].scissor = scissors[i];
  }
  // Primitives go to several layers or viewports: rasterized in runs.
  const bool grouped = layout.layer_offset != UINT32_MAX || layout.viewport_index_offset != UINT32_MAX;

  DrawScratch& scratch = ThreadScratch<DrawScratch>();
  std::vector<uint32_t>& ids = scratch.ids;
  const bool any_restart = DrawIndices(bindings, state, draw, &ids, &scratch.restarts);
  // Shade each distinct vertex once per instance; primitives refer to slots.
  std::vector<uint32_t>& unique = scratch.unique;
  std::vector<uint32_t>& slots = scratch.slots;
  unique.clear();
  slots.resize(ids.size());
  std::unordered_map<uint32_t, uint32_t> slot_of;
  if (!draw.indexed) {
    unique = ids;  // every vertex is distinct
    for (size_t i = 0; i < ids.size(); ++i) slots[i] = uint32_t(i);
  }
  for (size_t i = 0; i < ids.size() && draw.indexed; ++i) {
    if (any_restart && scratch.restarts[i]) {
      slots[i] = UINT32_MAX;
      continue;
    }
    auto [it, inserted] = slot_of.try_emplace(ids[i], uint32_t(unique.size()));
    if (inserted) unique.push_back(ids[i]);
    slots[i] = it->second;
  }

  PipelineStatistics* statistics = counters.statistics;
  // Per instance and view: vertices are the elements other than restarts.
  const uint64_t assembled =
      statistics == nullptr ? 0
      : state.topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST
          ? PatchPrimitives(slots, state.patch_control_points)
          : StripPrimitives(state.topology, slots);
  const uint64_t elements =
      any_restart ? uint64_t(std::count_if(slots.begin(), slots.end(), [](uint32_t s) { return s != UINT32_MAX; }))
                  : slots.size();

  FragmentStage fragment;
  fragment.program = gp.has_fragment ? &gp.fragment : nullptr;
  fragment.resources = &fragment_resources;
  fragment.layout = &layout;
  if (state.multisample.sample_shading) fragment.min_sample_shading = state.multisample.min_sample_shading;
  // Multiview renders the draw once per view, into the view's layer.
  const uint32_t view_mask = targets.view_mask != 0 ? targets.view_mask : 1u;
  for (uint32_t view = 0; view < 32; ++view) {
    if (((view_mask >> view) & 1) == 0) continue;
    OutputTargets outputs =
        grouped ? OutputTargets{} : ResolveOutputs(targets, state, targets.view_mask != 0 ? view : 0);
    if (!grouped) SetDepthRange(viewports[0].viewport, state, &outputs);
    fragment.view_index = view;
    for (uint32_t n = 0; n < draw.instance_count; ++n) {
      if (watchdog.CommandExpired()) return;  // lost, or 2^32 instances: not in this lifetime
      const uint32_t instance = draw.first_instance + n;  // (a sum past 2^32 wraps, as InstanceIndex does)
      ShadedVertices& vertices = scratch.vertices;
      ShadeVertices(bindings, state, gp.vertex, vertex_resources, vertex_layout, unique, instance, draw, view,
                    &vertices);
      if (watchdog.Stopped()) return;  // the vertices are meaningless
      if (statistics != nullptr) {
        statistics->Add(VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT, elements);
        statistics->Add(VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT, assembled);
        statistics->Add(VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT, unique.size());
      }
      // What the stages after the vertex shader take: its vertices and the
      // draw's topology, or the tessellator's primitives.
      ShadedVertices* stage_vertices = &vertices;
      const std::vector<uint32_t>* stage_indices = &slots;
      VkPrimitiveTopology stage_topology = state.topology;
      uint64_t clipping_inputs = assembled;
      if (tessellation) {
        const TessellationStage stage{&gp.tess_control,
                                      &control_resources,
                                      &gp.tess_evaluation,
                                      &evaluation_resources,
                                      gp.tessellation,
                                      state.domain_origin_lower_left,
                                      state.patch_control_points,
                                      &vertex_layout,
                                      &geometry_input_layout,
                                      view};
        Tessellate(stage, vertices, slots, &scratch.tessellation);
        if (watchdog.Stopped()) return;
        if (statistics != nullptr) {
          statistics->Add(VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT,
                          scratch.tessellation.patches);
          statistics->Add(VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT,
                          scratch.tessellation.evaluations);
        }
        stage_vertices = &scratch.tessellation.vertices;
        stage_indices = &scratch.tessellation.indices;
        stage_topology = scratch.tessellation.topology;
        clipping_inputs = StripPrimitives(stage_topology, *stage_indices);
      }
      // What the rasterizer sets up: those, or the geometry shader's strips.
      ShadedVertices* raster_vertices = stage_vertices;
      const std::vector<uint32_t>* raster_indices = stage_indices;
      VkPrimitiveTopology raster_topology = stage_topology;
      if (geometry) {
        // The draw's primitives as the geometry shader takes them, across restarts.
        scratch.geometry_primitives.clear();
        AssembleRuns(stage_topology, *stage_indices, state.rasterization.provoking_last,
                     &scratch.geometry_primitives);
        const GeometryStage stage{&gp.geometry, &geometry_resources, &geometry_input_layout, &layout, view};
        ShadeGeometry(stage, *stage_vertices, scratch.geometry_primitives, TopologyVertices(stage_topology),
                      &scratch.geometry);
        if (watchdog.Stopped()) return;
        if (statistics != nullptr) {
          statistics->Add(VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT, scratch.geometry.invocations);
          statistics->Add(VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT, scratch.geometry.primitives);
        }
        raster_vertices = &scratch.geometry.vertices;
        raster_indices = &scratch.geometry.indices[std::min(state.rasterization.stream, 3u)];
        raster_topology = scratch.geometry.topology;
        clipping_inputs = StripPrimitives(raster_topology, *raster_indices);
      }
      if (counters.CountsStreams() || counters.transform_feedback != nullptr)
        CountAndCapture(geometry ? gp.geometry : before_geometry, layout, state, geometry ? &scratch.geometry : nullptr,
                        *stage_vertices, *stage_indices, stage_topology, counters);
      // Depth from -w..w to 0..w: clipping and the viewport then work as usual.
      if (state.rasterization.negative_one_to_one)
        for (float* v = raster_vertices->data.data(); v < raster_vertices->data.data() + raster_vertices->data.size();
             v += raster_vertices->stride)
          v[2] = (v[2] + v[3]) * 0.5f;
      // Vertex shaders emit on stream 0 only: another stream rasterizes nothing.
      if (!rasterizes || (!geometry && state.rasterization.stream != 0)) continue;
      TriangleSetup& setup = scratch.setup;
      setup.triangles.clear();
      setup.varyings.clear();
      setup.clipped_primitives = 0;
      SetupTriangles(*raster_vertices, *raster_indices, raster_topology, viewports, layout.floats, &setup);
      uint64_t fragment_invocations = 0;
      if (grouped)
        RasterizeGroups(targets, state, viewports, targets.view_mask != 0 ? view : 0, &setup, &fragment,
                        counters.samples_passed, statistics != nullptr ? &fragment_invocations : nullptr);
      else
        RasterizeTriangles(setup, fragment, outputs, counters.samples_passed,
                           statistics != nullptr ? &fragment_invocations : nullptr);
      if (statistics != nullptr) {
        statistics->Add(VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT, clipping_inputs);
        statistics->Add(VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT, setup.clipped_primitives);
        statistics->Add(VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT, fragment_invocations);
      }
      if (watchdog.Stopped()) return;
    }
  }
}

}  // namespace duet::raster

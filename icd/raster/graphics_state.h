// The fixed-function state of a graphics pipeline, copied out of the
// create-info structs at pipeline creation, and the dynamic state a command
// buffer sets. The draw merges them: dynamic values replace the pipeline's
// for the states the pipeline lists as dynamic.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <bitset>
#include <cstdint>
#include <vector>

#include "objects/device_limits.h"
#include "spirv_exec/ir.h"
#include "util/inline_vector.h"

namespace duet::raster {

inline constexpr uint32_t kMaxColorAttachments = limits::kMaxColorAttachments;
inline constexpr uint32_t kMaxVertexBindings = limits::kMaxVertexInputBindings;
inline constexpr uint32_t kMaxVertexAttributes = limits::kMaxVertexInputAttributes;

// The arrays hold at most the device's limits (util/inline_vector.h).
struct VertexInputState {
  InlineVector<VkVertexInputBindingDescription, kMaxVertexBindings> bindings;
  InlineVector<uint32_t, kMaxVertexBindings> divisors;  // per binding (1 unless a divisor struct says otherwise)
  InlineVector<VkVertexInputAttributeDescription, kMaxVertexAttributes> attributes;
  // VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE: the strides given to
  // vkCmdBindVertexBuffers2 replace the bindings' (a pipeline with static
  // strides ignores them).
  bool dynamic_strides = false;
};

struct RasterizationState {
  bool depth_clamp = false;
  bool discard = false;
  VkPolygonMode polygon_mode = VK_POLYGON_MODE_FILL;
  VkCullModeFlags cull_mode = VK_CULL_MODE_NONE;
  VkFrontFace front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  bool depth_bias = false;
  float depth_bias_constant = 0, depth_bias_clamp = 0, depth_bias_slope = 0;
  float line_width = 1.0f;
  bool depth_clip = true;  // VkPipelineRasterizationDepthClipStateCreateInfoEXT, else !depth_clamp
  bool depth_clip_from_clamp = true;  // no depth clip state: a dynamic depth clamp decides it too
  // VK_EXT_provoking_vertex: flat attributes come from the primitive's last
  // vertex instead of its first.
  bool provoking_last = false;
  // VK_EXT_depth_clip_control: clip-space depth runs from -w to w (OpenGL's
  // convention) instead of 0 to w.
  bool negative_one_to_one = false;
  // VK_EXT_transform_feedback: the vertex stream that is rasterized.
  uint32_t stream = 0;
  // VK_EXT_line_rasterization: how lines become fragments (DEFAULT is
  // RECTANGULAR: strictLines), and the stipple that drops some of them.
  VkLineRasterizationModeEXT line_mode = VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
  bool line_stipple = false;
  uint32_t stipple_factor = 1;
  uint16_t stipple_pattern = 0xFFFF;
};

struct MultisampleState {
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  bool sample_shading = false;
  float min_sample_shading = 0;
  uint32_t sample_mask = ~0u;
  bool alpha_to_coverage = false;
  bool alpha_to_one = false;
};

struct StencilFaceState {
  VkStencilOp fail = VK_STENCIL_OP_KEEP, pass = VK_STENCIL_OP_KEEP, depth_fail = VK_STENCIL_OP_KEEP;
  VkCompareOp compare = VK_COMPARE_OP_ALWAYS;
  uint32_t compare_mask = 0xFF, write_mask = 0xFF, reference = 0;
};

struct DepthStencilState {
  bool depth_test = false, depth_write = false;
  VkCompareOp depth_compare = VK_COMPARE_OP_ALWAYS;
  bool depth_bounds_test = false;
  float min_depth_bounds = 0, max_depth_bounds = 1;
  bool stencil_test = false;
  StencilFaceState front, back;
};

struct ColorBlendState {
  bool logic_op_enable = false;
  VkLogicOp logic_op = VK_LOGIC_OP_COPY;
  InlineVector<VkPipelineColorBlendAttachmentState, kMaxColorAttachments> attachments;
  float blend_constants[4] = {0, 0, 0, 0};
  // VK_EXT_color_write_enable: bit i clear, attachment i is not written.
  uint32_t write_enable = ~0u;
};

// The state a draw uses, after dynamic state is applied.
struct GraphicsState {
  VertexInputState vertex_input;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool primitive_restart = false;
  uint32_t patch_control_points = 0;     // patch lists
  bool domain_origin_lower_left = false;  // VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT
  InlineVector<VkViewport, limits::kMaxViewports> viewports;
  InlineVector<VkRect2D, limits::kMaxViewports> scissors;
  RasterizationState rasterization;
  MultisampleState multisample;
  DepthStencilState depth_stencil;
  ColorBlendState blend;
  // VK_EXT_depth_range_unrestricted is enabled on the device: float depth
  // attachments keep values outside [0, 1].
  bool depth_unrestricted = false;
};

struct GraphicsPipelineState {
  spirv_exec::Program vertex;
  spirv_exec::Program geometry;
  spirv_exec::Program tess_control, tess_evaluation;
  spirv_exec::Program fragment;
  bool has_vertex = false;
  bool has_geometry = false;
  bool has_tessellation = false;
  spirv_exec::TessellationModes tessellation;  // both shaders' modes
  bool has_fragment = false;
  GraphicsState state;
  std::bitset<64> dynamic;  // bit = index in DynamicStateIndex()
};

// A small dense index for each VkDynamicState the driver supports
// (1.0 core, extended dynamic state 1 and 2, the logic op of
// VK_EXT_extended_dynamic_state2, VK_EXT_color_write_enable, part of
// VK_EXT_extended_dynamic_state3); -1 for others.
int DynamicStateIndex(VkDynamicState state);

}  // namespace duet::raster

// The per-fragment operations after the fragment shader: depth bounds,
// stencil and depth tests with their writes, then blending (or logic ops)
// and the colour write mask, per colour attachment.
#pragma once

#include <cstdint>
#include <vector>

#include "raster/graphics_state.h"
#include "raster/image_access.h"
#include "raster/render_targets.h"
#include "texel/texel_codec.h"

namespace duet::raster {

struct ColorOutput {
  bool enabled = false;
  SubresourceAccess access;
  const texel::TexelCodec* codec = nullptr;
  VkPipelineColorBlendAttachmentState blend{};
};

struct OutputTargets {
  std::vector<ColorOutput> colors;  // by fragment output location
  bool has_depth = false, has_stencil = false;
  SubresourceAccess depth, stencil;
  VkFormat depth_format = VK_FORMAT_UNDEFINED;
  DepthStencilState depth_stencil;
  ColorBlendState blend;
  float min_depth = 0.0f, max_depth = 1.0f;  // depth clamp range (viewport)
  bool depth_clamp = false;
};

// Resolves the render targets' first layer (layered rendering comes later).
OutputTargets ResolveOutputs(const RenderTargets& targets, const GraphicsState& state);

// One fragment's values from the fragment shader, as 32-bit words per
// output location (float or integer, per the attachment format).
struct FragmentValues {
  const uint32_t* colors[8] = {};  // 4 words each; nullptr: location not written
  float depth;                     // interpolated or shader-written, before clamping
  bool front_facing;
};

// Runs the tests and writes for the pixel; returns whether the sample passed
// the depth and stencil tests (for occlusion queries).
bool WriteFragment(const OutputTargets& targets, uint32_t x, uint32_t y, const FragmentValues& values);

}  // namespace duet::raster

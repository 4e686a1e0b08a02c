// The per-fragment operations after the fragment shader: depth bounds,
// stencil and depth tests with their writes, then blending (or logic ops)
// and the colour write mask, per colour attachment.
#pragma once

#include <cstdint>
#include <vector>

#include "raster/depth_plane.h"
#include "raster/direct_color.h"
#include "raster/graphics_state.h"
#include "raster/image_access.h"
#include "raster/logic_op.h"
#include "raster/render_targets.h"
#include "texel/texel_codec.h"

namespace duet::raster {

class DeferredClears;


struct ColorOutput {
  bool enabled = false;
  SubresourceAccess access;
  const texel::TexelCodec* codec = nullptr;
  VkPipelineColorBlendAttachmentState blend{};
  DirectColor direct = DirectColor::kNone;
  LogicOpTarget logic_op;
};


// Standard sample locations (the spec's table), in 1/16 pixel.
// Up to 8 samples a pixel (sample counts 1, 2, 4, 8).
inline constexpr uint32_t kMaxSamples = 8;
// The standard sample locations (standardSampleLocations) of a sample
// count, in 1/16ths of a pixel from its top-left corner.
inline constexpr uint8_t kSampleLocations1[1][2] = {{8, 8}};
inline constexpr uint8_t kSampleLocations2[2][2] = {{12, 12}, {4, 4}};
inline constexpr uint8_t kSampleLocations4[4][2] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}};
inline constexpr uint8_t kSampleLocations8[8][2] = {{9, 5}, {7, 11}, {13, 9}, {5, 3},
                                                   {3, 13}, {1, 7}, {11, 15}, {15, 1}};
inline const uint8_t (*StandardSampleLocations(uint32_t samples))[2] {
  return samples >= 8 ? kSampleLocations8 : samples >= 4 ? kSampleLocations4 : samples >= 2 ? kSampleLocations2
                                                                                              : kSampleLocations1;
}

struct OutputTargets {
  uint32_t samples = 1;             // of the attachments (1 or 4)
  uint32_t sample_mask = ~0u;       // VkPipelineMultisampleStateCreateInfo::pSampleMask
  bool alpha_to_coverage = false;
  bool alpha_to_one = false;
  std::vector<ColorOutput> colors;  // by fragment output location
  bool has_depth = false, has_stencil = false;
  SubresourceAccess depth, stencil;
  VkFormat depth_format = VK_FORMAT_UNDEFINED;
  DepthTarget depth_target;         // depth_format, read and written
  DepthStencilState depth_stencil;
  ColorBlendState blend;
  float min_depth = 0.0f, max_depth = 1.0f;  // depth clamp range (viewport)
  bool depth_clamp = false;
  DeferredClears* deferred = nullptr;  // RenderTargets::deferred: tiles clear before their first draw

  std::byte* DepthAt(uint32_t x, uint32_t y, uint32_t sample) const {
    return depth.Block(x, y, 0) + sample * (depth.block_size / (samples > 1 ? samples : 1));
  }
};

// Resolves the render targets at one framebuffer layer (multiview: the view).
OutputTargets ResolveOutputs(const RenderTargets& targets, const GraphicsState& state, uint32_t layer);

// One fragment's values from the fragment shader, as 32-bit words per
// output location (float or integer, per the attachment format).
struct FragmentValues {
  const uint32_t* colors[8] = {};  // 4 words each; nullptr: location not written
  const uint32_t* src1 = nullptr;  // location 0, index 1: dual-source blending's second colour
  float depth[kMaxSamples];        // per sample: interpolated or shader-written, before clamping
  uint32_t coverage;               // samples covered (bit s: sample s)
  bool front_facing;
  // The shader's FragStencilRefEXT (VK_EXT_shader_stencil_export), in place
  // of the face's reference; nullptr when it writes none.
  const uint32_t* stencil_reference = nullptr;
};

// Runs the tests and writes for each covered sample of the pixel; returns
// how many samples passed the depth and stencil tests (occlusion queries).
uint32_t WriteFragment(const OutputTargets& targets, uint32_t x, uint32_t y, const FragmentValues& values);

// The output merge of the common case, a wave at a time: one sample, depth
// D16/D32 or none, no stencil, depth bounds or alpha to coverage, and only
// colour attachments written directly (DirectColor). Same results as
// WriteFragment for each fragment in turn.
bool MergesDirect(const OutputTargets& targets);

// The fragment shader's colour outputs already converted to each
// attachment's texels, per lane (nullptr: location not written).
struct DirectTexels {
  const uint32_t* location[8] = {};
};

// A wave's fragments: lane 4q + i is pixel (x[q] + (i & 1), y[q] + (i >> 1))
// of quad q; `live` the lanes to merge.
struct DirectWave {
  uint32_t quads = 0;
  const uint32_t* x = nullptr;
  const uint32_t* y = nullptr;
  uint64_t live = 0;
  const float* depth = nullptr;  // by lane
  // The quads are the 16 of the 8x8 block at (x[0], y[0]), row by row
  // (x and y hold that corner only).
  bool block = false;
  const DirectTexels* texels = nullptr;  // (null: no colour)
};

// Merges the live lanes in lane order; returns how many passed the depth test.
uint32_t MergeDirect(const OutputTargets& targets, const DirectWave& wave);

// Early fragment tests. DepthSurvivors: the covered samples whose depth
// passes the depth test against the attachment now (nothing is written).
// RunFragmentTests: the depth bounds, stencil and depth tests with their
// writes for each covered sample, as WriteFragment runs them; returns the
// passing samples and stores their count in *passed.
uint32_t DepthSurvivors(const OutputTargets& targets, uint32_t x, uint32_t y, uint32_t coverage, const float* depth);
uint32_t RunFragmentTests(const OutputTargets& targets, uint32_t x, uint32_t y, uint32_t coverage,
                          const float* depth, bool front_facing, uint32_t* passed);

}  // namespace duet::raster

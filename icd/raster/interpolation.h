// The rasterizer's interpolation loops over a run of fragment lanes,
// vectorized and built for AVX2 and AVX-512 as well (target_clones; no FMA,
// so every build gives the same bits).
#pragma once

#include <cstdint>

namespace duet::raster {

// A fragment input over the pixels: value + dx * x + dy * y, x and y from
// where the plane was moved to.
struct FloatPlane {
  float value, dx, dy;
};

// plane(x, y) * w for lanes [begin, end), as float bits.
void InterpolatePerspective(FloatPlane plane, const float* x, const float* y, const float* w, uint32_t begin,
                            uint32_t end, uint32_t* out);
// plane(x, y) for lanes [begin, end), as float bits.
void InterpolateLinear(FloatPlane plane, const float* x, const float* y, uint32_t begin, uint32_t end, uint32_t* out);
// inv_w = plane(x, y) and clip_w = 1 / inv_w for lanes [begin, end): the
// interpolated clip w from the plane of 1 / w.
void InterpolateClipW(FloatPlane plane, const float* x, const float* y, uint32_t begin, uint32_t end, float* inv_w,
                      float* clip_w);

// The depths of the 64 pixels of an 8x8 block in wave lane order (quads row
// by row, each top-left, top-right, bottom-left, bottom-right): float(z +
// zdx * x + zdy * y) + offset, x and y from (fx, fy), the block's top-left
// pixel relative to the plane's reference pixel.
void BlockDepths(double z, double zdx, double zdy, float offset, double fx, double fy, float* depth);

// The positions of those 64 pixels from the block's top-left one at (fx, fy).
void BlockPositions(float fx, float fy, float* x, float* y);

// One interpolated input of a block: its plane, its register's 64 lanes,
// and whether it is perspective-correct (times the clip w) or linear.
struct BlockInput {
  FloatPlane plane;
  uint32_t* out;
  bool perspective;
};

// The inputs of a block wave at once, with the same bits as BlockPositions,
// InterpolateClipW and InterpolatePerspective / InterpolateLinear over its
// 64 lanes, but the positions and w kept in registers: `w_plane` gives
// inv_w (and clip w for the perspective inputs).
void InterpolateBlock(float fx, float fy, FloatPlane w_plane, const BlockInput* inputs, uint32_t count,
                      float* inv_w);

}  // namespace duet::raster

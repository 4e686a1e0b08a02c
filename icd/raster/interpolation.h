// The rasterizer's interpolation loops over a run of fragment lanes,
// vectorized and built for AVX2 and AVX-512 as well (target_clones; no FMA,
// so every build gives the same bits).
#pragma once

#include <cstdint>

namespace duet::raster {

// (v + vx * fx + vy * fy) * w for lanes [begin, end), as float bits.
void InterpolatePerspective(double v, double vx, double vy, const double* fx, const double* fy, const double* w,
                            uint32_t begin, uint32_t end, uint32_t* out);
// v + vx * fx + vy * fy for lanes [begin, end), as float bits.
void InterpolateLinear(double v, double vx, double vy, const double* fx, const double* fy, uint32_t begin, uint32_t end,
                       uint32_t* out);
// inv_w = w + wdx * fx + wdy * fy and clip_w = 1 / inv_w for lanes [begin, end).
void InterpolateClipW(double w, double wdx, double wdy, const double* fx, const double* fy, uint32_t begin,
                      uint32_t end, double* inv_w, double* clip_w);

// The depths of the 64 pixels of an 8x8 block in wave lane order (quads row
// by row, each top-left, top-right, bottom-left, bottom-right): float(z +
// zdx * x + zdy * y) + offset, x and y from (fx, fy), the block's top-left
// pixel relative to the plane's reference pixel.
void BlockDepths(double z, double zdx, double zdy, float offset, double fx, double fy, float* depth);

// The positions of those 64 pixels from the block's top-left one at (fx, fy).
void BlockPositions(double fx, double fy, double* x, double* y);

}  // namespace duet::raster

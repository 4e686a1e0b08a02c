#include "raster/interpolation.h"

#include <bit>

namespace duet::raster {

__attribute__((target_clones("avx512f", "avx2", "default"))) void InterpolatePerspective(
    double v, double vx, double vy, const double* __restrict fx, const double* __restrict fy,
    const double* __restrict w, uint32_t begin, uint32_t end, uint32_t* __restrict out) {
  for (uint32_t l = begin; l < end; ++l) out[l] = std::bit_cast<uint32_t>(float((v + vx * fx[l] + vy * fy[l]) * w[l]));
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void InterpolateLinear(double v, double vx, double vy,
                                                                                    const double* __restrict fx,
                                                                                    const double* __restrict fy,
                                                                                    uint32_t begin, uint32_t end,
                                                                                    uint32_t* __restrict out) {
  for (uint32_t l = begin; l < end; ++l) out[l] = std::bit_cast<uint32_t>(float(v + vx * fx[l] + vy * fy[l]));
}

// 1 / (w + wdx * fx + wdy * fy) over lanes [begin, end): the interpolated clip w.
__attribute__((target_clones("avx512f", "avx2", "default"))) void InterpolateClipW(
    double w, double wdx, double wdy, const double* __restrict fx, const double* __restrict fy, uint32_t begin,
    uint32_t end, double* __restrict inv_w, double* __restrict clip_w) {
  for (uint32_t l = begin; l < end; ++l) {
    inv_w[l] = w + wdx * fx[l] + wdy * fy[l];
    clip_w[l] = 1.0 / inv_w[l];
  }
}

namespace {

// Each lane's pixel within its 8x8 block.
struct BlockLanes {
  double x[64], y[64];
  constexpr BlockLanes() : x(), y() {
    for (uint32_t l = 0; l < 64; ++l) {
      const uint32_t q = l >> 2;
      x[l] = double(2 * (q & 3) + (l & 1));
      y[l] = double(2 * (q >> 2) + ((l >> 1) & 1));
    }
  }
};
constexpr BlockLanes kBlockLanes;

}  // namespace

__attribute__((target_clones("avx512f", "avx2", "default"))) void BlockDepths(double z, double zdx, double zdy,
                                                                              float offset, double fx, double fy,
                                                                              float* __restrict depth) {
  for (uint32_t l = 0; l < 64; ++l)
    depth[l] = float(z + zdx * (fx + kBlockLanes.x[l]) + zdy * (fy + kBlockLanes.y[l])) + offset;
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void BlockPositions(double fx, double fy,
                                                                                 double* __restrict x,
                                                                                 double* __restrict y) {
  for (uint32_t l = 0; l < 64; ++l) {
    x[l] = fx + kBlockLanes.x[l];
    y[l] = fy + kBlockLanes.y[l];
  }
}

}  // namespace duet::raster

#include "raster/interpolation.h"

#include <bit>

namespace duet::raster {

__attribute__((target_clones("avx512f", "avx2", "default"))) void InterpolatePerspective(
    FloatPlane plane, const float* __restrict x, const float* __restrict y, const float* __restrict w, uint32_t begin,
    uint32_t end, uint32_t* __restrict out) {
  for (uint32_t l = begin; l < end; ++l)
    out[l] = std::bit_cast<uint32_t>((plane.value + plane.dx * x[l] + plane.dy * y[l]) * w[l]);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void InterpolateLinear(FloatPlane plane,
                                                                                    const float* __restrict x,
                                                                                    const float* __restrict y,
                                                                                    uint32_t begin, uint32_t end,
                                                                                    uint32_t* __restrict out) {
  for (uint32_t l = begin; l < end; ++l) out[l] = std::bit_cast<uint32_t>(plane.value + plane.dx * x[l] + plane.dy * y[l]);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void InterpolateClipW(
    FloatPlane plane, const float* __restrict x, const float* __restrict y, uint32_t begin, uint32_t end,
    float* __restrict inv_w, float* __restrict clip_w) {
  for (uint32_t l = begin; l < end; ++l) {
    inv_w[l] = plane.value + plane.dx * x[l] + plane.dy * y[l];
    clip_w[l] = 1.0f / inv_w[l];
  }
}

namespace {

// Each lane's pixel within its 8x8 block (in double for the depths, in
// float for the inputs).
struct BlockLanes {
  double x[64], y[64];
  float xf[64], yf[64];
  constexpr BlockLanes() : x(), y(), xf(), yf() {
    for (uint32_t l = 0; l < 64; ++l) {
      const uint32_t q = l >> 2;
      xf[l] = float(2 * (q & 3) + (l & 1));
      yf[l] = float(2 * (q >> 2) + ((l >> 1) & 1));
      x[l] = xf[l];
      y[l] = yf[l];
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

__attribute__((target_clones("avx512f", "avx2", "default"))) void BlockPositions(float fx, float fy,
                                                                                 float* __restrict x,
                                                                                 float* __restrict y) {
  for (uint32_t l = 0; l < 64; ++l) {
    x[l] = fx + kBlockLanes.xf[l];
    y[l] = fy + kBlockLanes.yf[l];
  }
}

}  // namespace duet::raster

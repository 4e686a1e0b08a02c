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

__attribute__((target_clones("avx512f", "avx2", "default"))) void InterpolateBlock(
    float fx, float fy, FloatPlane w_plane, const BlockInput* __restrict inputs, uint32_t count,
    float* __restrict inv_w) {
  constexpr uint32_t kGroup = 16;
  for (uint32_t l0 = 0; l0 < 64; l0 += kGroup) {
    float x[kGroup], y[kGroup], w[kGroup];
    for (uint32_t l = 0; l < kGroup; ++l) {
      x[l] = fx + kBlockLanes.xf[l0 + l];
      y[l] = fy + kBlockLanes.yf[l0 + l];
      const float inv = w_plane.value + w_plane.dx * x[l] + w_plane.dy * y[l];
      inv_w[l0 + l] = inv;
      w[l] = 1.0f / inv;
    }
    for (uint32_t k = 0; k < count; ++k) {
      const FloatPlane p = inputs[k].plane;
      uint32_t* __restrict out = inputs[k].out + l0;
      if (inputs[k].perspective) {
        for (uint32_t l = 0; l < kGroup; ++l)
          out[l] = std::bit_cast<uint32_t>((p.value + p.dx * x[l] + p.dy * y[l]) * w[l]);
      } else {
        for (uint32_t l = 0; l < kGroup; ++l) out[l] = std::bit_cast<uint32_t>(p.value + p.dx * x[l] + p.dy * y[l]);
      }
    }
  }
}

}  // namespace duet::raster

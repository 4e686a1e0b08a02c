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

}  // namespace duet::raster

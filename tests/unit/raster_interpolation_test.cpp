// A block wave's inputs interpolated in one pass (InterpolateBlock) have the
// bits the lane-run functions give them (BlockPositions, InterpolateClipW,
// InterpolatePerspective, InterpolateLinear): a pixel's inputs do not
// depend on whether it was shaded in a block or in a quad.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "raster/interpolation.h"

namespace duet::raster {
namespace {

TEST(RasterInterpolation, BlockPassGivesTheLaneRunBits) {
  std::mt19937 random(5);
  std::uniform_real_distribution<float> value(-100.0f, 100.0f), slope(-3.0f, 3.0f), w_slope(-0.001f, 0.001f);
  for (int round = 0; round < 200; ++round) {
    const float fx = float(random() % 57), fy = float(random() % 57);
    const FloatPlane w_plane{0.01f + float(random() % 1000) / 1000.0f, w_slope(random), w_slope(random)};
    constexpr uint32_t kInputs = 5;
    FloatPlane planes[kInputs];
    for (FloatPlane& p : planes) p = {value(random), slope(random), slope(random)};
    std::vector<uint32_t> fused(kInputs * 64), expected(kInputs * 64);
    BlockInput inputs[kInputs];
    for (uint32_t k = 0; k < kInputs; ++k) inputs[k] = {planes[k], &fused[k * 64], k % 2 == 0};
    float inv_w[64];
    InterpolateBlock(fx, fy, w_plane, inputs, kInputs, inv_w);

    float x[64], y[64], expected_inv_w[64], w[64];
    BlockPositions(fx, fy, x, y);
    InterpolateClipW(w_plane, x, y, 0, 64, expected_inv_w, w);
    for (uint32_t k = 0; k < kInputs; ++k) {
      if (k % 2 == 0) InterpolatePerspective(planes[k], x, y, w, 0, 64, &expected[k * 64]);
      else InterpolateLinear(planes[k], x, y, 0, 64, &expected[k * 64]);
    }
    for (uint32_t l = 0; l < 64; ++l)
      ASSERT_EQ(std::bit_cast<uint32_t>(inv_w[l]), std::bit_cast<uint32_t>(expected_inv_w[l])) << "lane " << l;
    for (uint32_t i = 0; i < kInputs * 64; ++i) ASSERT_EQ(fused[i], expected[i]) << "input " << i / 64 << " lane " << i % 64;
  }
}

}  // namespace
}  // namespace duet::raster

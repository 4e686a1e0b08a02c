// The LOD operation and level selection: scale factors from derivatives,
// nearest and linear mipmapping, sampler and shader bias (and their clamp),
// min/max LOD, the view's base level, magnification versus minification, 3D
// trilinear filtering, and the queries (QueryLod, QueryLevels, QuerySize).
#include <gtest/gtest.h>

#include <cmath>

#include "texel_sample_test_image.h"

namespace duet::texel::sample_test {
namespace {

// Red of every texel of mip level `level` in the mip test image.
uint8_t LevelRed(uint32_t level) { return static_cast<uint8_t>(40 + 80 * level); }

class SampleMips : public ::testing::Test {
 protected:
  // A 4x4 image with levels 4x4, 2x2 and 1x1; each level one colour.
  SampleMips() : image_(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 3) {
    for (uint32_t level = 0; level < 3; ++level) {
      const uint32_t size = 4u >> level;
      for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x) image_.SetRgba8(level, 0, x, y, 0, LevelRed(level), 0, 0, 255);
    }
    view_ = image_.View(VK_IMAGE_VIEW_TYPE_2D);
  }

  // Red sampled with derivative d(s)/dx = rho / 4, i.e. rho texels per pixel.
  float RedAtRho(const SamplerState& sampler, float rho, bool along_y = false, float bias = 0.0f) {
    Lane lane;
    lane.coords[0] = lane.coords[1] = 0.5f;
    lane.derivatives = true;
    (along_y ? lane.ddy[1] : lane.ddx[0]) = rho / 4.0f;
    lane.bias = bias;
    return SampleOne(Resolve(view_, &sampler), lane).f[0];
  }

  float RedAtLod(const SamplerState& sampler, float lod, float min_lod_operand = -1.0f) {
    Lane lane;
    lane.coords[0] = lane.coords[1] = 0.5f;
    lane.lod = lod;
    if (min_lod_operand >= 0.0f) {
      lane.has_min_lod = true;
      lane.min_lod = min_lod_operand;
    }
    return SampleOne(Resolve(view_, &sampler), lane).f[0];
  }

  TestImage image_;
  ImageView view_;
};

TEST_F(SampleMips, DerivativesOfOneTwoAndFourTexelsPickLevelsZeroOneTwo) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  EXPECT_FLOAT_EQ(RedAtRho(sampler, 1.0f), Unorm8(LevelRed(0)));
  EXPECT_FLOAT_EQ(RedAtRho(sampler, 2.0f), Unorm8(LevelRed(1)));
  EXPECT_FLOAT_EQ(RedAtRho(sampler, 4.0f), Unorm8(LevelRed(2)));
  EXPECT_FLOAT_EQ(RedAtRho(sampler, 4.0f, /*along_y=*/true), Unorm8(LevelRed(2)));
  EXPECT_FLOAT_EQ(RedAtRho(sampler, 64.0f), Unorm8(LevelRed(2)));  // clamped to the last level
  EXPECT_FLOAT_EQ(RedAtRho(sampler, 0.0f), Unorm8(LevelRed(0)));   // a point footprint: lambda = -inf
}

TEST_F(SampleMips, EachLaneGetsItsOwnLod) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  const SampledImageState state = Resolve(view_, &sampler);
  constexpr uint32_t kLanes = 32;
  float s[kLanes], t[kLanes], dsdx[kLanes], zero[kLanes] = {};
  for (uint32_t l = 0; l < kLanes; ++l) {
    s[l] = t[l] = 0.5f;
    dsdx[l] = static_cast<float>(1u << (l % 3)) / 4.0f;  // rho 1, 2, 4: levels 0, 1, 2
  }
  SampleRequest request;
  request.coords[0] = s;
  request.coords[1] = t;
  request.lod_mode = LodMode::kDerivatives;
  request.ddx[0] = dsdx;
  request.ddx[1] = request.ddy[0] = request.ddy[1] = zero;
  TexelValue out[kLanes];
  const LaneMask mask = 0x7FFFFFFEu;  // not lane 0 nor 31
  Sample(state, request, mask, out);
  for (uint32_t l = 1; l < 31; ++l) EXPECT_FLOAT_EQ(out[l].f[0], Unorm8(LevelRed(l % 3))) << "lane " << l;
}

TEST_F(SampleMips, RhoIsTheLongerOfTheXAndYDerivativeVectors) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  Lane lane;
  lane.coords[0] = lane.coords[1] = 0.5f;
  lane.derivatives = true;
  // rho_x = 4 * |(0.3, 0.4)| = 2 -> lambda 1; rho_y = 4 * 0.1 = 0.4.
  lane.ddx[0] = 0.3f;
  lane.ddx[1] = 0.4f;
  lane.ddy[0] = 0.1f;
  EXPECT_FLOAT_EQ(SampleOne(Resolve(view_, &sampler), lane).f[0], Unorm8(LevelRed(1)));
}

TEST_F(SampleMips, NearestMipmapRoundsTiesDown) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  // nearest(d') = ceil(d' + 0.5) - 1
  EXPECT_FLOAT_EQ(RedAtLod(sampler, 0.5f), Unorm8(LevelRed(0)));
  EXPECT_FLOAT_EQ(RedAtLod(sampler, 0.51f), Unorm8(LevelRed(1)));
  EXPECT_FLOAT_EQ(RedAtLod(sampler, 1.5f), Unorm8(LevelRed(1)));
  EXPECT_FLOAT_EQ(RedAtLod(sampler, 1.51f), Unorm8(LevelRed(2)));
}

TEST_F(SampleMips, LinearMipmapBlendsNeighbouringLevels) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                           VK_SAMPLER_MIPMAP_MODE_LINEAR);
  // lambda = log2(rho) = 1.25: d_hi = 1, d_lo = 2, delta = 0.25.
  EXPECT_NEAR(RedAtRho(sampler, std::exp2(1.25f)), 0.75 * Unorm8(LevelRed(1)) + 0.25 * Unorm8(LevelRed(2)), 1e-5);
  EXPECT_NEAR(RedAtLod(sampler, 0.5f), 0.5 * Unorm8(LevelRed(0)) + 0.5 * Unorm8(LevelRed(1)), 1e-6);
  EXPECT_NEAR(RedAtLod(sampler, 2.7f), Unorm8(LevelRed(2)), 1e-6);  // d_lo = min(d_hi + 1, q)
}

TEST_F(SampleMips, SamplerAndShaderBiasAddAndAreClampedTogether) {
  SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  sampler.mip_lod_bias = 1.0f;
  EXPECT_FLOAT_EQ(RedAtLod(sampler, 0.0f), Unorm8(LevelRed(1)));  // the sampler's bias applies to Lod too
  sampler.mip_lod_bias = 0.0f;
  EXPECT_FLOAT_EQ(RedAtRho(sampler, 1.0f, false, 1.0f), Unorm8(LevelRed(1)));
  EXPECT_FLOAT_EQ(RedAtRho(sampler, 4.0f, false, -2.0f), Unorm8(LevelRed(0)));
  // 10 + 10 clamps to maxSamplerLodBias = 15: lambda' = -14 + 15 = 1, not 6.
  sampler.mip_lod_bias = 10.0f;
  Lane lane;
  lane.coords[0] = lane.coords[1] = 0.5f;
  lane.lod = -14.0f;
  lane.bias = 10.0f;
  EXPECT_FLOAT_EQ(SampleOne(Resolve(view_, &sampler), lane).f[0], Unorm8(LevelRed(1)));
}

TEST_F(SampleMips, MinAndMaxLodClampLambda) {
  SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  sampler.min_lod = 1.0f;
  EXPECT_FLOAT_EQ(RedAtLod(sampler, 0.0f), Unorm8(LevelRed(1)));
  sampler.min_lod = 0.0f;
  sampler.max_lod = 1.0f;
  EXPECT_FLOAT_EQ(RedAtLod(sampler, 2.0f), Unorm8(LevelRed(1)));
  sampler.max_lod = 16.0f;
  // The MinLod operand raises the minimum: lod_min = max(minLod, MinLod).
  EXPECT_FLOAT_EQ(RedAtLod(sampler, 0.0f, 2.0f), Unorm8(LevelRed(2)));
  sampler.min_lod = 1.0f;
  EXPECT_FLOAT_EQ(RedAtLod(sampler, 0.0f, 0.5f), Unorm8(LevelRed(1)));
}

TEST_F(SampleMips, LevelsAndScaleAreRelativeToTheViewsBaseLevel) {
  const ImageView view = image_.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 1, 2);
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  Lane lane;
  lane.coords[0] = lane.coords[1] = 0.5f;
  lane.derivatives = true;
  lane.ddx[0] = 0.5f;  // one texel of the 2x2 base level: lambda 0
  EXPECT_FLOAT_EQ(SampleOne(Resolve(view, &sampler), lane).f[0], Unorm8(LevelRed(1)));
  lane.ddx[0] = 1.0f;  // lambda 1: the view's level 1, the image's level 2
  EXPECT_FLOAT_EQ(SampleOne(Resolve(view, &sampler), lane).f[0], Unorm8(LevelRed(2)));
}

// lambda <= 0 magnifies (magFilter), lambda > 0 minifies (minFilter), even
// when the image has one level and both read level 0.
TEST(SampleMagMin, FilterFollowsTheSignOfLambda) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 1, 1});
  for (uint32_t x = 0; x < 4; ++x) image.SetRgba8(0, 0, x, 0, 0, static_cast<uint8_t>(x * 60), 0, 0, 255);
  SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  sampler.min_filter = VK_FILTER_LINEAR;
  const SampledImageState state = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D), &sampler);
  Lane lane;
  lane.coords[0] = 0.5f;  // u = 2: nearest reads texel 2, linear averages 1 and 2
  lane.lod = 0.0f;
  EXPECT_FLOAT_EQ(SampleOne(state, lane).f[0], Unorm8(120));
  lane.lod = 0.25f;
  EXPECT_NEAR(SampleOne(state, lane).f[0], Unorm8(90), 1e-6);
  lane.lod = 0.0f;
  lane.bias = -1.0f;
  EXPECT_FLOAT_EQ(SampleOne(state, lane).f[0], Unorm8(120));
}

float Value3D(int32_t x, int32_t y, int32_t z) { return static_cast<float>(x + 2 * y + 4 * z); }

TEST(Sample3D, TrilinearWeighsEightTexels) {
  TestImage image(VK_IMAGE_TYPE_3D, VK_FORMAT_R32_SFLOAT, {2, 2, 2});
  for (int32_t z = 0; z < 2; ++z)
    for (int32_t y = 0; y < 2; ++y)
      for (int32_t x = 0; x < 2; ++x) image.Set(0, 0, x, y, z, Value3D(x, y, z));
  const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR);
  const SampledImageState state = Resolve(image.View(VK_IMAGE_VIEW_TYPE_3D), &sampler);
  const float points[][3] = {{0.5f, 0.5f, 0.5f}, {0.3f, 0.6f, 0.8f}, {0.1f, 0.9f, 0.45f}, {0.75f, 0.25f, 0.25f}};
  for (const auto& p : points) {
    Lane lane;
    for (int c = 0; c < 3; ++c) lane.coords[c] = p[c];
    double expected = 0.0;
    int32_t i0[3];
    double frac[3];
    for (int c = 0; c < 3; ++c) {
      const double u = p[c] * 2.0 - 0.5;
      i0[c] = static_cast<int32_t>(std::floor(u));
      frac[c] = u - std::floor(u);
    }
    for (int corner = 0; corner < 8; ++corner) {
      double weight = 1.0;
      int32_t ijk[3];
      for (int c = 0; c < 3; ++c) {
        const bool upper = (corner >> c & 1) != 0;
        weight *= upper ? frac[c] : 1.0 - frac[c];
        ijk[c] = ExpectedWrap(i0[c] + (upper ? 1 : 0), 2, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
      }
      expected += weight * Value3D(ijk[0], ijk[1], ijk[2]);
    }
    const TexelValue got = SampleOne(state, lane);
    EXPECT_NEAR(got.f[0], expected, 1e-5) << p[0] << "," << p[1] << "," << p[2];
    EXPECT_EQ(got.f[1], 0.0f);
    EXPECT_NEAR(got.f[3], 1.0f, 1e-6);  // eight weights summed in float
  }
}

TEST(Sample3D, DepthDerivativesCountTowardsRho) {
  TestImage image(VK_IMAGE_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 4}, 2);
  for (uint32_t level = 0; level < 2; ++level) {
    const uint32_t size = 4u >> level;
    for (uint32_t z = 0; z < size; ++z)
      for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x) image.SetRgba8(level, 0, x, y, z, LevelRed(level), 0, 0, 255);
  }
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  Lane lane;
  lane.coords[0] = lane.coords[1] = lane.coords[2] = 0.5f;
  lane.derivatives = true;
  lane.ddy[2] = 0.5f;  // 2 texels of depth per pixel: lambda 1
  EXPECT_FLOAT_EQ(SampleOne(Resolve(image.View(VK_IMAGE_VIEW_TYPE_3D), &sampler), lane).f[0],
                  Unorm8(LevelRed(1)));
}

TEST_F(SampleMips, QueryLodReportsTheLevelAndTheUnclampedLambda) {
  SamplerState sampler = MakeSampler(VK_FILTER_LINEAR);
  Lane lane;
  lane.coords[0] = lane.coords[1] = 0.5f;
  lane.derivatives = true;
  lane.ddx[0] = std::exp2(1.25f) / 4.0f;
  float out[1][2];
  SampleRequest request = RequestFor(lane);
  QueryLod(Resolve(view_, &sampler), request, 1, out);
  EXPECT_FLOAT_EQ(out[0][0], 1.0f);  // nearest(1.25)
  EXPECT_NEAR(out[0][1], 1.25f, 1e-5);

  sampler.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  sampler.max_lod = 0.5f;
  sampler.mip_lod_bias = 0.5f;
  QueryLod(Resolve(view_, &sampler), request, 1, out);
  EXPECT_FLOAT_EQ(out[0][0], 0.5f);          // clamped by maxLod
  EXPECT_NEAR(out[0][1], 1.75f, 1e-5);       // lambda' keeps the bias, not the clamp
}

TEST(SampleQueries, SizeAndLevelsPerViewType) {
  TestImage image2d(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {8, 4, 1}, 3, 12, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT);
  uint32_t size[3];
  SampledImageState state =
      Resolve(image2d.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_UNDEFINED, 1, 2, 2, 5), nullptr);
  EXPECT_EQ(QueryLevels(state), 2u);
  EXPECT_EQ(QuerySamples(state), 1u);
  EXPECT_EQ(QuerySize(state, 0, size), 3u);
  EXPECT_EQ(size[0], 4u);
  EXPECT_EQ(size[1], 2u);
  EXPECT_EQ(size[2], 5u);
  EXPECT_EQ(QuerySize(state, 1, size), 3u);
  EXPECT_EQ(size[0], 2u);
  EXPECT_EQ(size[1], 1u);

  TestImage cube(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 1}, 1, 12, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT);
  state = Resolve(cube.View(VK_IMAGE_VIEW_TYPE_CUBE_ARRAY), nullptr);
  EXPECT_EQ(QuerySize(state, 0, size), 3u);
  EXPECT_EQ(size[0], 8u);
  EXPECT_EQ(size[1], 8u);
  EXPECT_EQ(size[2], 2u);  // cubes, not layers
  state = Resolve(cube.View(VK_IMAGE_VIEW_TYPE_CUBE, VK_FORMAT_UNDEFINED, 0, 1, 6, 6), nullptr);
  EXPECT_EQ(QuerySize(state, 0, size), 2u);

  TestImage image3d(VK_IMAGE_TYPE_3D, VK_FORMAT_R8_UNORM, {8, 4, 2}, 2);
  state = Resolve(image3d.View(VK_IMAGE_VIEW_TYPE_3D), nullptr);
  EXPECT_EQ(QuerySize(state, 1, size), 3u);
  EXPECT_EQ(size[0], 4u);
  EXPECT_EQ(size[1], 2u);
  EXPECT_EQ(size[2], 1u);

  TestImage image1d(VK_IMAGE_TYPE_1D, VK_FORMAT_R8_UNORM, {16, 1, 1}, 1, 3);
  state = Resolve(image1d.View(VK_IMAGE_VIEW_TYPE_1D_ARRAY), nullptr);
  EXPECT_EQ(QuerySize(state, 0, size), 2u);
  EXPECT_EQ(size[0], 16u);
  EXPECT_EQ(size[1], 3u);
  state = Resolve(image1d.View(VK_IMAGE_VIEW_TYPE_1D, VK_FORMAT_UNDEFINED, 0, 1, 1, 1), nullptr);
  EXPECT_EQ(QuerySize(state, 0, size), 1u);
  EXPECT_EQ(size[0], 16u);

  TestImage multisampled(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 1, 1, 0, VK_SAMPLE_COUNT_4_BIT);
  EXPECT_EQ(QuerySamples(Resolve(multisampled.View(VK_IMAGE_VIEW_TYPE_2D), nullptr)), 4u);
}

}  // namespace
}  // namespace duet::texel::sample_test

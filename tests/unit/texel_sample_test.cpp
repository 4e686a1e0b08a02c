// Sampling a 2D image within one level: nearest and linear texel selection
// at texel centres and edges under every address mode, border colours and
// their replacement rules, unnormalized coordinates, offsets, swizzles, sRGB
// decoding before filtering, min/max reduction, lanes and lane masks.
// Expected values follow the spec's formulas, computed here independently.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>
#include <vector>

#include "objects/sampler.h"
#include "texel_sample_test_image.h"

namespace duet::texel::sample_test {
namespace {

constexpr int32_t kSize = 4;

// Texel (x, y) of the 4x4 test image: R and G encode the position.
uint8_t RedOf(int32_t x) { return static_cast<uint8_t>(10 + 60 * x); }
uint8_t GreenOf(int32_t y) { return static_cast<uint8_t>(10 + 60 * y); }

class Sample2D : public ::testing::Test {
 protected:
  Sample2D() : image_(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kSize, kSize, 1}) {
    for (int32_t y = 0; y < kSize; ++y)
      for (int32_t x = 0; x < kSize; ++x) image_.SetRgba8(0, 0, x, y, 0, RedOf(x), GreenOf(y), 7, 255);
    view_ = image_.View(VK_IMAGE_VIEW_TYPE_2D);
  }

  // The expected R of texel column i after wrapping (border: border_r).
  static float ColumnRed(int32_t wrapped, float border_r) {
    return wrapped < 0 || wrapped >= kSize ? border_r : Unorm8(RedOf(wrapped));
  }

  TestImage image_;
  ImageView view_;
};

constexpr VkSamplerAddressMode kAllModes[] = {
    VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
    VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE};

// s values at texel centres, on texel edges and well outside [0, 1].
const std::vector<float> kCoordinates = {-1.875f, -1.0f,  -0.625f, -0.25f, -0.125f, 0.0f,  0.125f, 0.25f,  0.375f,
                                         0.5f,    0.625f, 0.875f,  0.99f,  1.0f,    1.125f, 1.5f,  2.375f, 3.125f};

TEST_F(Sample2D, NearestSelectsFloorOfUUnderEveryAddressMode) {
  for (VkSamplerAddressMode mode : kAllModes) {
    SamplerState sampler = MakeSampler(VK_FILTER_NEAREST, mode);
    sampler.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
    const SampledImageState state = Resolve(view_, &sampler);
    for (float s : kCoordinates) {
      Lane lane;
      lane.coords[0] = s;
      lane.coords[1] = 0.375f;  // row 1's centre
      const TexelValue got = SampleOne(state, lane);
      // i = floor(u + 0), u = s * width.
      const int32_t i = ExpectedWrap(static_cast<int32_t>(std::floor(s * kSize)), kSize, mode);
      EXPECT_FLOAT_EQ(got.f[0], ColumnRed(i, 1.0f)) << "mode " << mode << " s " << s;
      EXPECT_FLOAT_EQ(got.f[1], i < 0 || i >= kSize ? 1.0f : Unorm8(GreenOf(1))) << "mode " << mode << " s " << s;
    }
  }
}

TEST_F(Sample2D, LinearWeighsTheTwoNeighboursOfUMinusHalf) {
  for (VkSamplerAddressMode mode : kAllModes) {
    SamplerState sampler = MakeSampler(VK_FILTER_LINEAR, mode);
    sampler.border_color = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
    const SampledImageState state = Resolve(view_, &sampler);
    for (float s : kCoordinates) {
      Lane lane;
      lane.coords[0] = s;
      lane.coords[1] = 0.625f;  // v - 0.5 = 2: row 2 only (beta = 0)
      const TexelValue got = SampleOne(state, lane);
      // i0 = floor(u - 0.5), i1 = i0 + 1, alpha = frac(u - 0.5).
      const double x = static_cast<double>(s) * kSize - 0.5;
      const int32_t i0 = static_cast<int32_t>(std::floor(x));
      const double alpha = x - std::floor(x);
      const double expected = (1.0 - alpha) * ColumnRed(ExpectedWrap(i0, kSize, mode), 0.0f) +
                              alpha * ColumnRed(ExpectedWrap(i0 + 1, kSize, mode), 0.0f);
      EXPECT_NEAR(got.f[0], expected, 1e-5) << "mode " << mode << " s " << s;
      // Alpha is 1 inside and 0 at the border: it shows the border's weight.
      const bool border0 = ExpectedWrap(i0, kSize, mode) < 0 || ExpectedWrap(i0, kSize, mode) >= kSize;
      const bool border1 = ExpectedWrap(i0 + 1, kSize, mode) < 0 || ExpectedWrap(i0 + 1, kSize, mode) >= kSize;
      const double alpha_expected = (border0 ? 0.0 : 1.0 - alpha) + (border1 ? 0.0 : alpha);
      EXPECT_NEAR(got.f[3], alpha_expected, 1e-6) << "mode " << mode << " s " << s;
    }
  }
}

TEST_F(Sample2D, BilinearCombinesFourTexelsWithProductWeights) {
  const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR);
  const SampledImageState state = Resolve(view_, &sampler);
  Lane lane;
  lane.coords[0] = 0.3f;  // u - 0.5 = 0.7: i0 = 0, alpha = 0.7
  lane.coords[1] = 0.55f;  // v - 0.5 = 1.7: j0 = 1, beta = 0.7
  const TexelValue got = SampleOne(state, lane);
  const double alpha = 0.3 * 4 - 0.5, beta = 0.55 * 4 - 0.5 - 1;
  EXPECT_NEAR(got.f[0], (1 - alpha) * Unorm8(RedOf(0)) + alpha * Unorm8(RedOf(1)), 1e-5);
  EXPECT_NEAR(got.f[1], (1 - beta) * Unorm8(GreenOf(1)) + beta * Unorm8(GreenOf(2)), 1e-5);
  EXPECT_NEAR(got.f[2], Unorm8(7), 1e-6);
  EXPECT_NEAR(got.f[3], 1.0, 1e-6);
}

TEST_F(Sample2D, BorderColoursOfEveryKind) {
  struct Case {
    VkBorderColor color;
    float rgba[4];
  };
  const Case cases[] = {
      {VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, {0, 0, 0, 0}},
      {VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK, {0, 0, 0, 1}},
      {VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, {1, 1, 1, 1}},
      {VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, {0.25f, 0.5f, 0.75f, 0.125f}},
  };
  for (const Case& c : cases) {
    SamplerState sampler = MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
    sampler.border_color = c.color;
    sampler.custom_border_color.float32[0] = 0.25f;
    sampler.custom_border_color.float32[1] = 0.5f;
    sampler.custom_border_color.float32[2] = 0.75f;
    sampler.custom_border_color.float32[3] = 0.125f;
    const SampledImageState state = Resolve(view_, &sampler);
    Lane lane;
    lane.coords[0] = 0.5f;
    lane.coords[1] = -0.1f;  // j = -1: a border texel
    const TexelValue got = SampleOne(state, lane);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(got.f[k], c.rgba[k]) << "border " << c.color << " component " << k;
  }
}

// The sampler's create info, pNext chain included, becomes a SamplerState;
// a Sampler object gives the same minus the chain it does not keep.
TEST_F(Sample2D, SamplerStateFromCreateInfoAndFromTheObject) {
  VkSamplerReductionModeCreateInfo reduction{VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO};
  reduction.reductionMode = VK_SAMPLER_REDUCTION_MODE_MAX;
  VkSamplerCustomBorderColorCreateInfoEXT custom{VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT,
                                                 &reduction};
  custom.customBorderColor.float32[0] = 0.5f;
  custom.customBorderColor.float32[3] = 1.0f;
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, &custom};
  info.magFilter = info.minFilter = VK_FILTER_LINEAR;
  info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  info.borderColor = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
  info.maxLod = 4.0f;
  const SamplerState state = MakeSamplerState(info);
  EXPECT_EQ(state.reduction_mode, VK_SAMPLER_REDUCTION_MODE_MAX);
  EXPECT_EQ(state.custom_border_color.float32[0], 0.5f);
  EXPECT_EQ(state.address_modes[1], VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  EXPECT_EQ(state.max_lod, 4.0f);

  Lane lane;
  lane.coords[0] = 1.5f;
  lane.coords[1] = 0.5f;
  TexelValue got = SampleOne(Resolve(view_, &state), lane);
  EXPECT_EQ(got.f[0], 0.5f);
  EXPECT_EQ(got.f[3], 1.0f);

  Sampler object(info);
  object.reduction_mode = VK_SAMPLER_REDUCTION_MODE_MAX;
  SampledImageState from_object;
  ResolveSampledImage(view_, &object, &from_object);
  EXPECT_EQ(from_object.sampler.reduction_mode, VK_SAMPLER_REDUCTION_MODE_MAX);
  EXPECT_EQ(from_object.mag_filter, VK_FILTER_LINEAR);
  got = SampleOne(from_object, lane);
  EXPECT_EQ(got.f[0], 0.0f);  // the object lost the custom colour with its chain
}

// Texel replacement replaces only the components the format has; conversion
// to RGBA then fills the rest with (0, 0, 0, 1).
TEST(SampleBorder, ReplacesOnlyTheFormatsComponents) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8_UNORM, {2, 2, 1});
  const ImageView view = image.View(VK_IMAGE_VIEW_TYPE_2D);
  for (VkBorderColor color : {VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK}) {
    SamplerState sampler = MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
    sampler.border_color = color;
    const SampledImageState state = Resolve(view, &sampler);
    Lane lane;
    lane.coords[0] = 1.5f;
    const TexelValue got = SampleOne(state, lane);
    const float b = color == VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE ? 1.0f : 0.0f;
    EXPECT_EQ(got.f[0], b);
    EXPECT_EQ(got.f[1], b);
    EXPECT_EQ(got.f[2], 0.0f);
    EXPECT_EQ(got.f[3], 1.0f);
  }
}

TEST_F(Sample2D, UnnormalizedCoordinatesAreTexelUnits) {
  SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  sampler.unnormalized_coordinates = true;
  sampler.max_lod = 0.0f;
  Lane lane;
  lane.coords[0] = 2.99f;
  lane.coords[1] = 1.0f;
  TexelValue got = SampleOne(Resolve(view_, &sampler), lane);
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(RedOf(2)));
  EXPECT_FLOAT_EQ(got.f[1], Unorm8(GreenOf(1)));

  sampler.mag_filter = sampler.min_filter = VK_FILTER_LINEAR;
  lane.coords[0] = 2.0f;  // halfway between the centres of texels 1 and 2
  lane.coords[1] = 1.5f;
  got = SampleOne(Resolve(view_, &sampler), lane);
  EXPECT_NEAR(got.f[0], (Unorm8(RedOf(1)) + Unorm8(RedOf(2))) / 2, 1e-6);
  EXPECT_NEAR(got.f[1], Unorm8(GreenOf(1)), 1e-6);
}

TEST_F(Sample2D, OffsetsMoveTheFootprintByWholeTexels) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT);
  const SampledImageState state = Resolve(view_, &sampler);
  Lane lane;
  lane.coords[0] = 0.375f;  // texel 1
  lane.coords[1] = 0.125f;  // texel 0
  lane.offset[0] = 2;
  lane.offset[1] = -1;  // wraps to row 3
  const TexelValue got = SampleOne(state, lane);
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(RedOf(3)));
  EXPECT_FLOAT_EQ(got.f[1], Unorm8(GreenOf(3)));
}

TEST_F(Sample2D, ManyLanesWithPerLaneOffsetsAndAMask) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT);
  const SampledImageState state = Resolve(view_, &sampler);
  constexpr uint32_t kLanes = 64;
  std::vector<float> s(kLanes), t(kLanes);
  std::vector<int32_t> dx(kLanes);
  for (uint32_t l = 0; l < kLanes; ++l) {
    s[l] = (static_cast<float>(l % 4) + 0.5f) / 4.0f;
    t[l] = (static_cast<float>(l / 4 % 4) + 0.5f) / 4.0f;
    dx[l] = static_cast<int32_t>(l / 16);
  }
  SampleRequest request;
  request.coords[0] = s.data();
  request.coords[1] = t.data();
  request.offsets[0] = dx.data();
  std::vector<TexelValue> out(kLanes);
  for (TexelValue& v : out) v.u[0] = v.u[1] = v.u[2] = v.u[3] = 0xDEADBEEF;
  const LaneMask mask = 0xAAAAAAAAAAAAAAAAull;  // odd lanes only
  Sample(state, request, mask, out.data());
  for (uint32_t l = 0; l < kLanes; ++l) {
    if ((mask >> l & 1) == 0) {
      EXPECT_EQ(out[l].u[0], 0xDEADBEEFu) << "lane " << l << " is masked off";
      continue;
    }
    EXPECT_FLOAT_EQ(out[l].f[0], Unorm8(RedOf(static_cast<int32_t>((l % 4 + l / 16) % 4)))) << l;
    EXPECT_FLOAT_EQ(out[l].f[1], Unorm8(GreenOf(static_cast<int32_t>(l / 4 % 4)))) << l;
  }
}

TEST_F(Sample2D, SwizzleRearrangesAndSubstitutesConstants) {
  const VkComponentMapping mapping = {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_ZERO,
                                      VK_COMPONENT_SWIZZLE_R};
  const ImageView view = image_.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 0, 1, 0, 1,
                                     VK_IMAGE_ASPECT_COLOR_BIT, mapping);
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  Lane lane;
  lane.coords[0] = 0.625f;
  lane.coords[1] = 0.125f;
  const TexelValue got = SampleOne(Resolve(view, &sampler), lane);
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(7));
  EXPECT_EQ(got.f[1], 1.0f);
  EXPECT_EQ(got.f[2], 0.0f);
  EXPECT_FLOAT_EQ(got.f[3], Unorm8(RedOf(2)));
}

// sRGB texels are decoded to linear before filtering.
TEST(SampleSrgb, DecodesEachTexelThenFilters) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_SRGB, {2, 1, 1});
  image.SetRgba8(0, 0, 0, 0, 0, 0, 128, 255, 51);
  image.SetRgba8(0, 0, 1, 0, 0, 255, 10, 128, 204);
  const ImageView view = image.View(VK_IMAGE_VIEW_TYPE_2D);
  auto srgb_to_linear = [](int c) {  // the sRGB EOTF
    const double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  };
  const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR);
  Lane lane;
  lane.coords[0] = 0.5f;  // halfway between the two texels
  lane.coords[1] = 0.5f;
  const TexelValue got = SampleOne(Resolve(view, &sampler), lane);
  EXPECT_NEAR(got.f[0], (srgb_to_linear(0) + srgb_to_linear(255)) / 2, 1e-6);
  EXPECT_NEAR(got.f[1], (srgb_to_linear(128) + srgb_to_linear(10)) / 2, 1e-6);
  EXPECT_NEAR(got.f[2], (srgb_to_linear(255) + srgb_to_linear(128)) / 2, 1e-6);
  EXPECT_NEAR(got.f[3], (51 + 204) / 2.0 / 255.0, 1e-6);  // alpha is linear
}

// Filtered normalized texels stay in the format's range, although the
// bilinear weights may sum to a little more than 1 in float: every texel at
// the format's end (-1 for SNORM, 1 for UNORM) filters to that end, never
// past it.
TEST(SampleNormalized, FilteringStaysInTheFormatsRange) {
  for (const auto& [format, code, end] : {std::tuple{VK_FORMAT_R8_SNORM, uint8_t(0x81), -1.0f},
                                          std::tuple{VK_FORMAT_R8_SNORM, uint8_t(0x80), -1.0f},
                                          std::tuple{VK_FORMAT_R8_UNORM, uint8_t(0xFF), 1.0f}}) {
    TestImage image(VK_IMAGE_TYPE_2D, format, {8, 8, 1});
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t x = 0; x < 8; ++x) image.Set(0, 0, x, y, 0, code);
    const ImageView view = image.View(VK_IMAGE_VIEW_TYPE_2D);
    // REPEAT: footprints across the edges take the general path's four
    // separately weighted texels.
    const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT);
    const SampledImageState state = Resolve(view, &sampler);
    for (int i = 0; i < 16384; ++i) {
      Lane lane;
      lane.coords[0] = float(i % 128) / 127.0f + 1e-4f * float(i / 128);
      lane.coords[1] = float(i / 128) / 127.0f;
      const TexelValue got = SampleOne(state, lane);
      ASSERT_GE(got.f[0], -1.0f) << "format " << format << " at " << lane.coords[0] << "," << lane.coords[1];
      ASSERT_LE(got.f[0], 1.0f) << "format " << format << " at " << lane.coords[0] << "," << lane.coords[1];
      ASSERT_NEAR(got.f[0], end, 1e-6f);
    }
  }
}

// Linear filtering of texels that agree gives that value exactly, at every
// footprint: inside the level (the 2D fast path), across wrapped edges (the
// general path) and in 3D. A weighted sum of products missed 32-bit float
// values by an ulp at the edges (CTS exact_sampling r32g32_sfloat.solid_color).
TEST(SampleFloat, FilteringAgreeingTexelsIsExact) {
  const float values[2] = {0.7529411764705882f, 1.0f / 3.0f};
  for (const VkImageType type : {VK_IMAGE_TYPE_2D, VK_IMAGE_TYPE_3D}) {
    const bool is_3d = type == VK_IMAGE_TYPE_3D;
    TestImage image(type, VK_FORMAT_R32G32_SFLOAT, {16, 16, is_3d ? 4u : 1u});
    for (uint32_t z = 0; z < (is_3d ? 4u : 1u); ++z)
      for (uint32_t y = 0; y < 16; ++y)
        for (uint32_t x = 0; x < 16; ++x) image.Set(0, 0, x, y, z, values);
    const ImageView view = image.View(is_3d ? VK_IMAGE_VIEW_TYPE_3D : VK_IMAGE_VIEW_TYPE_2D);
    for (const VkSamplerAddressMode mode : {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE}) {
      const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR, mode);
      const SampledImageState state = Resolve(view, &sampler);
      for (int i = 0; i < 4096; ++i) {
        Lane lane;
        // Near texel edges (the CTS's 0.499-texel offsets) and everywhere.
        lane.coords[0] = (float(i % 64) - 0.499f) / 16.0f * 0.25f + float(i % 7) * 0.137f;
        lane.coords[1] = (float(i / 64) + 0.499f) / 16.0f * 0.25f - 0.01f;
        lane.coords[2] = float(i % 5) * 0.23f - 0.05f;
        const TexelValue got = SampleOne(state, lane);
        ASSERT_EQ(got.f[0], values[0]) << "at " << lane.coords[0] << "," << lane.coords[1] << "," << lane.coords[2];
        ASSERT_EQ(got.f[1], values[1]) << "at " << lane.coords[0] << "," << lane.coords[1] << "," << lane.coords[2];
      }
    }
  }
}

TEST_F(Sample2D, MinAndMaxReductionTakeNonZeroWeightTexelsOnly) {
  SamplerState sampler = MakeSampler(VK_FILTER_LINEAR);
  Lane lane;
  lane.coords[0] = 0.3f;    // i0 = 0, i1 = 1, both weighted
  lane.coords[1] = 0.375f;  // v - 0.5 = 1: row 1 at weight 1, row 2 at weight 0
  sampler.reduction_mode = VK_SAMPLER_REDUCTION_MODE_MIN;
  TexelValue got = SampleOne(Resolve(view_, &sampler), lane);
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(RedOf(0)));
  EXPECT_FLOAT_EQ(got.f[1], Unorm8(GreenOf(1)));
  sampler.reduction_mode = VK_SAMPLER_REDUCTION_MODE_MAX;
  got = SampleOne(Resolve(view_, &sampler), lane);
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(RedOf(1)));
  EXPECT_FLOAT_EQ(got.f[1], Unorm8(GreenOf(1)));  // row 2 has weight 0
}

// 1D and 1D-array views read row 0 of layer l; t is the layer coordinate.
TEST(Sample1D, ArrayLayerComesFromTheSecondCoordinate) {
  TestImage image(VK_IMAGE_TYPE_1D, VK_FORMAT_R8G8B8A8_UNORM, {4, 1, 1}, 1, 3);
  for (uint32_t layer = 0; layer < 3; ++layer)
    for (uint32_t x = 0; x < 4; ++x)
      image.SetRgba8(0, layer, x, 0, 0, static_cast<uint8_t>(x * 50), static_cast<uint8_t>(layer * 100), 0, 255);
  const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR);
  const SampledImageState state = Resolve(image.View(VK_IMAGE_VIEW_TYPE_1D_ARRAY), &sampler);
  Lane lane;
  lane.coords[0] = 0.5f;  // between texels 1 and 2
  lane.coords[1] = 1.6f;  // layer 2
  const TexelValue got = SampleOne(state, lane);
  EXPECT_NEAR(got.f[0], Unorm8(75), 1e-6);
  EXPECT_FLOAT_EQ(got.f[1], Unorm8(200));
}

}  // namespace
}  // namespace duet::texel::sample_test

// Depth comparison (every compare op, percentage-closer filtering, Dref
// clamping for UNORM depth, border texels, depth and stencil aspects) and
// texel gathering (order, components after the swizzle, wrapping, offsets,
// ConstOffsets, Dref, integer formats, cube edges, the base level).
#include <gtest/gtest.h>

#include <cstdint>

#include "texel_sample_test_image.h"

namespace duet::texel::sample_test {
namespace {

// A 2x2 D32 image: depths 0.1, 0.3 (row 0) and 0.5, 0.7 (row 1).
class SampleCompare : public ::testing::Test {
 protected:
  SampleCompare() : image_(VK_IMAGE_TYPE_2D, VK_FORMAT_D32_SFLOAT, {2, 2, 1}) {
    image_.Set(0, 0, 0, 0, 0, 0.1f, VK_IMAGE_ASPECT_DEPTH_BIT);
    image_.Set(0, 0, 1, 0, 0, 0.3f, VK_IMAGE_ASPECT_DEPTH_BIT);
    image_.Set(0, 0, 0, 1, 0, 0.5f, VK_IMAGE_ASPECT_DEPTH_BIT);
    image_.Set(0, 0, 1, 1, 0, 0.7f, VK_IMAGE_ASPECT_DEPTH_BIT);
    view_ = image_.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 0, 1, 0, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  }

  static SamplerState Shadow(VkFilter filter, VkCompareOp op) {
    SamplerState sampler = MakeSampler(filter);
    sampler.compare_enable = true;
    sampler.compare_op = op;
    return sampler;
  }

  TexelValue SampleAt(const SamplerState& sampler, float s, float t, float dref) {
    Lane lane;
    lane.coords[0] = s;
    lane.coords[1] = t;
    lane.has_dref = true;
    lane.dref = dref;
    return SampleOne(Resolve(view_, &sampler), lane);
  }

  TestImage image_;
  ImageView view_;
};

// Each texel is compared (Dref as reference, the texel as test value) before
// filtering: at the centre of the 2x2 image every texel weighs 1/4.
TEST_F(SampleCompare, LinearFilteringAveragesTheComparisonResults) {
  struct Case {
    VkCompareOp op;
    float dref;
    float expected;
  };
  const Case cases[] = {
      {VK_COMPARE_OP_NEVER, 0.4f, 0.0f},
      {VK_COMPARE_OP_LESS, 0.4f, 0.5f},              // 0.4 < 0.5, 0.7
      {VK_COMPARE_OP_EQUAL, 0.5f, 0.25f},            // 0.5
      {VK_COMPARE_OP_LESS_OR_EQUAL, 0.3f, 0.75f},    // 0.3, 0.5, 0.7
      {VK_COMPARE_OP_GREATER, 0.4f, 0.5f},           // 0.1, 0.3
      {VK_COMPARE_OP_NOT_EQUAL, 0.5f, 0.75f},        // all but 0.5
      {VK_COMPARE_OP_GREATER_OR_EQUAL, 0.3f, 0.5f},  // 0.1, 0.3
      {VK_COMPARE_OP_ALWAYS, 0.4f, 1.0f},
  };
  for (const Case& c : cases) {
    const TexelValue got = SampleAt(Shadow(VK_FILTER_LINEAR, c.op), 0.5f, 0.5f, c.dref);
    EXPECT_FLOAT_EQ(got.f[0], c.expected) << "op " << c.op;
    EXPECT_EQ(got.f[1], 0.0f);
    EXPECT_EQ(got.f[2], 0.0f);
    EXPECT_EQ(got.f[3], 1.0f);
  }
  // Off-centre: u - 0.5 = 0.75, v - 0.5 = 0.5: weights 1/8, 3/8 (row 0), 1/8, 3/8 (row 1).
  EXPECT_FLOAT_EQ(SampleAt(Shadow(VK_FILTER_LINEAR, VK_COMPARE_OP_GREATER), 0.625f, 0.5f, 0.2f).f[0], 0.125f);
  EXPECT_FLOAT_EQ(SampleAt(Shadow(VK_FILTER_LINEAR, VK_COMPARE_OP_LESS), 0.625f, 0.5f, 0.4f).f[0], 0.5f);
  EXPECT_FLOAT_EQ(SampleAt(Shadow(VK_FILTER_LINEAR, VK_COMPARE_OP_LESS), 0.625f, 0.5f, 0.6f).f[0], 0.375f);
}

TEST_F(SampleCompare, NearestReturnsOneComparison) {
  EXPECT_EQ(SampleAt(Shadow(VK_FILTER_NEAREST, VK_COMPARE_OP_LESS), 0.75f, 0.75f, 0.6f).f[0], 1.0f);
  EXPECT_EQ(SampleAt(Shadow(VK_FILTER_NEAREST, VK_COMPARE_OP_LESS), 0.75f, 0.25f, 0.6f).f[0], 0.0f);
}

TEST_F(SampleCompare, BorderTexelsCompareTheBorderDepth) {
  SamplerState sampler = Shadow(VK_FILTER_NEAREST, VK_COMPARE_OP_LESS);
  sampler.address_modes[0] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  sampler.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;  // D = 1
  EXPECT_EQ(SampleAt(sampler, 1.5f, 0.25f, 0.9f).f[0], 1.0f);
  sampler.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;  // D = 0
  EXPECT_EQ(SampleAt(sampler, 1.5f, 0.25f, 0.9f).f[0], 0.0f);
}

// D32 is a float format: Dref is used as given. D16 is UNORM: Dref is first
// clamped to [0, 1].
TEST_F(SampleCompare, DrefIsClampedForUnormDepthOnly) {
  EXPECT_EQ(SampleAt(Shadow(VK_FILTER_NEAREST, VK_COMPARE_OP_GREATER), 0.25f, 0.25f, -0.5f).f[0], 0.0f);

  TestImage d16(VK_IMAGE_TYPE_2D, VK_FORMAT_D16_UNORM, {2, 1, 1});
  d16.Set<uint16_t>(0, 0, 0, 0, 0, 0, VK_IMAGE_ASPECT_DEPTH_BIT);
  d16.Set<uint16_t>(0, 0, 1, 0, 0, 0xFFFF, VK_IMAGE_ASPECT_DEPTH_BIT);
  const ImageView view = d16.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 0, 1, 0, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  Lane lane;
  lane.has_dref = true;
  lane.coords[0] = 0.25f;
  lane.dref = -0.5f;  // clamped to 0, which equals texel 0
  const SamplerState equal = Shadow(VK_FILTER_NEAREST, VK_COMPARE_OP_EQUAL);
  EXPECT_EQ(SampleOne(Resolve(view, &equal), lane).f[0], 1.0f);
  lane.coords[0] = 0.75f;
  lane.dref = 1.5f;  // clamped to 1: not greater than texel 1.0
  const SamplerState greater = Shadow(VK_FILTER_NEAREST, VK_COMPARE_OP_GREATER);
  EXPECT_EQ(SampleOne(Resolve(view, &greater), lane).f[0], 0.0f);
}

TEST(SampleDepthStencil, D24DepthComparesAndTheStencilAspectReadsIntegers) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_D24_UNORM_S8_UINT, {2, 1, 1});
  image.Set<uint32_t>(0, 0, 0, 0, 0, 0x800000u, VK_IMAGE_ASPECT_DEPTH_BIT);  // 8388608 / 16777215, just over 0.5
  image.Set<uint8_t>(0, 0, 0, 0, 0, 200, VK_IMAGE_ASPECT_STENCIL_BIT);
  image.Set<uint8_t>(0, 0, 1, 0, 0, 7, VK_IMAGE_ASPECT_STENCIL_BIT);
  SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  sampler.compare_enable = true;
  sampler.compare_op = VK_COMPARE_OP_LESS;
  Lane lane;
  lane.coords[0] = 0.25f;
  lane.has_dref = true;
  lane.dref = 0.5f;
  const ImageView depth = image.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 0, 1, 0, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  EXPECT_EQ(SampleOne(Resolve(depth, &sampler), lane).f[0], 1.0f);

  const ImageView stencil =
      image.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 0, 1, 0, 1, VK_IMAGE_ASPECT_STENCIL_BIT);
  const SamplerState plain = MakeSampler(VK_FILTER_LINEAR);  // integer texels are never filtered
  Lane stencil_lane;
  stencil_lane.coords[0] = 0.6f;
  const TexelValue got = SampleOne(Resolve(stencil, &plain), stencil_lane);
  EXPECT_EQ(got.u[0], 7u);
  EXPECT_EQ(got.u[1], 0u);
  EXPECT_EQ(got.u[3], 1u);
  EXPECT_EQ(FetchOne(Resolve(stencil, nullptr), 0).u[0], 200u);
}

// --- gathers -----------------------------------------------------------------

uint8_t RedOf(int32_t x) { return static_cast<uint8_t>(10 + 60 * x); }
uint8_t GreenOf(int32_t y) { return static_cast<uint8_t>(10 + 60 * y); }

class SampleGather : public ::testing::Test {
 protected:
  SampleGather() : image_(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 2) {
    for (int32_t y = 0; y < 4; ++y)
      for (int32_t x = 0; x < 4; ++x) image_.SetRgba8(0, 0, x, y, 0, RedOf(x), GreenOf(y), 7, 255);
    for (int32_t y = 0; y < 2; ++y)
      for (int32_t x = 0; x < 2; ++x) image_.SetRgba8(1, 0, x, y, 0, 0, 0, 0, 0);
    view_ = image_.View(VK_IMAGE_VIEW_TYPE_2D);
  }

  TestImage image_;
  ImageView view_;
};

// u = v = 2: i0 = j0 = 1, i1 = j1 = 2; results in the order i0j1, i1j1, i1j0, i0j0.
TEST_F(SampleGather, ReturnsOneComponentOfTheFourLinearTexelsInSpecOrder) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);  // gathers use LINEAR's texels regardless
  const SampledImageState state = Resolve(view_, &sampler);
  Lane lane;
  lane.coords[0] = lane.coords[1] = 0.5f;
  lane.lod = 1.0f;  // ignored: gathers read the base level
  TexelValue got = GatherOne(state, lane, 0);
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(RedOf(1)));
  EXPECT_FLOAT_EQ(got.f[1], Unorm8(RedOf(2)));
  EXPECT_FLOAT_EQ(got.f[2], Unorm8(RedOf(2)));
  EXPECT_FLOAT_EQ(got.f[3], Unorm8(RedOf(1)));
  got = GatherOne(state, lane, 1);
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(GreenOf(2)));
  EXPECT_FLOAT_EQ(got.f[1], Unorm8(GreenOf(2)));
  EXPECT_FLOAT_EQ(got.f[2], Unorm8(GreenOf(1)));
  EXPECT_FLOAT_EQ(got.f[3], Unorm8(GreenOf(1)));
}

TEST_F(SampleGather, ComponentIsChosenAfterTheSwizzle) {
  const VkComponentMapping mapping = {VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_ONE,
                                      VK_COMPONENT_SWIZZLE_ZERO};
  const ImageView view = image_.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 0, 1, 0, 1,
                                     VK_IMAGE_ASPECT_COLOR_BIT, mapping);
  const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR);
  const SampledImageState state = Resolve(view, &sampler);
  Lane lane;
  lane.coords[0] = lane.coords[1] = 0.5f;
  TexelValue got = GatherOne(state, lane, 0);  // G of the texels
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(GreenOf(2)));
  EXPECT_FLOAT_EQ(got.f[3], Unorm8(GreenOf(1)));
  got = GatherOne(state, lane, 2);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(got.f[k], 1.0f);
  got = GatherOne(state, lane, 3);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(got.f[k], 0.0f);
}

TEST_F(SampleGather, WrapsOffsetsAndConstOffsets) {
  const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT);
  const SampledImageState state = Resolve(view_, &sampler);
  Lane lane;
  lane.coords[0] = 0.0f;  // u - 0.5 = -0.5: i0 = -1 wraps to 3, i1 = 0
  lane.coords[1] = 0.5f;
  TexelValue got = GatherOne(state, lane, 0);
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(RedOf(3)));
  EXPECT_FLOAT_EQ(got.f[1], Unorm8(RedOf(0)));

  lane.coords[0] = 0.5f;
  lane.offset[0] = 1;  // i0 = 2, i1 = 3
  got = GatherOne(state, lane, 0);
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(RedOf(2)));
  EXPECT_FLOAT_EQ(got.f[1], Unorm8(RedOf(3)));

  // ConstOffsets: result k is texel i0j0 = (1, 1) moved by offset k.
  lane.offset[0] = 0;
  const int32_t offsets[4][2] = {{0, 0}, {1, 0}, {0, 1}, {-2, -2}};
  got = GatherOne(state, lane, 0, offsets);
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(RedOf(1)));
  EXPECT_FLOAT_EQ(got.f[1], Unorm8(RedOf(2)));
  EXPECT_FLOAT_EQ(got.f[2], Unorm8(RedOf(1)));
  EXPECT_FLOAT_EQ(got.f[3], Unorm8(RedOf(3)));  // -1 wraps to 3
  got = GatherOne(state, lane, 1, offsets);
  EXPECT_FLOAT_EQ(got.f[2], Unorm8(GreenOf(2)));
  EXPECT_FLOAT_EQ(got.f[3], Unorm8(GreenOf(3)));
}

TEST_F(SampleCompare, DrefGatherReturnsTheFourComparisons) {
  const SamplerState sampler = Shadow(VK_FILTER_LINEAR, VK_COMPARE_OP_LESS);
  Lane lane;
  lane.coords[0] = lane.coords[1] = 0.5f;
  lane.has_dref = true;
  lane.dref = 0.4f;
  // i0j1 = 0.5, i1j1 = 0.7, i1j0 = 0.3, i0j0 = 0.1
  const TexelValue got = GatherOne(Resolve(view_, &sampler), lane, 0);
  EXPECT_EQ(got.f[0], 1.0f);
  EXPECT_EQ(got.f[1], 1.0f);
  EXPECT_EQ(got.f[2], 0.0f);
  EXPECT_EQ(got.f[3], 0.0f);
}

TEST(SampleGatherInteger, GathersExactIntegers) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_R32G32B32A32_UINT, {2, 2, 1});
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 2; ++x) {
      const uint32_t texel[4] = {x, y, 0xFFFFFF00u + 2 * y + x, 9};
      image.Set(0, 0, x, y, 0, texel);
    }
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  Lane lane;
  lane.coords[0] = lane.coords[1] = 0.5f;
  const TexelValue got = GatherOne(Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D), &sampler), lane, 2);
  EXPECT_EQ(got.u[0], 0xFFFFFF02u);  // (0, 1)
  EXPECT_EQ(got.u[1], 0xFFFFFF03u);  // (1, 1)
  EXPECT_EQ(got.u[2], 0xFFFFFF01u);  // (1, 0)
  EXPECT_EQ(got.u[3], 0xFFFFFF00u);  // (0, 0)
}

// A gather at +X's left edge reads column 3 of +Z for i0 (see the cube tests).
TEST(SampleGatherCube, ReadsAcrossFaceEdges) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8_UINT, {4, 4, 1}, 1, 6, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT);
  for (uint32_t face = 0; face < 6; ++face)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 4; ++x)
        image.Set<uint8_t>(0, face, x, y, 0, static_cast<uint8_t>(face * 16 + y * 4 + x));
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  Lane lane;
  lane.coords[0] = 1.0f;
  lane.coords[1] = -0.25f;  // tc = 0.25: v - 0.5 = 2, j0 = 2, j1 = 3
  lane.coords[2] = 0.99f;   // sc = -0.99: i0 = -1, i1 = 0
  const TexelValue got = GatherOne(Resolve(image.View(VK_IMAGE_VIEW_TYPE_CUBE), &sampler), lane, 0);
  EXPECT_EQ(got.u[0], 4u * 16 + 3 * 4 + 3);  // i0j1: +Z (3, 3)
  EXPECT_EQ(got.u[1], 0u * 16 + 3 * 4 + 0);  // i1j1: +X (0, 3)
  EXPECT_EQ(got.u[2], 0u * 16 + 2 * 4 + 0);  // i1j0: +X (0, 2)
  EXPECT_EQ(got.u[3], 4u * 16 + 2 * 4 + 3);  // i0j0: +Z (3, 2)
}

}  // namespace
}  // namespace duet::texel::sample_test

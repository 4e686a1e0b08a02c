// Texel fetches (levels, layers, samples, out-of-range texels), array layer
// selection for samples, integer formats and integer border colours, 2D
// views of 3D images, and block-compressed formats through the per-format
// texel load.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "texel_sample_test_image.h"

namespace duet::texel::sample_test {
namespace {

TEST(SampleFetch, ReadsLevelsAndLayersOfTheView) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 2, 3);
  for (uint32_t level = 0; level < 2; ++level)
    for (uint32_t layer = 0; layer < 3; ++layer)
      for (uint32_t y = 0; y < (4u >> level); ++y)
        for (uint32_t x = 0; x < (4u >> level); ++x)
          image.SetRgba8(level, layer, x, y, 0, static_cast<uint8_t>(x + 4 * y), static_cast<uint8_t>(layer),
                         static_cast<uint8_t>(level), 200);
  // The view starts at level 1 and layer 1: its (0, 0) is the image's (1, 1).
  const SampledImageState view1 =
      Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_UNDEFINED, 1, 1, 1, 2), nullptr);
  const TexelValue got = FetchOne(view1, 1, 1, /*layer=*/1);
  EXPECT_FLOAT_EQ(got.f[0], Unorm8(5));
  EXPECT_FLOAT_EQ(got.f[1], Unorm8(2));
  EXPECT_FLOAT_EQ(got.f[2], Unorm8(1));
  EXPECT_FLOAT_EQ(got.f[3], Unorm8(200));

  const SampledImageState all = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY), nullptr);
  EXPECT_FLOAT_EQ(FetchOne(all, 3, 2, 0, /*lod=*/0).f[0], Unorm8(11));
  EXPECT_FLOAT_EQ(FetchOne(all, 1, 0, 2, /*lod=*/1).f[2], Unorm8(1));
}

// Under robustImageAccess an invalid texel reads 0 in R, G, B, and 0 or 1
// in A: this driver gives 0 when the format has alpha and 1 (conversion to
// RGBA) when it has not. The swizzle still applies.
TEST(SampleFetch, OutOfRangeTexelsReadZero) {
  TestImage rgba(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 2, 2);
  std::memset(rgba.Texel(0, 0, 0, 0), 0xFF, 64);
  const SampledImageState state = Resolve(rgba.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY), nullptr);
  const int32_t bad[][5] = {{-1, 0, 0, 0, 0}, {4, 0, 0, 0, 0}, {0, -1, 0, 0, 0}, {0, 4, 0, 0, 0},
                            {0, 0, 2, 0, 0},  {0, 0, -1, 0, 0}, {0, 0, 0, 2, 0}, {0, 0, 0, -1, 0},
                            {2, 2, 0, 1, 0},  {0, 0, 0, 0, 1}};
  for (const auto& c : bad) {
    const TexelValue got = FetchOne(state, c[0], c[1], c[2], c[3], c[4]);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(got.u[k], 0u) << c[0] << "," << c[1] << "," << c[2] << " lod " << c[3];
  }
  EXPECT_EQ(FetchOne(state, 0, 0).f[0], 1.0f);  // in range

  TestImage r8(VK_IMAGE_TYPE_2D, VK_FORMAT_R8_UNORM, {2, 2, 1});
  TexelValue got = FetchOne(Resolve(r8.View(VK_IMAGE_VIEW_TYPE_2D), nullptr), 5, 0);
  EXPECT_EQ(got.f[0], 0.0f);
  EXPECT_EQ(got.f[3], 1.0f);

  TestImage r32ui(VK_IMAGE_TYPE_2D, VK_FORMAT_R32_UINT, {2, 2, 1});
  const VkComponentMapping mapping = {VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R,
                                      VK_COMPONENT_SWIZZLE_IDENTITY};
  got = FetchOne(Resolve(r32ui.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 0, 1, 0, 1,
                                    VK_IMAGE_ASPECT_COLOR_BIT, mapping),
                         nullptr),
                 0, 9);
  EXPECT_EQ(got.u[0], 1u);  // A: integer one
  EXPECT_EQ(got.u[1], 1u);
  EXPECT_EQ(got.u[2], 0u);
  EXPECT_EQ(got.u[3], 1u);
}

TEST(SampleFetch, ReadsEachSampleOfAMultisampledImage) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_R32_SFLOAT, {2, 2, 1}, 1, 1, 0, VK_SAMPLE_COUNT_4_BIT);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 2; ++x)
      for (uint32_t s = 0; s < 4; ++s)
        image.Set(0, 0, x, y, 0, static_cast<float>(100 * y + 10 * x + s), VK_IMAGE_ASPECT_COLOR_BIT, s);
  const SampledImageState state = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D), nullptr);
  EXPECT_EQ(FetchOne(state, 1, 1, 0, 0, 3).f[0], 113.0f);
  EXPECT_EQ(FetchOne(state, 0, 1, 0, 0, 2).f[0], 102.0f);
  EXPECT_EQ(FetchOne(state, 1, 0, 0, 0, 0).f[0], 10.0f);
  EXPECT_EQ(FetchOne(state, 1, 0, 0, 0, 4).f[0], 0.0f);  // no sample 4
}

TEST(SampleFetch, ThreeDimensionalCoordinates) {
  TestImage image(VK_IMAGE_TYPE_3D, VK_FORMAT_R16_UINT, {3, 2, 4});
  for (uint32_t z = 0; z < 4; ++z)
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < 3; ++x) image.Set<uint16_t>(0, 0, x, y, z, static_cast<uint16_t>(100 * z + 10 * y + x));
  const SampledImageState state = Resolve(image.View(VK_IMAGE_VIEW_TYPE_3D), nullptr);
  EXPECT_EQ(FetchOne(state, 2, 1, 3).u[0], 312u);
  EXPECT_EQ(FetchOne(state, 2, 1, 4).u[0], 0u);
  EXPECT_EQ(FetchOne(state, 2, 1, 4).u[3], 1u);
}

// A 2D-array view of a 3D image (2D_ARRAY_COMPATIBLE) sees slices as layers.
TEST(SampleFetch, TwoDimensionalViewsOfAThreeDimensionalImageReadSlices) {
  TestImage image(VK_IMAGE_TYPE_3D, VK_FORMAT_R8_UINT, {2, 2, 4}, 1, 1, VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT);
  for (uint32_t z = 0; z < 4; ++z)
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < 2; ++x)
        image.Set<uint8_t>(0, 0, x, y, z, static_cast<uint8_t>(100 + 10 * z + 2 * y + x));
  const SampledImageState state =
      Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_UNDEFINED, 0, 1, 1, 3), nullptr);
  EXPECT_EQ(FetchOne(state, 1, 1, 0).u[0], 113u);  // slice 1
  EXPECT_EQ(FetchOne(state, 0, 1, 2).u[0], 132u);  // slice 3
  uint32_t size[3];
  EXPECT_EQ(QuerySize(state, 0, size), 3u);
  EXPECT_EQ(size[2], 3u);
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  Lane lane;
  lane.coords[0] = 0.75f;
  lane.coords[1] = 0.25f;
  lane.coords[2] = 1.0f;
  EXPECT_EQ(SampleOne(Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_UNDEFINED, 0, 1, 1, 3), &sampler),
                      lane).u[0],
            121u);
}

// l = clamp(RNE(a), 0, layerCount - 1): ties go to the even layer.
TEST(SampleArray, LayerIsRoundedToNearestEvenAndClamped) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8_UINT, {1, 1, 1}, 1, 4);
  for (uint32_t layer = 0; layer < 4; ++layer) image.Set<uint8_t>(0, layer, 0, 0, 0, static_cast<uint8_t>(layer));
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  const SampledImageState state = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D_ARRAY), &sampler);
  const struct {
    float a;
    uint32_t layer;
  } cases[] = {{0.4f, 0}, {0.5f, 0}, {0.6f, 1}, {1.5f, 2}, {2.5f, 2}, {3.49f, 3}, {-0.6f, 0}, {10.0f, 3}};
  for (const auto& c : cases) {
    Lane lane;
    lane.coords[0] = lane.coords[1] = 0.5f;
    lane.coords[2] = c.a;
    EXPECT_EQ(SampleOne(state, lane).u[0], c.layer) << "a = " << c.a;
  }
}

TEST(SampleInteger, NeverFiltersAndUsesIntegerBorders) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_SINT, {2, 1, 1}, 2);
  image.Set<uint32_t>(0, 0, 0, 0, 0, 0x7F0180F6u);  // R = -10, G = -128, B = 1, A = 127
  image.Set<uint32_t>(0, 0, 1, 0, 0, 0x00000005u);
  image.Set<uint32_t>(1, 0, 0, 0, 0, 0x00000063u);  // level 1: R = 99
  SamplerState sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                     VK_SAMPLER_MIPMAP_MODE_LINEAR);
  sampler.border_color = VK_BORDER_COLOR_INT_OPAQUE_WHITE;
  const SampledImageState state = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D), &sampler);
  Lane lane;
  lane.coords[0] = 0.45f;  // nearest: texel 0
  lane.coords[1] = 0.5f;
  TexelValue got = SampleOne(state, lane);
  EXPECT_EQ(got.i[0], -10);
  EXPECT_EQ(got.i[1], -128);
  EXPECT_EQ(got.i[2], 1);
  EXPECT_EQ(got.i[3], 127);
  lane.lod = 0.7f;  // nearest mip level: 1
  EXPECT_EQ(SampleOne(state, lane).i[0], 99);
  lane.lod = 0.0f;
  lane.coords[0] = 1.2f;  // border
  got = SampleOne(state, lane);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(got.i[k], 1);

  TestImage r32(VK_IMAGE_TYPE_2D, VK_FORMAT_R32_SINT, {1, 1, 1});
  sampler.border_color = VK_BORDER_COLOR_INT_CUSTOM_EXT;
  sampler.custom_border_color.int32[0] = -7;
  sampler.custom_border_color.int32[1] = 8;
  got = SampleOne(Resolve(r32.View(VK_IMAGE_VIEW_TYPE_2D), &sampler), lane);
  EXPECT_EQ(got.i[0], -7);  // only R: the format's one component
  EXPECT_EQ(got.i[1], 0);
  EXPECT_EQ(got.i[3], 1);
}

// One BC1 block per 4x4 texels; each block here is one colour (both
// endpoints equal, every index 0), so texel (x, y) shows its block.
TEST(SampleBlockCompressed, ReadsTexelsThroughTheBlockDecoder) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_BC1_RGB_UNORM_BLOCK, {8, 8, 1});
  const uint16_t colors[4] = {0xF800, 0x07E0, 0x001F, 0xFFFF};  // red, green, blue, white (RGB565)
  for (uint32_t b = 0; b < 4; ++b) {
    uint8_t block[8] = {};
    std::memcpy(block, &colors[b], 2);
    std::memcpy(block + 2, &colors[b], 2);
    std::memcpy(image.Texel(0, 0, b % 2, b / 2), block, 8);  // block coordinates
  }
  const SampledImageState state = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D), nullptr);
  TexelValue got = FetchOne(state, 5, 2);  // block (1, 0): green
  EXPECT_EQ(got.f[0], 0.0f);
  EXPECT_EQ(got.f[1], 1.0f);
  EXPECT_EQ(got.f[3], 1.0f);
  got = FetchOne(state, 3, 7);  // block (0, 1): blue
  EXPECT_EQ(got.f[2], 1.0f);
  EXPECT_EQ(FetchOne(state, 8, 0).f[0], 0.0f);  // outside

  const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR);
  Lane lane;
  lane.coords[0] = 0.5f;  // between columns 3 (red block) and 4 (green block)
  lane.coords[1] = 0.25f;
  got = SampleOne(Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D), &sampler), lane);
  EXPECT_FLOAT_EQ(got.f[0], 0.5f);
  EXPECT_FLOAT_EQ(got.f[1], 0.5f);
  EXPECT_FLOAT_EQ(got.f[2], 0.0f);
}

// An uncompressed view of a block-compressed image sees one texel per block.
TEST(SampleBlockCompressed, UncompressedViewsCountBlocksAsTexels) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_BC1_RGB_UNORM_BLOCK, {8, 8, 1}, 1, 1,
                  VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT | VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT);
  const uint32_t raw[2] = {0x12345678u, 0x9ABCDEF0u};
  std::memcpy(image.Texel(0, 0, 1, 1), raw, 8);
  const SampledImageState state = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R32G32_UINT), nullptr);
  uint32_t size[3];
  QuerySize(state, 0, size);
  EXPECT_EQ(size[0], 2u);
  EXPECT_EQ(size[1], 2u);
  const TexelValue got = FetchOne(state, 1, 1);
  EXPECT_EQ(got.u[0], 0x12345678u);
  EXPECT_EQ(got.u[1], 0x9ABCDEF0u);
}

}  // namespace
}  // namespace duet::texel::sample_test

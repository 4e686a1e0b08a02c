// textureCompressionASTC_LDR through the loader: the feature bit and the
// properties of the 28 formats, and images libastcenc encodes (uploaded by
// buffer copies, with partial blocks at the right and bottom edges) read back
// through texelFetch, filtered textureLod across block edges, a second mip
// level, and blits into R32G32B32A32_SFLOAT. Expected texels are
// libastcenc's decoding of the same blocks (tests/support/astc_reference.h).
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "compressed_texture_fixture.h"
#include "support/astc_reference.h"

namespace duet_test {
namespace {

float SrgbCodeToLinear(uint8_t code) {
  const double c = code / 255.0;
  return float(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
}

// An image of smooth gradients, hard edges and noise, so the encoder picks
// many kinds of block.
std::vector<uint8_t> TestPattern(uint32_t width, uint32_t height) {
  std::vector<uint8_t> pixels(size_t(width) * height * 4);
  uint32_t noise = 12345;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* p = &pixels[(size_t(y) * width + x) * 4];
      noise = noise * 1664525u + 1013904223u;
      p[0] = uint8_t(x * 255 / width);
      p[1] = uint8_t(x < width / 2 ? y * 255 / height : 255 - y * 255 / height);
      p[2] = uint8_t(y < height / 2 ? (noise >> 24) : ((x / 3 + y / 2) % 2 != 0 ? 30 : 230));
      p[3] = uint8_t(x > width * 2 / 3 ? 255 - y * 200 / height : 255);
    }
  return pixels;
}

bool Near(float expected, float actual, VkFormat format) {
  // sRGB references come from the formula in double; the driver's table
  // holds the same values rounded once to float.
  return AstcIsSrgb(format) ? std::fabs(expected - actual) <= 1e-6f : expected == actual;
}

class TextureCompressionAstc : public CompressedTextureFixture {
 protected:
  void SetUp() override {
    CompressedTextureFixture::SetUp();
    if (HasFatalFailure()) return;
    if (!features_.textureCompressionASTC_LDR) GTEST_SKIP() << "textureCompressionASTC_LDR is not supported";
  }
};

TEST_F(TextureCompressionAstc, FeatureAndFormatProperties) {
  for (VkFormat format = VK_FORMAT_ASTC_4x4_UNORM_BLOCK; format <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK;
       format = VkFormat(format + 1)) {
    // Through VkFormatProperties3, as VK_KHR_format_feature_flags2 reports them.
    VkFormatProperties3 p3{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
    VkFormatProperties2 p2{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &p3};
    vkGetPhysicalDeviceFormatProperties2(phys_, format, &p2);
    constexpr VkFormatFeatureFlags2 kRequired =
        VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_2_BLIT_SRC_BIT |
        VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT | VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT |
        VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
    EXPECT_EQ(p3.optimalTilingFeatures & kRequired, kRequired) << format;
    EXPECT_EQ(p2.formatProperties.optimalTilingFeatures, VkFormatFeatureFlags(p3.optimalTilingFeatures)) << format;
    // Decoded only: never written by the device, no texel buffers.
    EXPECT_EQ(p3.optimalTilingFeatures & (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT |
                                          VK_FORMAT_FEATURE_2_BLIT_DST_BIT),
              0u)
        << format;
    EXPECT_EQ(p3.bufferFeatures, 0u) << format;
    VkImageFormatProperties ifp;
    EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties(phys_, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                       kUsage, 0, &ifp),
              VK_SUCCESS)
        << format;
  }
  // HDR (VK_EXT_texture_compression_astc_hdr) is not decoded, so not offered.
  VkFormatProperties hdr;
  vkGetPhysicalDeviceFormatProperties(phys_, VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK, &hdr);
  EXPECT_EQ(hdr.optimalTilingFeatures, 0u);
}

class AstcSampling : public TextureCompressionAstc, public ::testing::WithParamInterface<VkFormat> {};

// Every texel fetched, with the image's extent cutting the last column and
// row of blocks short; a bilinear sample on the edge between two blocks is
// the mean of the texels either side; a second level of one block reads
// back too.
TEST_P(AstcSampling, FetchesAndFiltersMatchLibastcenc) {
  const VkFormat format = GetParam();
  const AstcDims dims = AstcBlockDims(format);
  constexpr uint32_t kBlocksX = 3, kBlocksY = 2;
  const uint32_t width = kBlocksX * dims.width - 1, height = kBlocksY * dims.height - 2;
  const std::vector<uint8_t> blocks =
      AstcEncode(format, kBlocksX, kBlocksY, TestPattern(kBlocksX * dims.width, kBlocksY * dims.height));
  ASSERT_FALSE(blocks.empty());
  const auto expected = AstcDecode(format, blocks.data(), kBlocksX, kBlocksY, SrgbCodeToLinear);
  ASSERT_FALSE(expected.empty());
  const uint32_t full_width = kBlocksX * dims.width;
  auto at = [&](uint32_t x, uint32_t y) { return expected[size_t(y) * full_width + x]; };

  // Level 1 (width/2 x height/2 texels) gets the first block of level 0.
  const VkImage image = MakeCompressedImage(format, {width, height, 1}, 2);
  Upload(image, 0, 0, {width, height, 1}, blocks);
  const uint32_t level1_width = width / 2, level1_height = height / 2;
  const uint32_t level1_blocks_x = (level1_width + dims.width - 1) / dims.width;
  const uint32_t level1_blocks_y = (level1_height + dims.height - 1) / dims.height;
  std::vector<uint8_t> level1;
  for (uint32_t b = 0; b < level1_blocks_x * level1_blocks_y; ++b) level1.insert(level1.end(), blocks.begin(), blocks.begin() + 16);
  Upload(image, 1, 0, {level1_width, level1_height, 1}, level1);

  std::vector<std::array<float, 4>> points;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) points.push_back({float(x), float(y), 0.0f, 1.0f});
  const size_t fetches = points.size();
  // Bilinear samples centred on the vertical edge between blocks 0 and 1.
  for (uint32_t y = 0; y < height; ++y) {
    points.push_back({float(dims.width) / float(width), (float(y) + 0.5f) / float(height), 0.0f, 0.0f});
  }
  points.push_back({float(dims.width - 1), float(dims.height - 1) / 2.0f, 1.0f, 1.0f});  // level 1 fetch
  const VkImageView view = MakeView(image, format);
  const auto fetched = SamplePoints(view, MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST), points);
  const auto filtered = SamplePoints(view, MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST), points);
  ASSERT_EQ(fetched.size(), points.size());
  ASSERT_EQ(filtered.size(), points.size());

  uint32_t mismatches = 0;
  for (size_t i = 0; i < fetches; ++i) {
    const uint32_t x = uint32_t(points[i][0]), y = uint32_t(points[i][1]);
    for (int c = 0; c < 4; ++c) {
      if (!Near(at(x, y)[c], fetched[i][c], format) && ++mismatches <= 5) {
        ADD_FAILURE() << "texel (" << x << ", " << y << ") c" << c << ": expected " << at(x, y)[c] << ", got "
                      << fetched[i][c];
      }
    }
  }
  EXPECT_EQ(mismatches, 0u);
  for (uint32_t y = 0; y < height; ++y) {
    const auto& sample = filtered[fetches + y];
    for (int c = 0; c < 4; ++c) {
      const float mean = (at(dims.width - 1, y)[c] + at(dims.width, y)[c]) / 2.0f;
      EXPECT_NEAR(sample[c], mean, 2e-3f) << "row " << y << " c" << c;
    }
  }
  const auto& level1_texel = fetched.back();
  const uint32_t lx = dims.width - 1, ly = (dims.height - 1) / 2;
  for (int c = 0; c < 4; ++c) EXPECT_TRUE(Near(at(lx, ly)[c], level1_texel[c], format)) << "level 1 c" << c;
}

INSTANTIATE_TEST_SUITE_P(Formats, AstcSampling,
                         ::testing::Values(VK_FORMAT_ASTC_4x4_UNORM_BLOCK, VK_FORMAT_ASTC_5x4_SRGB_BLOCK,
                                           VK_FORMAT_ASTC_6x6_UNORM_BLOCK, VK_FORMAT_ASTC_8x5_SRGB_BLOCK,
                                           VK_FORMAT_ASTC_10x6_UNORM_BLOCK, VK_FORMAT_ASTC_12x12_SRGB_BLOCK));

TEST_F(TextureCompressionAstc, BlitsDecodeIntoFloatImages) {
  const VkFormat format = VK_FORMAT_ASTC_8x6_UNORM_BLOCK;
  const AstcDims dims = AstcBlockDims(format);
  constexpr uint32_t kBlocksX = 2, kBlocksY = 2;
  const uint32_t width = kBlocksX * dims.width, height = kBlocksY * dims.height;
  const std::vector<uint8_t> blocks = AstcEncode(format, kBlocksX, kBlocksY, TestPattern(width, height));
  ASSERT_FALSE(blocks.empty());
  const auto expected = AstcDecode(format, blocks.data(), kBlocksX, kBlocksY, SrgbCodeToLinear);
  ASSERT_FALSE(expected.empty());

  const VkImage compressed = MakeCompressedImage(format, {width, height, 1});
  Upload(compressed, 0, 0, {width, height, 1}, blocks);
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R32G32B32A32_SFLOAT, {width, height, 1}, 1, 1,
                                   VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  const VkImage floats = MakeGeneralImage(ci);
  VkCommandBuffer cb = BeginCommands();
  const VkImageBlit blit{kLevel0, {{0, 0, 0}, {int32_t(width), int32_t(height), 1}}, kLevel0,
                         {{0, 0, 0}, {int32_t(width), int32_t(height), 1}}};
  vkCmdBlitImage(cb, compressed, VK_IMAGE_LAYOUT_GENERAL, floats, VK_IMAGE_LAYOUT_GENERAL, 1, &blit,
                 VK_FILTER_NEAREST);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const std::vector<uint8_t> bytes = ReadImage(floats, kLevel0, {0, 0, 0}, {width, height, 1}, 16);
  ASSERT_EQ(bytes.size(), size_t(width) * height * 16);
  uint32_t mismatches = 0;
  for (size_t i = 0; i < size_t(width) * height; ++i) {
    float texel[4];
    std::memcpy(texel, &bytes[i * 16], 16);
    for (int c = 0; c < 4; ++c) mismatches += Near(expected[i][c], texel[c], format) ? 0 : 1;
  }
  EXPECT_EQ(mismatches, 0u);
}

}  // namespace
}  // namespace duet_test

// texelFetch and texelFetchOffset on sampled images: the texel at integer
// coordinates, moved by the offset, through the view's component mapping
// (which sampling applies and fetches must too); and the texel a
// MIRROR_CLAMP_TO_EDGE sampler picks (samplerMirrorClampToEdge).
#include <array>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "shaders/fetch_points.comp.h"
#include "shaders/sample_points.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 8;

// Texel (x, y) of the test image: distinct bytes in every channel.
std::array<uint8_t, 4> TexelAt(uint32_t x, uint32_t y) {
  return {uint8_t(10 + x * 20), uint8_t(15 + y * 25), uint8_t(200 - x * 9 - y * 7), uint8_t(40 + x * 3 + y * 11)};
}

class TexelFetchTest : public ComputeFixture {
 protected:
  // Fetches at `points` through a view of the RGBA8 test image with
  // `mapping`; three results per point (plain, offset (1, -1), (-2, 3)).
  std::vector<std::array<float, 4>> Fetch(const VkComponentMapping& mapping,
                                          const std::vector<std::array<int32_t, 2>>& points) {
    const VkImageView view = TestView(mapping);
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    VkSampler sampler = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSampler(device_, &sci, nullptr, &sampler), VK_SUCCESS);
    Defer([this, sampler] { vkDestroySampler(device_, sampler, nullptr); });

    const uint32_t count = uint32_t(points.size());
    HostBuffer in = StorageBuffer(count * 8);
    HostBuffer out = StorageBuffer(count * 48);
    if (view == VK_NULL_HANDLE || in.data == nullptr || out.data == nullptr) return {};
    std::memcpy(in.data, points.data(), count * 8);
    BufferBinding texture;
    texture.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    texture.view = view;
    texture.sampler = sampler;
    const Kernel k = MakeKernelWithBindings(kFetchPointsComp, {texture, {in.buffer}, {out.buffer}}, 4);
    Run(k, (count + 31) / 32, 1, 1, &count, 4);
    std::vector<std::array<float, 4>> results(count * 3);
    std::memcpy(results.data(), out.data, count * 48);
    return results;
  }

  // A view with `mapping` of the RGBA8 test image (TexelAt).
  VkImageView TestView(const VkComponentMapping& mapping) {
    VkImage image = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kSize, kSize, 1}, 1, 1,
                                               VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
    if (image == VK_NULL_HANDLE) return VK_NULL_HANDLE;
    std::vector<uint8_t> bytes;
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x)
        for (uint8_t b : TexelAt(x, y)) bytes.push_back(b);
    WriteImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {kSize, kSize, 1}, 4, bytes);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = VK_FORMAT_R8G8B8A8_UNORM;
    vci.components = mapping;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImageView(device_, &vci, nullptr, &view), VK_SUCCESS);
    Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
    return view;
  }
};

// What a view with `mapping` gives for texel (x, y).
std::array<float, 4> Expected(const VkComponentMapping& mapping, uint32_t x, uint32_t y) {
  const std::array<uint8_t, 4> t = TexelAt(x, y);
  auto pick = [&](VkComponentSwizzle s, int own) {
    switch (s) {
      case VK_COMPONENT_SWIZZLE_ZERO: return 0.0f;
      case VK_COMPONENT_SWIZZLE_ONE: return 1.0f;
      case VK_COMPONENT_SWIZZLE_R: return t[0] / 255.0f;
      case VK_COMPONENT_SWIZZLE_G: return t[1] / 255.0f;
      case VK_COMPONENT_SWIZZLE_B: return t[2] / 255.0f;
      case VK_COMPONENT_SWIZZLE_A: return t[3] / 255.0f;
      default: return t[own] / 255.0f;
    }
  };
  return {pick(mapping.r, 0), pick(mapping.g, 1), pick(mapping.b, 2), pick(mapping.a, 3)};
}

TEST_F(TexelFetchTest, OffsetsAndComponentMappings) {
  const VkComponentMapping mappings[] = {
      {VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
       VK_COMPONENT_SWIZZLE_IDENTITY},
      {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_ONE},
      {VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_G},
  };
  // Points whose offset texels stay inside the image.
  std::vector<std::array<int32_t, 2>> points;
  for (int32_t y = 1; y < int32_t(kSize) - 3; ++y)
    for (int32_t x = 2; x < int32_t(kSize) - 1; ++x) points.push_back({x, y});
  for (const VkComponentMapping& mapping : mappings) {
    SCOPED_TRACE(testing::Message() << "mapping " << mapping.r << "," << mapping.g << "," << mapping.b << ","
                                    << mapping.a);
    const std::vector<std::array<float, 4>> results = Fetch(mapping, points);
    ASSERT_EQ(results.size(), points.size() * 3);
    for (size_t i = 0; i < points.size(); ++i) {
      const uint32_t x = uint32_t(points[i][0]), y = uint32_t(points[i][1]);
      const std::array<float, 4> want[3] = {Expected(mapping, x, y), Expected(mapping, x + 1, y - 1),
                                            Expected(mapping, x - 2, y + 3)};
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
          ASSERT_NEAR(results[3 * i + r][c], want[r][c], 1e-6)
              << "point " << x << "," << y << " result " << r << " component " << c;
    }
  }
}

// MIRROR_CLAMP_TO_EDGE: a coordinate is mirrored once about 0, then clamped
// to the edge texels (nearest filtering picks one texel).
TEST_F(TexelFetchTest, MirrorClampToEdgeAddressing) {
  const VkImageView view = TestView({});
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
  VkSampler sampler = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateSampler(device_, &sci, nullptr, &sampler), VK_SUCCESS);
  Defer([this, sampler] { vkDestroySampler(device_, sampler, nullptr); });
  // u (in texture widths) -> the texel column: within [0, 1) the texel
  // itself; below 0 its mirror image -1 - i; past either end the edge texel.
  const std::vector<std::pair<float, int32_t>> columns = {
      {0.3f / kSize, 0}, {5.5f / kSize, 5}, {-0.4f / kSize, 0}, {-2.5f / kSize, 2}, {-7.5f / kSize, 7},
      {-12.5f / kSize, 7}, {8.5f / kSize, 7}, {30.0f / kSize, 7}};
  std::vector<std::array<float, 4>> points;
  for (const auto& [u, column] : columns) points.push_back({u, 2.5f / kSize, 0.0f, 0.0f});
  const uint32_t count = uint32_t(points.size());
  HostBuffer in = StorageBuffer(count * 16), out = StorageBuffer(count * 16);
  std::memcpy(in.data, points.data(), count * 16);
  BufferBinding texture;
  texture.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  texture.view = view;
  texture.sampler = sampler;
  const Kernel k = MakeKernelWithBindings(kSamplePointsComp, {texture, {in.buffer}, {out.buffer}}, 4);
  Run(k, 1, 1, 1, &count, 4);
  for (uint32_t i = 0; i < count; ++i) {
    const std::array<float, 4> want = Expected({}, uint32_t(columns[i].second), 2);
    for (int c = 0; c < 4; ++c)
      ASSERT_NEAR(out.as<float>()[4 * i + c], want[c], 1e-6) << "u " << columns[i].first * kSize << " texels";
  }
}

}  // namespace
}  // namespace duet_test

// Atomics on storage image and storage texel buffer texels
// (OpImageTexelPointer): add, min, compare-exchange, or, xor and exchange
// from many invocations at once, and texels outside the image.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "shaders/image_atomics.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kInvocations = 256;

class ImageAtomicTest : public ComputeFixture {
 protected:
  // A zeroed 4x4 storage image of `format` with `layers`, and a view of it.
  VkImageView StorageImage(VkFormat format, uint32_t layers, VkImage* image) {
    *image = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, format, {4, 4, 1}, 1, layers,
                                        VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                            VK_IMAGE_USAGE_TRANSFER_DST_BIT));
    if (*image == VK_NULL_HANDLE) return VK_NULL_HANDLE;
    for (uint32_t layer = 0; layer < layers; ++layer)
      WriteImage(*image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, layer, 1}, {0, 0, 0}, {4, 4, 1}, 4,
                 std::vector<uint8_t>(64, 0));
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = *image;
    vci.viewType = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImageView(device_, &vci, nullptr, &view), VK_SUCCESS);
    if (view != VK_NULL_HANDLE) Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
    return view;
  }

  std::vector<uint32_t> Texels(VkImage image, uint32_t layer) {
    const std::vector<uint8_t> bytes = ReadImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, layer, 1}, {0, 0, 0},
                                                 {4, 4, 1}, 4);
    std::vector<uint32_t> texels(bytes.size() / 4);
    std::memcpy(texels.data(), bytes.data(), bytes.size());
    return texels;
  }
};

TEST_F(ImageAtomicTest, AtomicsOnImageAndTexelBufferTexels) {
  VkImage counters_image, minimums_image, swaps_image;
  const VkImageView counters = StorageImage(VK_FORMAT_R32_UINT, 2, &counters_image);
  const VkImageView minimums = StorageImage(VK_FORMAT_R32_SINT, 1, &minimums_image);
  const VkImageView swaps = StorageImage(VK_FORMAT_R32_UINT, 1, &swaps_image);
  ASSERT_TRUE(counters != VK_NULL_HANDLE && minimums != VK_NULL_HANDLE && swaps != VK_NULL_HANDLE);
  HostBuffer bits = MakeHostBuffer(64, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
  ASSERT_NE(bits.data, nullptr);
  std::memset(bits.data, 0, bits.size);
  VkBufferViewCreateInfo bvci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  bvci.buffer = bits.buffer;
  bvci.format = VK_FORMAT_R32_UINT;
  bvci.range = VK_WHOLE_SIZE;
  VkBufferView bits_view = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateBufferView(device_, &bvci, nullptr, &bits_view), VK_SUCCESS);
  Defer([this, bits_view] { vkDestroyBufferView(device_, bits_view, nullptr); });
  HostBuffer results = StorageBuffer(kInvocations * 16);

  auto image = [](VkImageView view) {
    BufferBinding b;
    b.type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    b.view = view;
    return b;
  };
  BufferBinding texel_buffer;
  texel_buffer.type = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
  texel_buffer.texel_view = bits_view;
  Kernel k = MakeKernelWithBindings(kImageAtomicsComp,
                                    {image(counters), image(minimums), image(swaps), texel_buffer, {results.buffer}}, 0);
  Run(k, kInvocations / 64);

  const uint32_t* r = results.as<uint32_t>();
  // Adds: every texel of both layers reached 8, and its 8 invocations saw 0..7 once each.
  for (uint32_t layer = 0; layer < 2; ++layer) {
    const std::vector<uint32_t> texels = Texels(counters_image, layer);
    for (uint32_t t = 0; t < 16; ++t) {
      EXPECT_EQ(texels[t], 8u) << "counter " << t << " of layer " << layer;
      std::vector<uint32_t> seen;
      for (uint32_t i = 0; i < kInvocations; ++i)
        if (i % 16 == t && (i / 16) % 2 == layer) seen.push_back(r[4 * i]);
      std::sort(seen.begin(), seen.end());
      for (uint32_t v = 0; v < 8; ++v) EXPECT_EQ(seen[v], v) << "old values of counter " << t;
    }
  }
  // Min: the smallest i of each texel.
  const std::vector<uint32_t> minimum_texels = Texels(minimums_image, 0);
  for (uint32_t t = 0; t < 16; ++t) EXPECT_EQ(int32_t(minimum_texels[t]), int32_t(t) - 100) << "minimum " << t;
  // Compare-exchange: one winner per texel; the others saw its value.
  const std::vector<uint32_t> swap_texels = Texels(swaps_image, 0);
  for (uint32_t t = 0; t < 16; ++t) {
    uint32_t winners = 0;
    for (uint32_t i = t; i < kInvocations; i += 16) {
      if (r[4 * i + 1] == 0) {
        ++winners;
        EXPECT_EQ(swap_texels[t], i + 1) << "texel " << t << " holds its winner's value";
      } else {
        EXPECT_EQ(r[4 * i + 1], swap_texels[t]) << "invocation " << i << " lost to another value";
      }
    }
    EXPECT_EQ(winners, 1u) << "texel " << t;
  }
  // Or on the texel buffer: every invocation's bit.
  for (uint32_t t = 0; t < 16; ++t) EXPECT_EQ(bits.as<uint32_t>()[t], 0xFFFFu) << "bits " << t;
  // Outside: 0 back, nothing written (the xor at row 9 would have flipped swaps).
  for (uint32_t i = 0; i < kInvocations; ++i) {
    EXPECT_EQ(r[4 * i + 2], 1u) << "invocation " << i;
    EXPECT_EQ(r[4 * i + 3], 0u) << "invocation " << i;
  }
}

}  // namespace
}  // namespace duet_test

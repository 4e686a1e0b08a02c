// VK_EXT_image_2d_view_of_3d: a 2D view of one depth slice of a 3D image
// (VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT) sampled reads that slice,
// and as a storage image writes and reads that slice only, at the view's
// mip level.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "shaders/store_2d_slice.comp.h"

namespace duet_test {
namespace {

class Image2dViewOf3dTest : public ComputeFixture {
 protected:
  Image2dViewOf3dTest() {
    device_options_.extensions = {VK_EXT_IMAGE_2D_VIEW_OF_3D_EXTENSION_NAME};
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&features_2d_)};
    features_2d_.image2DViewOf3D = features_2d_.sampler2DViewOf3D = VK_TRUE;
  }
  VkPhysicalDeviceImage2DViewOf3DFeaturesEXT features_2d_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT};
};

TEST_F(Image2dViewOf3dTest, SampledAndStorageViewsOfOneSliceOfALevel) {
  // 8x8x16, two levels: level 1 is 4x4x8; the view is its slice 7 (the last).
  VkImageCreateInfo info = ImageInfo(VK_IMAGE_TYPE_3D, VK_FORMAT_R32_UINT, {8, 8, 16}, 2, 1,
                                     VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                         VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  info.flags = VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT;
  const VkImage image = MakeGeneralImage(info);
  ASSERT_NE(image, VK_NULL_HANDLE);
  // Level 1 starts as z * 1000 + y * 10 + x.
  auto initial = [](uint32_t x, uint32_t y, uint32_t z) { return z * 1000 + y * 10 + x; };
  std::vector<uint32_t> start(4 * 4 * 8);
  for (uint32_t z = 0; z < 8; ++z)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 4; ++x) start[(z * 4 + y) * 4 + x] = initial(x, y, z);
  std::vector<uint8_t> start_bytes(start.size() * 4);
  std::memcpy(start_bytes.data(), start.data(), start_bytes.size());
  WriteImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1}, {0, 0, 0}, {4, 4, 8}, 4, start_bytes);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = VK_FORMAT_R32_UINT;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 7, 1};
  VkImageView view = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateImageView(device_, &vci, nullptr, &view), VK_SUCCESS);
  Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};  // nearest, clamped
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VkSampler sampler = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateSampler(device_, &sci, nullptr, &sampler), VK_SUCCESS);
  Defer([this, sampler] { vkDestroySampler(device_, sampler, nullptr); });
  HostBuffer out = StorageBuffer(32 * 4);
  BufferBinding storage;
  storage.type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  storage.view = view;
  BufferBinding sampled;
  sampled.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  sampled.view = view;
  sampled.sampler = sampler;
  Kernel k = MakeKernelWithBindings(kStore2dSliceComp, {storage, {out.buffer}, sampled}, 0);
  Run(k, 1);

  const uint32_t* r = out.as<uint32_t>();
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      EXPECT_EQ(r[16 + y * 4 + x], initial(x, y, 7)) << "sampled " << x << "," << y;
      EXPECT_EQ(r[y * 4 + x], (3 - x) + 10 * y + 100) << x << "," << y;
    }
  const std::vector<uint8_t> bytes = ReadImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1}, {0, 0, 0}, {4, 4, 8}, 4);
  std::vector<uint32_t> texels(bytes.size() / 4);
  std::memcpy(texels.data(), bytes.data(), bytes.size());
  for (uint32_t z = 0; z < 8; ++z)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 4; ++x)
        EXPECT_EQ(texels[(z * 4 + y) * 4 + x], z == 7 ? x + 10 * y + 100 : initial(x, y, z)) << x << "," << y << "," << z;
}

}  // namespace
}  // namespace duet_test

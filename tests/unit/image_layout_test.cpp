// Image memory layout: planes, mips, layers, samples, block formats.
#include <gtest/gtest.h>

#include "texel/image_layout.h"

namespace duet::texel {
namespace {

VkImageCreateInfo Info(VkFormat format, VkExtent3D extent, uint32_t mips = 1, uint32_t layers = 1,
                       VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = extent.depth > 1 ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = extent;
  info.mipLevels = mips;
  info.arrayLayers = layers;
  info.samples = samples;
  return info;
}

TEST(ImageLayout, MipChainOfAColorImage) {
  ImageLayout layout;
  ASSERT_TRUE(ComputeImageLayout(Info(VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 3), &layout));
  ASSERT_EQ(layout.plane_count, 1u);
  const PlaneLayout& p = layout.planes[0];
  EXPECT_EQ(p.mips[0].row_pitch, 16u);
  EXPECT_EQ(p.mips[0].array_pitch, 64u);
  EXPECT_EQ(p.mips[1].offset, 64u);
  EXPECT_EQ(p.mips[1].row_pitch, 8u);
  EXPECT_EQ(p.mips[1].array_pitch, 16u);
  EXPECT_EQ(p.mips[2].offset, 80u);
  EXPECT_EQ(p.mips[2].extent.width, 1u);
  EXPECT_GE(layout.size, 96u);
}

TEST(ImageLayout, ArrayLayersAreEvenlySpaced) {
  ImageLayout layout;
  ASSERT_TRUE(ComputeImageLayout(Info(VK_FORMAT_R8_UNORM, {3, 3, 1}, 1, 6), &layout));
  VkSubresourceLayout l0 = layout.Subresource(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  VkSubresourceLayout l5 = layout.Subresource(VK_IMAGE_ASPECT_COLOR_BIT, 0, 5);
  EXPECT_EQ(l0.rowPitch, 3u);
  EXPECT_GE(l0.arrayPitch, 9u);
  EXPECT_EQ(l5.offset - l0.offset, 5 * l0.arrayPitch);
  EXPECT_LE(l5.offset + 9, layout.size);
}

TEST(ImageLayout, DepthStencilKeepsAspectsInSeparatePlanes) {
  ImageLayout layout;
  ASSERT_TRUE(ComputeImageLayout(Info(VK_FORMAT_D24_UNORM_S8_UINT, {8, 2, 1}), &layout));
  ASSERT_EQ(layout.plane_count, 2u);
  EXPECT_EQ(layout.planes[0].block_size, 4u);
  EXPECT_EQ(layout.planes[1].block_size, 1u);
  VkSubresourceLayout depth = layout.Subresource(VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0);
  VkSubresourceLayout stencil = layout.Subresource(VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0);
  EXPECT_EQ(depth.rowPitch, 32u);
  EXPECT_EQ(stencil.rowPitch, 8u);
  EXPECT_GE(stencil.offset, depth.offset + 64);

  ASSERT_TRUE(ComputeImageLayout(Info(VK_FORMAT_D16_UNORM, {8, 2, 1}), &layout));
  EXPECT_EQ(layout.plane_count, 1u);
  EXPECT_EQ(layout.planes[0].block_size, 2u);
  ASSERT_TRUE(ComputeImageLayout(Info(VK_FORMAT_S8_UINT, {8, 2, 1}), &layout));
  EXPECT_EQ(layout.plane_count, 1u);
  EXPECT_EQ(layout.planes[0].block_size, 1u);
}

TEST(ImageLayout, SamplesOfAPixelAreAdjacent) {
  ImageLayout layout;
  ASSERT_TRUE(ComputeImageLayout(Info(VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1}, 1, 1, VK_SAMPLE_COUNT_4_BIT), &layout));
  EXPECT_EQ(layout.planes[0].mips[0].row_pitch, 16u * 4 * 4);
  EXPECT_GE(layout.size, 16u * 16 * 4 * 4);
}

TEST(ImageLayout, CompressedFormatsCountBlocks) {
  ImageLayout layout;
  ASSERT_TRUE(ComputeImageLayout(Info(VK_FORMAT_BC1_RGB_UNORM_BLOCK, {10, 6, 1}), &layout));
  EXPECT_EQ(layout.planes[0].mips[0].row_pitch, 3u * 8);      // ceil(10/4) blocks of 8 bytes
  EXPECT_EQ(layout.planes[0].mips[0].depth_pitch, 2u * 3 * 8);  // ceil(6/4) rows of blocks
}

TEST(ImageLayout, VolumeSlices) {
  ImageLayout layout;
  ASSERT_TRUE(ComputeImageLayout(Info(VK_FORMAT_R16_SFLOAT, {5, 4, 3}), &layout));
  VkSubresourceLayout l = layout.Subresource(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  EXPECT_EQ(l.rowPitch, 10u);
  EXPECT_EQ(l.depthPitch, 40u);
  EXPECT_GE(l.size, 120u);
}

TEST(ImageLayout, RejectsWhatCannotExist) {
  ImageLayout layout;
  EXPECT_FALSE(ComputeImageLayout(Info(VK_FORMAT_UNDEFINED, {4, 4, 1}), &layout));
  EXPECT_FALSE(ComputeImageLayout(Info(VK_FORMAT_R8_UNORM, {0, 4, 1}), &layout));
  EXPECT_FALSE(ComputeImageLayout(Info(VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, {4, 4, 1}), &layout));
  EXPECT_FALSE(ComputeImageLayout(Info(VK_FORMAT_R32G32B32A32_SFLOAT, {16384, 16384, 1}, 1, 64), &layout));
}

}  // namespace
}  // namespace duet::texel

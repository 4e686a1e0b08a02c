// Buffers, images, memory requirements, views, samplers, private data.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {
namespace {

bool IsPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

class Resources : public DeviceTest {
 protected:
  // 1.0, *2 (with VkMemoryDedicatedRequirements) and vkGetDevice*Requirements
  // agree for a buffer; returns the 1.0 answer.
  VkMemoryRequirements CheckBufferRequirements(VkBuffer buffer, const VkBufferCreateInfo& ci) {
    VkMemoryRequirements r1{};
    vkGetBufferMemoryRequirements(device_, buffer, &r1);
    EXPECT_GE(r1.size, ci.size);
    EXPECT_TRUE(IsPowerOfTwo(r1.alignment)) << r1.alignment;
    EXPECT_NE(r1.memoryTypeBits, 0u);
    EXPECT_EQ(r1.memoryTypeBits & ~((1u << mem_props_.memoryTypeCount) - 1), 0u)
        << "memoryTypeBits names types that do not exist";
    // A non-sparse, non-protected buffer can always live in at least one
    // HOST_VISIBLE|HOST_COHERENT type (Vulkan spec, "Resource Memory
    // Association").
    EXPECT_NE(FindMemoryType(r1.memoryTypeBits,
                             VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT),
              UINT32_MAX);
    if (ci.usage & (VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT)) {
      EXPECT_EQ(r1.alignment % props_.limits.minUniformBufferOffsetAlignment, 0u);
    }
    if (ci.usage & (VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)) {
      EXPECT_EQ(r1.alignment % props_.limits.minStorageBufferOffsetAlignment, 0u);
    }
    if (ci.usage & (VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT)) {
      EXPECT_EQ(r1.alignment % props_.limits.minTexelBufferOffsetAlignment, 0u);
    }

    VkMemoryDedicatedRequirements ded{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
    ded.prefersDedicatedAllocation = 0x5A5A5A5A;
    ded.requiresDedicatedAllocation = 0x5A5A5A5A;
    VkMemoryRequirements2 r2{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    r2.pNext = &ded;
    VkBufferMemoryRequirementsInfo2 info{VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2};
    info.buffer = buffer;
    vkGetBufferMemoryRequirements2(device_, &info, &r2);
    EXPECT_EQ(r2.memoryRequirements.size, r1.size);
    EXPECT_EQ(r2.memoryRequirements.alignment, r1.alignment);
    EXPECT_EQ(r2.memoryRequirements.memoryTypeBits, r1.memoryTypeBits);
    EXPECT_TRUE(ded.prefersDedicatedAllocation == VK_TRUE || ded.prefersDedicatedAllocation == VK_FALSE)
        << "prefersDedicatedAllocation not written";
    EXPECT_EQ(ded.requiresDedicatedAllocation, VkBool32(VK_FALSE))
        << "only external-memory resources may require a dedicated allocation";

    VkDeviceBufferMemoryRequirements dinfo{VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS};
    dinfo.pCreateInfo = &ci;
    VkMemoryRequirements2 r3{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    vkGetDeviceBufferMemoryRequirements(device_, &dinfo, &r3);
    EXPECT_EQ(r3.memoryRequirements.size, r1.size);
    EXPECT_EQ(r3.memoryRequirements.alignment, r1.alignment);
    EXPECT_EQ(r3.memoryRequirements.memoryTypeBits, r1.memoryTypeBits);
    return r1;
  }

  VkMemoryRequirements CheckImageRequirements(VkImage image, const VkImageCreateInfo& ci) {
    VkMemoryRequirements r1{};
    vkGetImageMemoryRequirements(device_, image, &r1);
    EXPECT_GT(r1.size, 0u);
    EXPECT_TRUE(IsPowerOfTwo(r1.alignment)) << r1.alignment;
    EXPECT_NE(r1.memoryTypeBits, 0u);
    EXPECT_EQ(r1.memoryTypeBits & ~((1u << mem_props_.memoryTypeCount) - 1), 0u);

    VkMemoryDedicatedRequirements ded{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
    ded.prefersDedicatedAllocation = 0x5A5A5A5A;
    ded.requiresDedicatedAllocation = 0x5A5A5A5A;
    VkMemoryRequirements2 r2{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    r2.pNext = &ded;
    VkImageMemoryRequirementsInfo2 info{VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2};
    info.image = image;
    vkGetImageMemoryRequirements2(device_, &info, &r2);
    EXPECT_EQ(r2.memoryRequirements.size, r1.size);
    EXPECT_EQ(r2.memoryRequirements.alignment, r1.alignment);
    EXPECT_EQ(r2.memoryRequirements.memoryTypeBits, r1.memoryTypeBits);
    EXPECT_TRUE(ded.prefersDedicatedAllocation == VK_TRUE || ded.prefersDedicatedAllocation == VK_FALSE);
    EXPECT_EQ(ded.requiresDedicatedAllocation, VkBool32(VK_FALSE));

    VkDeviceImageMemoryRequirements dinfo{VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS};
    dinfo.pCreateInfo = &ci;
    VkMemoryRequirements2 r3{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    vkGetDeviceImageMemoryRequirements(device_, &dinfo, &r3);
    EXPECT_EQ(r3.memoryRequirements.size, r1.size);
    EXPECT_EQ(r3.memoryRequirements.alignment, r1.alignment);
    EXPECT_EQ(r3.memoryRequirements.memoryTypeBits, r1.memoryTypeBits);

    // Not a sparse image: no sparse requirements (1.0 and 1.3 queries).
    uint32_t sparse = 77;
    vkGetImageSparseMemoryRequirements(device_, image, &sparse, nullptr);
    EXPECT_EQ(sparse, 0u);
    uint32_t sparse3 = 77;
    vkGetDeviceImageSparseMemoryRequirements(device_, &dinfo, &sparse3, nullptr);
    EXPECT_EQ(sparse3, 0u);
    return r1;
  }

  // Creates an image, checks its requirements, binds fresh memory; returns
  // the image (VK_NULL_HANDLE on failure).
  VkImage CreateCheckBind(const VkImageCreateInfo& ci, VkDeviceSize min_bytes) {
    VkImage image = MakeImage(ci);
    if (image == VK_NULL_HANDLE) return VK_NULL_HANDLE;
    VkMemoryRequirements req = CheckImageRequirements(image, ci);
    EXPECT_GE(req.size, min_bytes) << "too small to hold every texel of every level and layer";
    const uint32_t type = FindMemoryType(req.memoryTypeBits);
    EXPECT_NE(type, UINT32_MAX);
    if (type == UINT32_MAX) return image;
    VkDeviceMemory mem = MakeMemory(req.size, type);
    if (mem != VK_NULL_HANDLE) VK_EXPECT_OK(vkBindImageMemory(device_, image, mem, 0));
    return image;
  }
};

// Bytes of all texels of a 4-byte-per-texel image (every mip and layer).
VkDeviceSize TexelBytes(VkExtent3D e, uint32_t mips, uint32_t layers, uint32_t samples = 1) {
  VkDeviceSize total = 0;
  for (uint32_t m = 0; m < mips; ++m) {
    const VkDeviceSize w = std::max(1u, e.width >> m), h = std::max(1u, e.height >> m),
                       d = std::max(1u, e.depth >> m);
    total += w * h * d * 4;
  }
  return total * layers * samples;
}

// --- buffers ---------------------------------------------------------------------

TEST_F(Resources, BufferCreateRequirementsBind) {
  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.size = 1000;
  ci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
             VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
             VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
             VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = MakeBuffer(ci.size, ci.usage);
  ASSERT_NE(buffer, VK_NULL_HANDLE);
  VkMemoryRequirements req = CheckBufferRequirements(buffer, ci);
  const uint32_t type = FindMemoryType(req.memoryTypeBits);
  ASSERT_NE(type, UINT32_MAX);
  VkDeviceMemory mem = MakeMemory(req.size, type);
  ASSERT_NE(mem, VK_NULL_HANDLE);
  VK_EXPECT_OK(vkBindBufferMemory(device_, buffer, mem, 0));
}

TEST_F(Resources, BuffersShareOneAllocation) {
  // Two buffers in one allocation, the second at an aligned offset, bound
  // with vkBindBufferMemory2.
  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.size = 300;
  ci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer a = MakeBuffer(ci.size, ci.usage);
  VkBuffer b = MakeBuffer(ci.size, ci.usage);
  ASSERT_NE(a, VK_NULL_HANDLE);
  ASSERT_NE(b, VK_NULL_HANDLE);
  VkMemoryRequirements req = CheckBufferRequirements(a, ci);
  const VkDeviceSize second = (req.size + req.alignment - 1) / req.alignment * req.alignment;
  VkDeviceMemory mem = MakeMemory(second + req.size, FindMemoryType(req.memoryTypeBits));
  ASSERT_NE(mem, VK_NULL_HANDLE);
  VkBindBufferMemoryInfo binds[2] = {{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO},
                                     {VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO}};
  binds[0].buffer = a;
  binds[0].memory = mem;
  binds[0].memoryOffset = 0;
  binds[1].buffer = b;
  binds[1].memory = mem;
  binds[1].memoryOffset = second;
  VK_EXPECT_OK(vkBindBufferMemory2(device_, 2, binds));
}

TEST_F(Resources, BufferSizes) {
  // Smallest and a large (but allowed) buffer; requirements cover the size.
  for (VkDeviceSize size : {VkDeviceSize(1), VkDeviceSize(4), VkDeviceSize(65537), VkDeviceSize(64) << 20}) {
    VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    ci.size = size;
    ci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer = MakeBuffer(size, ci.usage);
    ASSERT_NE(buffer, VK_NULL_HANDLE) << size;
    CheckBufferRequirements(buffer, ci);
  }
}

TEST_F(Resources, BufferViews) {
  // A format with uniform/storage texel buffer support.
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkFormatFeatureFlags feats = 0;
  for (VkFormat f : {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32_UINT, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT}) {
    VkFormatProperties p{};
    vkGetPhysicalDeviceFormatProperties(phys_, f, &p);
    if (p.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) {
      format = f;
      feats = p.bufferFeatures;
      break;
    }
  }
  ASSERT_NE(format, VK_FORMAT_UNDEFINED)
      << "no texel-buffer format (the spec requires R32_SFLOAT/R32_UINT/R8G8B8A8_UNORM uniform texel buffers)";
  VkBufferUsageFlags usage = VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
  if (feats & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT) usage |= VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
  const VkDeviceSize align = props_.limits.minTexelBufferOffsetAlignment;
  VkBuffer buffer = MakeBuffer(4 * align + 4096, usage);
  ASSERT_NE(buffer, VK_NULL_HANDLE);
  ASSERT_NE(BindNewMemory(buffer), VK_NULL_HANDLE);

  struct Case {
    VkDeviceSize offset, range;
  } cases[] = {{0, VK_WHOLE_SIZE}, {0, 256}, {align, 1024}, {2 * align, VK_WHOLE_SIZE}};
  for (const Case& c : cases) {
    VkBufferViewCreateInfo vci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    vci.buffer = buffer;
    vci.format = format;
    vci.offset = c.offset;
    vci.range = c.range;
    VkBufferView view = VK_NULL_HANDLE;
    VkResult r = vkCreateBufferView(device_, &vci, nullptr, &view);
    EXPECT_EQ(r, VK_SUCCESS) << "offset " << c.offset << " range " << c.range << " -> " << R{r};
    if (r == VK_SUCCESS) {
      EXPECT_NE(view, VK_NULL_HANDLE);
      vkDestroyBufferView(device_, view, nullptr);
    }
  }
}

// --- images ----------------------------------------------------------------------

TEST_F(Resources, Image1D) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_1D, VK_FORMAT_R8G8B8A8_UNORM, {256, 1, 1}, 9, 1);
  EXPECT_NE(CreateCheckBind(ci, TexelBytes(ci.extent, 9, 1)), VK_NULL_HANDLE);
}

TEST_F(Resources, Image1DArray) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_1D, VK_FORMAT_R8G8B8A8_UNORM, {128, 1, 1}, 1, 4);
  EXPECT_NE(CreateCheckBind(ci, TexelBytes(ci.extent, 1, 4)), VK_NULL_HANDLE);
}

TEST_F(Resources, Image2DWithFullMipChain) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {64, 64, 1}, 7, 1);
  EXPECT_NE(CreateCheckBind(ci, TexelBytes(ci.extent, 7, 1)), VK_NULL_HANDLE);
}

TEST_F(Resources, Image2DNonPowerOfTwoWithMips) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {100, 37, 1}, 7, 1);
  EXPECT_NE(CreateCheckBind(ci, TexelBytes(ci.extent, 7, 1)), VK_NULL_HANDLE);
}

TEST_F(Resources, Image2DArray) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {32, 32, 1}, 3, 6);
  EXPECT_NE(CreateCheckBind(ci, TexelBytes(ci.extent, 3, 6)), VK_NULL_HANDLE);
}

TEST_F(Resources, ImageCubeCompatible) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {32, 32, 1}, 6, 6);
  ci.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  EXPECT_NE(CreateCheckBind(ci, TexelBytes(ci.extent, 6, 6)), VK_NULL_HANDLE);
  // Two cubes' worth of layers.
  VkImageCreateInfo ci12 = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1}, 1, 12);
  ci12.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  EXPECT_NE(CreateCheckBind(ci12, TexelBytes(ci12.extent, 1, 12)), VK_NULL_HANDLE);
}

TEST_F(Resources, Image3D) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM, {32, 16, 8}, 6, 1);
  EXPECT_NE(CreateCheckBind(ci, TexelBytes(ci.extent, 6, 1)), VK_NULL_HANDLE);
}

TEST_F(Resources, Image2DFourSamples) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {64, 64, 1}, 1, 1,
                                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
  ci.samples = VK_SAMPLE_COUNT_4_BIT;
  EXPECT_NE(CreateCheckBind(ci, TexelBytes(ci.extent, 1, 1, 4)), VK_NULL_HANDLE);
}

TEST_F(Resources, ImageDepth) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_D16_UNORM, {64, 64, 1}, 1, 1,
                                   VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
  VkImage image = MakeImage(ci);
  ASSERT_NE(image, VK_NULL_HANDLE);
  VkMemoryRequirements req = CheckImageRequirements(image, ci);
  EXPECT_GE(req.size, VkDeviceSize(64 * 64 * 2));
}

TEST_F(Resources, ImagesShareOneAllocation) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1});
  VkImage a = MakeImage(ci);
  VkImage b = MakeImage(ci);
  ASSERT_NE(a, VK_NULL_HANDLE);
  ASSERT_NE(b, VK_NULL_HANDLE);
  VkMemoryRequirements req{};
  vkGetImageMemoryRequirements(device_, a, &req);
  const VkDeviceSize second = (req.size + req.alignment - 1) / req.alignment * req.alignment;
  VkDeviceMemory mem = MakeMemory(second + req.size, FindMemoryType(req.memoryTypeBits));
  ASSERT_NE(mem, VK_NULL_HANDLE);
  VkBindImageMemoryInfo binds[2] = {{VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO},
                                    {VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO}};
  binds[0].image = a;
  binds[0].memory = mem;
  binds[0].memoryOffset = 0;
  binds[1].image = b;
  binds[1].memory = mem;
  binds[1].memoryOffset = second;
  VK_EXPECT_OK(vkBindImageMemory2(device_, 2, binds));
}

TEST_F(Resources, LinearImageSubresourceLayout) {
  const uint32_t w = 61, h = 17;  // odd width: pitch padding shows up
  VkImageFormatProperties ifp{};
  VkResult support = vkGetPhysicalDeviceImageFormatProperties(
      phys_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_LINEAR,
      VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &ifp);
  ASSERT_EQ(support, VK_SUCCESS) << "a CPU device is expected to offer linear R8G8B8A8_UNORM images: " << R{support};
  VkImageCreateInfo ci =
      ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {w, h, 1}, 1, 1,
                VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_IMAGE_TILING_LINEAR);
  ci.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
  VkImage image = MakeImage(ci);
  ASSERT_NE(image, VK_NULL_HANDLE);
  VkMemoryRequirements req = CheckImageRequirements(image, ci);
  VkDeviceMemory mem = MakeMemory(req.size, FindMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT));
  ASSERT_NE(mem, VK_NULL_HANDLE);
  VK_ASSERT_OK(vkBindImageMemory(device_, image, mem, 0));

  VkImageSubresource sub{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
  VkSubresourceLayout layout{};
  layout.offset = layout.size = layout.rowPitch = ~VkDeviceSize(0);
  vkGetImageSubresourceLayout(device_, image, &sub, &layout);
  EXPECT_GE(layout.rowPitch, VkDeviceSize(w) * 4);
  EXPECT_EQ(layout.rowPitch % 4, 0u) << "rows start on texel boundaries";
  EXPECT_GE(layout.size, layout.rowPitch * (h - 1) + VkDeviceSize(w) * 4);
  EXPECT_LE(layout.offset + layout.size, req.size) << "subresource extends past the image's memory";
  EXPECT_LT(layout.offset, req.size);

  // Writing texels through the layout round-trips through the mapping.
  void* p = nullptr;
  VK_ASSERT_OK(vkMapMemory(device_, mem, 0, VK_WHOLE_SIZE, 0, &p));
  auto* base = static_cast<uint8_t*>(p) + layout.offset;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const uint32_t v = (y << 16) | x;
      std::memcpy(base + y * layout.rowPitch + x * 4, &v, 4);
    }
  vkUnmapMemory(device_, mem);
  VK_ASSERT_OK(vkMapMemory(device_, mem, 0, VK_WHOLE_SIZE, 0, &p));
  base = static_cast<uint8_t*>(p) + layout.offset;
  uint32_t v = 0;
  std::memcpy(&v, base + (h - 1) * layout.rowPitch + (w - 1) * 4, 4);
  EXPECT_EQ(v, ((h - 1) << 16) | (w - 1));
  vkUnmapMemory(device_, mem);
}

TEST_F(Resources, ImageCreateIsIndependentOfContents) {
  // Many small images of varied shapes in a loop: create, bind, destroy.
  for (uint32_t i = 1; i <= 20; ++i) {
    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {i * 3, i * 2 + 1, 1}, 1, i % 3 + 1);
    VkImage image = VK_NULL_HANDLE;
    VK_ASSERT_OK(vkCreateImage(device_, &ci, nullptr, &image));
    VkMemoryRequirements req{};
    vkGetImageMemoryRequirements(device_, image, &req);
    EXPECT_GE(req.size, TexelBytes(ci.extent, 1, ci.arrayLayers));
    vkDestroyImage(device_, image, nullptr);
  }
}

// --- image views ---------------------------------------------------------------------

VkImageViewCreateInfo ViewInfo(VkImage image, VkImageViewType type, VkFormat format, uint32_t base_mip,
                               uint32_t mips, uint32_t base_layer, uint32_t layers) {
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = type;
  vci.format = format;
  vci.components = {VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
                    VK_COMPONENT_SWIZZLE_IDENTITY};
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, base_mip, mips, base_layer, layers};
  return vci;
}

TEST_F(Resources, ImageViews) {
  const VkFormat fmt = VK_FORMAT_R8G8B8A8_UNORM;
  VkImage img2d = CreateCheckBind(ImageInfo(VK_IMAGE_TYPE_2D, fmt, {64, 64, 1}, 7, 1), 0);
  VkImage img_array = CreateCheckBind(ImageInfo(VK_IMAGE_TYPE_2D, fmt, {32, 32, 1}, 1, 4), 0);
  VkImageCreateInfo cube_ci = ImageInfo(VK_IMAGE_TYPE_2D, fmt, {32, 32, 1}, 1, 6);
  cube_ci.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  VkImage img_cube = CreateCheckBind(cube_ci, 0);
  VkImage img1d = CreateCheckBind(ImageInfo(VK_IMAGE_TYPE_1D, fmt, {64, 1, 1}, 1, 2), 0);
  VkImage img3d = CreateCheckBind(ImageInfo(VK_IMAGE_TYPE_3D, fmt, {16, 16, 4}), 0);
  ASSERT_FALSE(img2d == VK_NULL_HANDLE || img_array == VK_NULL_HANDLE || img_cube == VK_NULL_HANDLE ||
               img1d == VK_NULL_HANDLE || img3d == VK_NULL_HANDLE);

  struct Case {
    const char* what;
    VkImageViewCreateInfo ci;
  };
  VkImageViewCreateInfo swizzled = ViewInfo(img2d, VK_IMAGE_VIEW_TYPE_2D, fmt, 0, 1, 0, 1);
  swizzled.components = {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R,
                         VK_COMPONENT_SWIZZLE_ONE};
  const Case cases[] = {
      {"2D, all mips", ViewInfo(img2d, VK_IMAGE_VIEW_TYPE_2D, fmt, 0, VK_REMAINING_MIP_LEVELS, 0, 1)},
      {"2D, one mip", ViewInfo(img2d, VK_IMAGE_VIEW_TYPE_2D, fmt, 3, 1, 0, 1)},
      {"2D, first two mips", ViewInfo(img2d, VK_IMAGE_VIEW_TYPE_2D, fmt, 0, 2, 0, 1)},
      {"2D swizzled", swizzled},
      {"2D array, all layers", ViewInfo(img_array, VK_IMAGE_VIEW_TYPE_2D_ARRAY, fmt, 0, 1, 0, VK_REMAINING_ARRAY_LAYERS)},
      {"2D array, 2 layers", ViewInfo(img_array, VK_IMAGE_VIEW_TYPE_2D_ARRAY, fmt, 0, 1, 1, 2)},
      {"2D of one array layer", ViewInfo(img_array, VK_IMAGE_VIEW_TYPE_2D, fmt, 0, 1, 3, 1)},
      {"cube", ViewInfo(img_cube, VK_IMAGE_VIEW_TYPE_CUBE, fmt, 0, 1, 0, 6)},
      {"2D array of a cube image", ViewInfo(img_cube, VK_IMAGE_VIEW_TYPE_2D_ARRAY, fmt, 0, 1, 0, 6)},
      {"1D", ViewInfo(img1d, VK_IMAGE_VIEW_TYPE_1D, fmt, 0, 1, 1, 1)},
      {"1D array", ViewInfo(img1d, VK_IMAGE_VIEW_TYPE_1D_ARRAY, fmt, 0, 1, 0, 2)},
      {"3D", ViewInfo(img3d, VK_IMAGE_VIEW_TYPE_3D, fmt, 0, 1, 0, 1)},
  };
  for (const Case& c : cases) {
    VkImageView view = VK_NULL_HANDLE;
    VkResult r = vkCreateImageView(device_, &c.ci, nullptr, &view);
    EXPECT_EQ(r, VK_SUCCESS) << c.what << " -> " << R{r};
    if (r == VK_SUCCESS) {
      EXPECT_NE(view, VK_NULL_HANDLE) << c.what;
      vkDestroyImageView(device_, view, nullptr);
    }
  }
}

TEST_F(Resources, ImageViewOfMutableFormatImage) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1});
  ci.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  VkImage image = CreateCheckBind(ci, 0);
  ASSERT_NE(image, VK_NULL_HANDLE);
  VkFormatProperties p{};
  vkGetPhysicalDeviceFormatProperties(phys_, VK_FORMAT_R8G8B8A8_SRGB, &p);
  if (!(p.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)) GTEST_SKIP() << "no sampled R8G8B8A8_SRGB";
  VkImageViewCreateInfo vci = ViewInfo(image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_SRGB, 0, 1, 0, 1);
  VkImageView view = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateImageView(device_, &vci, nullptr, &view));
  vkDestroyImageView(device_, view, nullptr);
}

// --- samplers --------------------------------------------------------------------------

TEST_F(Resources, Samplers) {
  VkSamplerCreateInfo base{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  base.magFilter = VK_FILTER_LINEAR;
  base.minFilter = VK_FILTER_LINEAR;
  base.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  base.addressModeU = base.addressModeV = base.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  base.maxLod = VK_LOD_CLAMP_NONE;
  base.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;

  std::vector<std::pair<const char*, VkSamplerCreateInfo>> cases;
  cases.emplace_back("linear repeat", base);
  VkSamplerCreateInfo nearest = base;
  nearest.magFilter = nearest.minFilter = VK_FILTER_NEAREST;
  nearest.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  nearest.addressModeU = nearest.addressModeV = nearest.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  nearest.borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE;
  cases.emplace_back("nearest clamp-to-border", nearest);
  VkSamplerCreateInfo compare = base;
  compare.compareEnable = VK_TRUE;
  compare.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  compare.addressModeU = compare.addressModeV = compare.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  cases.emplace_back("depth compare", compare);
  VkSamplerCreateInfo lod = base;
  lod.mipLodBias = 1.5f;
  lod.minLod = 0.5f;
  lod.maxLod = 4.0f;
  lod.addressModeU = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  cases.emplace_back("lod bias and clamp", lod);
  VkSamplerCreateInfo unnorm = base;
  unnorm.unnormalizedCoordinates = VK_TRUE;
  unnorm.magFilter = unnorm.minFilter = VK_FILTER_NEAREST;
  unnorm.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  unnorm.minLod = unnorm.maxLod = 0.0f;
  unnorm.addressModeU = unnorm.addressModeV = unnorm.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  cases.emplace_back("unnormalized coordinates", unnorm);
  if (features_.samplerAnisotropy) {
    VkSamplerCreateInfo aniso = base;
    aniso.anisotropyEnable = VK_TRUE;
    aniso.maxAnisotropy = props_.limits.maxSamplerAnisotropy;
    cases.emplace_back("anisotropic", aniso);
  }

  for (auto& [what, ci] : cases) {
    VkSampler sampler = VK_NULL_HANDLE;
    VkResult r = vkCreateSampler(device_, &ci, nullptr, &sampler);
    EXPECT_EQ(r, VK_SUCCESS) << what << " -> " << R{r};
    if (r == VK_SUCCESS) {
      EXPECT_NE(sampler, VK_NULL_HANDLE);
      vkDestroySampler(device_, sampler, nullptr);
    }
  }
}

// --- private data ----------------------------------------------------------------------

TEST_F(Resources, PrivateDataOnBufferAndDevice) {
  ASSERT_TRUE(private_data_enabled_) << "privateData is a required Vulkan 1.3 feature";
  VkPrivateDataSlotCreateInfo sci{VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO};
  VkPrivateDataSlot slot_a = VK_NULL_HANDLE, slot_b = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreatePrivateDataSlot(device_, &sci, nullptr, &slot_a));
  Defer([this, slot_a] { vkDestroyPrivateDataSlot(device_, slot_a, nullptr); });
  VK_ASSERT_OK(vkCreatePrivateDataSlot(device_, &sci, nullptr, &slot_b));
  Defer([this, slot_b] { vkDestroyPrivateDataSlot(device_, slot_b, nullptr); });
  EXPECT_NE(slot_a, slot_b);

  VkBuffer buf1 = MakeBuffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkBuffer buf2 = MakeBuffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  ASSERT_NE(buf1, VK_NULL_HANDLE);
  ASSERT_NE(buf2, VK_NULL_HANDLE);
  const uint64_t h1 = uint64_t(buf1), h2 = uint64_t(buf2);
  const uint64_t hdev = uint64_t(reinterpret_cast<uintptr_t>(device_));

  uint64_t v = 0xFFFF;
  vkGetPrivateData(device_, VK_OBJECT_TYPE_BUFFER, h1, slot_a, &v);
  EXPECT_EQ(v, 0u) << "unset private data reads as 0";

  VK_EXPECT_OK(vkSetPrivateData(device_, VK_OBJECT_TYPE_BUFFER, h1, slot_a, 0xDEADBEEFCAFEF00Dull));
  VK_EXPECT_OK(vkSetPrivateData(device_, VK_OBJECT_TYPE_BUFFER, h2, slot_a, 7));
  VK_EXPECT_OK(vkSetPrivateData(device_, VK_OBJECT_TYPE_BUFFER, h1, slot_b, 99));
  VK_EXPECT_OK(vkSetPrivateData(device_, VK_OBJECT_TYPE_DEVICE, hdev, slot_a, 12345));

  vkGetPrivateData(device_, VK_OBJECT_TYPE_BUFFER, h1, slot_a, &v);
  EXPECT_EQ(v, 0xDEADBEEFCAFEF00Dull);
  vkGetPrivateData(device_, VK_OBJECT_TYPE_BUFFER, h2, slot_a, &v);
  EXPECT_EQ(v, 7u);
  vkGetPrivateData(device_, VK_OBJECT_TYPE_BUFFER, h1, slot_b, &v);
  EXPECT_EQ(v, 99u);
  v = 0xFFFF;
  vkGetPrivateData(device_, VK_OBJECT_TYPE_BUFFER, h2, slot_b, &v);
  EXPECT_EQ(v, 0u);
  vkGetPrivateData(device_, VK_OBJECT_TYPE_DEVICE, hdev, slot_a, &v);
  EXPECT_EQ(v, 12345u);
  v = 0xFFFF;
  vkGetPrivateData(device_, VK_OBJECT_TYPE_DEVICE, hdev, slot_b, &v);
  EXPECT_EQ(v, 0u);

  // Overwrite.
  VK_EXPECT_OK(vkSetPrivateData(device_, VK_OBJECT_TYPE_BUFFER, h1, slot_a, 1));
  vkGetPrivateData(device_, VK_OBJECT_TYPE_BUFFER, h1, slot_a, &v);
  EXPECT_EQ(v, 1u);

  // Queue (dispatchable) handles work too.
  const uint64_t hq = uint64_t(reinterpret_cast<uintptr_t>(queue_));
  VK_EXPECT_OK(vkSetPrivateData(device_, VK_OBJECT_TYPE_QUEUE, hq, slot_b, 5));
  vkGetPrivateData(device_, VK_OBJECT_TYPE_QUEUE, hq, slot_b, &v);
  EXPECT_EQ(v, 5u);
}

class PrivateDataReserved : public InstanceTest {};

TEST_F(PrivateDataReserved, SlotsReservedAtDeviceCreation) {
  Features13 have = QueryFeatures13();
  ASSERT_TRUE(have.v13.privateData);
  ASSERT_NE(queue_family_, UINT32_MAX);
  VkDevicePrivateDataCreateInfo reserve{VK_STRUCTURE_TYPE_DEVICE_PRIVATE_DATA_CREATE_INFO};
  reserve.privateDataSlotRequestCount = 2;
  VkPhysicalDevicePrivateDataFeatures enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES};
  enable.pNext = &reserve;
  enable.privateData = VK_TRUE;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = queue_family_;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &enable;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  VkDevice device = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateDevice(phys_, &dci, nullptr, &device));
  VkPrivateDataSlotCreateInfo sci{VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO};
  VkPrivateDataSlot slots[3] = {};
  for (auto& s : slots) VK_EXPECT_OK(vkCreatePrivateDataSlot(device, &sci, nullptr, &s));
  const uint64_t hdev = uint64_t(reinterpret_cast<uintptr_t>(device));
  for (int i = 0; i < 3; ++i)
    if (slots[i] != VK_NULL_HANDLE) VK_EXPECT_OK(vkSetPrivateData(device, VK_OBJECT_TYPE_DEVICE, hdev, slots[i], i + 1));
  for (int i = 0; i < 3; ++i) {
    if (slots[i] == VK_NULL_HANDLE) continue;
    uint64_t v = 0;
    vkGetPrivateData(device, VK_OBJECT_TYPE_DEVICE, hdev, slots[i], &v);
    EXPECT_EQ(v, uint64_t(i + 1));
  }
  for (auto s : slots) vkDestroyPrivateDataSlot(device, s, nullptr);
  vkDestroyDevice(device, nullptr);
}

// --- buffer device address (advertised as supported: it must work) -----------------

class BufferDeviceAddress : public InstanceTest {};

TEST_F(BufferDeviceAddress, AddressesAreNonZeroAndDistinct) {
  Features13 have = QueryFeatures13();
  if (!have.v12.bufferDeviceAddress) GTEST_SKIP() << "bufferDeviceAddress not supported";
  ASSERT_NE(queue_family_, UINT32_MAX);
  VkPhysicalDeviceVulkan12Features enable12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  enable12.bufferDeviceAddress = VK_TRUE;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = queue_family_;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &enable12;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  VkDevice device = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateDevice(phys_, &dci, nullptr, &device));

  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = 4096;
  bci.usage = VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer bufs[2] = {};
  VkDeviceMemory mem = VK_NULL_HANDLE;
  VK_EXPECT_OK(vkCreateBuffer(device, &bci, nullptr, &bufs[0]));
  VK_EXPECT_OK(vkCreateBuffer(device, &bci, nullptr, &bufs[1]));
  if (bufs[0] != VK_NULL_HANDLE && bufs[1] != VK_NULL_HANDLE) {
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(device, bufs[0], &req);
    const VkDeviceSize second = (req.size + req.alignment - 1) / req.alignment * req.alignment;
    VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.pNext = &flags;
    mai.allocationSize = second + req.size;
    mai.memoryTypeIndex = 0;
    VK_EXPECT_OK(vkAllocateMemory(device, &mai, nullptr, &mem));
    if (mem != VK_NULL_HANDLE) {
      VK_EXPECT_OK(vkBindBufferMemory(device, bufs[0], mem, 0));
      VK_EXPECT_OK(vkBindBufferMemory(device, bufs[1], mem, second));
      VkBufferDeviceAddressInfo ai{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
      ai.buffer = bufs[0];
      const VkDeviceAddress a0 = vkGetBufferDeviceAddress(device, &ai);
      ai.buffer = bufs[1];
      const VkDeviceAddress a1 = vkGetBufferDeviceAddress(device, &ai);
      EXPECT_NE(a0, 0u);
      EXPECT_NE(a1, 0u);
      EXPECT_EQ(a1 - a0, second) << "two buffers bound to one allocation: addresses differ by the bind offset";
    }
  }
  for (VkBuffer b : bufs) vkDestroyBuffer(device, b, nullptr);
  vkFreeMemory(device, mem, nullptr);
  vkDestroyDevice(device, nullptr);
}

// --- debug-utils object names -------------------------------------------------------

TEST_F(Resources, DebugUtilsObjectName) {
  if (!debug_utils_) GTEST_SKIP() << "VK_EXT_debug_utils not offered";
  auto set_name = InstanceProc<PFN_vkSetDebugUtilsObjectNameEXT>("vkSetDebugUtilsObjectNameEXT");
  ASSERT_NE(set_name, nullptr);
  VkBuffer buffer = MakeBuffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  ASSERT_NE(buffer, VK_NULL_HANDLE);
  VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
  info.objectType = VK_OBJECT_TYPE_BUFFER;
  info.objectHandle = uint64_t(buffer);
  info.pObjectName = "duet test buffer";
  VK_EXPECT_OK(set_name(device_, &info));
  info.pObjectName = nullptr;  // removes the name
  VK_EXPECT_OK(set_name(device_, &info));
}

}  // namespace
}  // namespace duet_test

// Image transfer commands through the loader: vkCmdCopyBufferToImage(2),
// vkCmdCopyImageToBuffer(2) and vkCmdCopyImage(2). The test keeps a host
// model of each subresource and of each buffer and computes, from the
// spec's addressing rules, where every texel of a region goes:
//
//   buffer address of texel (x, y, slice) of a region =
//     bufferOffset + ((slice * imageHeight + y) * rowLength + x) * texelSize
//   with rowLength = bufferRowLength or imageExtent.width when 0 and
//   imageHeight = bufferImageHeight or imageExtent.height when 0; a slice is
//   an array layer of the region, or a depth slice of a 3D image.
//
// Depth/stencil aspects copy as the spec's buffer formats: D16 2 bytes,
// D24 4 bytes with the depth in the 24 low bits (the 8 high bits are
// undefined, so they are masked out), D32 4-byte floats in [0, 1], stencil
// 1 byte.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {
namespace {

bool IsD24(VkFormat f) { return f == VK_FORMAT_X8_D24_UNORM_PACK32 || f == VK_FORMAT_D24_UNORM_S8_UINT; }
bool IsD32(VkFormat f) { return f == VK_FORMAT_D32_SFLOAT || f == VK_FORMAT_D32_SFLOAT_S8_UINT; }

// Which bits of byte `b` of a buffer texel are defined for format/aspect.
uint8_t ByteMask(VkFormat format, VkImageAspectFlags aspect, uint32_t b) {
  if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT && IsD24(format) && b == 3) return 0;
  return 0xFF;
}

// Texel data valid for the format: random bits, except that floating-point
// formats get no NaN/Inf patterns and D32 depth gets floats in [0, 1].
void MakeTexels(VkFormat format, VkImageAspectFlags aspect, std::span<uint8_t> bytes, uint64_t seed) {
  FillPattern(bytes, seed);
  if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT && IsD32(format)) {
    for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
      const float f = float(Mix64(seed * 7919 + i) % 1000001) / 1000000.0f;
      std::memcpy(bytes.data() + i, &f, 4);
    }
    return;
  }
  switch (format) {
    case VK_FORMAT_R16G16B16A16_SFLOAT:
      for (size_t i = 1; i < bytes.size(); i += 2)
        if ((bytes[i] & 0x7C) == 0x7C) bytes[i] &= 0xBF;  // exponent all ones -> not
      break;
    case VK_FORMAT_R32G32B32A32_SFLOAT:
    case VK_FORMAT_R32G32B32_SFLOAT:
    case VK_FORMAT_R32_SFLOAT:
      for (size_t i = 3; i < bytes.size(); i += 4)
        if ((bytes[i] & 0x7F) == 0x7F && (bytes[i - 1] & 0x80)) bytes[i] &= 0xBF;
      break;
    default:
      break;
  }
}

// Host model of one mip level of an image aspect: all layers (or slices).
struct LevelModel {
  uint32_t w = 0, h = 0, d = 0, layers = 0, texel = 0;
  std::vector<uint8_t> bytes;
  size_t Index(uint32_t x, uint32_t y, uint32_t z, uint32_t layer) const {
    return (((size_t(layer) * d + z) * h + y) * w + x) * texel;
  }
  uint8_t* At(uint32_t x, uint32_t y, uint32_t z, uint32_t layer) { return bytes.data() + Index(x, y, z, layer); }
  const uint8_t* At(uint32_t x, uint32_t y, uint32_t z, uint32_t layer) const {
    return bytes.data() + Index(x, y, z, layer);
  }
};

::testing::AssertionResult CompareMasked(std::span<const uint8_t> actual, std::span<const uint8_t> expected,
                                         uint32_t texel, VkFormat format, VkImageAspectFlags aspect,
                                         const char* what) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << what << ": size " << actual.size() << " vs " << expected.size();
  for (size_t i = 0; i < actual.size(); ++i) {
    const uint8_t mask = ByteMask(format, aspect, uint32_t(i % texel));
    if ((actual[i] & mask) != (expected[i] & mask)) {
      return ::testing::AssertionFailure() << what << ": texel " << i / texel << " byte " << i % texel << " is 0x"
                                           << std::hex << int(actual[i]) << ", expected 0x" << int(expected[i]);
    }
  }
  return ::testing::AssertionSuccess();
}

VkExtent3D LevelExtent(const VkImageCreateInfo& ci, uint32_t mip) {
  return {std::max(1u, ci.extent.width >> mip), std::max(1u, ci.extent.height >> mip),
          std::max(1u, ci.extent.depth >> mip)};
}

// One buffer<->image copy case.
struct BufferImageCase {
  std::string name;
  VkFormat format;
  VkImageType type;
  VkExtent3D extent;
  uint32_t mips, layers;
  VkImageAspectFlags aspect;  // the copied aspect
  uint32_t texel;             // buffer bytes per texel of that aspect
  uint32_t mip, base_layer, layer_count;
  VkOffset3D offset;
  VkExtent3D region;
  uint32_t row_length, image_height;
  bool copy2;  // use the *2 commands
};

std::ostream& operator<<(std::ostream& os, const BufferImageCase& c) { return os << c.name; }

VkImageAspectFlags AllAspects(VkFormat f) {
  switch (f) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D32_SFLOAT:
      return VK_IMAGE_ASPECT_DEPTH_BIT;
    case VK_FORMAT_S8_UINT:
      return VK_IMAGE_ASPECT_STENCIL_BIT;
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
      return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    default:
      return VK_IMAGE_ASPECT_COLOR_BIT;
  }
}

class ImageTransfers : public QueueTest {
 protected:
  static constexpr VkImageUsageFlags kUsage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;

  VkImage MakeTransferImage(VkFormat format, VkImageType type, VkExtent3D extent, uint32_t mips, uint32_t layers,
                            VkImageTiling tiling = VK_IMAGE_TILING_OPTIMAL) {
    VkImageCreateInfo ci = ImageInfo(type, format, extent, mips, layers,
                                     VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, tiling);
    return MakeGeneralImage(ci, AllAspects(format));
  }

  bool Supported(VkFormat format, VkImageType type, VkExtent3D extent, uint32_t mips, uint32_t layers) {
    if (!FormatHas(format, VK_IMAGE_TILING_OPTIMAL,
                   VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT))
      return false;
    VkImageFormatProperties ifp{};
    if (vkGetPhysicalDeviceImageFormatProperties(phys_, format, type, VK_IMAGE_TILING_OPTIMAL,
                                                 VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                 0, &ifp) != VK_SUCCESS)
      return false;
    return ifp.maxMipLevels >= mips && ifp.maxArrayLayers >= layers && ifp.maxExtent.width >= extent.width &&
           ifp.maxExtent.height >= extent.height && ifp.maxExtent.depth >= extent.depth;
  }

  // Fills every layer of one mip level of an aspect with fresh texels
  // through a tight copy, and returns the model.
  LevelModel InitLevel(VkImage image, VkFormat format, VkImageType type, VkExtent3D level, uint32_t layers,
                       VkImageAspectFlags aspect, uint32_t texel, uint32_t mip, uint64_t seed) {
    LevelModel m;
    m.w = level.width;
    m.h = level.height;
    m.d = type == VK_IMAGE_TYPE_3D ? level.depth : 1;
    m.layers = type == VK_IMAGE_TYPE_3D ? 1 : layers;
    m.texel = texel;
    m.bytes.resize(size_t(m.w) * m.h * m.d * m.layers * texel);
    MakeTexels(format, aspect, m.bytes, seed);
    WriteImage(image, {aspect, mip, 0, m.layers}, {0, 0, 0}, {m.w, m.h, m.d}, texel, m.bytes);
    return m;
  }

  std::vector<uint8_t> ReadLevel(VkImage image, const LevelModel& m, VkImageAspectFlags aspect, uint32_t mip) {
    return ReadImage(image, {aspect, mip, 0, m.layers}, {0, 0, 0}, {m.w, m.h, m.d}, m.texel);
  }

  void RunBufferImageCase(const BufferImageCase& c);
};

void ImageTransfers::RunBufferImageCase(const BufferImageCase& c) {
  if (!Supported(c.format, c.type, c.extent, c.mips, c.layers))
    GTEST_SKIP() << "format " << c.format << " has no optimal-tiling transfer support for this image";
  VkImage image = MakeTransferImage(c.format, c.type, c.extent, c.mips, c.layers);
  ASSERT_NE(image, VK_NULL_HANDLE);
  const VkExtent3D level = LevelExtent(ImageInfo(c.type, c.format, c.extent, c.mips, c.layers), c.mip);
  const bool volume = c.type == VK_IMAGE_TYPE_3D;
  LevelModel model;
  ASSERT_NO_FATAL_FAILURE(model = InitLevel(image, c.format, c.type, level, c.layers, c.aspect, c.texel, c.mip, 100));
  // Other aspects of a combined format get their own content, which must survive.
  const VkImageAspectFlags other = AllAspects(c.format) & ~c.aspect;
  LevelModel other_model;
  uint32_t other_texel = 0;
  if (other != 0) {
    other_texel = other == VK_IMAGE_ASPECT_STENCIL_BIT ? 1 : (c.format == VK_FORMAT_D16_UNORM_S8_UINT ? 2 : 4);
    ASSERT_NO_FATAL_FAILURE(
        other_model = InitLevel(image, c.format, c.type, level, c.layers, other, other_texel, c.mip, 200));
  }

  const uint32_t row_length = c.row_length != 0 ? c.row_length : c.region.width;
  const uint32_t image_height = c.image_height != 0 ? c.image_height : c.region.height;
  const uint32_t slices = volume ? c.region.depth : c.layer_count;
  const VkDeviceSize buffer_offset = 12 * c.texel;  // a multiple of the texel size and of 4
  const VkDeviceSize buffer_size =
      buffer_offset + VkDeviceSize(slices) * image_height * row_length * c.texel + 3 * c.texel;
  auto buffer_at = [&](uint32_t x, uint32_t y, uint32_t s) {
    return buffer_offset + ((VkDeviceSize(s) * image_height + y) * row_length + x) * c.texel;
  };
  auto image_at = [&](LevelModel& m, uint32_t x, uint32_t y, uint32_t s) {
    return volume ? m.At(c.offset.x + x, c.offset.y + y, c.offset.z + s, 0)
                  : m.At(c.offset.x + x, c.offset.y + y, 0, c.base_layer + s);
  };

  VkBufferImageCopy region{};
  region.bufferOffset = buffer_offset;
  region.bufferRowLength = c.row_length;
  region.bufferImageHeight = c.image_height;
  region.imageSubresource = {c.aspect, c.mip, c.base_layer, c.layer_count};
  region.imageOffset = c.offset;
  region.imageExtent = c.region;
  const VkBufferImageCopy2 region2{VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
                                   nullptr,
                                   region.bufferOffset,
                                   region.bufferRowLength,
                                   region.bufferImageHeight,
                                   region.imageSubresource,
                                   region.imageOffset,
                                   region.imageExtent};

  // Buffer -> image.
  HostBuffer upload = MakeHostBuffer(buffer_size);
  ASSERT_NE(upload.data, nullptr);
  MakeTexels(c.format, c.aspect, upload.bytes(), 300);
  VkCommandBuffer cb = BeginCommands();
  FullBarrier(cb);
  if (c.copy2) {
    VkCopyBufferToImageInfo2 info{VK_STRUCTURE_TYPE_COPY_BUFFER_TO_IMAGE_INFO_2};
    info.srcBuffer = upload.buffer;
    info.dstImage = image;
    info.dstImageLayout = VK_IMAGE_LAYOUT_GENERAL;
    info.regionCount = 1;
    info.pRegions = &region2;
    vkCmdCopyBufferToImage2(cb, &info);
  } else {
    vkCmdCopyBufferToImage(cb, upload.buffer, image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  }
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  for (uint32_t s = 0; s < slices; ++s)
    for (uint32_t y = 0; y < c.region.height; ++y)
      for (uint32_t x = 0; x < c.region.width; ++x)
        std::memcpy(image_at(model, x, y, s), upload.data + buffer_at(x, y, s), c.texel);
  std::vector<uint8_t> level_bytes;
  ASSERT_NO_FATAL_FAILURE(level_bytes = ReadLevel(image, model, c.aspect, c.mip));
  EXPECT_TRUE(CompareMasked(level_bytes, model.bytes, c.texel, c.format, c.aspect, "level after buffer->image"));
  if (other != 0) {
    ASSERT_NO_FATAL_FAILURE(level_bytes = ReadLevel(image, other_model, other, c.mip));
    EXPECT_TRUE(CompareMasked(level_bytes, other_model.bytes, other_texel, c.format, other,
                              "the other aspect after buffer->image"));
  }

  // Image -> buffer with the same region: only the region's texels are
  // written, the padding keeps its bytes.
  HostBuffer download = MakeHostBuffer(buffer_size);
  ASSERT_NE(download.data, nullptr);
  std::vector<uint8_t> expected(buffer_size);
  FillPattern(expected, 400);
  std::memcpy(download.data, expected.data(), buffer_size);
  for (uint32_t s = 0; s < slices; ++s)
    for (uint32_t y = 0; y < c.region.height; ++y)
      for (uint32_t x = 0; x < c.region.width; ++x) {
        // Masked-out bytes may change; copy the model where defined.
        uint8_t* dst = expected.data() + buffer_at(x, y, s);
        const uint8_t* src = image_at(model, x, y, s);
        for (uint32_t b = 0; b < c.texel; ++b) {
          const uint8_t mask = ByteMask(c.format, c.aspect, b);
          dst[b] = uint8_t((src[b] & mask) | (dst[b] & ~mask));
        }
      }
  cb = BeginCommands();
  FullBarrier(cb);
  if (c.copy2) {
    VkCopyImageToBufferInfo2 info{VK_STRUCTURE_TYPE_COPY_IMAGE_TO_BUFFER_INFO_2};
    info.srcImage = image;
    info.srcImageLayout = VK_IMAGE_LAYOUT_GENERAL;
    info.dstBuffer = download.buffer;
    info.regionCount = 1;
    info.pRegions = &region2;
    vkCmdCopyImageToBuffer2(cb, &info);
  } else {
    vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_GENERAL, download.buffer, 1, &region);
  }
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  // Compare byte by byte; masked bytes only inside region texels.
  for (VkDeviceSize i = 0; i < buffer_size; ++i) {
    if (download.data[i] == expected[i]) continue;
    bool masked = false;
    if (i >= buffer_offset) {
      const VkDeviceSize t = (i - buffer_offset) / c.texel;
      const uint32_t x = uint32_t(t % row_length);
      const uint32_t y = uint32_t(t / row_length % image_height);
      const uint32_t s = uint32_t(t / row_length / image_height);
      masked = x < c.region.width && y < c.region.height && s < slices &&
               ByteMask(c.format, c.aspect, uint32_t((i - buffer_offset) % c.texel)) == 0;
    }
    if (!masked) {
      ADD_FAILURE() << "image->buffer: byte " << i << " is 0x" << std::hex << int(download.data[i]) << ", expected 0x"
                    << int(expected[i]);
      break;
    }
  }
}

class BufferImageCopies : public ImageTransfers, public ::testing::WithParamInterface<BufferImageCase> {};

TEST_P(BufferImageCopies, RegionRoundTrip) { RunBufferImageCase(GetParam()); }

std::vector<BufferImageCase> BufferImageCases() {
  std::vector<BufferImageCase> cases;
  constexpr VkImageAspectFlags kColor = VK_IMAGE_ASPECT_COLOR_BIT;
  constexpr VkImageAspectFlags kDepth = VK_IMAGE_ASPECT_DEPTH_BIT;
  constexpr VkImageAspectFlags kStencil = VK_IMAGE_ASPECT_STENCIL_BIT;
  struct F {
    const char* name;
    VkFormat format;
    uint32_t texel;
  };
  const F colors[] = {
      {"R8", VK_FORMAT_R8_UNORM, 1},
      {"RGBA8", VK_FORMAT_R8G8B8A8_UNORM, 4},
      {"RGBA16F", VK_FORMAT_R16G16B16A16_SFLOAT, 8},
      {"RGBA32F", VK_FORMAT_R32G32B32A32_SFLOAT, 16},
      {"RGB32F", VK_FORMAT_R32G32B32_SFLOAT, 12},
      {"R5G6B5", VK_FORMAT_R5G6B5_UNORM_PACK16, 2},
      {"A1R5G5B5", VK_FORMAT_A1R5G5B5_UNORM_PACK16, 2},
  };
  for (const F& f : colors) {
    const std::string n = f.name;
    // Padded rows and slices, odd image size, offset region.
    cases.push_back({n + "_Padded", f.format, VK_IMAGE_TYPE_2D, {37, 23, 1}, 1, 1, kColor, f.texel, 0, 0, 1,
                     {3, 5, 0}, {17, 11, 1}, 20, 13, false});
    // Tightly packed (0, 0), whole image, *2 commands.
    cases.push_back({n + "_Tight2", f.format, VK_IMAGE_TYPE_2D, {37, 23, 1}, 1, 1, kColor, f.texel, 0, 0, 1,
                     {0, 0, 0}, {37, 23, 1}, 0, 0, true});
    // Mip 2 of a 3-layer image, layers 1-2, padding.
    cases.push_back({n + "_Mip2Layers", f.format, VK_IMAGE_TYPE_2D, {37, 23, 1}, 4, 3, kColor, f.texel, 2, 1, 2,
                     {1, 1, 0}, {7, 3, 1}, 8, 4, false});
    // 3D image: slices 3..5, padded.
    cases.push_back({n + "_3D", f.format, VK_IMAGE_TYPE_3D, {13, 9, 7}, 1, 1, kColor, f.texel, 0, 0, 1,
                     {2, 1, 3}, {9, 7, 3}, 11, 8, true});
  }
  // Mip levels and shapes with RGBA8 only.
  cases.push_back({"RGBA8_LastMip", VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {37, 23, 1}, 6, 2, kColor, 4, 5, 0,
                   2, {0, 0, 0}, {1, 1, 1}, 0, 0, false});
  cases.push_back({"RGBA8_3DMip1", VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D, {13, 9, 7}, 3, 1, kColor, 4, 1, 0, 1,
                   {1, 0, 1}, {5, 4, 2}, 7, 5, false});
  cases.push_back({"RGBA8_1DArray", VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_1D, {33, 1, 1}, 1, 4, kColor, 4, 0, 1, 3,
                   {5, 0, 0}, {20, 1, 1}, 24, 1, false});
  cases.push_back({"R8_OneColumn", VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, {1, 17, 1}, 1, 1, kColor, 1, 0, 0, 1,
                   {0, 2, 0}, {1, 13, 1}, 5, 0, false});
  cases.push_back({"R8_OneRowRowLengthOnly", VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, {31, 5, 1}, 1, 3, kColor, 1, 0,
                   0, 3, {0, 4, 0}, {31, 1, 1}, 40, 0, true});
  // Depth and stencil aspects.
  struct D {
    const char* name;
    VkFormat format;
    VkImageAspectFlags aspect;
    uint32_t texel;
  };
  const D depth[] = {
      {"D16", VK_FORMAT_D16_UNORM, kDepth, 2},
      {"X8D24", VK_FORMAT_X8_D24_UNORM_PACK32, kDepth, 4},
      {"D32", VK_FORMAT_D32_SFLOAT, kDepth, 4},
      {"S8", VK_FORMAT_S8_UINT, kStencil, 1},
      {"D16S8_Depth", VK_FORMAT_D16_UNORM_S8_UINT, kDepth, 2},
      {"D16S8_Stencil", VK_FORMAT_D16_UNORM_S8_UINT, kStencil, 1},
      {"D24S8_Depth", VK_FORMAT_D24_UNORM_S8_UINT, kDepth, 4},
      {"D24S8_Stencil", VK_FORMAT_D24_UNORM_S8_UINT, kStencil, 1},
      {"D32S8_Depth", VK_FORMAT_D32_SFLOAT_S8_UINT, kDepth, 4},
      {"D32S8_Stencil", VK_FORMAT_D32_SFLOAT_S8_UINT, kStencil, 1},
  };
  for (const D& d : depth) {
    const std::string n = d.name;
    cases.push_back({n + "_Padded", d.format, VK_IMAGE_TYPE_2D, {29, 19, 1}, 1, 1, d.aspect, d.texel, 0, 0, 1,
                     {3, 2, 0}, {21, 15, 1}, 24, 16, false});
    cases.push_back({n + "_MipLayers2", d.format, VK_IMAGE_TYPE_2D, {29, 19, 1}, 3, 3, d.aspect, d.texel, 1, 1, 2,
                     {1, 1, 0}, {13, 8, 1}, 0, 0, true});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(ImageTransfers, BufferImageCopies, ::testing::ValuesIn(BufferImageCases()),
                         [](const ::testing::TestParamInfo<BufferImageCase>& info) { return info.param.name; });

// ---------------------------------------------------------------------------
// Several regions in one command, to different subresources.

TEST_F(ImageTransfers, SeveralRegionsToSeveralMipsInOneCommand) {
  VkImage image = MakeTransferImage(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1}, 3, 1);
  ASSERT_NE(image, VK_NULL_HANDLE);
  LevelModel m0, m1, m2;
  ASSERT_NO_FATAL_FAILURE(m0 = InitLevel(image, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1,
                                         VK_IMAGE_ASPECT_COLOR_BIT, 4, 0, 1));
  ASSERT_NO_FATAL_FAILURE(m1 = InitLevel(image, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {8, 8, 1}, 1,
                                         VK_IMAGE_ASPECT_COLOR_BIT, 4, 1, 2));
  ASSERT_NO_FATAL_FAILURE(m2 = InitLevel(image, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {4, 4, 1}, 1,
                                         VK_IMAGE_ASPECT_COLOR_BIT, 4, 2, 3));
  HostBuffer src = MakeHostBuffer(4096);
  ASSERT_NE(src.data, nullptr);
  FillPattern(src.bytes(), 9);
  const VkBufferImageCopy regions[] = {
      {0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {8, 8, 0}, {8, 8, 1}},
      {256, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1}, {0, 0, 0}, {8, 8, 1}},
      {512, 2, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 2, 0, 1}, {1, 1, 0}, {2, 3, 1}},
  };
  VkCommandBuffer cb = BeginCommands();
  FullBarrier(cb);
  vkCmdCopyBufferToImage(cb, src.buffer, image, VK_IMAGE_LAYOUT_GENERAL, 3, regions);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x) {
      std::memcpy(m0.At(8 + x, 8 + y, 0, 0), src.data + (y * 8 + x) * 4, 4);
      std::memcpy(m1.At(x, y, 0, 0), src.data + 256 + (y * 8 + x) * 4, 4);
    }
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 2; ++x) std::memcpy(m2.At(1 + x, 1 + y, 0, 0), src.data + 512 + (y * 2 + x) * 4, 4);
  EXPECT_EQ(FirstDifference(ReadLevel(image, m0, VK_IMAGE_ASPECT_COLOR_BIT, 0), m0.bytes), SIZE_MAX);
  EXPECT_EQ(FirstDifference(ReadLevel(image, m1, VK_IMAGE_ASPECT_COLOR_BIT, 1), m1.bytes), SIZE_MAX);
  EXPECT_EQ(FirstDifference(ReadLevel(image, m2, VK_IMAGE_ASPECT_COLOR_BIT, 2), m2.bytes), SIZE_MAX);
}

// ---------------------------------------------------------------------------
// vkCmdCopyImage

TEST_F(ImageTransfers, CopyImageBetweenSizeCompatibleFormats) {
  // RGBA8_UNORM and R32_UINT are both 32-bit texels: the copy moves bits.
  for (bool reverse : {false, true}) {
    SCOPED_TRACE(reverse ? "R32_UINT -> RGBA8_UNORM (vkCmdCopyImage2)" : "RGBA8_UNORM -> R32_UINT");
    const VkFormat src_format = reverse ? VK_FORMAT_R32_UINT : VK_FORMAT_R8G8B8A8_UNORM;
    const VkFormat dst_format = reverse ? VK_FORMAT_R8G8B8A8_UNORM : VK_FORMAT_R32_UINT;
    VkImage src = MakeTransferImage(src_format, VK_IMAGE_TYPE_2D, {20, 16, 1}, 1, 1);
    VkImage dst = MakeTransferImage(dst_format, VK_IMAGE_TYPE_2D, {24, 12, 1}, 1, 1);
    ASSERT_NE(dst, VK_NULL_HANDLE);
    LevelModel ms, md;
    ASSERT_NO_FATAL_FAILURE(ms = InitLevel(src, src_format, VK_IMAGE_TYPE_2D, {20, 16, 1}, 1,
                                           VK_IMAGE_ASPECT_COLOR_BIT, 4, 0, 11));
    ASSERT_NO_FATAL_FAILURE(md = InitLevel(dst, dst_format, VK_IMAGE_TYPE_2D, {24, 12, 1}, 1,
                                           VK_IMAGE_ASPECT_COLOR_BIT, 4, 0, 12));
    const VkImageCopy region{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {2, 3, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                             {5, 1, 0}, {10, 7, 1}};
    VkCommandBuffer cb = BeginCommands();
    FullBarrier(cb);
    if (reverse) {
      const VkImageCopy2 r2{VK_STRUCTURE_TYPE_IMAGE_COPY_2, nullptr, region.srcSubresource, region.srcOffset,
                            region.dstSubresource, region.dstOffset, region.extent};
      VkCopyImageInfo2 info{VK_STRUCTURE_TYPE_COPY_IMAGE_INFO_2};
      info.srcImage = src;
      info.srcImageLayout = VK_IMAGE_LAYOUT_GENERAL;
      info.dstImage = dst;
      info.dstImageLayout = VK_IMAGE_LAYOUT_GENERAL;
      info.regionCount = 1;
      info.pRegions = &r2;
      vkCmdCopyImage2(cb, &info);
    } else {
      vkCmdCopyImage(cb, src, VK_IMAGE_LAYOUT_GENERAL, dst, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    }
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    for (uint32_t y = 0; y < 7; ++y)
      for (uint32_t x = 0; x < 10; ++x) std::memcpy(md.At(5 + x, 1 + y, 0, 0), ms.At(2 + x, 3 + y, 0, 0), 4);
    EXPECT_EQ(FirstDifference(ReadLevel(dst, md, VK_IMAGE_ASPECT_COLOR_BIT, 0), md.bytes), SIZE_MAX);
    EXPECT_EQ(FirstDifference(ReadLevel(src, ms, VK_IMAGE_ASPECT_COLOR_BIT, 0), ms.bytes), SIZE_MAX)
        << "the source changed";
  }
}

TEST_F(ImageTransfers, CopyImageBetweenMipsAndLayersOfOneImage) {
  const VkFormat f = VK_FORMAT_R16G16B16A16_SFLOAT;
  VkImage image = MakeTransferImage(f, VK_IMAGE_TYPE_2D, {32, 32, 1}, 3, 3);
  ASSERT_NE(image, VK_NULL_HANDLE);
  LevelModel m0, m1;
  ASSERT_NO_FATAL_FAILURE(m0 = InitLevel(image, f, VK_IMAGE_TYPE_2D, {32, 32, 1}, 3, VK_IMAGE_ASPECT_COLOR_BIT, 8, 0, 21));
  ASSERT_NO_FATAL_FAILURE(m1 = InitLevel(image, f, VK_IMAGE_TYPE_2D, {16, 16, 1}, 3, VK_IMAGE_ASPECT_COLOR_BIT, 8, 1, 22));
  // Mip 0 layers 1-2 -> mip 1 layers 0-1, and mip 1 layer 2 -> mip 0 layer 0.
  const VkImageCopy regions[] = {
      {{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 2}, {4, 4, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 2}, {0, 8, 0}, {8, 8, 1}},
      {{VK_IMAGE_ASPECT_COLOR_BIT, 1, 2, 1}, {3, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {20, 25, 0}, {12, 7, 1}},
  };
  VkCommandBuffer cb = BeginCommands();
  FullBarrier(cb);
  vkCmdCopyImage(cb, image, VK_IMAGE_LAYOUT_GENERAL, image, VK_IMAGE_LAYOUT_GENERAL, 2, regions);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const LevelModel m0_before = m0, m1_before = m1;
  for (uint32_t l = 0; l < 2; ++l)
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t x = 0; x < 8; ++x) std::memcpy(m1.At(x, 8 + y, 0, l), m0_before.At(4 + x, 4 + y, 0, 1 + l), 8);
  for (uint32_t y = 0; y < 7; ++y)
    for (uint32_t x = 0; x < 12; ++x) std::memcpy(m0.At(20 + x, 25 + y, 0, 0), m1_before.At(3 + x, y, 0, 2), 8);
  EXPECT_EQ(FirstDifference(ReadLevel(image, m0, VK_IMAGE_ASPECT_COLOR_BIT, 0), m0.bytes), SIZE_MAX);
  EXPECT_EQ(FirstDifference(ReadLevel(image, m1, VK_IMAGE_ASPECT_COLOR_BIT, 1), m1.bytes), SIZE_MAX);
}

TEST_F(ImageTransfers, CopyBetween2DArrayAnd3D) {
  const VkFormat f = VK_FORMAT_R8G8B8A8_UINT;
  VkImage array = MakeTransferImage(f, VK_IMAGE_TYPE_2D, {16, 8, 1}, 1, 5);
  VkImage volume = MakeTransferImage(f, VK_IMAGE_TYPE_3D, {16, 8, 6}, 1, 1);
  ASSERT_NE(volume, VK_NULL_HANDLE);
  LevelModel ma, mv;
  ASSERT_NO_FATAL_FAILURE(ma = InitLevel(array, f, VK_IMAGE_TYPE_2D, {16, 8, 1}, 5, VK_IMAGE_ASPECT_COLOR_BIT, 4, 0, 31));
  ASSERT_NO_FATAL_FAILURE(mv = InitLevel(volume, f, VK_IMAGE_TYPE_3D, {16, 8, 6}, 1, VK_IMAGE_ASPECT_COLOR_BIT, 4, 0, 32));
  // Array layers 1..3 -> volume slices 2..4 (extent.depth = layerCount).
  const VkImageCopy to_volume{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 3}, {1, 2, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                              {3, 0, 2}, {10, 5, 3}};
  // Then volume slices 1..2 (slice 2 just written) -> array layers 3..4.
  const VkImageCopy to_array{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 3, 1}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 3, 2},
                             {6, 0, 0}, {9, 4, 2}};
  VkCommandBuffer cb = BeginCommands();
  FullBarrier(cb);
  vkCmdCopyImage(cb, array, VK_IMAGE_LAYOUT_GENERAL, volume, VK_IMAGE_LAYOUT_GENERAL, 1, &to_volume);
  TransferBarrier(cb);
  vkCmdCopyImage(cb, volume, VK_IMAGE_LAYOUT_GENERAL, array, VK_IMAGE_LAYOUT_GENERAL, 1, &to_array);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  for (uint32_t s = 0; s < 3; ++s)
    for (uint32_t y = 0; y < 5; ++y)
      for (uint32_t x = 0; x < 10; ++x) std::memcpy(mv.At(3 + x, y, 2 + s, 0), ma.At(1 + x, 2 + y, 0, 1 + s), 4);
  for (uint32_t s = 0; s < 2; ++s)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 9; ++x) std::memcpy(ma.At(6 + x, y, 0, 3 + s), mv.At(x, 3 + y, 1 + s, 0), 4);
  EXPECT_EQ(FirstDifference(ReadLevel(volume, mv, VK_IMAGE_ASPECT_COLOR_BIT, 0), mv.bytes), SIZE_MAX);
  EXPECT_EQ(FirstDifference(ReadLevel(array, ma, VK_IMAGE_ASPECT_COLOR_BIT, 0), ma.bytes), SIZE_MAX);
}

TEST_F(ImageTransfers, CopyDepthAndStencilAspectsBetweenImages) {
  struct Case {
    VkFormat format;
    VkImageAspectFlags aspect;
    uint32_t texel;
  };
  const Case cases[] = {
      {VK_FORMAT_D16_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT, 2},
      {VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT, 4},
      {VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT, 1},
      {VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT, 4},
      {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT, 4},
      {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "format " << c.format << " aspect " << c.aspect);
    if (!Supported(c.format, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1)) continue;
    VkImage src = MakeTransferImage(c.format, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1);
    VkImage dst = MakeTransferImage(c.format, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1);
    ASSERT_NE(dst, VK_NULL_HANDLE);
    LevelModel ms, md;
    ASSERT_NO_FATAL_FAILURE(ms = InitLevel(src, c.format, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, c.aspect, c.texel, 0, 41));
    ASSERT_NO_FATAL_FAILURE(md = InitLevel(dst, c.format, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, c.aspect, c.texel, 0, 42));
    const VkImageCopy region{{c.aspect, 0, 0, 1}, {1, 2, 0}, {c.aspect, 0, 0, 1}, {5, 4, 0}, {11, 9, 1}};
    VkCommandBuffer cb = BeginCommands();
    FullBarrier(cb);
    vkCmdCopyImage(cb, src, VK_IMAGE_LAYOUT_GENERAL, dst, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    for (uint32_t y = 0; y < 9; ++y)
      for (uint32_t x = 0; x < 11; ++x) std::memcpy(md.At(5 + x, 4 + y, 0, 0), ms.At(1 + x, 2 + y, 0, 0), c.texel);
    std::vector<uint8_t> read;
    ASSERT_NO_FATAL_FAILURE(read = ReadLevel(dst, md, c.aspect, 0));
    EXPECT_TRUE(CompareMasked(read, md.bytes, c.texel, c.format, c.aspect, "destination"));
  }
}

TEST_F(ImageTransfers, ImageAndBufferBoundAtMemoryOffsets) {
  // An image and a buffer share one allocation, each at a non-zero offset,
  // with guard bytes around them: copies must stay inside their bindings.
  const VkFormat f = VK_FORMAT_R16G16B16A16_UINT;
  VkImage image = MakeImage(ImageInfo(VK_IMAGE_TYPE_2D, f, {19, 11, 1}, 2, 2, kUsage));
  VkBuffer buffer = MakeBuffer(19 * 11 * 2 * 8, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  ASSERT_NE(buffer, VK_NULL_HANDLE);
  VkMemoryRequirements ireq{}, breq{};
  vkGetImageMemoryRequirements(device_, image, &ireq);
  vkGetBufferMemoryRequirements(device_, buffer, &breq);
  auto align = [](VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; };
  const VkDeviceSize image_offset = align(4096, ireq.alignment);
  const VkDeviceSize buffer_offset =
      align(image_offset + ireq.size + std::max<VkDeviceSize>(4096, props_.limits.bufferImageGranularity),
            std::max(breq.alignment, props_.limits.bufferImageGranularity));
  const VkDeviceSize size = buffer_offset + breq.size + 4096;
  const uint32_t type = FindMemoryType(ireq.memoryTypeBits & breq.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  ASSERT_NE(type, UINT32_MAX);
  VkDeviceMemory mem = MakeMemory(size, type);
  ASSERT_NE(mem, VK_NULL_HANDLE);
  VK_ASSERT_OK(vkBindImageMemory(device_, image, mem, image_offset));
  VK_ASSERT_OK(vkBindBufferMemory(device_, buffer, mem, buffer_offset));
  uint8_t* map = nullptr;
  VK_ASSERT_OK(vkMapMemory(device_, mem, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&map)));
  std::vector<uint8_t> guard(size);
  FillPattern(guard, 61);
  std::memcpy(map, guard.data(), size);
  std::vector<uint8_t> data(19 * 11 * 2 * 8);
  FillPattern(data, 62);
  std::memcpy(map + buffer_offset, data.data(), data.size());

  // buffer -> image (mip 0, both layers) -> a second copy back into the
  // same buffer range after it was zeroed by a fill.
  VkCommandBuffer cb = BeginCommands();
  ToGeneral(cb, image, VK_IMAGE_ASPECT_COLOR_BIT);
  const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2}, {0, 0, 0}, {19, 11, 1}};
  vkCmdCopyBufferToImage(cb, buffer, image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  TransferBarrier(cb);
  vkCmdFillBuffer(cb, buffer, 0, VK_WHOLE_SIZE, 0);
  TransferBarrier(cb);
  vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_GENERAL, buffer, 1, &region);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  EXPECT_EQ(std::memcmp(map + buffer_offset, data.data(), data.size()), 0) << "round trip through the image";
  EXPECT_EQ(FirstDifference({map, size_t(image_offset)}, {guard.data(), size_t(image_offset)}), SIZE_MAX)
      << "bytes before the image changed";
  const VkDeviceSize gap = image_offset + ireq.size;
  EXPECT_EQ(FirstDifference({map + gap, size_t(buffer_offset - gap)}, {guard.data() + gap, size_t(buffer_offset - gap)}),
            SIZE_MAX)
      << "bytes between the image and the buffer changed";
  const VkDeviceSize tail = buffer_offset + data.size();
  EXPECT_EQ(FirstDifference({map + tail, size_t(size - tail)}, {guard.data() + tail, size_t(size - tail)}), SIZE_MAX)
      << "bytes after the buffer changed";
}

TEST_F(ImageTransfers, CompressedBlocksBc1) {
  // Block-compressed copies address 4x4 blocks of 8 bytes: offsets are
  // multiples of the block size, extents are too or reach the image edge,
  // bufferRowLength / bufferImageHeight count texels. Skipped unless BC1 is
  // advertised.
  const VkFormat bc1 = VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
  if (!Supported(bc1, VK_IMAGE_TYPE_2D, {19, 13, 1}, 1, 1)) GTEST_SKIP() << "BC1 is not advertised";
  VkImage image = MakeTransferImage(bc1, VK_IMAGE_TYPE_2D, {19, 13, 1}, 1, 1);
  ASSERT_NE(image, VK_NULL_HANDLE);
  constexpr uint32_t kBw = 5, kBh = 4;  // 19x13 texels = 5x4 blocks
  const VkImageSubresourceLayers sub{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  std::vector<uint8_t> model(kBw * kBh * 8);
  FillPattern(model, 71);
  HostBuffer full = MakeHostBuffer(model.size());
  HostBuffer padded = MakeHostBuffer(8 + 6 * 4 * 8);  // 24x16 texels of padding = 6x4 blocks
  HostBuffer back = MakeHostBuffer(model.size());
  ASSERT_NE(back.data, nullptr);
  std::memcpy(full.data, model.data(), model.size());
  FillPattern(padded.bytes(), 72);
  std::memset(back.data, 0, back.size);

  const VkBufferImageCopy whole{0, 0, 0, sub, {0, 0, 0}, {19, 13, 1}};
  // Texels (4,4)..(18,12): the extent 15x9 reaches the edge, 4x3 blocks.
  const VkBufferImageCopy part{8, 24, 16, sub, {4, 4, 0}, {15, 9, 1}};
  VkCommandBuffer cb = BeginCommands();
  vkCmdCopyBufferToImage(cb, full.buffer, image, VK_IMAGE_LAYOUT_GENERAL, 1, &whole);
  TransferBarrier(cb);
  vkCmdCopyBufferToImage(cb, padded.buffer, image, VK_IMAGE_LAYOUT_GENERAL, 1, &part);
  TransferBarrier(cb);
  vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_GENERAL, back.buffer, 1, &whole);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  for (uint32_t by = 0; by < 3; ++by)
    for (uint32_t bx = 0; bx < 4; ++bx)
      std::memcpy(model.data() + ((1 + by) * kBw + 1 + bx) * 8, padded.data + 8 + (by * 6 + bx) * 8, 8);
  EXPECT_EQ(FirstDifference(back.bytes(), model), SIZE_MAX);

  // Compressed -> uncompressed of the same block size (R32G32_UINT): the
  // extent counts source texels, so 8x8 texels land as 2x2 texels.
  if (!Supported(VK_FORMAT_R32G32_UINT, VK_IMAGE_TYPE_2D, {5, 4, 1}, 1, 1)) return;
  VkImage plain = MakeTransferImage(VK_FORMAT_R32G32_UINT, VK_IMAGE_TYPE_2D, {5, 4, 1}, 1, 1);
  ASSERT_NE(plain, VK_NULL_HANDLE);
  LevelModel pm;
  ASSERT_NO_FATAL_FAILURE(pm = InitLevel(plain, VK_FORMAT_R32G32_UINT, VK_IMAGE_TYPE_2D, {5, 4, 1}, 1,
                                         VK_IMAGE_ASPECT_COLOR_BIT, 8, 0, 73));
  const VkImageCopy region{sub, {4, 0, 0}, sub, {1, 1, 0}, {8, 8, 1}};
  cb = BeginCommands();
  FullBarrier(cb);
  vkCmdCopyImage(cb, image, VK_IMAGE_LAYOUT_GENERAL, plain, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  for (uint32_t j = 0; j < 2; ++j)
    for (uint32_t i = 0; i < 2; ++i) std::memcpy(pm.At(1 + i, 1 + j, 0, 0), model.data() + (j * kBw + 1 + i) * 8, 8);
  EXPECT_EQ(FirstDifference(ReadLevel(plain, pm, VK_IMAGE_ASPECT_COLOR_BIT, 0), pm.bytes), SIZE_MAX);
}

// Linear images may have levels and layers like optimal ones: each
// subresource written through its vkGetImageSubresourceLayout reads back
// through a copy.
TEST_F(ImageTransfers, LinearImagesWithLevelsAndLayers) {
  const VkFormat f = VK_FORMAT_R8G8B8A8_UNORM;
  VkImageFormatProperties limits{};
  const VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if (vkGetPhysicalDeviceImageFormatProperties(phys_, f, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_LINEAR, usage, 0,
                                               &limits) != VK_SUCCESS ||
      limits.maxMipLevels < 3 || limits.maxArrayLayers < 2)
    GTEST_SKIP() << "linear images have one level and one layer here";
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, f, {13, 7, 1}, 3, 2, usage, VK_IMAGE_TILING_LINEAR);
  ci.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
  VkImage image = MakeImage(ci);
  ASSERT_NE(image, VK_NULL_HANDLE);
  VkMemoryRequirements req{};
  vkGetImageMemoryRequirements(device_, image, &req);
  VkDeviceMemory mem = MakeMemory(
      req.size, FindMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT));
  ASSERT_NE(mem, VK_NULL_HANDLE);
  VK_ASSERT_OK(vkBindImageMemory(device_, image, mem, 0));
  uint8_t* map = nullptr;
  VK_ASSERT_OK(vkMapMemory(device_, mem, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&map)));
  std::vector<std::vector<uint8_t>> written;
  for (uint32_t level = 0; level < 3; ++level) {
    for (uint32_t layer = 0; layer < 2; ++layer) {
      const uint32_t w = std::max(13u >> level, 1u), h = std::max(7u >> level, 1u);
      const VkImageSubresource sub{VK_IMAGE_ASPECT_COLOR_BIT, level, layer};
      VkSubresourceLayout layout{};
      vkGetImageSubresourceLayout(device_, image, &sub, &layout);
      ASSERT_LE(layout.offset + (h - 1) * layout.rowPitch + w * 4, req.size) << level << "/" << layer;
      std::vector<uint8_t> texels(size_t(w) * h * 4);
      FillPattern(texels, 7 + level * 2 + layer);
      for (uint32_t y = 0; y < h; ++y)
        std::memcpy(map + layout.offset + y * layout.rowPitch, texels.data() + size_t(y) * w * 4, w * 4);
      written.push_back(texels);
    }
  }
  VkCommandBuffer cb = BeginCommands();
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  b.oldLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
  b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 3, 0, 2};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                       &b);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  for (uint32_t level = 0; level < 3; ++level) {
    for (uint32_t layer = 0; layer < 2; ++layer) {
      const uint32_t w = std::max(13u >> level, 1u), h = std::max(7u >> level, 1u);
      std::vector<uint8_t> read;
      ASSERT_NO_FATAL_FAILURE(read = ReadImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, level, layer, 1}, {0, 0, 0},
                                               {w, h, 1}, 4));
      EXPECT_EQ(FirstDifference(read, written[level * 2 + layer]), SIZE_MAX) << "level " << level << " layer " << layer;
    }
  }
}

TEST_F(ImageTransfers, LinearImageWrittenThroughMapThenCopied) {
  const VkFormat f = VK_FORMAT_R8G8B8A8_UNORM;
  if (!FormatHas(f, VK_IMAGE_TILING_LINEAR, VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT))
    GTEST_SKIP() << "no linear transfer support for RGBA8";
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, f, {13, 7, 1}, 1, 1,
                                   VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                   VK_IMAGE_TILING_LINEAR);
  ci.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
  VkImage image = MakeImage(ci);
  ASSERT_NE(image, VK_NULL_HANDLE);
  VkMemoryRequirements req{};
  vkGetImageMemoryRequirements(device_, image, &req);
  const uint32_t type =
      FindMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  ASSERT_NE(type, UINT32_MAX) << "a linear image must be bindable to host-visible memory";
  VkDeviceMemory mem = MakeMemory(req.size, type);
  ASSERT_NE(mem, VK_NULL_HANDLE);
  VK_ASSERT_OK(vkBindImageMemory(device_, image, mem, 0));
  const VkImageSubresource sub{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
  VkSubresourceLayout layout{};
  vkGetImageSubresourceLayout(device_, image, &sub, &layout);
  ASSERT_GE(layout.rowPitch, 13u * 4);
  ASSERT_LE(layout.offset + 6 * layout.rowPitch + 13 * 4, layout.offset + layout.size);
  uint8_t* map = nullptr;
  VK_ASSERT_OK(vkMapMemory(device_, mem, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&map)));
  std::vector<uint8_t> texels(13 * 7 * 4);
  FillPattern(texels, 51);
  for (uint32_t y = 0; y < 7; ++y) std::memcpy(map + layout.offset + y * layout.rowPitch, texels.data() + y * 52, 52);

  // PREINITIALIZED -> GENERAL keeps the host-written contents.
  VkCommandBuffer cb = BeginCommands();
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  b.oldLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
  b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                       &b);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> read;
  ASSERT_NO_FATAL_FAILURE(read = ReadImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {13, 7, 1}, 4));
  EXPECT_EQ(FirstDifference(read, texels), SIZE_MAX);

  // Buffer -> linear image region, observed through the mapping.
  std::vector<uint8_t> patch(5 * 3 * 4);
  FillPattern(patch, 52);
  ASSERT_NO_FATAL_FAILURE(
      WriteImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {7, 2, 0}, {5, 3, 1}, 4, patch));
  for (uint32_t y = 0; y < 3; ++y) std::memcpy(texels.data() + ((2 + y) * 13 + 7) * 4, patch.data() + y * 20, 20);
  for (uint32_t y = 0; y < 7; ++y) {
    ASSERT_EQ(std::memcmp(map + layout.offset + y * layout.rowPitch, texels.data() + y * 52, 52), 0) << "row " << y;
  }
}

}  // namespace
}  // namespace duet_test

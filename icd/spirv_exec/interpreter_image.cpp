#include "spirv_exec/interpreter_image.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "objects/buffer.h"
#include "objects/image.h"
#include "raster/image_access.h"
#include "spirv_exec/atomic_operation.h"
#include "spirv_exec/image_sampling.h"
#include "texel/block_decode.h"
#include "texel/texel_codec.h"

namespace duet::spirv_exec {
namespace {

constexpr uint32_t W = kWaveWidth;

// Where texel (x, y, z/layer) of a view's level lives: the texel block
// holding it, or nullptr outside the level. A view of a block-compressed
// image sees its blocks as their texels (4x4 to 12x12) through a compressed
// view of the image's class, or as one texel each through an uncompressed
// view (BLOCK_TEXEL_VIEW_COMPATIBLE, view_block 1).
struct ViewTexels {
  const ImageView* view;
  const texel::TexelCodec* codec;  // nullptr for block-compressed views
  uint32_t level;
  uint32_t view_block_width = 1, view_block_height = 1;

  ViewTexels(const ImageView& v, const texel::TexelCodec* view_codec, uint32_t view_level)
      : view(&v), codec(view_codec), level(view_level) {
    if (const texel::FormatInfo* format = texel::GetFormatInfo(v.format)) {
      view_block_width = format->block_width;
      view_block_height = format->block_height;
    }
  }

  std::byte* Texel(int32_t x, int32_t y, int32_t z) const {
    const Image& image = *view->image;
    const VkImageViewType type = view->view_type;
    const bool volume = type == VK_IMAGE_VIEW_TYPE_3D;
    const bool layered_1d = type == VK_IMAGE_VIEW_TYPE_1D_ARRAY;
    const int32_t layer = layered_1d ? y : volume ? 0 : z;
    if (layered_1d) y = 0;
    if (!volume) z = 0;
    if (level >= view->range.levelCount || layer < 0 || uint32_t(layer) >= view->range.layerCount) return nullptr;
    raster::SubresourceAccess a =
        raster::AccessSubresource(image, view->range.aspectMask, view->range.baseMipLevel + level,
                                  image.type == VK_IMAGE_TYPE_3D ? 0 : view->range.baseArrayLayer + uint32_t(layer));
    if (image.type == VK_IMAGE_TYPE_3D && !volume) {
      // A 2D (array) view of a 3D image: its layers are depth slices of the level.
      const uint32_t slice = view->range.baseArrayLayer + uint32_t(layer);
      if (slice >= a.extent.depth) return nullptr;
      a.base += size_t(slice) * a.slice_pitch;
      a.extent.depth = 1;
    }
    const uint32_t width = view_block_width == a.block_width
                               ? a.extent.width
                               : (a.extent.width + a.block_width - 1) / a.block_width * view_block_width;
    const uint32_t height = view_block_height == a.block_height
                                ? a.extent.height
                                : (a.extent.height + a.block_height - 1) / a.block_height * view_block_height;
    if (x < 0 || y < 0 || z < 0 || uint32_t(x) >= width || uint32_t(y) >= height || uint32_t(z) >= a.extent.depth ||
        image.Data() == nullptr)
      return nullptr;
    return a.Block(uint32_t(x) / view_block_width, uint32_t(y) / view_block_height, uint32_t(z));
  }

  // A texel of a block-compressed view, decoded from its block. Returns
  // false outside the level.
  bool LoadCompressed(int32_t x, int32_t y, int32_t z, texel::TexelValue* out) const {
    const std::byte* block = Texel(x, y, z);
    if (block == nullptr) return false;
    *out = texel::DecodeBlockTexel(view->format, block, uint32_t(x) % view_block_width,
                                   uint32_t(y) % view_block_height);
    return true;
  }
};

const texel::TexelCodec* ViewCodec(const ImageView& view) {
  if (view.range.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT)
    return texel::GetAspectCodec(view.image->format, VK_IMAGE_ASPECT_DEPTH_BIT);
  if (view.range.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT)
    return texel::GetAspectCodec(view.image->format, VK_IMAGE_ASPECT_STENCIL_BIT);
  return texel::GetTexelCodec(view.format);
}

// The same for a block-compressed format (all of them read as float).
texel::TexelValue CompressedReplacement(VkFormat format) {
  texel::TexelValue v{};
  const texel::FormatInfo* info = texel::GetFormatInfo(format);
  bool alpha = false;
  for (uint32_t c = 0; info != nullptr && c < info->component_count; ++c) alpha |= info->components[c].name == 'A';
  if (!alpha) v.f[3] = 1.0f;
  return v;
}

void Store(WaveState& w, uint32_t dst, uint32_t lane, const texel::TexelValue& v) {
  for (uint32_t c = 0; c < 4; ++c) w.Register(dst + c)[lane] = v.u[c];
}

bool IdentityMapping(const VkComponentMapping& m) {
  auto same = [](VkComponentSwizzle s, VkComponentSwizzle own) { return s == VK_COMPONENT_SWIZZLE_IDENTITY || s == own; };
  return same(m.r, VK_COMPONENT_SWIZZLE_R) && same(m.g, VK_COMPONENT_SWIZZLE_G) && same(m.b, VK_COMPONENT_SWIZZLE_B) &&
         same(m.a, VK_COMPONENT_SWIZZLE_A);
}

// A fetched texel through the view's component mapping (storage images and
// input attachments have the identity, as valid usage requires); ONE is 1
// or 1.0 by the format's class.
texel::TexelValue Swizzled(const VkComponentMapping& m, const texel::TexelValue& v, bool integer) {
  auto pick = [&](VkComponentSwizzle s, uint32_t own) -> uint32_t {
    switch (s) {
      case VK_COMPONENT_SWIZZLE_ZERO: return 0;
      case VK_COMPONENT_SWIZZLE_ONE: return integer ? 1u : std::bit_cast<uint32_t>(1.0f);
      case VK_COMPONENT_SWIZZLE_R: return v.u[0];
      case VK_COMPONENT_SWIZZLE_G: return v.u[1];
      case VK_COMPONENT_SWIZZLE_B: return v.u[2];
      case VK_COMPONENT_SWIZZLE_A: return v.u[3];
      default: return v.u[own];
    }
  };
  texel::TexelValue out;
  out.u[0] = pick(m.r, 0);
  out.u[1] = pick(m.g, 1);
  out.u[2] = pick(m.b, 2);
  out.u[3] = pick(m.a, 3);
  return out;
}

void Read(const Inst& in, const ImageBinding& b, WaveState& w) {
  const uint32_t* coord[3] = {w.Register(in.a), in.b > 1 ? w.Register(in.a + 1) : nullptr,
                              in.b > 2 ? w.Register(in.a + 2) : nullptr};
  const uint32_t* lod = in.c != kNoOperand ? w.Register(in.c) : nullptr;
  const uint32_t* sample = in.ext != kNoOperand ? w.Register(in.ext) : nullptr;
  const bool swizzle = b.view != nullptr && !IdentityMapping(b.view->components);
  for (uint32_t l = 0; l < W; ++l) {
    if (((w.active >> l) & 1) == 0) continue;
    texel::TexelValue v{};
    if (b.buffer_view != nullptr) {
      const BufferView& view = *b.buffer_view;
      const texel::TexelCodec* codec = texel::GetTexelCodec(view.format);
      v = texel::OutOfBoundsTexel(codec);
      const uint32_t x = coord[0][l];
      if (codec != nullptr && view.buffer->Data() != nullptr &&
          (VkDeviceSize(x) + 1) * codec->texel_size <= view.range)
        codec->unpack(view.buffer->Data() + view.offset + VkDeviceSize(x) * codec->texel_size, &v, 1);
    } else if (b.view != nullptr) {
      const ViewTexels texels(*b.view, ViewCodec(*b.view), lod != nullptr ? lod[l] : 0);
      if (texels.codec == nullptr && texel::IsDecodedBlockFormat(b.view->format)) {
        // Fetches from sampled block-compressed images decode; block images are single-sampled.
        v = CompressedReplacement(b.view->format);
        texels.LoadCompressed(int32_t(coord[0][l]), coord[1] ? int32_t(coord[1][l]) : 0,
                              coord[2] ? int32_t(coord[2][l]) : 0, &v);
        Store(w, in.dst, l, swizzle ? Swizzled(b.view->components, v, false) : v);
        continue;
      }
      v = texel::OutOfBoundsTexel(texels.codec);
      const std::byte* at = texels.codec != nullptr
                                ? texels.Texel(int32_t(coord[0][l]), coord[1] ? int32_t(coord[1][l]) : 0,
                                               coord[2] ? int32_t(coord[2][l]) : 0)
                                : nullptr;
      // Multisampled images: a pixel's samples are adjacent; a sample past the count reads as out of bounds.
      if (at != nullptr && sample != nullptr)
        at = sample[l] < uint32_t(b.view->image->samples) ? at + size_t(sample[l]) * texels.codec->texel_size : nullptr;
      if (at != nullptr) texels.codec->unpack(at, &v, 1);
      if (swizzle)
        v = Swizzled(b.view->components, v,
                     texels.codec != nullptr && texels.codec->value_class != texel::ValueClass::kFloat);
    }
    Store(w, in.dst, l, v);
  }
}

void Write(const Inst& in, const ImageBinding& b, WaveState& w) {
  const uint32_t* coord[3] = {w.Register(in.a), in.b > 1 ? w.Register(in.a + 1) : nullptr,
                              in.b > 2 ? w.Register(in.a + 2) : nullptr};
  const uint32_t* sample = in.ext != kNoOperand ? w.Register(in.ext) : nullptr;
  for (uint32_t l = 0; l < W; ++l) {
    if (((w.active >> l) & 1) == 0) continue;
    texel::TexelValue v;
    for (uint32_t c = 0; c < 4; ++c) v.u[c] = w.Register(in.c + c)[l];
    if (b.buffer_view != nullptr) {
      const BufferView& view = *b.buffer_view;
      const texel::TexelCodec* codec = texel::GetTexelCodec(view.format);
      const uint32_t x = coord[0][l];
      if (codec != nullptr && view.buffer->Data() != nullptr &&
          (VkDeviceSize(x) + 1) * codec->texel_size <= view.range)
        codec->pack(&v, view.buffer->Data() + view.offset + VkDeviceSize(x) * codec->texel_size, 1);
    } else if (b.view != nullptr) {
      const ViewTexels texels(*b.view, ViewCodec(*b.view), 0);
      std::byte* at = texels.codec != nullptr ? texels.Texel(int32_t(coord[0][l]), coord[1] ? int32_t(coord[1][l]) : 0,
                                                             coord[2] ? int32_t(coord[2][l]) : 0)
                                              : nullptr;
      // A pixel's samples are adjacent (as in Read); a sample past the count is out of bounds.
      if (at != nullptr && sample != nullptr)
        at = sample[l] < uint32_t(b.view->image->samples) ? at + size_t(sample[l]) * texels.codec->texel_size : nullptr;
      if (at != nullptr) texels.codec->pack(&v, at, 1);  // out-of-bounds writes are dropped
    }
  }
}

// Atomics work on 32-bit integer texels (the formats with
// STORAGE_IMAGE_ATOMIC / STORAGE_TEXEL_BUFFER_ATOMIC); a texel outside the
// image or of another size is left alone and the result is 0.
void Atomic(const Inst& in, const ImageBinding& b, WaveState& w) {
  const uint32_t* coord[4] = {w.Register(in.a), w.Register(in.a + 1), w.Register(in.a + 2), w.Register(in.a + 3)};
  const uint32_t* value = w.Register(in.c);
  const uint32_t* comparator = w.Register(in.c + 1);
  uint32_t* dst = w.Register(in.dst);
  for (uint32_t l = 0; l < W; ++l) {
    if (((w.active >> l) & 1) == 0) continue;
    std::byte* at = nullptr;
    if (b.buffer_view != nullptr) {
      const BufferView& view = *b.buffer_view;
      const texel::TexelCodec* codec = texel::GetTexelCodec(view.format);
      const uint32_t x = coord[0][l];
      if (codec != nullptr && codec->texel_size == 4 && view.buffer->Data() != nullptr &&
          (VkDeviceSize(x) + 1) * 4 <= view.range)
        at = view.buffer->Data() + view.offset + VkDeviceSize(x) * 4;
    } else if (b.view != nullptr) {
      const ViewTexels texels(*b.view, ViewCodec(*b.view), 0);
      if (texels.codec != nullptr && texels.codec->texel_size == 4) {
        at = texels.Texel(int32_t(coord[0][l]), in.b > 1 ? int32_t(coord[1][l]) : 0, in.b > 2 ? int32_t(coord[2][l]) : 0);
        const uint32_t sample = coord[3][l];
        if (at != nullptr) at = sample < uint32_t(b.view->image->samples) ? at + size_t(sample) * 4 : nullptr;
      }
    }
    dst[l] = at != nullptr ? AtomicOperation(in.ext, at, value[l], comparator[l]) : 0;
  }
}

void QuerySize(const Inst& in, const ImageBinding& b, WaveState& w) {
  uint32_t size[3] = {0, 0, 0};
  const uint32_t lod = in.a != kNoOperand ? w.Register(in.a)[std::countr_zero(w.active | (LaneMask{1} << (W - 1)))] : 0;
  if (b.buffer_view != nullptr) {
    const texel::TexelCodec* codec = texel::GetTexelCodec(b.buffer_view->format);
    size[0] = codec != nullptr ? uint32_t(b.buffer_view->range / codec->texel_size) : 0;
  } else if (b.view != nullptr) {
    const ImageView& v = *b.view;
    const VkExtent3D e = v.image->extent;
    const uint32_t m = v.range.baseMipLevel + lod;
    // A view of another block size than its image's (an uncompressed view of
    // a block-compressed image) counts the image's blocks as its texels.
    const texel::FormatInfo* image_format = texel::GetFormatInfo(v.image->format);
    const texel::FormatInfo* view_format = texel::GetFormatInfo(v.format);
    uint32_t block_w = 1, block_h = 1;
    if (image_format != nullptr && view_format != nullptr && image_format->block_width != view_format->block_width) {
      block_w = image_format->block_width;
      block_h = image_format->block_height;
    }
    const uint32_t width = (std::max(e.width >> m, 1u) + block_w - 1) / block_w;
    const uint32_t height = (std::max(e.height >> m, 1u) + block_h - 1) / block_h;
    const uint32_t depth = std::max(e.depth >> m, 1u);
    switch (v.view_type) {
      case VK_IMAGE_VIEW_TYPE_1D: size[0] = width; break;
      case VK_IMAGE_VIEW_TYPE_1D_ARRAY: size[0] = width; size[1] = v.range.layerCount; break;
      case VK_IMAGE_VIEW_TYPE_2D:
      case VK_IMAGE_VIEW_TYPE_CUBE: size[0] = width; size[1] = height; break;
      case VK_IMAGE_VIEW_TYPE_2D_ARRAY: size[0] = width; size[1] = height; size[2] = v.range.layerCount; break;
      case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY: size[0] = width; size[1] = height; size[2] = v.range.layerCount / 6; break;
      case VK_IMAGE_VIEW_TYPE_3D: size[0] = width; size[1] = height; size[2] = depth; break;
      default: break;
    }
  }
  for (uint32_t c = 0; c < in.b && c < 3; ++c) {
    uint32_t* dst = w.Register(in.dst + c);
    for (uint32_t l = 0; l < W; ++l)
      if ((w.active >> l) & 1) dst[l] = size[c];
  }
}

void Fill(WaveState& w, uint32_t dst, uint32_t value) {
  uint32_t* r = w.Register(dst);
  for (uint32_t l = 0; l < W; ++l)
    if ((w.active >> l) & 1) r[l] = value;
}

}  // namespace

void ExecuteImageInstruction(const Program& program, const Inst& in, const ImageBinding* images,
                             const texel::SampledImageState* sampled, WaveState& w) {
  if (in.op == Op::kImageSample) {
    SampleImage(program.sample_operands[in.b], in, sampled[in.aux], w);
    return;
  }
  const ImageBinding& b = images[in.aux];
  switch (in.op) {
    case Op::kImageRead: Read(in, b, w); break;
    case Op::kImageWrite: Write(in, b, w); break;
    case Op::kImageAtomic: Atomic(in, b, w); break;
    case Op::kImageQuerySize: QuerySize(in, b, w); break;
    case Op::kImageQueryLevels: Fill(w, in.dst, b.view != nullptr ? b.view->range.levelCount : 0); break;
    case Op::kImageQuerySamples: Fill(w, in.dst, b.view != nullptr ? uint32_t(b.view->image->samples) : 0); break;
    default: break;
  }
}

}  // namespace duet::spirv_exec

#include "spirv_exec/interpreter_image.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "objects/buffer.h"
#include "objects/image.h"
#include "raster/image_access.h"
#include "spirv_exec/image_sampling.h"
#include "texel/texel_codec.h"

namespace duet::spirv_exec {
namespace {

constexpr uint32_t W = kWaveWidth;

// Where texel (x, y, z/layer) of a view's level lives, or nullptr outside it.
struct ViewTexels {
  const ImageView* view;
  const texel::TexelCodec* codec;
  uint32_t level;

  std::byte* Texel(int32_t x, int32_t y, int32_t z) const {
    const Image& image = *view->image;
    const VkImageViewType type = view->view_type;
    const bool volume = type == VK_IMAGE_VIEW_TYPE_3D;
    const bool layered_1d = type == VK_IMAGE_VIEW_TYPE_1D_ARRAY;
    const int32_t layer = layered_1d ? y : volume ? 0 : z;
    if (layered_1d) y = 0;
    if (!volume) z = 0;
    if (level >= view->range.levelCount || layer < 0 || uint32_t(layer) >= view->range.layerCount) return nullptr;
    const raster::SubresourceAccess a =
        raster::AccessSubresource(image, view->range.aspectMask, view->range.baseMipLevel + level,
                                  view->range.baseArrayLayer + uint32_t(layer));
    if (x < 0 || y < 0 || z < 0 || uint32_t(x) >= a.extent.width || uint32_t(y) >= a.extent.height ||
        uint32_t(z) >= a.extent.depth || image.Data() == nullptr)
      return nullptr;
    return a.Block(uint32_t(x), uint32_t(y), uint32_t(z));
  }
};

const texel::TexelCodec* ViewCodec(const ImageView& view) {
  if (view.range.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT)
    return texel::GetAspectCodec(view.image->format, VK_IMAGE_ASPECT_DEPTH_BIT);
  if (view.range.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT)
    return texel::GetAspectCodec(view.image->format, VK_IMAGE_ASPECT_STENCIL_BIT);
  return texel::GetTexelCodec(view.format);
}

// Out-of-bounds reads give zero, with alpha 1 when the format has no alpha.
texel::TexelValue Replacement(const texel::TexelCodec* codec) {
  texel::TexelValue v{};
  if (codec != nullptr && codec->channel_bits[3] == 0)
    v.u[3] = codec->value_class == texel::ValueClass::kFloat ? std::bit_cast<uint32_t>(1.0f) : 1u;
  return v;
}

void Store(WaveState& w, uint32_t dst, uint32_t lane, const texel::TexelValue& v) {
  for (uint32_t c = 0; c < 4; ++c) w.Register(dst + c)[lane] = v.u[c];
}

void Read(const Inst& in, const ImageBinding& b, WaveState& w) {
  const uint32_t* coord[3] = {w.Register(in.a), in.b > 1 ? w.Register(in.a + 1) : nullptr,
                              in.b > 2 ? w.Register(in.a + 2) : nullptr};
  const uint32_t* lod = in.c != kNoOperand ? w.Register(in.c) : nullptr;
  for (uint32_t l = 0; l < W; ++l) {
    if (((w.active >> l) & 1) == 0) continue;
    texel::TexelValue v{};
    if (b.buffer_view != nullptr) {
      const BufferView& view = *b.buffer_view;
      const texel::TexelCodec* codec = texel::GetTexelCodec(view.format);
      v = Replacement(codec);
      const uint32_t x = coord[0][l];
      if (codec != nullptr && view.buffer->Data() != nullptr &&
          (VkDeviceSize(x) + 1) * codec->texel_size <= view.range)
        codec->unpack(view.buffer->Data() + view.offset + VkDeviceSize(x) * codec->texel_size, &v, 1);
    } else if (b.view != nullptr) {
      const ViewTexels texels{b.view, ViewCodec(*b.view), lod != nullptr ? lod[l] : 0};
      v = Replacement(texels.codec);
      const std::byte* at = texels.codec != nullptr
                                ? texels.Texel(int32_t(coord[0][l]), coord[1] ? int32_t(coord[1][l]) : 0,
                                               coord[2] ? int32_t(coord[2][l]) : 0)
                                : nullptr;
      if (at != nullptr) texels.codec->unpack(at, &v, 1);
    }
    Store(w, in.dst, l, v);
  }
}

void Write(const Inst& in, const ImageBinding& b, WaveState& w) {
  const uint32_t* coord[3] = {w.Register(in.a), in.b > 1 ? w.Register(in.a + 1) : nullptr,
                              in.b > 2 ? w.Register(in.a + 2) : nullptr};
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
      const ViewTexels texels{b.view, ViewCodec(*b.view), 0};
      std::byte* at = texels.codec != nullptr ? texels.Texel(int32_t(coord[0][l]), coord[1] ? int32_t(coord[1][l]) : 0,
                                                             coord[2] ? int32_t(coord[2][l]) : 0)
                                              : nullptr;
      if (at != nullptr) texels.codec->pack(&v, at, 1);  // out-of-bounds writes are dropped
    }
  }
}

void QuerySize(const Inst& in, const ImageBinding& b, WaveState& w) {
  uint32_t size[3] = {0, 0, 0};
  const uint32_t lod = in.a != kNoOperand ? w.Register(in.a)[std::countr_zero(w.active | (1u << 31))] : 0;
  if (b.buffer_view != nullptr) {
    const texel::TexelCodec* codec = texel::GetTexelCodec(b.buffer_view->format);
    size[0] = codec != nullptr ? uint32_t(b.buffer_view->range / codec->texel_size) : 0;
  } else if (b.view != nullptr) {
    const ImageView& v = *b.view;
    const VkExtent3D e = v.image->extent;
    const uint32_t m = v.range.baseMipLevel + lod;
    const uint32_t width = std::max(e.width >> m, 1u), height = std::max(e.height >> m, 1u);
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
    case Op::kImageQuerySize: QuerySize(in, b, w); break;
    case Op::kImageQueryLevels: Fill(w, in.dst, b.view != nullptr ? b.view->range.levelCount : 0); break;
    case Op::kImageQuerySamples: Fill(w, in.dst, b.view != nullptr ? uint32_t(b.view->image->samples) : 0); break;
    default: break;
  }
}

}  // namespace duet::spirv_exec

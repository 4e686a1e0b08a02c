#include "raster/transfer_blit.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

#include "objects/image.h"
#include "raster/image_access.h"
#include "texel/block_decode.h"
#include "texel/texel_codec.h"
#include "util/log.h"

namespace duet::raster {
namespace {

using texel::TexelCodec;
using texel::TexelValue;

// Where destination texel i of an axis samples the source: the spec maps
// texel centres linearly from the destination range onto the source range;
// swapped offsets on either side mirror the blit.
struct AxisMapping {
  float src0, src1;
  int32_t dst0, dst1;

  float SourceCoordinate(int32_t d) const {
    return src0 + (float(d) + 0.5f - float(dst0)) * (src1 - src0) / float(dst1 - dst0);
  }
};

// Per-destination-column sampling: two source columns and the weight of the second.
struct ColumnTap {
  uint32_t x0, x1;
  float weight;
};

int32_t ClampToEdge(int32_t v, uint32_t size) { return std::clamp<int32_t>(v, 0, int32_t(size) - 1); }

ColumnTap Tap(float u, uint32_t size, bool linear) {
  if (!linear) {
    const uint32_t x = ClampToEdge(int32_t(std::floor(u)), size);
    return {x, x, 0.0f};
  }
  const float s = u - 0.5f;
  const float base = std::floor(s);
  return {uint32_t(ClampToEdge(int32_t(base), size)), uint32_t(ClampToEdge(int32_t(base) + 1, size)), s - base};
}

// One source row unpacked to values, cached by row so each is unpacked once.
// A block-compressed source (codec nullptr) decodes the row's line of its
// row of blocks.
class SourceRows {
 public:
  SourceRows(const SubresourceAccess& access, const TexelCodec* codec, VkFormat format)
      : access_(access), codec_(codec), format_(format) {}

  const TexelValue* Row(uint32_t y, uint32_t z) {
    for (Entry& e : cache_)
      if (e.y == y && e.z == z) return e.values.data();
    Entry& e = cache_[next_++ % std::size(cache_)];
    e.y = y;
    e.z = z;
    e.values.resize(access_.extent.width);
    if (codec_ != nullptr) {
      codec_->unpack(access_.Block(0, y, z), e.values.data(), access_.extent.width);
    } else {
      texel::DecodeBlockRow(format_, access_.Block(0, y / access_.block_height, z), y % access_.block_height,
                         access_.extent.width, e.values.data());
    }
    return e.values.data();
  }

 private:
  struct Entry {
    uint32_t y = UINT32_MAX, z = UINT32_MAX;
    std::vector<TexelValue> values;
  };
  const SubresourceAccess& access_;
  const TexelCodec* codec_;
  VkFormat format_;
  Entry cache_[4];  // bilinear over two slices needs four rows
  size_t next_ = 0;
};

TexelValue Lerp(const TexelValue& a, const TexelValue& b, float t) {
  TexelValue r;
  for (int c = 0; c < 4; ++c) r.f[c] = a.f[c] + (b.f[c] - a.f[c]) * t;
  return r;
}

void BlitAspect(const Image& src, Image& dst, const VkImageBlit2& region, bool linear, VkImageAspectFlagBits aspect) {
  // Block-compressed sources decode to float values, as sampling reads them.
  const bool compressed = texel::IsDecodedBlockFormat(src.format);
  const TexelCodec* from = compressed ? nullptr : texel::GetAspectCodec(src.format, aspect);
  const TexelCodec* to = texel::GetAspectCodec(dst.format, aspect);
  const bool convertible = to != nullptr && (compressed ? to->value_class == texel::ValueClass::kFloat
                                                        : from != nullptr && texel::CanConvert(*from, *to));
  if (!convertible) {
    DUET_ERROR("vkCmdBlitImage: cannot blit format %d to %d", src.format, dst.format);
    return;
  }
  // Filtering applies to float values only; integer formats blit nearest.
  linear = linear && (compressed || from->value_class == texel::ValueClass::kFloat);

  const VkOffset3D* s = region.srcOffsets;
  const VkOffset3D* d = region.dstOffsets;
  const AxisMapping mx{float(s[0].x), float(s[1].x), d[0].x, d[1].x};
  const AxisMapping my{float(s[0].y), float(s[1].y), d[0].y, d[1].y};
  const AxisMapping mz{float(s[0].z), float(s[1].z), d[0].z, d[1].z};
  if (mx.dst0 == mx.dst1 || my.dst0 == my.dst1 || mz.dst0 == mz.dst1) return;
  const int32_t x_begin = std::min(d[0].x, d[1].x), x_end = std::max(d[0].x, d[1].x);
  const int32_t y_begin = std::min(d[0].y, d[1].y), y_end = std::max(d[0].y, d[1].y);
  const int32_t z_begin = std::min(d[0].z, d[1].z), z_end = std::max(d[0].z, d[1].z);

  const bool src_volume = src.type == VK_IMAGE_TYPE_3D;
  const bool dst_volume = dst.type == VK_IMAGE_TYPE_3D;
  const uint32_t layers = region.srcSubresource.layerCount;
  std::vector<TexelValue> out(size_t(x_end - x_begin));
  for (uint32_t layer = 0; layer < layers; ++layer) {
    const SubresourceAccess sa = AccessSubresource(src, aspect, region.srcSubresource.mipLevel,
                                                   region.srcSubresource.baseArrayLayer + layer);
    const SubresourceAccess da = AccessSubresource(dst, aspect, region.dstSubresource.mipLevel,
                                                   region.dstSubresource.baseArrayLayer + layer);
    SourceRows rows(sa, from, src.format);
    std::vector<ColumnTap> taps(out.size());
    for (int32_t x = x_begin; x < x_end; ++x) taps[size_t(x - x_begin)] = Tap(mx.SourceCoordinate(x), sa.extent.width, linear);

    for (int32_t z = z_begin; z < z_end; ++z) {
      const ColumnTap tz = src_volume ? Tap(mz.SourceCoordinate(z), sa.extent.depth, linear) : ColumnTap{0, 0, 0.0f};
      for (int32_t y = y_begin; y < y_end; ++y) {
        const ColumnTap ty = Tap(my.SourceCoordinate(y), sa.extent.height, linear);
        for (size_t i = 0; i < out.size(); ++i) {
          const ColumnTap& tx = taps[i];
          if (!linear) {
            out[i] = rows.Row(ty.x0, tz.x0)[tx.x0];
            continue;
          }
          // Each cached row is used before the next is fetched: a fetch may reuse its slot.
          auto bilinear = [&](uint32_t sz) {
            const TexelValue* r0 = rows.Row(ty.x0, sz);
            const TexelValue top = Lerp(r0[tx.x0], r0[tx.x1], tx.weight);
            const TexelValue* r1 = rows.Row(ty.x1, sz);
            return Lerp(top, Lerp(r1[tx.x0], r1[tx.x1], tx.weight), ty.weight);
          };
          out[i] = src_volume ? Lerp(bilinear(tz.x0), bilinear(tz.x1), tz.weight) : bilinear(tz.x0);
        }
        to->pack(out.data(), da.Block(uint32_t(x_begin), uint32_t(y), dst_volume ? uint32_t(z) : 0), out.size());
      }
    }
  }
}

}  // namespace

void BlitImage(const Image& src, Image& dst, const VkImageBlit2& region, VkFilter filter) {
  const bool linear = filter == VK_FILTER_LINEAR;
  ForEachAspect(region.srcSubresource.aspectMask, [&](VkImageAspectFlags aspect) {
    BlitAspect(src, dst, region, linear, static_cast<VkImageAspectFlagBits>(aspect));
  });
}

}  // namespace duet::raster

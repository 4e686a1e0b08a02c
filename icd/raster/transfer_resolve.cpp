#include "raster/transfer_resolve.h"

#include <algorithm>
#include <vector>

#include "objects/image.h"
#include "util/log.h"

namespace duet::raster {
namespace {

// One output texel from a pixel's `samples` texels.
void CombineSamples(const texel::TexelValue* px, uint32_t samples, texel::ValueClass value_class,
                    VkResolveModeFlagBits mode, texel::TexelValue* out) {
  const bool average = mode == VK_RESOLVE_MODE_AVERAGE_BIT;
  if (mode == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT || (average && value_class != texel::ValueClass::kFloat)) {
    *out = px[0];
    return;
  }
  *out = px[0];
  for (int c = 0; c < 4; ++c) {
    if (average) {
      float sum = 0.0f;
      for (uint32_t s = 0; s < samples; ++s) sum += px[s].f[c];
      out->f[c] = sum / float(samples);
      continue;
    }
    const bool take_min = mode == VK_RESOLVE_MODE_MIN_BIT;
    for (uint32_t s = 1; s < samples; ++s) {
      const texel::TexelValue& v = px[s];
      switch (value_class) {
        case texel::ValueClass::kFloat:
          out->f[c] = take_min ? std::min(out->f[c], v.f[c]) : std::max(out->f[c], v.f[c]);
          break;
        case texel::ValueClass::kUint:
          out->u[c] = take_min ? std::min(out->u[c], v.u[c]) : std::max(out->u[c], v.u[c]);
          break;
        case texel::ValueClass::kSint:
          out->i[c] = take_min ? std::min(out->i[c], v.i[c]) : std::max(out->i[c], v.i[c]);
          break;
      }
    }
  }
}

}  // namespace

void ResolveRect(const texel::TexelCodec& src_codec, const SubresourceAccess& src, VkOffset2D src_offset,
                 const texel::TexelCodec& dst_codec, const SubresourceAccess& dst, VkOffset2D dst_offset,
                 VkExtent2D extent, VkResolveModeFlagBits mode) {
  if (mode == VK_RESOLVE_MODE_NONE || extent.width == 0) return;
  const uint32_t samples = std::max<uint32_t>(1, src.block_size / src_codec.texel_size);
  const uint32_t width = extent.width;
  // A source row holds `samples` consecutive texels per pixel.
  std::vector<texel::TexelValue> in(size_t(width) * samples), out(width);
  for (uint32_t y = 0; y < extent.height; ++y) {
    src_codec.unpack(src.Block(uint32_t(src_offset.x), uint32_t(src_offset.y) + y, 0), in.data(), in.size());
    for (uint32_t x = 0; x < width; ++x)
      CombineSamples(&in[size_t(x) * samples], samples, src_codec.value_class, mode, &out[x]);
    dst_codec.pack(out.data(), dst.Block(uint32_t(dst_offset.x), uint32_t(dst_offset.y) + y, 0), width);
  }
}

void ResolveImage(const Image& src, Image& dst, const VkImageResolve2& region) {
  const texel::TexelCodec* codec = texel::GetTexelCodec(src.format);
  const texel::TexelCodec* out_codec = texel::GetTexelCodec(dst.format);
  if (codec == nullptr || out_codec == nullptr) {
    DUET_ERROR("vkCmdResolveImage: format %d cannot be resolved", src.format);
    return;
  }
  const VkExtent2D extent{region.extent.width, region.extent.height};
  for (uint32_t layer = 0; layer < region.srcSubresource.layerCount; ++layer) {
    SubresourceAccess sa = AccessSubresource(src, VK_IMAGE_ASPECT_COLOR_BIT, region.srcSubresource.mipLevel,
                                             region.srcSubresource.baseArrayLayer + layer);
    SubresourceAccess da = AccessSubresource(dst, VK_IMAGE_ASPECT_COLOR_BIT, region.dstSubresource.mipLevel,
                                             region.dstSubresource.baseArrayLayer + layer);
    // 3D regions: one slice at a time, each addressed as a layer.
    sa.base += uint32_t(region.srcOffset.z) * sa.slice_pitch;
    da.base += uint32_t(region.dstOffset.z) * da.slice_pitch;
    for (uint32_t z = 0; z < region.extent.depth; ++z) {
      ResolveRect(*codec, sa, {region.srcOffset.x, region.srcOffset.y}, *out_codec, da,
                  {region.dstOffset.x, region.dstOffset.y}, extent, VK_RESOLVE_MODE_AVERAGE_BIT);
      sa.base += sa.slice_pitch;
      da.base += da.slice_pitch;
    }
  }
}

}  // namespace duet::raster

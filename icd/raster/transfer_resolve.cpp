#include "raster/transfer_resolve.h"

#include <vector>

#include "objects/image.h"
#include "raster/image_access.h"
#include "texel/texel_codec.h"
#include "util/log.h"

namespace duet::raster {

void ResolveImage(const Image& src, Image& dst, const VkImageResolve2& region) {
  const texel::TexelCodec* codec = texel::GetTexelCodec(src.format);
  const texel::TexelCodec* out_codec = texel::GetTexelCodec(dst.format);
  if (codec == nullptr || out_codec == nullptr) {
    DUET_ERROR("vkCmdResolveImage: format %d cannot be resolved", src.format);
    return;
  }
  const uint32_t samples = src.layout.samples;
  const bool average = codec->value_class == texel::ValueClass::kFloat;
  const uint32_t width = region.extent.width;
  // A source row holds `samples` consecutive texels per pixel.
  std::vector<texel::TexelValue> in(size_t(width) * samples), out(width);
  for (uint32_t layer = 0; layer < region.srcSubresource.layerCount; ++layer) {
    const SubresourceAccess sa = AccessSubresource(src, VK_IMAGE_ASPECT_COLOR_BIT, region.srcSubresource.mipLevel,
                                                   region.srcSubresource.baseArrayLayer + layer);
    const SubresourceAccess da = AccessSubresource(dst, VK_IMAGE_ASPECT_COLOR_BIT, region.dstSubresource.mipLevel,
                                                   region.dstSubresource.baseArrayLayer + layer);
    for (uint32_t z = 0; z < region.extent.depth; ++z) {
      for (uint32_t y = 0; y < region.extent.height; ++y) {
        codec->unpack(sa.Block(uint32_t(region.srcOffset.x), uint32_t(region.srcOffset.y) + y,
                               uint32_t(region.srcOffset.z) + z),
                      in.data(), in.size());
        for (uint32_t x = 0; x < width; ++x) {
          const texel::TexelValue* px = &in[size_t(x) * samples];
          if (!average) {
            out[x] = px[0];
            continue;
          }
          for (int c = 0; c < 4; ++c) {
            float sum = 0.0f;
            for (uint32_t s = 0; s < samples; ++s) sum += px[s].f[c];
            out[x].f[c] = sum / float(samples);
          }
        }
        out_codec->pack(out.data(),
                        da.Block(uint32_t(region.dstOffset.x), uint32_t(region.dstOffset.y) + y,
                                 uint32_t(region.dstOffset.z) + z),
                        width);
      }
    }
  }
}

}  // namespace duet::raster

// Colour attachments the output merge writes without the generic texel
// codecs: 8-bit RGBA/BGRA, UNORM or sRGB, when neither blending, logic ops
// nor a partial write mask is involved. Rounded exactly as the codecs round.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

namespace duet::raster {

enum class DirectColor : uint8_t { kNone, kRgba8Unorm, kBgra8Unorm, kRgba8Srgb, kBgra8Srgb };

// The direct form of an attachment of `format` with this blend state, or kNone.
DirectColor ChooseDirect(VkFormat format, const VkPipelineColorBlendAttachmentState& blend, bool logic_op);

// Writes one texel from the four components' float bits.
void WriteDirect(DirectColor direct, uint32_t r, uint32_t g, uint32_t b, uint32_t a, std::byte* at);

// Converts lanes [0, lanes) of a colour output (the four components'
// per-lane float bits) to texels.
void PackDirect(DirectColor direct, const uint32_t* const component[4], uint32_t lanes, uint32_t* texels);
// The same when every lane's alpha is `alpha` (float bits).
void PackDirectAlpha(DirectColor direct, const uint32_t* const component[3], uint32_t alpha, uint32_t lanes,
                     uint32_t* texels);

}  // namespace duet::raster

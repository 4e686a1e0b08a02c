// Logical operations on colour attachments (logicOpEnable): the fragment's
// colour, converted to the attachment's format, is combined bit by bit with
// the attachment's texel, for integer and normalized (UNORM, SNORM)
// formats. Float and sRGB attachments take the colour unchanged, and while
// logic ops are on no attachment blends.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

#include "raster/graphics_state.h"
#include "texel/texel_codec.h"

namespace duet::raster {

// A colour attachment's logic op for one draw.
struct LogicOpTarget {
  bool active = false;  // logic ops are on and apply to the attachment's format
  VkLogicOp op = VK_LOGIC_OP_COPY;
  uint8_t texel_size = 0;
  uint8_t write_bits[16] = {};  // per texel byte: the bits of the components the write mask keeps
};

// Sets up `*target` for an attachment of `format`; with logic ops on, also
// turns blending off in `*attachment` (the attachment's blend state).
void ConfigureLogicOp(const ColorBlendState& blend, VkFormat format, VkPipelineColorBlendAttachmentState* attachment,
                      LogicOpTarget* target);

// Writes one sample's texel at `texel`: `color` (the shader's four output
// words) through the logic op, then the write mask.
void WriteLogicOp(const LogicOpTarget& target, const texel::TexelCodec& codec, const uint32_t* color,
                  std::byte* texel);

}  // namespace duet::raster

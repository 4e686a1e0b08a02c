#include "raster/logic_op.h"

#include <cstring>

#include "texel/format_info.h"

namespace duet::raster {
namespace {

bool TakesLogicOps(const texel::FormatInfo& info) {
  if (info.component_count == 0 || info.compression != texel::Compression::kNone || info.has_depth ||
      info.has_stencil)
    return false;
  for (uint32_t c = 0; c < info.component_count; ++c) {
    const texel::NumericType t = info.components[c].type;
    if (t != texel::NumericType::kUnorm && t != texel::NumericType::kSnorm && t != texel::NumericType::kUint &&
        t != texel::NumericType::kSint)
      return false;
  }
  return true;
}

VkColorComponentFlags ComponentBit(char name) {
  switch (name) {
    case 'R': return VK_COLOR_COMPONENT_R_BIT;
    case 'G': return VK_COLOR_COMPONENT_G_BIT;
    case 'B': return VK_COLOR_COMPONENT_B_BIT;
    case 'A': return VK_COLOR_COMPONENT_A_BIT;
    default: return 0;
  }
}

// Marks bits [first, first + count) of a little-endian texel.
void SetBits(uint8_t* bytes, uint32_t first, uint32_t count) {
  for (uint32_t b = first; b < first + count; ++b) bytes[b / 8] = uint8_t(bytes[b / 8] | (1u << (b % 8)));
}

// The texel bits of the components in `mask`. Components follow one another
// from bit 0 in the format's order; a packed format lists them from its
// most significant bit down.
void WriteBits(const texel::FormatInfo& info, VkColorComponentFlags mask, uint8_t* bits) {
  uint32_t offset = info.packed_bits;
  uint32_t next = 0;
  for (uint32_t c = 0; c < info.component_count; ++c) {
    const texel::ComponentInfo& component = info.components[c];
    uint32_t first = next;
    if (info.packed_bits != 0) {
      offset -= component.bits;
      first = offset;
    }
    next += component.bits;
    if ((mask & ComponentBit(component.name)) != 0) SetBits(bits, first, component.bits);
  }
}

uint8_t Apply(VkLogicOp op, uint8_t s, uint8_t d) {
  switch (op) {
    case VK_LOGIC_OP_CLEAR: return 0;
    case VK_LOGIC_OP_AND: return s & d;
    case VK_LOGIC_OP_AND_REVERSE: return uint8_t(s & ~d);
    case VK_LOGIC_OP_COPY: return s;
    case VK_LOGIC_OP_AND_INVERTED: return uint8_t(~s & d);
    case VK_LOGIC_OP_NO_OP: return d;
    case VK_LOGIC_OP_XOR: return s ^ d;
    case VK_LOGIC_OP_OR: return s | d;
    case VK_LOGIC_OP_NOR: return uint8_t(~(s | d));
    case VK_LOGIC_OP_EQUIVALENT: return uint8_t(~(s ^ d));
    case VK_LOGIC_OP_INVERT: return uint8_t(~d);
    case VK_LOGIC_OP_OR_REVERSE: return uint8_t(s | ~d);
    case VK_LOGIC_OP_COPY_INVERTED: return uint8_t(~s);
    case VK_LOGIC_OP_OR_INVERTED: return uint8_t(~s | d);
    case VK_LOGIC_OP_NAND: return uint8_t(~(s & d));
    case VK_LOGIC_OP_SET: return 0xFF;
    default: return d;
  }
}

}  // namespace

void ConfigureLogicOp(const ColorBlendState& blend, VkFormat format, VkPipelineColorBlendAttachmentState* attachment,
                      LogicOpTarget* target) {
  *target = {};
  if (!blend.logic_op_enable) return;
  attachment->blendEnable = VK_FALSE;  // for every attachment, whatever its format
  const texel::FormatInfo* info = texel::GetFormatInfo(format);
  if (info == nullptr || !TakesLogicOps(*info) || info->block_size > sizeof target->write_bits) return;
  target->active = true;
  target->op = blend.logic_op;
  target->texel_size = info->block_size;
  WriteBits(*info, attachment->colorWriteMask, target->write_bits);
}

void WriteLogicOp(const LogicOpTarget& target, const texel::TexelCodec& codec, const uint32_t* color,
                  std::byte* texel) {
  texel::TexelValue value;
  std::memcpy(value.u, color, sizeof value.u);
  std::byte source[16];
  codec.pack(&value, source, 1);
  for (uint32_t i = 0; i < target.texel_size; ++i) {
    const uint8_t d = uint8_t(texel[i]), keep = target.write_bits[i];
    const uint8_t result = Apply(target.op, uint8_t(source[i]), d);
    texel[i] = std::byte(uint8_t((result & keep) | (d & ~keep)));
  }
}

}  // namespace duet::raster

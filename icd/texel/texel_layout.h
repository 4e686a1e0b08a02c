// Compile-time description of where a format's components sit in memory,
// read from the format's name the way the spec's format descriptions define
// it ("R8G8B8A8_UNORM": bytes in component order; "A2B10G10R10_UNORM_PACK32":
// one 32-bit word, first component in the most significant bits). The texel
// row functions are instantiated from these descriptions; a unit test checks
// each one against the generated format table (vk.xml).
// Internal to texel/: include texel/texel_codec.h for the API.
#pragma once

#include <cstdint>
#include <string_view>

#include "texel/format_info.h"
#include "texel/texel_codec.h"

namespace duet::texel::layout {

inline constexpr uint8_t kNoChannel = 0xFF;  // padding ('X') bits

enum class Kind : uint8_t {
  kArray,           // whole-byte components (8/16/32/64 bits) one after another
  kPacked,          // bit fields of one 16- or 32-bit word
  kSharedExponent,  // E5B9G9R9
};

struct Field {
  NumericType type;
  uint8_t bits;
  uint8_t channel;  // 0..3 for R, G, B, A (depth and stencil read as R), or kNoChannel
  uint8_t offset;   // kArray: byte offset in the texel; kPacked: bit offset of the field's LSB
};

struct Layout {
  Kind kind;
  ValueClass value_class;
  uint8_t size;  // bytes per texel
  uint8_t field_count;
  Field fields[4];
  bool depth;  // a depth element: packing clamps float depth to [0,1]
};

constexpr uint8_t ChannelOf(char letter) {
  switch (letter) {
    case 'R': case 'D': case 'S': return 0;
    case 'G': return 1;
    case 'B': return 2;
    case 'A': return 3;
    default: return kNoChannel;
  }
}

constexpr NumericType NumericTypeOf(std::string_view token) {
  if (token == "UNORM") return NumericType::kUnorm;
  if (token == "SNORM") return NumericType::kSnorm;
  if (token == "USCALED") return NumericType::kUscaled;
  if (token == "SSCALED") return NumericType::kSscaled;
  if (token == "UINT") return NumericType::kUint;
  if (token == "SINT") return NumericType::kSint;
  if (token == "UFLOAT") return NumericType::kUfloat;
  if (token == "SFLOAT") return NumericType::kSfloat;
  if (token == "SRGB") return NumericType::kSrgb;
  return NumericType::kNone;
}

// Reads a format name without its VK_FORMAT_ prefix. Components are letter
// + bits groups, possibly split by '_' (X8_D24); then one numeric type per
// aspect (D24_UNORM_S8_UINT is not a colour format and is not parsed here);
// then an optional _PACKnn. An sRGB format's alpha is UNORM. A malformed
// name makes the constant evaluation fail (the throw), so mistakes stop the
// build.
constexpr Layout ParseLayout(std::string_view name) {
  Layout layout{};
  char letters[4]{};
  size_t pos = 0;
  unsigned total_bits = 0;
  while (pos < name.size() && name[pos] >= 'A' && name[pos] <= 'Z' && pos + 1 < name.size() && name[pos + 1] >= '0' &&
         name[pos + 1] <= '9') {
    if (layout.field_count == 4) throw "more than four components";
    const char letter = name[pos++];
    unsigned bits = 0;
    while (pos < name.size() && name[pos] >= '0' && name[pos] <= '9') bits = bits * 10 + unsigned(name[pos++] - '0');
    letters[layout.field_count] = letter;
    layout.fields[layout.field_count++] = Field{NumericType::kNone, static_cast<uint8_t>(bits), ChannelOf(letter), 0};
    total_bits += bits;
    if (pos < name.size() && name[pos] == '_' && pos + 2 < name.size() && name[pos + 2] >= '0' && name[pos + 2] <= '9') {
      ++pos;  // X8_D24: the components continue after the underscore
    }
  }
  if (layout.field_count == 0 || pos >= name.size() || name[pos] != '_') throw "no components";
  ++pos;
  const size_t type_end = name.find('_', pos);
  const NumericType type = NumericTypeOf(name.substr(pos, type_end - pos));
  if (type == NumericType::kNone) throw "unknown numeric type";
  unsigned packed_bits = 0;
  if (type_end != std::string_view::npos) {
    const std::string_view suffix = name.substr(type_end + 1);
    if (suffix == "PACK16") packed_bits = 16;
    else if (suffix == "PACK32") packed_bits = 32;
    else throw "unknown suffix";
    if (packed_bits != total_bits) throw "packed fields do not fill the word";
  }

  layout.value_class = type == NumericType::kUint ? ValueClass::kUint
                       : type == NumericType::kSint ? ValueClass::kSint
                                                    : ValueClass::kFloat;
  layout.size = static_cast<uint8_t>(total_bits / 8);
  if (total_bits % 8 != 0) throw "texel is not whole bytes";
  layout.kind = packed_bits != 0 ? Kind::kPacked : Kind::kArray;
  unsigned offset = packed_bits;  // packed: fields fill the word from the top down
  unsigned byte = 0;
  for (uint8_t i = 0; i < layout.field_count; ++i) {
    Field& field = layout.fields[i];
    field.type = (type == NumericType::kSrgb && letters[i] == 'A') ? NumericType::kUnorm : type;
    if (letters[i] == 'D') layout.depth = true;
    if (letters[i] == 'E') layout.kind = Kind::kSharedExponent;
    if (layout.kind == Kind::kArray) {
      if (field.bits % 8 != 0) throw "array component is not whole bytes";
      field.offset = static_cast<uint8_t>(byte);
      byte += field.bits / 8;
    } else {
      offset -= field.bits;
      field.offset = static_cast<uint8_t>(offset);
    }
  }
  return layout;
}

constexpr bool HasSrgb(const Layout& layout) {
  for (uint8_t i = 0; i < layout.field_count; ++i) {
    if (layout.fields[i].type == NumericType::kSrgb) return true;
  }
  return false;
}

}  // namespace duet::texel::layout

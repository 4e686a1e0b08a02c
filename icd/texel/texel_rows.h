// The row functions behind every TexelCodec, instantiated per format layout
// (texel/texel_layout.h) so each format gets straight-line code: the fields,
// shifts, masks and conversions are all compile-time constants.
// Internal to texel/texel_codec.cpp.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "texel/fixed_point.h"
#include "texel/float_formats.h"
#include "texel/srgb.h"
#include "texel/texel_codec.h"
#include "texel/texel_layout.h"

namespace duet::texel::rows {

using layout::Field;
using layout::Kind;
using layout::Layout;

template <unsigned kBits>
using Storage = std::conditional_t<kBits == 64, uint64_t,
                                   std::conditional_t<kBits == 32, uint32_t,
                                                      std::conditional_t<kBits == 16, uint16_t, uint8_t>>>;

template <typename T>
inline T Load(const std::byte* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

template <typename T>
inline void Store(std::byte* p, T value) {
  std::memcpy(p, &value, sizeof(T));
}

// The raw bits of field I: its bytes for array layouts, its bit field of the
// (little-endian) word for packed ones.
template <Layout L, size_t I>
inline auto LoadField(const std::byte* texel) {
  constexpr Field f = L.fields[I];
  if constexpr (L.kind == Kind::kArray) {
    return Load<Storage<f.bits>>(texel + f.offset);
  } else {
    const uint32_t word = Load<Storage<L.size * 8>>(texel);
    return static_cast<uint32_t>((word >> f.offset) & BitMask(f.bits));
  }
}

// UNORM8 is the most common component: its 256 values, computed at compile time.
inline constexpr auto kUnorm8ToFloat = [] {
  std::array<float, 256> table{};
  for (uint32_t c = 0; c < 256; ++c) table[c] = UnormToFloat(c, 8);
  return table;
}();

// Spec "Format Conversion" of one component into its channel of v.
template <Field f>
inline void DecodeField(uint64_t raw, TexelValue& v, const SrgbTables* srgb) {
  constexpr unsigned b = f.bits;
  constexpr unsigned ch = f.channel;
  const auto raw32 = static_cast<uint32_t>(raw);
  if constexpr (f.type == NumericType::kUnorm && b == 8) {
    v.f[ch] = kUnorm8ToFloat[raw32];
  } else if constexpr (f.type == NumericType::kUnorm) {
    v.f[ch] = UnormToFloat(raw32, b);
  } else if constexpr (f.type == NumericType::kSnorm) {
    v.f[ch] = SnormToFloat(SignExtend(raw32, b), b);
  } else if constexpr (f.type == NumericType::kUscaled) {
    v.f[ch] = static_cast<float>(raw32);
  } else if constexpr (f.type == NumericType::kSscaled) {
    v.f[ch] = static_cast<float>(SignExtend(raw32, b));
  } else if constexpr (f.type == NumericType::kSrgb) {
    static_assert(b == 8, "sRGB decoding is tabled for 8-bit components");
    v.f[ch] = DecodeSrgb8(*srgb, raw32);
  } else if constexpr (f.type == NumericType::kUint) {
    if constexpr (b == 64) {
      v.u[ch] = raw > 0xFFFFFFFFu ? 0xFFFFFFFFu : raw32;
    } else {
      v.u[ch] = raw32;
    }
  } else if constexpr (f.type == NumericType::kSint) {
    if constexpr (b == 64) {
      const auto wide = static_cast<int64_t>(raw);
      v.i[ch] = wide > INT32_MAX ? INT32_MAX : (wide < INT32_MIN ? INT32_MIN : static_cast<int32_t>(wide));
    } else {
      v.i[ch] = SignExtend(raw32, b);
    }
  } else if constexpr (f.type == NumericType::kSfloat) {
    if constexpr (b == 16) v.f[ch] = HalfToFloat(static_cast<uint16_t>(raw32));
    else if constexpr (b == 32) v.f[ch] = std::bit_cast<float>(raw32);
    else v.f[ch] = static_cast<float>(std::bit_cast<double>(raw));
  } else if constexpr (f.type == NumericType::kUfloat) {
    static_assert(b == 10 || b == 11);
    v.f[ch] = b == 11 ? Ufloat11ToFloat(raw32) : Ufloat10ToFloat(raw32);
  } else {
    static_assert(f.type == NumericType::kUnorm, "unhandled numeric type");
  }
}

// Packing of one component from its channel of v; the result is the field's
// raw bits (not yet shifted into place).
template <Field f, bool kDepth>
inline uint64_t EncodeField(const TexelValue& v, const SrgbTables* srgb) {
  constexpr unsigned b = f.bits;
  constexpr unsigned ch = f.channel;
  if constexpr (f.type == NumericType::kUnorm) {
    return FloatToUnorm(v.f[ch], b);
  } else if constexpr (f.type == NumericType::kSnorm) {
    return static_cast<uint32_t>(FloatToSnorm(v.f[ch], b)) & BitMask(b);
  } else if constexpr (f.type == NumericType::kUscaled) {
    return FloatToUscaled(v.f[ch], b);
  } else if constexpr (f.type == NumericType::kSscaled) {
    return static_cast<uint32_t>(FloatToSscaled(v.f[ch], b)) & BitMask(b);
  } else if constexpr (f.type == NumericType::kSrgb) {
    return EncodeSrgb8(*srgb, v.f[ch]);
  } else if constexpr (f.type == NumericType::kUint) {
    if constexpr (b == 64) return v.u[ch];
    else return ClampToUint(v.u[ch], b);
  } else if constexpr (f.type == NumericType::kSint) {
    if constexpr (b == 64) return static_cast<uint64_t>(static_cast<int64_t>(v.i[ch]));
    else return static_cast<uint32_t>(ClampToSint(v.i[ch], b)) & BitMask(b);
  } else if constexpr (f.type == NumericType::kSfloat) {
    float value = v.f[ch];
    if constexpr (kDepth) value = value > 0.0f ? (value < 1.0f ? value : 1.0f) : 0.0f;  // NaN -> 0
    if constexpr (b == 16) return FloatToHalf(value);
    else if constexpr (b == 32) return std::bit_cast<uint32_t>(value);
    else return std::bit_cast<uint64_t>(static_cast<double>(value));
  } else if constexpr (f.type == NumericType::kUfloat) {
    static_assert(b == 10 || b == 11);
    return b == 11 ? FloatToUfloat11(v.f[ch]) : FloatToUfloat10(v.f[ch]);
  } else {
    static_assert(f.type == NumericType::kUnorm, "unhandled numeric type");
    return 0;
  }
}

template <Layout L, size_t I>
inline void UnpackField(const std::byte* texel, TexelValue& v, const SrgbTables* srgb) {
  constexpr Field f = L.fields[I];
  if constexpr (f.channel != layout::kNoChannel) DecodeField<f>(LoadField<L, I>(texel), v, srgb);
}

template <Layout L, size_t... I>
inline void UnpackTexel(const std::byte* texel, TexelValue& v, const SrgbTables* srgb, std::index_sequence<I...>) {
  if constexpr (L.kind == Kind::kSharedExponent) {
    const Rgb rgb = DecodeRgb9e5(Load<uint32_t>(texel));
    v.f[0] = rgb.r;
    v.f[1] = rgb.g;
    v.f[2] = rgb.b;
  } else {
    (UnpackField<L, I>(texel, v, srgb), ...);
  }
}

template <Layout L, size_t I>
inline void PackArrayField(const TexelValue& v, std::byte* texel, const SrgbTables* srgb) {
  constexpr Field f = L.fields[I];
  static_assert(f.channel != layout::kNoChannel, "padding only occurs in packed words");
  Store(texel + f.offset, static_cast<Storage<f.bits>>(EncodeField<f, L.depth>(v, srgb)));
}

template <Layout L, size_t I>
inline uint32_t PackedFieldBits(const TexelValue& v, const SrgbTables* srgb) {
  constexpr Field f = L.fields[I];
  if constexpr (f.channel == layout::kNoChannel) {
    return 0;  // padding is written as zero
  } else {
    return static_cast<uint32_t>(EncodeField<f, L.depth>(v, srgb)) << f.offset;
  }
}

template <Layout L, size_t... I>
inline void PackTexel(const TexelValue& v, std::byte* texel, const SrgbTables* srgb, std::index_sequence<I...>) {
  if constexpr (L.kind == Kind::kSharedExponent) {
    Store(texel, EncodeRgb9e5(v.f[0], v.f[1], v.f[2]));
  } else if constexpr (L.kind == Kind::kPacked) {
    Store(texel, static_cast<Storage<L.size * 8>>((PackedFieldBits<L, I>(v, srgb) | ...)));
  } else {
    (PackArrayField<L, I>(v, texel, srgb), ...);
  }
}

// What a texel reads as before its components are filled in: the spec's
// "Conversion to RGBA" defaults.
template <Layout L>
inline TexelValue DefaultTexel() {
  TexelValue v{};
  if constexpr (L.value_class == ValueClass::kFloat) {
    v.f[3] = 1.0f;
  } else {
    v.u[3] = 1;
  }
  return v;
}

template <Layout L>
const SrgbTables* SrgbTablesFor() {
  if constexpr (layout::HasSrgb(L)) {
    return &GetSrgbTables();
  } else {
    return nullptr;
  }
}

template <Layout L>
void UnpackRow(const std::byte* src, TexelValue* dst, size_t n) {
  const SrgbTables* srgb = SrgbTablesFor<L>();
  for (size_t t = 0; t < n; ++t) {
    TexelValue v = DefaultTexel<L>();
    UnpackTexel<L>(src + t * L.size, v, srgb, std::make_index_sequence<L.field_count>{});
    dst[t] = v;
  }
}

template <Layout L>
void PackRow(const TexelValue* src, std::byte* dst, size_t n) {
  const SrgbTables* srgb = SrgbTablesFor<L>();
  for (size_t t = 0; t < n; ++t) {
    PackTexel<L>(src[t], dst + t * L.size, srgb, std::make_index_sequence<L.field_count>{});
  }
}

}  // namespace duet::texel::rows

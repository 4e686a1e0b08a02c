// The texel codecs of every advertised format: their shape against the
// generated format table, byte round trips, the spec's conversion values,
// packed bit positions, RGBA channel order, depth/stencil planes, clear
// colours and format conversion. Expected bytes are written out by hand here.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "texel/fixed_point.h"
#include "texel/format_info.h"
#include "texel/format_support.h"
#include "texel/image_layout.h"
#include "texel/srgb.h"
#include "texel/texel_codec.h"

namespace duet::texel {
namespace {

bool IsAdvertised(VkFormat format) {
  const FormatFeatures f = GetFormatFeatures(format);
  return (f.linear | f.optimal | f.buffer) != 0;
}

// Advertised uncompressed colour formats: the ones with a codec. Block-
// compressed formats are read through texel/bc_decode instead.
std::vector<const FormatInfo*> AdvertisedColorFormats() {
  std::vector<const FormatInfo*> formats;
  for (const FormatInfo& info : AllFormatInfos()) {
    if (IsAdvertised(info.format) && !info.has_depth && !info.has_stencil && info.compression == Compression::kNone)
      formats.push_back(&info);
  }
  return formats;
}

int ChannelOf(char letter) {
  switch (letter) {
    case 'R': return 0;
    case 'G': return 1;
    case 'B': return 2;
    case 'A': return 3;
    default: return -1;
  }
}

const TexelCodec& Codec(VkFormat format) {
  const TexelCodec* codec = GetTexelCodec(format);
  EXPECT_NE(codec, nullptr) << format;
  static const TexelCodec kNone{};
  return codec ? *codec : kNone;
}

TexelValue Unpack(VkFormat format, const void* bytes) {
  TexelValue v;
  std::memset(&v, 0xCD, sizeof(v));
  Codec(format).unpack(static_cast<const std::byte*>(bytes), &v, 1);
  return v;
}

TexelValue Floats(float r, float g, float b, float a) { return TexelValue{.f = {r, g, b, a}}; }
TexelValue Uints(uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
  TexelValue v;
  v.u[0] = r, v.u[1] = g, v.u[2] = b, v.u[3] = a;
  return v;
}
TexelValue Sints(int32_t r, int32_t g, int32_t b, int32_t a) {
  TexelValue v;
  v.i[0] = r, v.i[1] = g, v.i[2] = b, v.i[3] = a;
  return v;
}

// Packs one texel; returns its bytes.
std::vector<uint8_t> Pack(VkFormat format, const TexelValue& v) {
  std::vector<uint8_t> bytes(Codec(format).texel_size, 0xCD);
  Codec(format).pack(&v, reinterpret_cast<std::byte*>(bytes.data()), 1);
  return bytes;
}

uint32_t PackWord(VkFormat format, const TexelValue& v) {
  const std::vector<uint8_t> bytes = Pack(format, v);
  uint32_t word = 0;
  std::memcpy(&word, bytes.data(), std::min<size_t>(bytes.size(), sizeof(word)));
  return word;
}

// --- shape --------------------------------------------------------------------

TEST(TexelCodec, EveryAdvertisedColorFormatHasAMatchingCodec) {
  const auto formats = AdvertisedColorFormats();
  EXPECT_GE(formats.size(), 120u);
  for (const FormatInfo* info : formats) {
    SCOPED_TRACE(info->name);
    const TexelCodec* codec = GetTexelCodec(info->format);
    ASSERT_NE(codec, nullptr);
    EXPECT_EQ(codec->format, info->format);
    EXPECT_EQ(codec->texel_size, info->block_size);
    EXPECT_EQ(codec->value_class, ValueClassOf(*info));
    EXPECT_EQ(codec->srgb, info->components[0].type == NumericType::kSrgb);
    EXPECT_NE(codec->unpack, nullptr);
    EXPECT_NE(codec->pack, nullptr);
    uint8_t expected_bits[4] = {};
    for (int i = 0; i < info->component_count; ++i) {
      const int channel = ChannelOf(info->components[i].name);
      if (channel >= 0) expected_bits[channel] = info->components[i].bits;
    }
    for (int c = 0; c < 4; ++c) EXPECT_EQ(codec->channel_bits[c], expected_bits[c]) << "channel " << c;
  }
}

TEST(TexelCodec, NoCodecForWhatIsNotAdvertisedOrNotColor) {
  for (const FormatInfo& info : AllFormatInfos()) {
    if (!IsAdvertised(info.format) || info.has_depth || info.has_stencil || info.compression != Compression::kNone) {
      EXPECT_EQ(GetTexelCodec(info.format), nullptr) << info.name;
    }
  }
  EXPECT_EQ(GetTexelCodec(VK_FORMAT_UNDEFINED), nullptr);
  EXPECT_EQ(GetTexelCodec(VK_FORMAT_R4G4_UNORM_PACK8), nullptr);
  EXPECT_EQ(GetTexelCodec(VK_FORMAT_BC1_RGB_UNORM_BLOCK), nullptr);
  EXPECT_EQ(GetTexelCodec(VK_FORMAT_G8B8G8R8_422_UNORM), nullptr);
  EXPECT_EQ(GetTexelCodec(static_cast<VkFormat>(-1)), nullptr);
}

TEST(TexelCodec, ValueClasses) {
  EXPECT_EQ(ValueClassOf(*GetFormatInfo(VK_FORMAT_R8G8B8A8_UNORM)), ValueClass::kFloat);
  EXPECT_EQ(ValueClassOf(*GetFormatInfo(VK_FORMAT_R16_SSCALED)), ValueClass::kFloat);
  EXPECT_EQ(ValueClassOf(*GetFormatInfo(VK_FORMAT_A2B10G10R10_UINT_PACK32)), ValueClass::kUint);
  EXPECT_EQ(ValueClassOf(*GetFormatInfo(VK_FORMAT_R64_SINT)), ValueClass::kSint);
  EXPECT_EQ(ValueClassOf(*GetFormatInfo(VK_FORMAT_D24_UNORM_S8_UINT)), ValueClass::kFloat);
  EXPECT_EQ(ValueClassOf(*GetFormatInfo(VK_FORMAT_S8_UINT)), ValueClass::kUint);
}

TEST(TexelCodec, DepthAndStencilPlanesMatchTheImageLayout) {
  for (const FormatInfo& info : AllFormatInfos()) {
    if (!info.has_depth && !info.has_stencil) continue;
    SCOPED_TRACE(info.name);
    VkImageCreateInfo create{};
    create.imageType = VK_IMAGE_TYPE_2D;
    create.format = info.format;
    create.extent = {4, 4, 1};
    create.mipLevels = 1;
    create.arrayLayers = 1;
    create.samples = VK_SAMPLE_COUNT_1_BIT;
    ImageLayout image;
    ASSERT_TRUE(ComputeImageLayout(create, &image));
    const TexelCodec* depth = GetAspectCodec(info.format, VK_IMAGE_ASPECT_DEPTH_BIT);
    const TexelCodec* stencil = GetAspectCodec(info.format, VK_IMAGE_ASPECT_STENCIL_BIT);
    EXPECT_EQ(depth != nullptr, info.has_depth);
    EXPECT_EQ(stencil != nullptr, info.has_stencil);
    EXPECT_EQ(GetAspectCodec(info.format, VK_IMAGE_ASPECT_COLOR_BIT), nullptr);
    if (depth) {
      EXPECT_EQ(depth->texel_size, image.planes[image.PlaneOf(VK_IMAGE_ASPECT_DEPTH_BIT)].block_size);
      EXPECT_EQ(depth->value_class, ValueClass::kFloat);
    }
    if (stencil) {
      EXPECT_EQ(stencil->texel_size, image.planes[image.PlaneOf(VK_IMAGE_ASPECT_STENCIL_BIT)].block_size);
      EXPECT_EQ(stencil->value_class, ValueClass::kUint);
    }
  }
  EXPECT_EQ(GetAspectCodec(VK_FORMAT_R8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT), GetTexelCodec(VK_FORMAT_R8_UNORM));
  EXPECT_EQ(GetAspectCodec(VK_FORMAT_R8_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT), nullptr);
}

// --- round trips ------------------------------------------------------------------

bool SameValue(const TexelValue& a, const TexelValue& b, ValueClass value_class) {
  for (int c = 0; c < 4; ++c) {
    if (value_class == ValueClass::kFloat && std::isnan(a.f[c]) && std::isnan(b.f[c])) continue;
    if (a.u[c] != b.u[c]) return false;
  }
  return true;
}

// Formats where every bit pattern is its own canonical encoding, so random
// bytes must come back unchanged.
bool EveryPatternIsCanonical(const FormatInfo& info) {
  const NumericType type = info.components[0].type;
  const bool narrow = info.components[0].bits <= 32;
  return narrow && (type == NumericType::kUnorm || type == NumericType::kUint || type == NumericType::kSint ||
                    type == NumericType::kUscaled || type == NumericType::kSscaled || type == NumericType::kSrgb);
}

TEST(TexelCodec, RandomBytesOfIntegerAndNormalizedFormatsRoundTrip) {
  std::mt19937 rng(11);
  for (const FormatInfo* info : AdvertisedColorFormats()) {
    if (!EveryPatternIsCanonical(*info)) continue;
    SCOPED_TRACE(info->name);
    const TexelCodec& codec = Codec(info->format);
    constexpr size_t kTexels = 257;
    std::vector<std::byte> bytes(kTexels * codec.texel_size), packed(bytes.size());
    for (std::byte& b : bytes) b = static_cast<std::byte>(rng());
    std::vector<TexelValue> values(kTexels);
    codec.unpack(bytes.data(), values.data(), kTexels);
    codec.pack(values.data(), packed.data(), kTexels);
    ASSERT_EQ(std::memcmp(bytes.data(), packed.data(), bytes.size()), 0);
  }
}

// For every format: unpacking what packing made from an unpacked texel gives
// the same values (SNORM's -2^(b-1) becomes -(2^(b-1) - 1), NaN payloads and
// non-canonical shared exponents change bits but not values).
TEST(TexelCodec, UnpackPackUnpackIsStableForEveryFormat) {
  std::mt19937 rng(12);
  for (const FormatInfo* info : AdvertisedColorFormats()) {
    SCOPED_TRACE(info->name);
    const TexelCodec& codec = Codec(info->format);
    constexpr size_t kTexels = 300;
    std::vector<std::byte> bytes(kTexels * codec.texel_size), packed(bytes.size());
    for (std::byte& b : bytes) b = static_cast<std::byte>(rng());
    std::vector<TexelValue> first(kTexels), second(kTexels);
    codec.unpack(bytes.data(), first.data(), kTexels);
    codec.pack(first.data(), packed.data(), kTexels);
    codec.unpack(packed.data(), second.data(), kTexels);
    for (size_t t = 0; t < kTexels; ++t) ASSERT_TRUE(SameValue(first[t], second[t], codec.value_class)) << t;
  }
}

TEST(TexelCodec, FloatFormatsRoundTripEveryNonNaNPattern) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0) continue;
    const auto half = static_cast<uint16_t>(h);
    const TexelValue v = Unpack(VK_FORMAT_R16_SFLOAT, &half);
    ASSERT_EQ(PackWord(VK_FORMAT_R16_SFLOAT, v), h);
  }
  std::mt19937 rng(13);
  for (int i = 0; i < 100000; ++i) {
    uint32_t word = rng();
    const uint32_t r = word & 0x7FF, g = (word >> 11) & 0x7FF, b = word >> 22;
    if (r > 0x7C0 || g > 0x7C0 || b > 0x3E0) continue;  // NaN codes
    ASSERT_EQ(PackWord(VK_FORMAT_B10G11R11_UFLOAT_PACK32, Unpack(VK_FORMAT_B10G11R11_UFLOAT_PACK32, &word)), word);
    const float f = std::bit_cast<float>(word);
    if (!std::isnan(f)) {
      ASSERT_EQ(PackWord(VK_FORMAT_R32_SFLOAT, Unpack(VK_FORMAT_R32_SFLOAT, &f)), word);
    }
    // Shared exponent: canonical when the largest mantissa uses its top bit.
    const uint32_t max_mantissa = std::max({word & 0x1FF, (word >> 9) & 0x1FF, (word >> 18) & 0x1FF});
    if ((word >> 27) == 0 || max_mantissa >= 256) {
      ASSERT_EQ(PackWord(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, Unpack(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, &word)), word);
    }
  }
}

// --- conversion values from the spec -------------------------------------------------------

void ExpectFloats(const TexelValue& v, float r, float g, float b, float a) {
  EXPECT_EQ(v.f[0], r);
  EXPECT_EQ(v.f[1], g);
  EXPECT_EQ(v.f[2], b);
  EXPECT_EQ(v.f[3], a);
}

TEST(TexelCodec, NormalizedValues) {
  const uint8_t u8 = 128;
  ExpectFloats(Unpack(VK_FORMAT_R8_UNORM, &u8), static_cast<float>(128.0 / 255.0), 0, 0, 1);
  const uint8_t s8[2] = {0x80, 0x81};
  ExpectFloats(Unpack(VK_FORMAT_R8G8_SNORM, s8), -1.0f, -1.0f, 0, 1);
  const uint16_t s16 = 0x7FFF;
  ExpectFloats(Unpack(VK_FORMAT_R16_SNORM, &s16), 1.0f, 0, 0, 1);
  EXPECT_EQ(Pack(VK_FORMAT_R8_UNORM, Floats(0.5f, 0, 0, 0)), std::vector<uint8_t>{128});
  EXPECT_EQ(Pack(VK_FORMAT_R8G8_SNORM, Floats(-1.0f, -0.5f, 0, 0)), (std::vector<uint8_t>{0x81, 0xC0}));
  EXPECT_EQ(PackWord(VK_FORMAT_R16_UNORM, Floats(0.5f, 0, 0, 0)), 32768u);
  EXPECT_EQ(Pack(VK_FORMAT_R8G8B8A8_UNORM, Floats(-1.0f, 2.0f, std::nanf(""), 1.0f)),
            (std::vector<uint8_t>{0, 255, 0, 255}));
}

TEST(TexelCodec, ScaledValues) {
  const uint8_t bytes[4] = {200, 0x80, 7, 0};
  ExpectFloats(Unpack(VK_FORMAT_R8G8B8A8_USCALED, bytes), 200.0f, 128.0f, 7.0f, 0.0f);
  ExpectFloats(Unpack(VK_FORMAT_R8G8B8A8_SSCALED, bytes), -56.0f, -128.0f, 7.0f, 0.0f);
  EXPECT_EQ(Pack(VK_FORMAT_R8G8_USCALED, Floats(2.5f, 300.0f, 0, 0)), (std::vector<uint8_t>{2, 255}));
  EXPECT_EQ(Pack(VK_FORMAT_R8G8_SSCALED, Floats(-2.5f, -300.0f, 0, 0)), (std::vector<uint8_t>{0xFE, 0x80}));
  const uint32_t word = 0x3u << 30 | 0x200u;  // A2R10G10B10: A = -1, B = -512
  ExpectFloats(Unpack(VK_FORMAT_A2R10G10B10_SSCALED_PACK32, &word), 0.0f, 0.0f, -512.0f, -1.0f);
}

TEST(TexelCodec, IntegerValuesAndMissingChannels) {
  const uint8_t u8 = 200;
  TexelValue v = Unpack(VK_FORMAT_R8_UINT, &u8);
  EXPECT_EQ(v.u[0], 200u);
  EXPECT_EQ(v.u[1], 0u);
  EXPECT_EQ(v.u[2], 0u);
  EXPECT_EQ(v.u[3], 1u);  // integer one
  v = Unpack(VK_FORMAT_R8_SINT, &u8);
  EXPECT_EQ(v.i[0], -56);
  EXPECT_EQ(v.i[3], 1);
  const int16_t s16[3] = {-3, 4, -32768};
  v = Unpack(VK_FORMAT_R16G16B16_SINT, s16);
  EXPECT_EQ(v.i[0], -3);
  EXPECT_EQ(v.i[1], 4);
  EXPECT_EQ(v.i[2], -32768);
  EXPECT_EQ(v.i[3], 1);
  const float rg[2] = {0.25f, -8.0f};
  ExpectFloats(Unpack(VK_FORMAT_R32G32_SFLOAT, rg), 0.25f, -8.0f, 0.0f, 1.0f);
  // Packing clamps to the component's range (the blit rule).
  EXPECT_EQ(Pack(VK_FORMAT_R8_UINT, Uints(300, 0, 0, 0)), std::vector<uint8_t>{255});
  EXPECT_EQ(Pack(VK_FORMAT_R8G8_SINT, Sints(-200, 200, 0, 0)), (std::vector<uint8_t>{0x80, 0x7F}));
  EXPECT_EQ(PackWord(VK_FORMAT_A2B10G10R10_UINT_PACK32, Uints(5000, 0, 0, 7)), 0xC00003FFu);
  EXPECT_EQ(PackWord(VK_FORMAT_A2B10G10R10_SINT_PACK32, Sints(-1000, 0, 0, -5)), 0x80000200u);
}

TEST(TexelCodec, SixtyFourBitFormatsNarrowAndWiden) {
  const uint64_t big[2] = {uint64_t{1} << 40, 77};
  TexelValue v = Unpack(VK_FORMAT_R64G64_UINT, big);
  EXPECT_EQ(v.u[0], 0xFFFFFFFFu);
  EXPECT_EQ(v.u[1], 77u);
  EXPECT_EQ(v.u[3], 1u);
  const int64_t negative = -(int64_t{1} << 40);
  EXPECT_EQ(Unpack(VK_FORMAT_R64_SINT, &negative).i[0], INT32_MIN);
  const double d = 0.1;
  EXPECT_EQ(Unpack(VK_FORMAT_R64_SFLOAT, &d).f[0], 0.1f);
  std::vector<uint8_t> bytes = Pack(VK_FORMAT_R64_SINT, Sints(-3, 0, 0, 0));
  int64_t wide;
  std::memcpy(&wide, bytes.data(), 8);
  EXPECT_EQ(wide, -3);
  bytes = Pack(VK_FORMAT_R64_SFLOAT, Floats(0.5f, 0, 0, 0));
  double wide_float;
  std::memcpy(&wide_float, bytes.data(), 8);
  EXPECT_EQ(wide_float, 0.5);
}

TEST(TexelCodec, SmallFloatFormats) {
  const uint16_t halves[4] = {0x3C00, 0xC000, 0x7C00, 0x0001};
  ExpectFloats(Unpack(VK_FORMAT_R16G16B16A16_SFLOAT, halves), 1.0f, -2.0f, std::numeric_limits<float>::infinity(),
               std::ldexp(1.0f, -24));
  EXPECT_EQ(PackWord(VK_FORMAT_R16_SFLOAT, Floats(65504.0f, 0, 0, 0)), 0x7BFFu);
  EXPECT_EQ(PackWord(VK_FORMAT_R16_SFLOAT, Floats(1e6f, 0, 0, 0)), 0x7C00u);
  // B10G11R11: R in bits 10:0, G in 21:11, B in 31:22.
  EXPECT_EQ(PackWord(VK_FORMAT_B10G11R11_UFLOAT_PACK32, Floats(1.0f, 0, 0, 0)), 0x3C0u);
  EXPECT_EQ(PackWord(VK_FORMAT_B10G11R11_UFLOAT_PACK32, Floats(0, 1.0f, 0, 0)), 0x3C0u << 11);
  EXPECT_EQ(PackWord(VK_FORMAT_B10G11R11_UFLOAT_PACK32, Floats(0, 0, 1.0f, 0)), 0x1E0u << 22);
  EXPECT_EQ(PackWord(VK_FORMAT_B10G11R11_UFLOAT_PACK32, Floats(-1.0f, 65024.0f, 0, 0)), 0x7BFu << 11);
  const uint32_t nan_word = 0x7C1u;
  EXPECT_TRUE(std::isnan(Unpack(VK_FORMAT_B10G11R11_UFLOAT_PACK32, &nan_word).f[0]));
  EXPECT_EQ(Unpack(VK_FORMAT_B10G11R11_UFLOAT_PACK32, &nan_word).f[3], 1.0f);
  // E5B9G9R9: exponent in 31:27, B 26:18, G 17:9, R 8:0.
  EXPECT_EQ(PackWord(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, Floats(1.0f, 0, 0, 0)), 16u << 27 | 256u);
  EXPECT_EQ(PackWord(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, Floats(0, 0, 1.0f, 0)), 16u << 27 | 256u << 18);
  const uint32_t shared = 16u << 27 | 128u << 18 | 256u << 9 | 64u;
  ExpectFloats(Unpack(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, &shared), 0.25f, 1.0f, 0.5f, 1.0f);
}

TEST(TexelCodec, SrgbDecodesColorButNotAlpha) {
  const uint8_t bytes[4] = {188, 0, 255, 188};
  const TexelValue v = Unpack(VK_FORMAT_R8G8B8A8_SRGB, bytes);
  EXPECT_EQ(v.f[0], SrgbToLinear8(188));
  EXPECT_NEAR(v.f[0], 0.5, 0.003);
  EXPECT_EQ(v.f[1], 0.0f);
  EXPECT_EQ(v.f[2], 1.0f);
  EXPECT_EQ(v.f[3], UnormToFloat(188, 8));
  EXPECT_EQ(Pack(VK_FORMAT_R8G8B8A8_SRGB, Floats(0.5f, 0.0f, 1.0f, 0.5f)), (std::vector<uint8_t>{188, 0, 255, 128}));
  EXPECT_EQ(Pack(VK_FORMAT_B8G8R8A8_SRGB, Floats(0.5f, 0.0f, 1.0f, 0.5f)), (std::vector<uint8_t>{255, 0, 188, 128}));
  EXPECT_EQ(PackWord(VK_FORMAT_A8B8G8R8_SRGB_PACK32, Floats(0.5f, 0.0f, 0.0f, 1.0f)), 0xFF0000BCu);
  const uint8_t three[3] = {0, 188, 255};
  const TexelValue bgr = Unpack(VK_FORMAT_B8G8R8_SRGB, three);
  EXPECT_EQ(bgr.f[0], 1.0f);
  EXPECT_EQ(bgr.f[1], SrgbToLinear8(188));
  EXPECT_EQ(bgr.f[2], 0.0f);
  EXPECT_EQ(bgr.f[3], 1.0f);
}

// --- layout: channel order and packed bit positions -------------------------------------------

TEST(TexelCodec, BgraFormatsUnpackInRgbaOrder) {
  const uint8_t bytes[4] = {1, 2, 3, 4};  // memory: B, G, R, A
  const TexelValue v = Unpack(VK_FORMAT_B8G8R8A8_UINT, bytes);
  EXPECT_EQ(v.u[0], 3u);
  EXPECT_EQ(v.u[1], 2u);
  EXPECT_EQ(v.u[2], 1u);
  EXPECT_EQ(v.u[3], 4u);
  EXPECT_EQ(Pack(VK_FORMAT_B8G8R8A8_UINT, Uints(3, 2, 1, 4)), (std::vector<uint8_t>{1, 2, 3, 4}));
  EXPECT_EQ(Pack(VK_FORMAT_B8G8R8_UNORM, Floats(1.0f, 0.0f, 0.0f, 0.0f)), (std::vector<uint8_t>{0, 0, 255}));
  // A8B8G8R8_PACK32 is R in the low byte: the same bytes as R8G8B8A8.
  const TexelValue packed = Unpack(VK_FORMAT_A8B8G8R8_UINT_PACK32, bytes);
  EXPECT_EQ(packed.u[0], 1u);
  EXPECT_EQ(packed.u[3], 4u);
}

struct BitPosition {
  VkFormat format;
  int channel;
  uint32_t word;  // the bits that channel's maximum sets
};

TEST(TexelCodec, PackedFieldsSitWhereTheNameSays) {
  const BitPosition positions[] = {
      {VK_FORMAT_R4G4B4A4_UNORM_PACK16, 0, 0xF000}, {VK_FORMAT_R4G4B4A4_UNORM_PACK16, 1, 0x0F00},
      {VK_FORMAT_R4G4B4A4_UNORM_PACK16, 2, 0x00F0}, {VK_FORMAT_R4G4B4A4_UNORM_PACK16, 3, 0x000F},
      {VK_FORMAT_B4G4R4A4_UNORM_PACK16, 0, 0x00F0}, {VK_FORMAT_B4G4R4A4_UNORM_PACK16, 2, 0xF000},
      {VK_FORMAT_B4G4R4A4_UNORM_PACK16, 3, 0x000F},
      {VK_FORMAT_R5G6B5_UNORM_PACK16, 0, 0xF800},   {VK_FORMAT_R5G6B5_UNORM_PACK16, 1, 0x07E0},
      {VK_FORMAT_R5G6B5_UNORM_PACK16, 2, 0x001F},
      {VK_FORMAT_B5G6R5_UNORM_PACK16, 0, 0x001F},   {VK_FORMAT_B5G6R5_UNORM_PACK16, 1, 0x07E0},
      {VK_FORMAT_B5G6R5_UNORM_PACK16, 2, 0xF800},
      {VK_FORMAT_R5G5B5A1_UNORM_PACK16, 0, 0xF800}, {VK_FORMAT_R5G5B5A1_UNORM_PACK16, 1, 0x07C0},
      {VK_FORMAT_R5G5B5A1_UNORM_PACK16, 2, 0x003E}, {VK_FORMAT_R5G5B5A1_UNORM_PACK16, 3, 0x0001},
      {VK_FORMAT_B5G5R5A1_UNORM_PACK16, 0, 0x003E}, {VK_FORMAT_B5G5R5A1_UNORM_PACK16, 2, 0xF800},
      {VK_FORMAT_B5G5R5A1_UNORM_PACK16, 3, 0x0001},
      {VK_FORMAT_A1R5G5B5_UNORM_PACK16, 0, 0x7C00}, {VK_FORMAT_A1R5G5B5_UNORM_PACK16, 1, 0x03E0},
      {VK_FORMAT_A1R5G5B5_UNORM_PACK16, 2, 0x001F}, {VK_FORMAT_A1R5G5B5_UNORM_PACK16, 3, 0x8000},
      // VK_EXT_4444_formats: alpha in the top nibble.
      {VK_FORMAT_A4R4G4B4_UNORM_PACK16, 0, 0x0F00}, {VK_FORMAT_A4R4G4B4_UNORM_PACK16, 1, 0x00F0},
      {VK_FORMAT_A4R4G4B4_UNORM_PACK16, 2, 0x000F}, {VK_FORMAT_A4R4G4B4_UNORM_PACK16, 3, 0xF000},
      {VK_FORMAT_A4B4G4R4_UNORM_PACK16, 0, 0x000F}, {VK_FORMAT_A4B4G4R4_UNORM_PACK16, 2, 0x0F00},
      {VK_FORMAT_A4B4G4R4_UNORM_PACK16, 3, 0xF000},
      {VK_FORMAT_A8B8G8R8_UNORM_PACK32, 0, 0x000000FF}, {VK_FORMAT_A8B8G8R8_UNORM_PACK32, 2, 0x00FF0000},
      {VK_FORMAT_A8B8G8R8_UNORM_PACK32, 3, 0xFF000000},
      {VK_FORMAT_A2R10G10B10_UNORM_PACK32, 0, 0x3FF00000}, {VK_FORMAT_A2R10G10B10_UNORM_PACK32, 1, 0x000FFC00},
      {VK_FORMAT_A2R10G10B10_UNORM_PACK32, 2, 0x000003FF}, {VK_FORMAT_A2R10G10B10_UNORM_PACK32, 3, 0xC0000000},
      {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 0, 0x000003FF}, {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 1, 0x000FFC00},
      {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 2, 0x3FF00000}, {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 3, 0xC0000000},
      {VK_FORMAT_A2B10G10R10_UINT_PACK32, 0, 0x000003FF},  {VK_FORMAT_A2R10G10B10_UINT_PACK32, 3, 0xC0000000},
  };
  for (const BitPosition& p : positions) {
    SCOPED_TRACE(GetFormatInfo(p.format)->name);
    TexelValue v = Floats(0, 0, 0, 0);
    if (Codec(p.format).value_class == ValueClass::kUint) {
      v.u[p.channel] = 0xFFFFFFFFu;
    } else {
      v.f[p.channel] = 1.0f;
    }
    EXPECT_EQ(PackWord(p.format, v), p.word) << "channel " << p.channel;
    const TexelValue back = Unpack(p.format, &p.word);
    for (int c = 0; c < 4; ++c) {
      if (Codec(p.format).value_class == ValueClass::kUint) continue;
      const bool present = Codec(p.format).channel_bits[c] != 0;
      EXPECT_EQ(back.f[c], c == p.channel || (!present && c == 3) ? 1.0f : 0.0f) << c;
    }
  }
  // The A2R10G10B10 example of the brief: R = 1 in A2B10G10R10_UNORM.
  EXPECT_EQ(PackWord(VK_FORMAT_A2B10G10R10_UNORM_PACK32, Floats(1, 0, 0, 0)), 0x3FFu);
}

// --- depth and stencil ---------------------------------------------------------------------

TEST(TexelCodec, DepthPacking) {
  uint8_t element[4];
  auto word = [&](VkFormat format, float depth) {
    std::memset(element, 0xAB, sizeof(element));
    PackDepth(format, depth, reinterpret_cast<std::byte*>(element));
    uint32_t w = 0;
    std::memcpy(&w, element, GetAspectCodec(format, VK_IMAGE_ASPECT_DEPTH_BIT)->texel_size);
    return w;
  };
  EXPECT_EQ(word(VK_FORMAT_D16_UNORM, 0.5f), 32768u);  // 32767.5 rounds to 32768
  EXPECT_EQ(word(VK_FORMAT_D16_UNORM, 1.0f), 65535u);
  EXPECT_EQ(word(VK_FORMAT_D16_UNORM_S8_UINT, 2.0f), 65535u);
  EXPECT_EQ(word(VK_FORMAT_D24_UNORM_S8_UINT, 1.0f), 0x00FFFFFFu);  // X8 bits written as 0
  EXPECT_EQ(word(VK_FORMAT_X8_D24_UNORM_PACK32, 0.5f), 0x00800000u);
  EXPECT_EQ(word(VK_FORMAT_X8_D24_UNORM_PACK32, -1.0f), 0u);
  EXPECT_EQ(word(VK_FORMAT_D32_SFLOAT, 0.25f), std::bit_cast<uint32_t>(0.25f));
  EXPECT_EQ(word(VK_FORMAT_D32_SFLOAT_S8_UINT, 2.0f), std::bit_cast<uint32_t>(1.0f));
  EXPECT_EQ(word(VK_FORMAT_D32_SFLOAT, -0.5f), 0u);
  EXPECT_EQ(word(VK_FORMAT_D32_SFLOAT, std::nanf("")), 0u);

  const uint32_t d24 = 0xAB800000u;  // garbage in the X8 bits
  EXPECT_EQ(UnpackDepth(VK_FORMAT_D24_UNORM_S8_UINT, reinterpret_cast<const std::byte*>(&d24)),
            UnormToFloat(0x800000, 24));
  const uint32_t d24_one = 0xFFFFFFFFu;
  EXPECT_EQ(UnpackDepth(VK_FORMAT_X8_D24_UNORM_PACK32, reinterpret_cast<const std::byte*>(&d24_one)), 1.0f);
  const uint16_t d16 = 65535;
  EXPECT_EQ(UnpackDepth(VK_FORMAT_D16_UNORM, reinterpret_cast<const std::byte*>(&d16)), 1.0f);
  const float d32 = 0.75f;
  EXPECT_EQ(UnpackDepth(VK_FORMAT_D32_SFLOAT_S8_UINT, reinterpret_cast<const std::byte*>(&d32)), 0.75f);
  EXPECT_EQ(UnpackDepth(VK_FORMAT_S8_UINT, reinterpret_cast<const std::byte*>(&d32)), 0.0f);

  TexelValue v;
  GetAspectCodec(VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT)->unpack(reinterpret_cast<const std::byte*>(&d32), &v,
                                                                           1);
  ExpectFloats(v, 0.75f, 0.0f, 0.0f, 1.0f);
}

TEST(TexelCodec, StencilPlane) {
  const TexelCodec* stencil = GetAspectCodec(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT);
  ASSERT_NE(stencil, nullptr);
  const uint8_t s = 0xC3;
  TexelValue v;
  stencil->unpack(reinterpret_cast<const std::byte*>(&s), &v, 1);
  EXPECT_EQ(v.u[0], 0xC3u);
  EXPECT_EQ(v.u[1], 0u);
  EXPECT_EQ(v.u[3], 1u);
  EXPECT_EQ(EncodeClearStencil(0x1234), std::byte{0x34});
}

// --- clears --------------------------------------------------------------------------------

std::vector<uint8_t> Clear(VkFormat format, const VkClearColorValue& color) {
  std::vector<uint8_t> bytes(Codec(format).texel_size, 0xCD);
  EXPECT_TRUE(EncodeClearColor(format, color, reinterpret_cast<std::byte*>(bytes.data())));
  return bytes;
}

VkClearColorValue FloatClear(float r, float g, float b, float a) {
  VkClearColorValue c;
  c.float32[0] = r, c.float32[1] = g, c.float32[2] = b, c.float32[3] = a;
  return c;
}
VkClearColorValue UintClear(uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
  VkClearColorValue c;
  c.uint32[0] = r, c.uint32[1] = g, c.uint32[2] = b, c.uint32[3] = a;
  return c;
}

TEST(TexelCodec, ClearColors) {
  EXPECT_EQ(Clear(VK_FORMAT_R8G8B8A8_UNORM, FloatClear(1, 0, 0.5f, 1)), (std::vector<uint8_t>{255, 0, 128, 255}));
  EXPECT_EQ(Clear(VK_FORMAT_B8G8R8A8_SRGB, FloatClear(0.5f, 0, 0, 1)), (std::vector<uint8_t>{0, 0, 188, 255}));
  EXPECT_EQ(Clear(VK_FORMAT_R5G6B5_UNORM_PACK16, FloatClear(1, 0, 1, 0)), (std::vector<uint8_t>{0x1F, 0xF8}));
  // Integer clears keep the low bits (the spec's cast), they do not clamp.
  EXPECT_EQ(Clear(VK_FORMAT_R8G8_UINT, UintClear(0x123, 255, 0, 0)), (std::vector<uint8_t>{0x23, 0xFF}));
  VkClearColorValue sint{};
  sint.int32[0] = -70000;  // 0xFFFEEE90
  sint.int32[1] = -1;
  EXPECT_EQ(Clear(VK_FORMAT_R16G16_SINT, sint), (std::vector<uint8_t>{0x90, 0xEE, 0xFF, 0xFF}));
  uint32_t word;
  std::vector<uint8_t> bytes = Clear(VK_FORMAT_A2B10G10R10_UINT_PACK32, UintClear(1023, 0, 0, 5));
  std::memcpy(&word, bytes.data(), 4);
  EXPECT_EQ(word, 0x400003FFu);  // A = 5 & 3 = 1
  bytes = Clear(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, FloatClear(1, 1, 1, 0));
  std::memcpy(&word, bytes.data(), 4);
  EXPECT_EQ(word, 16u << 27 | 256u << 18 | 256u << 9 | 256u);
  // 32-bit floats are copied bit for bit, NaN included.
  const VkClearColorValue nan = UintClear(0x7FC00001u, 0x80000000u, 0x3F800000u, 0xFF800000u);
  bytes = Clear(VK_FORMAT_R32G32B32A32_SFLOAT, nan);
  EXPECT_EQ(std::memcmp(bytes.data(), &nan, 16), 0);
  uint8_t out[4];
  EXPECT_FALSE(EncodeClearColor(VK_FORMAT_D16_UNORM, nan, reinterpret_cast<std::byte*>(out)));
  EXPECT_FALSE(EncodeClearColor(VK_FORMAT_BC1_RGB_UNORM_BLOCK, nan, reinterpret_cast<std::byte*>(out)));
}

TEST(TexelCodec, SixtyFourBitClearsUseTheWideReading) {
  VkClearColorValue color{};
  const uint64_t r = 0x0123456789ABCDEFull;
  const double g = -2.5;
  std::memcpy(&color.uint32[0], &r, 8);
  std::memcpy(&color.uint32[2], &g, 8);
  std::vector<uint8_t> bytes = Clear(VK_FORMAT_R64_UINT, color);
  EXPECT_EQ(std::memcmp(bytes.data(), &r, 8), 0);
  bytes = Clear(VK_FORMAT_R64G64B64A64_SFLOAT, color);
  ASSERT_EQ(bytes.size(), 32u);
  EXPECT_EQ(std::memcmp(bytes.data(), &color, 16), 0);
  for (size_t i = 16; i < 32; ++i) EXPECT_EQ(bytes[i], 0) << i;
}

// --- conversion ------------------------------------------------------------------------------

TEST(TexelCodec, ConvertBetweenFormats) {
  // sRGB -> UNORM decodes: 188 is 0.5029 linear, 128 as UNORM.
  const uint8_t srgb[4] = {188, 255, 0, 77};
  uint8_t unorm[4];
  ASSERT_TRUE(ConvertTexels(VK_FORMAT_R8G8B8A8_SRGB, reinterpret_cast<const std::byte*>(srgb),
                            VK_FORMAT_B8G8R8A8_UNORM, reinterpret_cast<std::byte*>(unorm), 1));
  EXPECT_EQ(unorm[0], 0);    // B
  EXPECT_EQ(unorm[1], 255);  // G
  EXPECT_EQ(unorm[2], 128);  // R
  EXPECT_EQ(unorm[3], 77);   // A is linear

  // Every sRGB code survives a trip through float.
  std::vector<uint8_t> codes(256), back(256);
  for (int i = 0; i < 256; ++i) codes[i] = static_cast<uint8_t>(i);
  std::vector<float> linear(256);
  ASSERT_TRUE(ConvertTexels(VK_FORMAT_R8_SRGB, reinterpret_cast<const std::byte*>(codes.data()), VK_FORMAT_R32_SFLOAT,
                            reinterpret_cast<std::byte*>(linear.data()), 256));
  ASSERT_TRUE(ConvertTexels(VK_FORMAT_R32_SFLOAT, reinterpret_cast<const std::byte*>(linear.data()), VK_FORMAT_R8_SRGB,
                            reinterpret_cast<std::byte*>(back.data()), 256));
  EXPECT_EQ(codes, back);

  // Integers clamp to the destination's range; more texels than one chunk.
  std::vector<uint16_t> wide(1000);
  std::vector<uint8_t> narrow(1000);
  for (size_t i = 0; i < wide.size(); ++i) wide[i] = static_cast<uint16_t>(i);
  ASSERT_TRUE(ConvertTexels(VK_FORMAT_R16_UINT, reinterpret_cast<const std::byte*>(wide.data()), VK_FORMAT_R8_UINT,
                            reinterpret_cast<std::byte*>(narrow.data()), wide.size()));
  for (size_t i = 0; i < narrow.size(); ++i) ASSERT_EQ(narrow[i], std::min<size_t>(i, 255)) << i;

  // The same format is a plain copy, even of codes packing would change.
  const uint8_t snorm[2] = {0x80, 0x7F};
  uint8_t copy[2];
  ASSERT_TRUE(ConvertTexels(VK_FORMAT_R8G8_SNORM, reinterpret_cast<const std::byte*>(snorm), VK_FORMAT_R8G8_SNORM,
                            reinterpret_cast<std::byte*>(copy), 1));
  EXPECT_EQ(copy[0], 0x80);
  EXPECT_EQ(copy[1], 0x7F);

  // Mixed value classes do not convert.
  EXPECT_FALSE(ConvertTexels(VK_FORMAT_R8_UINT, reinterpret_cast<const std::byte*>(snorm), VK_FORMAT_R8_SINT,
                             reinterpret_cast<std::byte*>(copy), 1));
  EXPECT_FALSE(ConvertTexels(VK_FORMAT_R8_UINT, reinterpret_cast<const std::byte*>(snorm), VK_FORMAT_R8_UNORM,
                             reinterpret_cast<std::byte*>(copy), 1));
  EXPECT_FALSE(ConvertTexels(VK_FORMAT_D16_UNORM, reinterpret_cast<const std::byte*>(snorm), VK_FORMAT_R16_UNORM,
                             reinterpret_cast<std::byte*>(copy), 1));
  EXPECT_TRUE(CanConvert(Codec(VK_FORMAT_R16_SFLOAT), Codec(VK_FORMAT_A2B10G10R10_UNORM_PACK32)));
  EXPECT_FALSE(CanConvert(Codec(VK_FORMAT_R16_SFLOAT), Codec(VK_FORMAT_R16_SINT)));
}

}  // namespace
}  // namespace duet::texel

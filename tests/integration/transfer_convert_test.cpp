// Transfer commands that convert texel values, through the loader:
// vkCmdClearColorImage, vkCmdClearDepthStencilImage, vkCmdBlitImage(2) and
// vkCmdResolveImage(2). Expected texels are computed here from the spec's
// rules, with reference conversions written out in this file:
//
// - float -> UNORM (b bits): clamp to [0, 1], c = round(f * (2^b - 1)).
//   The spec lets c be either integer next to the product and says
//   implementations should round to nearest; the values below are chosen
//   away from .5 ties and the tests require the nearest integer.
// - float -> SNORM: clamp to [-1, 1], c = round(f * (2^(b-1) - 1)).
// - sRGB formats: RGB are encoded with the sRGB transfer function before
//   the UNORM conversion (a clear value is linear), alpha is not; +-1 is
//   allowed on encoded bytes.
// - float formats (16-bit, 11/10-bit unsigned): only exactly representable
//   values are used, whose bit patterns are known.
// - Integer formats take the uint32/int32 members of VkClearColorValue.
// - Blits sample the source with the filter at unnormalized coordinate
//   u = (x + 0.5 - dst0) * (src1 - src0) / (dst1 - dst0) + src0 (per axis),
//   CLAMP_TO_EDGE at the image edges; NEAREST takes floor(u), LINEAR weights
//   floor(u - 0.5) and the next texel by frac(u - 0.5).
// - Resolves: "If the source format is a floating-point or normalized type,
//   the sample values for each pixel are resolved in an implementation-
//   dependent manner. If the source format is an integer type, a single
//   sample's value is selected for each pixel." So with equal samples the
//   result is the sample value; with distinct samples it lies between the
//   smallest and largest sample (Duet averages: checked +-1 as well).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {
namespace {

// ---------------------------------------------------------------------------
// Reference conversions (independent of the driver)

uint32_t ToUnorm(double f, int bits) {
  if (!(f > 0.0)) f = 0.0;  // NaN -> 0 as well
  if (f > 1.0) f = 1.0;
  return uint32_t(std::lround(f * double((1u << bits) - 1)));
}

int32_t ToSnorm(double f, int bits) {
  if (f != f) f = 0.0;
  f = std::clamp(f, -1.0, 1.0);
  return int32_t(std::lround(f * double((1 << (bits - 1)) - 1)));
}

double SrgbEncode(double l) {
  if (l <= 0.0) return 0.0;
  if (l >= 1.0) return 1.0;
  return l <= 0.0031308 ? 12.92 * l : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
}

double SrgbDecode(double s) { return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4); }

uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Bits of an exactly representable finite value in a small float format
// (exponent bias 2^(e-1) - 1, `m` mantissa bits, optional sign bit).
uint32_t SmallFloatBits(double v, int e, int m, bool has_sign) {
  uint32_t sign = 0;
  if (v < 0) {
    sign = has_sign ? 1u : 0u;
    v = -v;
  }
  const int bias = (1 << (e - 1)) - 1;
  uint32_t bits = 0;
  if (v != 0.0) {
    int exp = 0;
    const double frac = std::frexp(v, &exp);  // v = frac * 2^exp, frac in [0.5, 1)
    int biased = exp - 1 + bias;
    if (biased <= 0) {  // subnormal
      bits = uint32_t(std::ldexp(v, bias - 1 + m));
    } else {
      const double mant = (frac * 2.0 - 1.0) * double(1u << m);
      bits = (uint32_t(biased) << m) | uint32_t(mant);
    }
  }
  return has_sign ? (sign << (e + m)) | bits : bits;
}

uint16_t HalfBits(double v) { return uint16_t(SmallFloatBits(v, 5, 10, true)); }

template <typename T>
void Put(std::vector<uint8_t>& out, T v) {
  const size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &v, sizeof(T));
}

// ---------------------------------------------------------------------------

constexpr VkImageUsageFlags kTransferUsage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;

class ConvertTest : public QueueTest {
 protected:
  VkImage MakeImage2D(VkFormat format, VkExtent3D extent, uint32_t mips = 1, uint32_t layers = 1,
                      VkImageAspectFlags aspects = VK_IMAGE_ASPECT_COLOR_BIT,
                      VkImageType type = VK_IMAGE_TYPE_2D) {
    return MakeGeneralImage(ImageInfo(type, format, extent, mips, layers, kTransferUsage), aspects);
  }

  // The whole of one mip level (all layers / slices) as tightly packed bytes.
  std::vector<uint8_t> ReadLevel(VkImage image, VkImageAspectFlags aspect, uint32_t mip, VkExtent3D level,
                                 uint32_t layers, uint32_t texel) {
    return ReadImage(image, {aspect, mip, 0, layers}, {0, 0, 0}, level, texel);
  }

  // Fills one whole mip level with pseudo-random bytes; returns them.
  std::vector<uint8_t> RandomizeLevel(VkImage image, VkImageAspectFlags aspect, uint32_t mip, VkExtent3D level,
                                      uint32_t layers, uint32_t texel, uint64_t seed) {
    std::vector<uint8_t> bytes(size_t(level.width) * level.height * level.depth * layers * texel);
    FillPattern(bytes, seed);
    WriteImage(image, {aspect, mip, 0, layers}, {0, 0, 0}, level, texel, bytes);
    return bytes;
  }

  bool Has(VkFormat format, VkFormatFeatureFlags features) const {
    return FormatHas(format, VK_IMAGE_TILING_OPTIMAL, features);
  }
};

// Compares texels with a per-byte tolerance; reports the first mismatch.
::testing::AssertionResult TexelsMatch(std::span<const uint8_t> actual, std::span<const uint8_t> expected,
                                       std::span<const uint8_t> tolerance, uint32_t texel, const std::string& what) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << what << ": " << actual.size() << " bytes, expected " << expected.size();
  for (size_t i = 0; i < actual.size(); ++i) {
    const int diff = std::abs(int(actual[i]) - int(expected[i]));
    const int tol = tolerance.empty() ? 0 : tolerance[i % tolerance.size()];
    if (diff > tol) {
      return ::testing::AssertionFailure() << what << ": texel " << i / texel << " byte " << i % texel << " is "
                                           << int(actual[i]) << ", expected " << int(expected[i]) << " (+-" << tol
                                           << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------
// vkCmdClearColorImage: one format per case

struct ColorClearCase {
  std::string name;
  VkFormat format;
  uint32_t texel;
  VkClearColorValue color;
  std::vector<uint8_t> expected;   // one texel
  std::vector<uint8_t> tolerance;  // per byte of the texel; empty = exact
};

std::ostream& operator<<(std::ostream& os, const ColorClearCase& c) { return os << c.name; }

VkClearColorValue Floats(float r, float g, float b, float a) {
  VkClearColorValue v{};
  v.float32[0] = r;
  v.float32[1] = g;
  v.float32[2] = b;
  v.float32[3] = a;
  return v;
}
VkClearColorValue Uints(uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
  VkClearColorValue v{};
  v.uint32[0] = r;
  v.uint32[1] = g;
  v.uint32[2] = b;
  v.uint32[3] = a;
  return v;
}
VkClearColorValue Ints(int32_t r, int32_t g, int32_t b, int32_t a) {
  VkClearColorValue v{};
  v.int32[0] = r;
  v.int32[1] = g;
  v.int32[2] = b;
  v.int32[3] = a;
  return v;
}

std::vector<ColorClearCase> ColorClearCases() {
  std::vector<ColorClearCase> cases;
  auto bytes = [](std::initializer_list<uint32_t> v) {
    std::vector<uint8_t> out;
    for (uint32_t b : v) out.push_back(uint8_t(b));
    return out;
  };
  {  // UNORM: 0.25 * 255 = 63.75 -> 64; 0.8 * 255 = 204; out of range clamps.
    cases.push_back({"RGBA8_UNORM", VK_FORMAT_R8G8B8A8_UNORM, 4, Floats(0.25f, 0.8f, 1.0f, 0.0f),
                     bytes({ToUnorm(0.25, 8), ToUnorm(0.8f, 8), 255, 0}), {}});
    cases.push_back({"RGBA8_UNORM_Clamped", VK_FORMAT_R8G8B8A8_UNORM, 4, Floats(-0.5f, 1.5f, 0.13f, 2.0f),
                     bytes({0, 255, ToUnorm(0.13f, 8), 255}), {}});
    // BGRA: the red clear value lands in byte 2.
    cases.push_back({"BGRA8_UNORM", VK_FORMAT_B8G8R8A8_UNORM, 4, Floats(1.0f, 0.25f, 0.0f, 0.6f),
                     bytes({0, ToUnorm(0.25, 8), 255, ToUnorm(0.6f, 8)}), {}});
    cases.push_back({"R8_UNORM", VK_FORMAT_R8_UNORM, 1, Floats(0.71f, 0.0f, 0.0f, 0.0f), bytes({ToUnorm(0.71f, 8)}),
                     {}});
  }
  {  // SNORM: -1 -> -127, -0.25 * 127 = -31.75 -> -32, 0.1 * 127 = 12.7 -> 13, -2 clamps to -127.
    cases.push_back({"RGBA8_SNORM", VK_FORMAT_R8G8B8A8_SNORM, 4, Floats(-1.0f, 1.0f, -0.25f, 0.1f),
                     bytes({uint32_t(-127), 127, uint32_t(ToSnorm(-0.25, 8)), uint32_t(ToSnorm(0.1f, 8))}), {}});
    cases.push_back({"RGBA8_SNORM_Clamped", VK_FORMAT_R8G8B8A8_SNORM, 4, Floats(-2.0f, 3.0f, 0.0f, -0.6f),
                     bytes({uint32_t(-127), 127, 0, uint32_t(ToSnorm(-0.6f, 8))}), {}});
    std::vector<uint8_t> e;
    Put<uint16_t>(e, uint16_t(ToUnorm(0.25, 16)));    // 16383.75 -> 16384
    Put<int16_t>(e, int16_t(ToSnorm(-0.25, 16)));     // -8191.75 -> -8192
    cases.push_back({"R16_UNORM", VK_FORMAT_R16_UNORM, 2, Floats(0.25f, 0, 0, 0),
                     std::vector<uint8_t>(e.begin(), e.begin() + 2), {}});
    cases.push_back({"R16_SNORM", VK_FORMAT_R16_SNORM, 2, Floats(-0.25f, 0, 0, 0),
                     std::vector<uint8_t>(e.begin() + 2, e.end()), {}});
  }
  {  // sRGB: RGB encoded (linear clear value), alpha linear.
    const float r = 0.5f, g = 0.002f, b = 1.0f, a = 0.25f;
    cases.push_back({"RGBA8_SRGB", VK_FORMAT_R8G8B8A8_SRGB, 4, Floats(r, g, b, a),
                     bytes({ToUnorm(SrgbEncode(r), 8), ToUnorm(SrgbEncode(g), 8), 255, ToUnorm(a, 8)}),
                     {1, 1, 1, 0}});
    cases.push_back({"BGRA8_SRGB", VK_FORMAT_B8G8R8A8_SRGB, 4, Floats(r, g, 0.2f, a),
                     bytes({ToUnorm(SrgbEncode(0.2f), 8), ToUnorm(SrgbEncode(g), 8), ToUnorm(SrgbEncode(r), 8),
                            ToUnorm(a, 8)}),
                     {1, 1, 1, 0}});
  }
  {  // Floating point: exactly representable values.
    std::vector<uint8_t> h;
    for (double v : {1.0, -2.5, 0.0009765625, 65504.0}) Put<uint16_t>(h, HalfBits(v));
    cases.push_back({"RGBA16F", VK_FORMAT_R16G16B16A16_SFLOAT, 8, Floats(1.0f, -2.5f, 0.0009765625f, 65504.0f), h,
                     {}});
    std::vector<uint8_t> f;
    for (float v : {1.5f, -3.25f, 1e-20f, 3.0e38f}) Put<uint32_t>(f, FloatBits(v));
    cases.push_back({"RGBA32F", VK_FORMAT_R32G32B32A32_SFLOAT, 16, Floats(1.5f, -3.25f, 1e-20f, 3.0e38f), f, {}});
    std::vector<uint8_t> p;
    Put<uint32_t>(p, (SmallFloatBits(2.0, 5, 5, false) << 22) | (SmallFloatBits(0.5, 5, 6, false) << 11) |
                         SmallFloatBits(1.0, 5, 6, false));
    cases.push_back({"B10G11R11_UFLOAT", VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, Floats(1.0f, 0.5f, 2.0f, 0.0f), p,
                     {}});
    std::vector<uint8_t> r32;
    Put<uint32_t>(r32, FloatBits(-0.125f));
    cases.push_back({"R32F", VK_FORMAT_R32_SFLOAT, 4, Floats(-0.125f, 9, 9, 9), r32, {}});
  }
  {  // Integers.
    cases.push_back({"RGBA8_UINT", VK_FORMAT_R8G8B8A8_UINT, 4, Uints(0, 255, 17, 200), bytes({0, 255, 17, 200}), {}});
    cases.push_back({"RGBA8_SINT", VK_FORMAT_R8G8B8A8_SINT, 4, Ints(-128, 127, -1, 5),
                     bytes({0x80, 0x7F, 0xFF, 5}), {}});
    std::vector<uint8_t> s16;
    for (int16_t v : {int16_t(-32768), int16_t(32767), int16_t(-1), int16_t(1234)}) Put<int16_t>(s16, v);
    cases.push_back({"RGBA16_SINT", VK_FORMAT_R16G16B16A16_SINT, 8, Ints(-32768, 32767, -1, 1234), s16, {}});
    std::vector<uint8_t> u32;
    for (uint32_t v : {0xFFFFFFFFu, 0u, 0x12345678u, 7u}) Put<uint32_t>(u32, v);
    cases.push_back({"RGBA32_UINT", VK_FORMAT_R32G32B32A32_UINT, 16, Uints(0xFFFFFFFF, 0, 0x12345678, 7), u32, {}});
    std::vector<uint8_t> s32;
    Put<int32_t>(s32, -123456789);
    cases.push_back({"R32_SINT", VK_FORMAT_R32_SINT, 4, Ints(-123456789, 0, 0, 0), s32, {}});
  }
  {  // Packed formats (component order from the most significant bits down).
    std::vector<uint8_t> rgb565;
    Put<uint16_t>(rgb565, uint16_t((ToUnorm(1.0, 5) << 11) | (ToUnorm(0.25, 6) << 5) | ToUnorm(0.25, 5)));
    cases.push_back({"R5G6B5", VK_FORMAT_R5G6B5_UNORM_PACK16, 2, Floats(1.0f, 0.25f, 0.25f, 0.0f), rgb565, {}});
    std::vector<uint8_t> bgra4;
    Put<uint16_t>(bgra4, uint16_t((ToUnorm(0.2f, 4) << 12) | (ToUnorm(0.0, 4) << 8) | (ToUnorm(1.0, 4) << 4) |
                                  ToUnorm(0.6f, 4)));
    cases.push_back({"B4G4R4A4", VK_FORMAT_B4G4R4A4_UNORM_PACK16, 2, Floats(1.0f, 0.0f, 0.2f, 0.6f), bgra4, {}});
    std::vector<uint8_t> a1;
    Put<uint16_t>(a1, uint16_t((1u << 15) | (ToUnorm(0.25, 5) << 10) | (ToUnorm(0.75, 5) << 5) | ToUnorm(0.0, 5)));
    cases.push_back({"A1R5G5B5", VK_FORMAT_A1R5G5B5_UNORM_PACK16, 2, Floats(0.25f, 0.75f, 0.0f, 1.0f), a1, {}});
    std::vector<uint8_t> a2;
    Put<uint32_t>(a2, (ToUnorm(0.34f, 2) << 30) | (ToUnorm(1.0, 10) << 20) | (ToUnorm(0.75, 10) << 10) |
                          ToUnorm(0.25, 10));
    cases.push_back({"A2B10G10R10_UNORM", VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, Floats(0.25f, 0.75f, 1.0f, 0.34f),
                     a2, {}});
    std::vector<uint8_t> a2u;
    Put<uint32_t>(a2u, (2u << 30) | (1023u << 20) | (3u << 10) | 1000u);
    cases.push_back({"A2B10G10R10_UINT", VK_FORMAT_A2B10G10R10_UINT_PACK32, 4, Uints(1000, 3, 1023, 2), a2u, {}});
  }
  return cases;
}

class ColorClears : public ConvertTest, public ::testing::WithParamInterface<ColorClearCase> {};

TEST_P(ColorClears, WholeImageAndOneRegionUntouched) {
  const ColorClearCase& c = GetParam();
  if (!Has(c.format, VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT))
    GTEST_SKIP() << "no optimal-tiling transfer support";
  ASSERT_EQ(c.expected.size(), c.texel);
  // Two layers, two mips: layer 1 of mip 0 and all of mip 1 are cleared;
  // layer 0 of mip 0 keeps its contents.
  const VkExtent3D extent{13, 7, 1};
  VkImage image = MakeImage2D(c.format, extent, 2, 2);
  ASSERT_NE(image, VK_NULL_HANDLE);
  std::vector<uint8_t> mip0;
  ASSERT_NO_FATAL_FAILURE(mip0 = RandomizeLevel(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, extent, 2, c.texel, 5));
  ASSERT_NO_FATAL_FAILURE(RandomizeLevel(image, VK_IMAGE_ASPECT_COLOR_BIT, 1, {6, 3, 1}, 2, c.texel, 6));
  const VkImageSubresourceRange ranges[] = {{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1, 1},
                                            {VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 0, 2}};
  VkCommandBuffer cb = BeginCommands();
  vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_GENERAL, &c.color, 2, ranges);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  const size_t layer_bytes = size_t(13) * 7 * c.texel;
  std::vector<uint8_t> want0(mip0.begin(), mip0.begin() + std::ptrdiff_t(layer_bytes));
  for (size_t i = 0; i < 13 * 7; ++i) want0.insert(want0.end(), c.expected.begin(), c.expected.end());
  std::vector<uint8_t> tol0(want0.size(), 0);
  for (size_t i = layer_bytes; i < tol0.size(); ++i) tol0[i] = c.tolerance.empty() ? 0 : c.tolerance[i % c.texel];
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, extent, 2, c.texel));
  EXPECT_TRUE(TexelsMatch(got, want0, tol0, c.texel, "mip 0 (layer 0 untouched, layer 1 cleared)"));
  std::vector<uint8_t> want1;
  for (size_t i = 0; i < 6 * 3 * 2; ++i) want1.insert(want1.end(), c.expected.begin(), c.expected.end());
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(image, VK_IMAGE_ASPECT_COLOR_BIT, 1, {6, 3, 1}, 2, c.texel));
  EXPECT_TRUE(TexelsMatch(got, want1, c.tolerance, c.texel, "mip 1 cleared"));
}

INSTANTIATE_TEST_SUITE_P(Convert, ColorClears, ::testing::ValuesIn(ColorClearCases()),
                         [](const ::testing::TestParamInfo<ColorClearCase>& info) { return info.param.name; });

TEST_F(ConvertTest, ClearColorRemainingMipsAndLayers) {
  const VkFormat f = VK_FORMAT_R8G8B8A8_UINT;
  const uint32_t kMips = 4, kLayers = 5;
  VkImage image = MakeImage2D(f, {16, 8, 1}, kMips, kLayers);
  ASSERT_NE(image, VK_NULL_HANDLE);
  std::vector<std::vector<uint8_t>> model(kMips);
  for (uint32_t m = 0; m < kMips; ++m) {
    const VkExtent3D e{std::max(1u, 16u >> m), std::max(1u, 8u >> m), 1};
    ASSERT_NO_FATAL_FAILURE(model[m] = RandomizeLevel(image, VK_IMAGE_ASPECT_COLOR_BIT, m, e, kLayers, 4, 10 + m));
  }
  const VkClearColorValue a = Uints(1, 2, 3, 4);
  const VkClearColorValue b = Uints(9, 8, 7, 6);
  // Mips 2.. of layers 3..; then mip 0..0 of layers 1..
  const VkImageSubresourceRange ra{VK_IMAGE_ASPECT_COLOR_BIT, 2, VK_REMAINING_MIP_LEVELS, 3,
                                   VK_REMAINING_ARRAY_LAYERS};
  const VkImageSubresourceRange rb{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1, VK_REMAINING_ARRAY_LAYERS};
  VkCommandBuffer cb = BeginCommands();
  vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_GENERAL, &a, 1, &ra);
  vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_GENERAL, &b, 1, &rb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  for (uint32_t m = 0; m < kMips; ++m) {
    const VkExtent3D e{std::max(1u, 16u >> m), std::max(1u, 8u >> m), 1};
    const size_t texels = size_t(e.width) * e.height;
    for (uint32_t l = 0; l < kLayers; ++l) {
      const uint8_t* value = nullptr;
      static const uint8_t va[4] = {1, 2, 3, 4}, vb[4] = {9, 8, 7, 6};
      if (m >= 2 && l >= 3) value = va;
      if (m == 0 && l >= 1) value = vb;
      if (value == nullptr) continue;
      for (size_t t = 0; t < texels; ++t) std::memcpy(model[m].data() + (l * texels + t) * 4, value, 4);
    }
    std::vector<uint8_t> got;
    ASSERT_NO_FATAL_FAILURE(got = ReadLevel(image, VK_IMAGE_ASPECT_COLOR_BIT, m, e, kLayers, 4));
    EXPECT_TRUE(TexelsMatch(got, model[m], {}, 4, "mip " + std::to_string(m)));
  }
}

TEST_F(ConvertTest, ClearColor3DAnd1DArray) {
  const VkClearColorValue v = Floats(0.25f, 0.5f, 0.75f, 1.0f);
  const std::vector<uint8_t> texel{64, 128, 191, 255};  // 0.5*255 = 127.5: either neighbour
  const std::vector<uint8_t> tol{0, 1, 0, 0};
  for (VkImageType type : {VK_IMAGE_TYPE_3D, VK_IMAGE_TYPE_1D}) {
    SCOPED_TRACE(type == VK_IMAGE_TYPE_3D ? "3D" : "1D array");
    const VkExtent3D e = type == VK_IMAGE_TYPE_3D ? VkExtent3D{5, 4, 3} : VkExtent3D{9, 1, 1};
    const uint32_t layers = type == VK_IMAGE_TYPE_3D ? 1 : 3;
    VkImage image = MakeImage2D(VK_FORMAT_R8G8B8A8_UNORM, e, 1, layers, VK_IMAGE_ASPECT_COLOR_BIT, type);
    ASSERT_NE(image, VK_NULL_HANDLE);
    ASSERT_NO_FATAL_FAILURE(RandomizeLevel(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, e, layers, 4, 3));
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0,
                                        VK_REMAINING_ARRAY_LAYERS};
    VkCommandBuffer cb = BeginCommands();
    vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_GENERAL, &v, 1, &range);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    std::vector<uint8_t> want;
    for (size_t i = 0; i < size_t(e.width) * e.height * e.depth * layers; ++i)
      want.insert(want.end(), texel.begin(), texel.end());
    std::vector<uint8_t> got;
    ASSERT_NO_FATAL_FAILURE(got = ReadLevel(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, e, layers, 4));
    EXPECT_TRUE(TexelsMatch(got, want, tol, 4, "every slice/layer"));
  }
}

// ---------------------------------------------------------------------------
// vkCmdClearDepthStencilImage

struct DsFormat {
  const char* name;
  VkFormat format;
  uint32_t depth_bytes;  // 0: no depth aspect
  bool stencil;
};

// gtest would otherwise print the struct's raw bytes, padding included,
// which valgrind reports as uninitialised reads.
void PrintTo(const DsFormat& f, std::ostream* os) { *os << f.name; }

class DepthStencilClears : public ConvertTest, public ::testing::WithParamInterface<DsFormat> {};

// Depth as the buffer holds it: D16 2 bytes, D24 4 bytes (24 low bits), D32 float.
std::vector<uint8_t> DepthBytes(const DsFormat& f, float depth) {
  std::vector<uint8_t> out;
  if (f.depth_bytes == 2) {
    Put<uint16_t>(out, uint16_t(ToUnorm(depth, 16)));
  } else if (f.format == VK_FORMAT_X8_D24_UNORM_PACK32 || f.format == VK_FORMAT_D24_UNORM_S8_UINT) {
    Put<uint32_t>(out, ToUnorm(depth, 24));
  } else {
    Put<uint32_t>(out, FloatBits(depth));
  }
  return out;
}

bool IsD24(VkFormat f) { return f == VK_FORMAT_X8_D24_UNORM_PACK32 || f == VK_FORMAT_D24_UNORM_S8_UINT; }

// Masks the undefined high byte of D24 texels in the buffer.
void MaskD24(std::vector<uint8_t>& bytes) {
  for (size_t i = 3; i < bytes.size(); i += 4) bytes[i] = 0;
}

TEST_P(DepthStencilClears, EachAspectAlone) {
  const DsFormat& f = GetParam();
  if (!Has(f.format, VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT))
    GTEST_SKIP() << "format not supported";
  const VkImageAspectFlags all =
      (f.depth_bytes ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) | (f.stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
  const VkExtent3D e{11, 6, 1};
  const size_t texels = 11 * 6 * 2;  // two layers
  VkImage image = MakeImage2D(f.format, e, 2, 2, all);
  ASSERT_NE(image, VK_NULL_HANDLE);

  // Depth values are written through a copy, so they must be in [0, 1] (D32).
  std::vector<uint8_t> depth0, stencil0;
  if (f.depth_bytes) {
    for (size_t i = 0; i < texels; ++i) {
      const std::vector<uint8_t> d = DepthBytes(f, float(i % 97) / 97.0f);
      depth0.insert(depth0.end(), d.begin(), d.end());
    }
    ASSERT_NO_FATAL_FAILURE(WriteImage(image, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 2}, {0, 0, 0}, e, f.depth_bytes,
                                       depth0));
  }
  if (f.stencil) {
    ASSERT_NO_FATAL_FAILURE(stencil0 = RandomizeLevel(image, VK_IMAGE_ASPECT_STENCIL_BIT, 0, e, 2, 1, 8));
  }

  auto check = [&](const std::vector<uint8_t>& want_depth, const std::vector<uint8_t>& want_stencil,
                   const char* what) {
    if (f.depth_bytes) {
      std::vector<uint8_t> got;
      ASSERT_NO_FATAL_FAILURE(got = ReadLevel(image, VK_IMAGE_ASPECT_DEPTH_BIT, 0, e, 2, f.depth_bytes));
      std::vector<uint8_t> want = want_depth;
      if (IsD24(f.format)) {
        MaskD24(got);
        MaskD24(want);
      }
      EXPECT_TRUE(TexelsMatch(got, want, {}, f.depth_bytes, std::string(what) + ": depth"));
    }
    if (f.stencil) {
      std::vector<uint8_t> got;
      ASSERT_NO_FATAL_FAILURE(got = ReadLevel(image, VK_IMAGE_ASPECT_STENCIL_BIT, 0, e, 2, 1));
      EXPECT_TRUE(TexelsMatch(got, want_stencil, {}, 1, std::string(what) + ": stencil"));
    }
  };

  std::vector<uint8_t> depth = depth0, stencil = stencil0;
  // 0.25 * 65535 = 16383.75 -> 16384; * (2^24 - 1) = 4194303.75 -> 4194304.
  const VkClearDepthStencilValue value{0.25f, 0xA5};
  if (f.depth_bytes) {
    // Depth of layer 1 only.
    const VkImageSubresourceRange r{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 1, 1};
    VkCommandBuffer cb = BeginCommands();
    vkCmdClearDepthStencilImage(cb, image, VK_IMAGE_LAYOUT_GENERAL, &value, 1, &r);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    const std::vector<uint8_t> d = DepthBytes(f, 0.25f);
    for (size_t t = texels / 2; t < texels; ++t) std::copy(d.begin(), d.end(), depth.begin() + std::ptrdiff_t(t * f.depth_bytes));
    ASSERT_NO_FATAL_FAILURE(check(depth, stencil, "after the depth clear"));
  }
  if (f.stencil) {
    // Stencil of both layers.
    const VkImageSubresourceRange r{VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0, VK_REMAINING_ARRAY_LAYERS};
    VkCommandBuffer cb = BeginCommands();
    vkCmdClearDepthStencilImage(cb, image, VK_IMAGE_LAYOUT_GENERAL, &value, 1, &r);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    std::fill(stencil.begin(), stencil.end(), uint8_t(0xA5));
    ASSERT_NO_FATAL_FAILURE(check(depth, stencil, "after the stencil clear"));
  }
  // Both aspects at once (when there are two), every mip and layer.
  const VkClearDepthStencilValue both{1.0f, 0x3C};
  const VkImageSubresourceRange r{all, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
  VkCommandBuffer cb = BeginCommands();
  vkCmdClearDepthStencilImage(cb, image, VK_IMAGE_LAYOUT_GENERAL, &both, 1, &r);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  if (f.depth_bytes) {
    const std::vector<uint8_t> d = DepthBytes(f, 1.0f);
    for (size_t t = 0; t < texels; ++t) std::copy(d.begin(), d.end(), depth.begin() + std::ptrdiff_t(t * f.depth_bytes));
  }
  std::fill(stencil.begin(), stencil.end(), uint8_t(0x3C));
  ASSERT_NO_FATAL_FAILURE(check(depth, stencil, "after clearing everything"));
  if (f.depth_bytes) {  // mip 1 too
    std::vector<uint8_t> got;
    ASSERT_NO_FATAL_FAILURE(got = ReadLevel(image, VK_IMAGE_ASPECT_DEPTH_BIT, 1, {5, 3, 1}, 2, f.depth_bytes));
    std::vector<uint8_t> want;
    const std::vector<uint8_t> d = DepthBytes(f, 1.0f);
    for (size_t t = 0; t < 5 * 3 * 2; ++t) want.insert(want.end(), d.begin(), d.end());
    if (IsD24(f.format)) {
      MaskD24(got);
      MaskD24(want);
    }
    EXPECT_TRUE(TexelsMatch(got, want, {}, f.depth_bytes, "mip 1 depth"));
  }
}

INSTANTIATE_TEST_SUITE_P(Convert, DepthStencilClears,
                         ::testing::Values(DsFormat{"D16", VK_FORMAT_D16_UNORM, 2, false},
                                           DsFormat{"X8D24", VK_FORMAT_X8_D24_UNORM_PACK32, 4, false},
                                           DsFormat{"D32", VK_FORMAT_D32_SFLOAT, 4, false},
                                           DsFormat{"S8", VK_FORMAT_S8_UINT, 0, true},
                                           DsFormat{"D16S8", VK_FORMAT_D16_UNORM_S8_UINT, 2, true},
                                           DsFormat{"D24S8", VK_FORMAT_D24_UNORM_S8_UINT, 4, true},
                                           DsFormat{"D32S8", VK_FORMAT_D32_SFLOAT_S8_UINT, 4, true}),
                         [](const ::testing::TestParamInfo<DsFormat>& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------------------
// vkCmdBlitImage

// Reference sampler over an RGBA image held as floats (4 per texel).
struct FloatImage {
  uint32_t w = 0, h = 0;
  std::vector<double> v;  // (y * w + x) * 4 + c
  double At(int32_t x, int32_t y, int c) const {
    x = std::clamp<int32_t>(x, 0, int32_t(w) - 1);  // CLAMP_TO_EDGE at the image edge
    y = std::clamp<int32_t>(y, 0, int32_t(h) - 1);
    return v[(size_t(y) * w + size_t(x)) * 4 + size_t(c)];
  }
};

FloatImage FromUnorm8(const std::vector<uint8_t>& bytes, uint32_t w, uint32_t h, bool srgb = false) {
  FloatImage img{w, h, std::vector<double>(size_t(w) * h * 4)};
  for (size_t i = 0; i < img.v.size(); ++i) {
    const double c = bytes[i] / 255.0;
    img.v[i] = srgb && i % 4 != 3 ? SrgbDecode(c) : c;
  }
  return img;
}

struct Blit {
  VkOffset3D src0, src1, dst0, dst1;
};

// The value a blit writes at destination texel (x, y), channel c.
double Sample(const FloatImage& src, const Blit& b, int32_t x, int32_t y, int c, bool linear) {
  const double u = (x + 0.5 - b.dst0.x) * double(b.src1.x - b.src0.x) / double(b.dst1.x - b.dst0.x) + b.src0.x;
  const double v = (y + 0.5 - b.dst0.y) * double(b.src1.y - b.src0.y) / double(b.dst1.y - b.dst0.y) + b.src0.y;
  if (!linear) return src.At(int32_t(std::floor(u)), int32_t(std::floor(v)), c);
  const double fu = u - 0.5, fv = v - 0.5;
  const int32_t i0 = int32_t(std::floor(fu)), j0 = int32_t(std::floor(fv));
  const double a = fu - i0, bw = fv - j0;
  return (1 - a) * (1 - bw) * src.At(i0, j0, c) + a * (1 - bw) * src.At(i0 + 1, j0, c) +
         (1 - a) * bw * src.At(i0, j0 + 1, c) + a * bw * src.At(i0 + 1, j0 + 1, c);
}

bool InRegion(const Blit& b, int32_t x, int32_t y) {
  return x >= std::min(b.dst0.x, b.dst1.x) && x < std::max(b.dst0.x, b.dst1.x) && y >= std::min(b.dst0.y, b.dst1.y) &&
         y < std::max(b.dst0.y, b.dst1.y);
}

class Blits : public ConvertTest {
 protected:
  void SetUp() override {
    ConvertTest::SetUp();
    if (HasFatalFailure()) return;
    if (!Has(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT))
      GTEST_FAIL() << "R8G8B8A8_UNORM must support BLIT_SRC and BLIT_DST (mandatory format support)";
  }

  void RecordBlit(VkCommandBuffer cb, VkImage src, VkImage dst, const Blit& b, VkFilter filter,
                  VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT, uint32_t layers = 1, bool blit2 = false) {
    VkImageBlit region{};
    region.srcSubresource = {aspect, 0, 0, layers};
    region.srcOffsets[0] = b.src0;
    region.srcOffsets[1] = b.src1;
    region.dstSubresource = {aspect, 0, 0, layers};
    region.dstOffsets[0] = b.dst0;
    region.dstOffsets[1] = b.dst1;
    FullBarrier(cb);
    if (!blit2) {
      vkCmdBlitImage(cb, src, VK_IMAGE_LAYOUT_GENERAL, dst, VK_IMAGE_LAYOUT_GENERAL, 1, &region, filter);
      return;
    }
    VkImageBlit2 r2{VK_STRUCTURE_TYPE_IMAGE_BLIT_2};
    r2.srcSubresource = region.srcSubresource;
    r2.srcOffsets[0] = b.src0;
    r2.srcOffsets[1] = b.src1;
    r2.dstSubresource = region.dstSubresource;
    r2.dstOffsets[0] = b.dst0;
    r2.dstOffsets[1] = b.dst1;
    VkBlitImageInfo2 info{VK_STRUCTURE_TYPE_BLIT_IMAGE_INFO_2};
    info.srcImage = src;
    info.srcImageLayout = VK_IMAGE_LAYOUT_GENERAL;
    info.dstImage = dst;
    info.dstImageLayout = VK_IMAGE_LAYOUT_GENERAL;
    info.regionCount = 1;
    info.pRegions = &r2;
    info.filter = filter;
    vkCmdBlitImage2(cb, &info);
  }

  // RGBA8_UNORM -> RGBA8_UNORM blit checked against the reference sampler.
  void CheckUnorm8Blit(VkExtent3D src_extent, VkExtent3D dst_extent, const Blit& b, VkFilter filter, int tolerance,
                       bool blit2 = false) {
    VkImage src = MakeImage2D(VK_FORMAT_R8G8B8A8_UNORM, src_extent);
    VkImage dst = MakeImage2D(VK_FORMAT_R8G8B8A8_UNORM, dst_extent);
    ASSERT_NE(dst, VK_NULL_HANDLE);
    std::vector<uint8_t> s, d;
    ASSERT_NO_FATAL_FAILURE(s = RandomizeLevel(src, VK_IMAGE_ASPECT_COLOR_BIT, 0, src_extent, 1, 4, 70));
    ASSERT_NO_FATAL_FAILURE(d = RandomizeLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, dst_extent, 1, 4, 71));
    VkCommandBuffer cb = BeginCommands();
    RecordBlit(cb, src, dst, b, filter, VK_IMAGE_ASPECT_COLOR_BIT, 1, blit2);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    const FloatImage ref = FromUnorm8(s, src_extent.width, src_extent.height);
    std::vector<uint8_t> want = d;
    for (int32_t y = 0; y < int32_t(dst_extent.height); ++y)
      for (int32_t x = 0; x < int32_t(dst_extent.width); ++x) {
        if (!InRegion(b, x, y)) continue;
        for (int c = 0; c < 4; ++c)
          want[(size_t(y) * dst_extent.width + size_t(x)) * 4 + size_t(c)] =
              uint8_t(ToUnorm(Sample(ref, b, x, y, c, filter == VK_FILTER_LINEAR), 8));
      }
    std::vector<uint8_t> got;
    ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, dst_extent, 1, 4));
    const std::vector<uint8_t> tol(4, uint8_t(tolerance));
    EXPECT_TRUE(TexelsMatch(got, want, tol, 4, "destination"));
  }
};

TEST_F(Blits, NearestSameSizeWithOffsets) {
  CheckUnorm8Blit({16, 12, 1}, {20, 16, 1}, {{2, 3, 0}, {10, 9, 1}, {5, 4, 0}, {13, 10, 1}}, VK_FILTER_NEAREST, 0);
}

TEST_F(Blits, NearestMirroredRegions) {
  // Source offsets swapped in x and y: the region is flipped both ways.
  CheckUnorm8Blit({16, 12, 1}, {20, 16, 1}, {{10, 9, 0}, {2, 3, 1}, {5, 4, 0}, {13, 10, 1}}, VK_FILTER_NEAREST, 0);
  // Destination offsets swapped in x only.
  CheckUnorm8Blit({16, 12, 1}, {20, 16, 1}, {{2, 3, 0}, {10, 9, 1}, {13, 4, 0}, {5, 10, 1}}, VK_FILTER_NEAREST, 0);
  // Both swapped in y: no flip overall (vkCmdBlitImage2).
  CheckUnorm8Blit({16, 12, 1}, {20, 16, 1}, {{2, 9, 0}, {10, 3, 1}, {5, 10, 0}, {13, 4, 1}}, VK_FILTER_NEAREST, 0,
                  true);
}

TEST_F(Blits, NearestScaling) {
  // 2x up: u = (x + 0.5) / 2 -> texel x / 2.
  CheckUnorm8Blit({8, 6, 1}, {16, 12, 1}, {{0, 0, 0}, {8, 6, 1}, {0, 0, 0}, {16, 12, 1}}, VK_FILTER_NEAREST, 0);
  // 3x down: u = 3x + 1.5 -> texel 3x + 1 (no texel-edge ties).
  CheckUnorm8Blit({15, 12, 1}, {5, 4, 1}, {{0, 0, 0}, {15, 12, 1}, {0, 0, 0}, {5, 4, 1}}, VK_FILTER_NEAREST, 0);
  // Non-integer ratio with an offset region.
  CheckUnorm8Blit({17, 13, 1}, {11, 9, 1}, {{1, 2, 0}, {16, 11, 1}, {2, 1, 0}, {9, 7, 1}}, VK_FILTER_NEAREST, 0);
}

TEST_F(Blits, LinearDownscale2xIsBoxAverage) {
  if (!Has(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
    GTEST_FAIL() << "R8G8B8A8_UNORM must support linear filtering";
  // u - 0.5 = 2x + 0.5: the average of texels 2x and 2x+1 in each axis.
  // Rounding of the filtered value may go either way: +-1.
  CheckUnorm8Blit({16, 16, 1}, {8, 8, 1}, {{0, 0, 0}, {16, 16, 1}, {0, 0, 0}, {8, 8, 1}}, VK_FILTER_LINEAR, 1);

  // The same into RGBA32F: exactly (a + b + c + d) / 4 of the unorm values,
  // within the precision of linear filtering.
  if (!Has(VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_FEATURE_BLIT_DST_BIT)) GTEST_SKIP() << "no RGBA32F blit dst";
  VkImage src = MakeImage2D(VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1});
  VkImage dst = MakeImage2D(VK_FORMAT_R32G32B32A32_SFLOAT, {8, 8, 1});
  ASSERT_NE(dst, VK_NULL_HANDLE);
  std::vector<uint8_t> s;
  ASSERT_NO_FATAL_FAILURE(s = RandomizeLevel(src, VK_IMAGE_ASPECT_COLOR_BIT, 0, {16, 16, 1}, 1, 4, 80));
  VkCommandBuffer cb = BeginCommands();
  RecordBlit(cb, src, dst, {{0, 0, 0}, {16, 16, 1}, {0, 0, 0}, {8, 8, 1}}, VK_FILTER_LINEAR);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, {8, 8, 1}, 1, 16));
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x)
      for (uint32_t c = 0; c < 4; ++c) {
        double sum = 0;
        for (uint32_t dy = 0; dy < 2; ++dy)
          for (uint32_t dx = 0; dx < 2; ++dx) sum += s[((2 * y + dy) * 16 + 2 * x + dx) * 4 + c] / 255.0;
        float f;
        std::memcpy(&f, got.data() + ((y * 8 + x) * 4 + c) * 4, 4);
        // Filtering may work at the source's 8-bit precision: one step.
        ASSERT_NEAR(f, sum / 4, 1.01 / 255) << "texel (" << x << "," << y << ") channel " << c;
      }
}

TEST_F(Blits, LinearUpscaleClampsAtImageEdge) {
  // 2x2 RGBA32F -> 4x4: per axis, destination texels sample
  // u - 0.5 = -0.25, 0.25, 0.75, 1.25 -> t0, 3/4 t0 + 1/4 t1, 1/4 t0 + 3/4 t1, t1
  // (the outer taps clamp to the edge texels).
  const VkFormat f = VK_FORMAT_R32G32B32A32_SFLOAT;
  if (!Has(f, VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
                  VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
    GTEST_SKIP() << "RGBA32F cannot be linearly blitted (optional)";
  VkImage src = MakeImage2D(f, {2, 2, 1});
  VkImage dst = MakeImage2D(f, {4, 4, 1});
  ASSERT_NE(dst, VK_NULL_HANDLE);
  const float texels[2][2][4] = {{{0, 1, 10, -4}, {4, 1, 20, 4}}, {{8, 5, 30, 0}, {16, 9, 40, 8}}};
  std::vector<uint8_t> bytes(sizeof(texels));
  std::memcpy(bytes.data(), texels, sizeof(texels));
  ASSERT_NO_FATAL_FAILURE(WriteImage(src, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {2, 2, 1}, 16, bytes));
  VkCommandBuffer cb = BeginCommands();
  RecordBlit(cb, src, dst, {{0, 0, 0}, {2, 2, 1}, {0, 0, 0}, {4, 4, 1}}, VK_FILTER_LINEAR);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, {4, 4, 1}, 1, 16));
  const double w1[4] = {0.0, 0.25, 0.75, 1.0};  // weight of texel 1 per destination index
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x)
      for (uint32_t c = 0; c < 4; ++c) {
        const double a = w1[x], b = w1[y];
        const double want = (1 - a) * (1 - b) * texels[0][0][c] + a * (1 - b) * texels[0][1][c] +
                            (1 - a) * b * texels[1][0][c] + a * b * texels[1][1][c];
        float v;
        std::memcpy(&v, got.data() + ((y * 4 + x) * 4 + c) * 4, 4);
        EXPECT_NEAR(v, want, 1e-3) << "texel (" << x << "," << y << ") channel " << c;
      }
}

TEST_F(Blits, ConvertUnormToFloat) {
  if (!Has(VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_FEATURE_BLIT_DST_BIT))
    GTEST_FAIL() << "R32G32B32A32_SFLOAT must support BLIT_DST (mandatory format support)";
  VkImage src = MakeImage2D(VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1});
  VkImage dst = MakeImage2D(VK_FORMAT_R32G32B32A32_SFLOAT, {16, 16, 1});
  ASSERT_NE(dst, VK_NULL_HANDLE);
  // Every byte value 0..255 appears.
  std::vector<uint8_t> s(16 * 16 * 4);
  for (size_t i = 0; i < s.size(); ++i) s[i] = uint8_t(i * 7 + i / 256);
  ASSERT_NO_FATAL_FAILURE(WriteImage(src, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {16, 16, 1}, 4, s));
  VkCommandBuffer cb = BeginCommands();
  RecordBlit(cb, src, dst, {{0, 0, 0}, {16, 16, 1}, {0, 0, 0}, {16, 16, 1}}, VK_FILTER_NEAREST);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, {16, 16, 1}, 1, 16));
  for (size_t i = 0; i < s.size(); ++i) {
    float v;
    std::memcpy(&v, got.data() + 4 * i, 4);
    // UNORM -> float is c / 255 (the spec allows the usual float precision).
    ASSERT_NEAR(v, s[i] / 255.0, 1e-6) << "component " << i << " (byte " << int(s[i]) << ")";
  }
}

TEST_F(Blits, ConvertFloatToUnormClampsAndRounds) {
  VkImage src = MakeImage2D(VK_FORMAT_R32G32B32A32_SFLOAT, {4, 1, 1});
  VkImage dst = MakeImage2D(VK_FORMAT_R8G8B8A8_UNORM, {4, 1, 1});
  ASSERT_NE(dst, VK_NULL_HANDLE);
  // Scaled by 255 none of these is near a .5 tie.
  const float values[16] = {-1.0f, 2.0f, 0.25f, 0.8f, 0.0f, 1.0f, 0.13f, 0.71f,
                            -0.001f, 1.001f, 0.91f, 0.31f, 0.6f, 0.4f, 0.05f, 0.95f};
  std::vector<uint8_t> bytes(sizeof(values));
  std::memcpy(bytes.data(), values, sizeof(values));
  ASSERT_NO_FATAL_FAILURE(WriteImage(src, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {4, 1, 1}, 16, bytes));
  VkCommandBuffer cb = BeginCommands();
  RecordBlit(cb, src, dst, {{0, 0, 0}, {4, 1, 1}, {0, 0, 0}, {4, 1, 1}}, VK_FILTER_NEAREST);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, {4, 1, 1}, 1, 4));
  std::vector<uint8_t> want;
  for (float v : values) want.push_back(uint8_t(ToUnorm(v, 8)));
  EXPECT_TRUE(TexelsMatch(got, want, {}, 4, "RGBA32F -> RGBA8_UNORM"));
}

TEST_F(Blits, ConvertToSrgbEncodes) {
  if (!Has(VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_FEATURE_BLIT_DST_BIT))
    GTEST_FAIL() << "R8G8B8A8_SRGB must support BLIT_DST (mandatory format support)";
  VkImage src = MakeImage2D(VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1});
  VkImage dst = MakeImage2D(VK_FORMAT_R8G8B8A8_SRGB, {16, 16, 1});
  ASSERT_NE(dst, VK_NULL_HANDLE);
  std::vector<uint8_t> s(16 * 16 * 4);
  for (size_t i = 0; i < s.size(); ++i) s[i] = uint8_t(i * 5 + i / 256);
  ASSERT_NO_FATAL_FAILURE(WriteImage(src, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {16, 16, 1}, 4, s));
  VkCommandBuffer cb = BeginCommands();
  RecordBlit(cb, src, dst, {{0, 0, 0}, {16, 16, 1}, {0, 0, 0}, {16, 16, 1}}, VK_FILTER_NEAREST);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, {16, 16, 1}, 1, 4));
  std::vector<uint8_t> want(s.size());
  for (size_t i = 0; i < s.size(); ++i)
    want[i] = uint8_t(i % 4 == 3 ? s[i] : ToUnorm(SrgbEncode(s[i] / 255.0), 8));
  EXPECT_TRUE(TexelsMatch(got, want, std::vector<uint8_t>{1, 1, 1, 0}, 4, "UNORM -> sRGB"));
  // Spot values: linear 0 -> 0, 1 -> 255, and encoding brightens mid-tones.
  for (size_t i = 0; i < s.size(); ++i)
    if (i % 4 != 3 && s[i] > 10 && s[i] < 245) ASSERT_GT(got[i], s[i]) << "component " << i << " not encoded";

  // And back: sRGB -> RGBA32F decodes.
  if (!Has(VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_FEATURE_BLIT_DST_BIT)) return;
  VkImage back = MakeImage2D(VK_FORMAT_R32G32B32A32_SFLOAT, {16, 16, 1});
  ASSERT_NE(back, VK_NULL_HANDLE);
  cb = BeginCommands();
  RecordBlit(cb, dst, back, {{0, 0, 0}, {16, 16, 1}, {0, 0, 0}, {16, 16, 1}}, VK_FILTER_NEAREST);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> dec;
  ASSERT_NO_FATAL_FAILURE(dec = ReadLevel(back, VK_IMAGE_ASPECT_COLOR_BIT, 0, {16, 16, 1}, 1, 16));
  for (size_t i = 0; i < got.size(); ++i) {
    float v;
    std::memcpy(&v, dec.data() + 4 * i, 4);
    const double want_v = i % 4 == 3 ? got[i] / 255.0 : SrgbDecode(got[i] / 255.0);
    ASSERT_NEAR(v, want_v, 2e-3) << "component " << i << " (sRGB byte " << int(got[i]) << ")";
  }
}

TEST_F(Blits, IntegerFormatsKeepValues) {
  struct Case {
    VkFormat src, dst;
    uint32_t src_texel, dst_texel;
    bool is_signed;
  };
  const Case cases[] = {
      {VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R16G16B16A16_UINT, 4, 8, false},
      {VK_FORMAT_R8G8B8A8_SINT, VK_FORMAT_R32G32B32A32_SINT, 4, 16, true},
      {VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R8G8B8A8_UINT, 8, 4, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "formats " << c.src << " -> " << c.dst);
    if (!Has(c.src, VK_FORMAT_FEATURE_BLIT_SRC_BIT) || !Has(c.dst, VK_FORMAT_FEATURE_BLIT_DST_BIT)) continue;
    VkImage src = MakeImage2D(c.src, {8, 4, 1});
    VkImage dst = MakeImage2D(c.dst, {8, 4, 1});
    ASSERT_NE(dst, VK_NULL_HANDLE);
    std::vector<uint8_t> s;
    ASSERT_NO_FATAL_FAILURE(s = RandomizeLevel(src, VK_IMAGE_ASPECT_COLOR_BIT, 0, {8, 4, 1}, 1, c.src_texel, 90));
    if (c.src_texel == 8) {  // 16-bit source into 8-bit destination: keep values representable
      for (size_t i = 1; i < s.size(); i += 2) s[i] = 0;
      ASSERT_NO_FATAL_FAILURE(
          WriteImage(src, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {8, 4, 1}, c.src_texel, s));
    }
    VkCommandBuffer cb = BeginCommands();
    RecordBlit(cb, src, dst, {{0, 0, 0}, {8, 4, 1}, {0, 0, 0}, {8, 4, 1}}, VK_FILTER_NEAREST);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    std::vector<uint8_t> got;
    ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, {8, 4, 1}, 1, c.dst_texel));
    const uint32_t src_comp = c.src_texel / 4, dst_comp = c.dst_texel / 4;
    for (size_t i = 0; i < 8 * 4 * 4; ++i) {
      int64_t sv = 0, dv = 0;
      uint64_t su = 0, du = 0;
      std::memcpy(&su, s.data() + i * src_comp, src_comp);
      std::memcpy(&du, got.data() + i * dst_comp, dst_comp);
      if (c.is_signed) {
        sv = int64_t(su << (64 - 8 * src_comp)) >> (64 - 8 * src_comp);
        dv = int64_t(du << (64 - 8 * dst_comp)) >> (64 - 8 * dst_comp);
        ASSERT_EQ(dv, sv) << "component " << i;
      } else {
        ASSERT_EQ(du, su) << "component " << i;
      }
    }
  }
}

TEST_F(Blits, LayersAndBlit2) {
  const VkExtent3D e{8, 8, 1};
  VkImage src = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, e, 1, 3, kTransferUsage));
  VkImage dst = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, e, 1, 3, kTransferUsage));
  ASSERT_NE(dst, VK_NULL_HANDLE);
  std::vector<uint8_t> s, d;
  ASSERT_NO_FATAL_FAILURE(s = RandomizeLevel(src, VK_IMAGE_ASPECT_COLOR_BIT, 0, e, 3, 4, 100));
  ASSERT_NO_FATAL_FAILURE(d = RandomizeLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, e, 3, 4, 101));
  // Layers 0..2 mirrored in x (vkCmdBlitImage2).
  VkCommandBuffer cb = BeginCommands();
  RecordBlit(cb, src, dst, {{8, 0, 0}, {0, 8, 1}, {0, 0, 0}, {8, 8, 1}}, VK_FILTER_NEAREST,
             VK_IMAGE_ASPECT_COLOR_BIT, 3, true);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> want(d.size());
  for (uint32_t l = 0; l < 3; ++l)
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t x = 0; x < 8; ++x)
        std::memcpy(want.data() + ((l * 8 + y) * 8 + x) * 4, s.data() + ((l * 8 + y) * 8 + (7 - x)) * 4, 4);
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, e, 3, 4));
  EXPECT_TRUE(TexelsMatch(got, want, {}, 4, "three mirrored layers"));
}

// Depth and stencil blits (nearest, one format on both sides): every aspect
// moves exactly, its values converted through the aspect's codec and back.
TEST_F(Blits, DepthAndStencilNearest) {
  struct Case {
    VkFormat format;
    VkImageAspectFlagBits aspect;
    uint32_t texel;  // bytes of the aspect's texel in a buffer copy
  };
  const Case cases[] = {{VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT, 4},
                        {VK_FORMAT_D16_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT, 2},
                        {VK_FORMAT_X8_D24_UNORM_PACK32, VK_IMAGE_ASPECT_DEPTH_BIT, 4},
                        {VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT, 1},
                        {VK_FORMAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT, 1}};
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "format " << c.format << " aspect " << c.aspect);
    ASSERT_TRUE(Has(c.format, VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT));
    const VkImageAspectFlags all = c.format == VK_FORMAT_D24_UNORM_S8_UINT
                                       ? VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT
                                       : VkImageAspectFlags(c.aspect);
    VkImage src = MakeImage2D(c.format, {8, 6, 1}, 1, 1, all);
    VkImage dst = MakeImage2D(c.format, {16, 6, 1}, 1, 1, all);
    ASSERT_NE(dst, VK_NULL_HANDLE);
    std::vector<uint8_t> s;
    for (uint32_t i = 0; i < 8 * 6; ++i) {
      if (c.format == VK_FORMAT_D32_SFLOAT) Put<float>(s, float(i) / 64.0f);
      else if (c.texel == 4) Put<uint32_t>(s, (i * 349525u + 7u) & 0xFFFFFFu);  // 24-bit depth
      else if (c.texel == 2) Put<uint16_t>(s, uint16_t(i * 1111));
      else Put<uint8_t>(s, uint8_t(i * 5 + 3));
    }
    ASSERT_NO_FATAL_FAILURE(WriteImage(src, {VkImageAspectFlags(c.aspect), 0, 0, 1}, {0, 0, 0}, {8, 6, 1}, c.texel, s));
    ASSERT_NO_FATAL_FAILURE(WriteImage(dst, {VkImageAspectFlags(c.aspect), 0, 0, 1}, {0, 0, 0}, {16, 6, 1}, c.texel,
                                       std::vector<uint8_t>(16 * 6 * c.texel, 0)));
    // 2x up in x, mirrored in y.
    VkCommandBuffer cb = BeginCommands();
    RecordBlit(cb, src, dst, {{0, 6, 0}, {8, 0, 1}, {0, 0, 0}, {16, 6, 1}}, VK_FILTER_NEAREST, c.aspect);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
    std::vector<uint8_t> got;
    ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, c.aspect, 0, {16, 6, 1}, 1, c.texel));
    std::vector<uint8_t> want(got.size());
    for (uint32_t y = 0; y < 6; ++y)
      for (uint32_t x = 0; x < 16; ++x)
        std::memcpy(want.data() + (y * 16 + x) * c.texel, s.data() + ((5 - y) * 8 + x / 2) * c.texel, c.texel);
    if (c.format == VK_FORMAT_X8_D24_UNORM_PACK32) {
      for (size_t i = 3; i < got.size(); i += 4) got[i] = 0;  // the X8 bits are undefined
    }
    EXPECT_TRUE(TexelsMatch(got, want, {}, c.texel, "depth/stencil blit"));
  }
}

TEST_F(Blits, MipChainWithinOneImage) {
  // The usual mipmap generation: each level is a linear 2x downscale of the
  // one above, blitted inside the same image with a barrier in between.
  // Every level is checked against the box average of the level read back
  // above it (+-1 for rounding).
  if (!Has(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
    GTEST_FAIL() << "R8G8B8A8_UNORM must support linear filtering";
  VkImage image = MakeImage2D(VK_FORMAT_R8G8B8A8_UNORM, {32, 16, 1}, 4, 1);
  ASSERT_NE(image, VK_NULL_HANDLE);
  std::vector<uint8_t> level0;
  ASSERT_NO_FATAL_FAILURE(level0 = RandomizeLevel(image, VK_IMAGE_ASPECT_COLOR_BIT, 0, {32, 16, 1}, 1, 4, 110));
  VkCommandBuffer cb = BeginCommands();
  for (uint32_t m = 1; m < 4; ++m) {
    VkImageBlit b{};
    b.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, m - 1, 0, 1};
    b.srcOffsets[1] = {int32_t(32u >> (m - 1)), int32_t(16u >> (m - 1)), 1};
    b.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, m, 0, 1};
    b.dstOffsets[1] = {int32_t(32u >> m), int32_t(16u >> m), 1};
    FullBarrier(cb);
    vkCmdBlitImage(cb, image, VK_IMAGE_LAYOUT_GENERAL, image, VK_IMAGE_LAYOUT_GENERAL, 1, &b, VK_FILTER_LINEAR);
  }
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> above = level0;
  for (uint32_t m = 1; m < 4; ++m) {
    const uint32_t w = 32u >> m, h = 16u >> m;
    std::vector<uint8_t> got;
    ASSERT_NO_FATAL_FAILURE(got = ReadLevel(image, VK_IMAGE_ASPECT_COLOR_BIT, m, {w, h, 1}, 1, 4));
    std::vector<uint8_t> want(got.size());
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x)
        for (uint32_t c = 0; c < 4; ++c) {
          double sum = 0;
          for (uint32_t dy = 0; dy < 2; ++dy)
            for (uint32_t dx = 0; dx < 2; ++dx) sum += above[((2 * y + dy) * (2 * w) + 2 * x + dx) * 4 + c] / 255.0;
          want[(y * w + x) * 4 + c] = uint8_t(ToUnorm(sum / 4, 8));
        }
    EXPECT_TRUE(TexelsMatch(got, want, std::vector<uint8_t>{1}, 4, "mip " + std::to_string(m)));
    above = got;
  }
}

TEST_F(Blits, ThreeDimensionalNearest) {
  // A 4x4x4 volume to 4x4x2: w = (z + 0.5) * 2 -> slice 2z + 1.
  VkImage src = MakeImage2D(VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 4}, 1, 1, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_TYPE_3D);
  VkImage dst = MakeImage2D(VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 2}, 1, 1, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_TYPE_3D);
  ASSERT_NE(dst, VK_NULL_HANDLE);
  std::vector<uint8_t> s;
  ASSERT_NO_FATAL_FAILURE(s = RandomizeLevel(src, VK_IMAGE_ASPECT_COLOR_BIT, 0, {4, 4, 4}, 1, 4, 120));
  VkCommandBuffer cb = BeginCommands();
  RecordBlit(cb, src, dst, {{0, 0, 0}, {4, 4, 4}, {0, 0, 0}, {4, 4, 2}}, VK_FILTER_NEAREST);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, {4, 4, 2}, 1, 4));
  std::vector<uint8_t> want(got.size());
  for (uint32_t z = 0; z < 2; ++z)
    std::memcpy(want.data() + z * 64, s.data() + (2 * z + 1) * 64, 64);
  EXPECT_TRUE(TexelsMatch(got, want, {}, 4, "slices 1 and 3"));
}

// ---------------------------------------------------------------------------
// vkCmdResolveImage

class Resolves : public ConvertTest {
 protected:
  VkImage MakeMsaa(VkFormat format, VkExtent3D extent, uint32_t layers) {
    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, format, extent, 1, layers,
                                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | kTransferUsage);
    ci.samples = VK_SAMPLE_COUNT_4_BIT;
    return MakeGeneralImage(ci);
  }
  bool Msaa4(VkFormat format, uint32_t layers) {
    VkImageFormatProperties ifp{};
    if (vkGetPhysicalDeviceImageFormatProperties(phys_, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | kTransferUsage, 0,
                                                 &ifp) != VK_SUCCESS)
      return false;
    return (ifp.sampleCounts & VK_SAMPLE_COUNT_4_BIT) && ifp.maxArrayLayers >= layers;
  }
  void RecordResolve(VkCommandBuffer cb, VkImage src, VkImage dst, uint32_t layers, VkOffset3D src_off,
                     VkOffset3D dst_off, VkExtent3D extent, bool resolve2) {
    FullBarrier(cb);
    const VkImageSubresourceLayers sub{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, layers};
    if (!resolve2) {
      const VkImageResolve r{sub, src_off, sub, dst_off, extent};
      vkCmdResolveImage(cb, src, VK_IMAGE_LAYOUT_GENERAL, dst, VK_IMAGE_LAYOUT_GENERAL, 1, &r);
      return;
    }
    const VkImageResolve2 r{VK_STRUCTURE_TYPE_IMAGE_RESOLVE_2, nullptr, sub, src_off, sub, dst_off, extent};
    VkResolveImageInfo2 info{VK_STRUCTURE_TYPE_RESOLVE_IMAGE_INFO_2};
    info.srcImage = src;
    info.srcImageLayout = VK_IMAGE_LAYOUT_GENERAL;
    info.dstImage = dst;
    info.dstImageLayout = VK_IMAGE_LAYOUT_GENERAL;
    info.regionCount = 1;
    info.pRegions = &r;
    vkCmdResolveImage2(cb, &info);
  }
};

TEST_F(Resolves, ClearedSamplesResolveToTheClearValue) {
  struct Case {
    VkFormat format;
    uint32_t texel;
    VkClearColorValue a, b;
    std::vector<uint8_t> ta, tb;  // expected texels
  };
  std::vector<Case> cases;
  cases.push_back({VK_FORMAT_R8G8B8A8_UNORM, 4, Floats(0.25f, 1.0f, 0.0f, 0.8f), Floats(0.75f, 0.13f, 1.0f, 0.0f),
                   {64, 255, 0, uint8_t(ToUnorm(0.8f, 8))},
                   {uint8_t(ToUnorm(0.75, 8)), uint8_t(ToUnorm(0.13f, 8)), 255, 0}});
  {
    std::vector<uint8_t> ta, tb;
    for (float v : {1.5f, -2.0f, 0.125f, 1.0f}) Put<uint32_t>(ta, FloatBits(v));
    for (float v : {-0.5f, 4.0f, 8.0f, 0.0f}) Put<uint32_t>(tb, FloatBits(v));
    cases.push_back({VK_FORMAT_R32G32B32A32_SFLOAT, 16, Floats(1.5f, -2.0f, 0.125f, 1.0f),
                     Floats(-0.5f, 4.0f, 8.0f, 0.0f), ta, tb});
  }
  {
    std::vector<uint8_t> ta, tb;
    for (double v : {0.5, -1.0, 2.0, 1.0}) Put<uint16_t>(ta, HalfBits(v));
    for (double v : {3.0, 0.25, -0.125, 0.0}) Put<uint16_t>(tb, HalfBits(v));
    cases.push_back({VK_FORMAT_R16G16B16A16_SFLOAT, 8, Floats(0.5f, -1.0f, 2.0f, 1.0f),
                     Floats(3.0f, 0.25f, -0.125f, 0.0f), ta, tb});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "format " << c.format);
    if (!Msaa4(c.format, 2)) {
      ADD_FAILURE() << "4x multisampling is required for this format's colour attachments";
      continue;
    }
    for (bool resolve2 : {false, true}) {
      SCOPED_TRACE(resolve2 ? "vkCmdResolveImage2" : "vkCmdResolveImage");
      const VkExtent3D e{12, 9, 1};
      VkImage ms = MakeMsaa(c.format, e, 2);
      VkImage dst = MakeImage2D(c.format, {16, 12, 1}, 1, 2);
      ASSERT_NE(dst, VK_NULL_HANDLE);
      // Known finite values around the region (NaN patterns could come back
      // canonicalized from a driver that rewrites whole rows).
      std::vector<uint8_t> d(size_t(16) * 12 * 2 * c.texel);
      for (size_t i = 0; i < d.size(); i += c.texel) std::memcpy(d.data() + i, c.tb.data(), c.texel);
      for (size_t i = 0; i < d.size(); i += 2) d[i] = uint8_t(i / 2);  // vary the low bytes
      ASSERT_NO_FATAL_FAILURE(
          WriteImage(dst, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2}, {0, 0, 0}, {16, 12, 1}, c.texel, d));
      VkCommandBuffer cb = BeginCommands();
      const VkImageSubresourceRange l0{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      const VkImageSubresourceRange l1{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1, 1};
      vkCmdClearColorImage(cb, ms, VK_IMAGE_LAYOUT_GENERAL, &c.a, 1, &l0);
      vkCmdClearColorImage(cb, ms, VK_IMAGE_LAYOUT_GENERAL, &c.b, 1, &l1);
      // Source (2,1) 7x5 -> destination (6,4), both layers.
      RecordResolve(cb, ms, dst, 2, {2, 1, 0}, {6, 4, 0}, {7, 5, 1}, resolve2);
      ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
      std::vector<uint8_t> want = d;
      for (uint32_t l = 0; l < 2; ++l)
        for (uint32_t y = 4; y < 9; ++y)
          for (uint32_t x = 6; x < 13; ++x)
            std::memcpy(want.data() + ((l * 12 + y) * 16 + x) * c.texel, (l == 0 ? c.ta : c.tb).data(), c.texel);
      std::vector<uint8_t> got;
      ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, {16, 12, 1}, 2, c.texel));
      EXPECT_TRUE(TexelsMatch(got, want, {}, c.texel, "resolved region, rest untouched"));
    }
  }
}

TEST_F(Resolves, IntoMipAndLayerOfDestinationAfterMultisampleCopy) {
  // vkCmdCopyImage between two 4x images copies every sample; the copy is
  // then resolved into mip 1, layer 2 of a single-sampled image.
  const VkFormat f = VK_FORMAT_R8G8B8A8_UNORM;
  ASSERT_TRUE(Msaa4(f, 1));
  VkImage a = MakeMsaa(f, {8, 8, 1}, 1);
  VkImage b = MakeMsaa(f, {8, 8, 1}, 1);
  VkImage dst = MakeImage2D(f, {16, 16, 1}, 2, 3);
  ASSERT_NE(dst, VK_NULL_HANDLE);
  std::vector<uint8_t> d1;
  ASSERT_NO_FATAL_FAILURE(d1 = RandomizeLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 1, {8, 8, 1}, 3, 4, 130));
  const VkClearColorValue red = Floats(1.0f, 0.0f, 0.0f, 1.0f), blue = Floats(0.0f, 0.0f, 1.0f, 0.25f);
  const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkCommandBuffer cb = BeginCommands();
  vkCmdClearColorImage(cb, a, VK_IMAGE_LAYOUT_GENERAL, &red, 1, &all);
  vkCmdClearColorImage(cb, b, VK_IMAGE_LAYOUT_GENERAL, &blue, 1, &all);
  FullBarrier(cb);
  // a (1,2) 4x3 -> b (3,4).
  const VkImageCopy copy{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {1, 2, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                         {3, 4, 0}, {4, 3, 1}};
  vkCmdCopyImage(cb, a, VK_IMAGE_LAYOUT_GENERAL, b, VK_IMAGE_LAYOUT_GENERAL, 1, &copy);
  FullBarrier(cb);
  const VkImageResolve resolve{{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {VK_IMAGE_ASPECT_COLOR_BIT, 1, 2, 1},
                               {0, 0, 0}, {8, 8, 1}};
  vkCmdResolveImage(cb, b, VK_IMAGE_LAYOUT_GENERAL, dst, VK_IMAGE_LAYOUT_GENERAL, 1, &resolve);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> want = d1;
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x) {
      const bool copied = x >= 3 && x < 7 && y >= 4 && y < 7;
      const uint8_t px[4] = {uint8_t(copied ? 255 : 0), 0, uint8_t(copied ? 0 : 255), uint8_t(copied ? 255 : 64)};
      std::memcpy(want.data() + ((2 * 8 + y) * 8 + x) * 4, px, 4);
    }
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 1, {8, 8, 1}, 3, 4));
  EXPECT_TRUE(TexelsMatch(got, want, {}, 4, "mip 1 (layer 2 resolved, layers 0-1 untouched)"));
}

TEST_F(Resolves, DistinctSamplesWrittenThroughAliasedMemory) {
  // The spec offers no way to write distinct samples without drawing. Duet
  // documents its image layout (ARCHITECTURE.md: linear, a pixel's samples
  // adjacent), so the samples are written by copying into a buffer bound to
  // the image's memory. Skipped for any other driver.
  if (std::getenv("DUET_TEST_ICD_FILENAMES") != nullptr) GTEST_SKIP() << "relies on Duet's image layout";
  const VkFormat f = VK_FORMAT_R8G8B8A8_UNORM;
  ASSERT_TRUE(Msaa4(f, 1));
  const uint32_t w = 8, h = 4, samples = 4;
  VkImage ms = MakeMsaa(f, {w, h, 1}, 1);
  VkImage dst = MakeImage2D(f, {w, h, 1});
  ASSERT_NE(dst, VK_NULL_HANDLE);
  VkMemoryRequirements req{};
  vkGetImageMemoryRequirements(device_, ms, &req);
  const VkDeviceSize bytes = VkDeviceSize(w) * h * samples * 4;
  ASSERT_GE(req.size, bytes);
  VkBuffer alias = MakeBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  ASSERT_NE(alias, VK_NULL_HANDLE);
  VkMemoryRequirements breq{};
  vkGetBufferMemoryRequirements(device_, alias, &breq);
  ASSERT_NE(breq.memoryTypeBits & req.memoryTypeBits, 0u);
  VK_ASSERT_OK(vkBindBufferMemory(device_, alias, ImageMemory(ms), 0));

  std::vector<uint8_t> s(bytes);
  FillPattern(s, 123);
  HostBuffer staging = MakeHostBuffer(bytes);
  ASSERT_NE(staging.data, nullptr);
  std::memcpy(staging.data, s.data(), bytes);
  VkCommandBuffer cb = BeginCommands();
  const VkBufferCopy all{0, 0, bytes};
  vkCmdCopyBuffer(cb, staging.buffer, alias, 1, &all);
  RecordResolve(cb, ms, dst, 1, {0, 0, 0}, {0, 0, 0}, {w, h, 1}, false);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, {w, h, 1}, 1, 4));
  for (uint32_t p = 0; p < w * h; ++p)
    for (uint32_t c = 0; c < 4; ++c) {
      int lo = 255, hi = 0, sum = 0;
      for (uint32_t k = 0; k < samples; ++k) {
        const int v = s[(p * samples + k) * 4 + c];
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum += v;
      }
      const int r = got[p * 4 + c];
      ASSERT_GE(r, lo) << "pixel " << p << " channel " << c << ": outside the samples' range";
      ASSERT_LE(r, hi) << "pixel " << p << " channel " << c << ": outside the samples' range";
      ASSERT_NEAR(r, sum / 4.0, 1.0) << "pixel " << p << " channel " << c << ": not the average";
    }
}

TEST_F(Resolves, IntegerFormatSelectsOneSample) {
  const VkFormat f = VK_FORMAT_R8G8B8A8_UINT;
  if (!Msaa4(f, 1)) GTEST_SKIP() << "no multisampled integer images (sampledImageIntegerSampleCounts is optional)";
  VkImage ms = MakeMsaa(f, {8, 4, 1}, 1);
  VkImage dst = MakeImage2D(f, {8, 4, 1});
  ASSERT_NE(dst, VK_NULL_HANDLE);
  const VkClearColorValue v = Uints(7, 250, 3, 128);
  const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkCommandBuffer cb = BeginCommands();
  vkCmdClearColorImage(cb, ms, VK_IMAGE_LAYOUT_GENERAL, &v, 1, &range);
  RecordResolve(cb, ms, dst, 1, {0, 0, 0}, {0, 0, 0}, {8, 4, 1}, false);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(got = ReadLevel(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, {8, 4, 1}, 1, 4));
  std::vector<uint8_t> want;
  for (int i = 0; i < 32; ++i) want.insert(want.end(), {7, 250, 3, 128});
  EXPECT_TRUE(TexelsMatch(got, want, {}, 4, "integer resolve"));
}

}  // namespace
}  // namespace duet_test

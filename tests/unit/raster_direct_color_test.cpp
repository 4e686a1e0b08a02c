// The direct merge's 8-bit UNORM packing rounds as the texel codecs do:
// clamp to [0, 1] (NaN to 0), floor(v * 255 + 0.5) evaluated exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "raster/direct_color.h"
#include "raster/unorm8_fma.h"

namespace duet::raster {
namespace {

uint32_t Reference(uint32_t bits) {
  float v = std::bit_cast<float>(bits);
  v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
  return uint32_t(int32_t(double(v) * 255.0 + 0.5));
}

// How a batch is packed: PackDirect (whatever the CPU picks), or one of
// the FMA paths (skipped where the CPU lacks it).
enum class Path { kPackDirect, kAvx512, kAvx2Fma };

bool Available(Path path) {
  const uint32_t zero = 0;
  uint32_t texel;
  if (path == Path::kPackDirect) return true;
  return PackUnorm8FmaWith(path == Path::kAvx512 ? Unorm8Isa::kAvx512 : Unorm8Isa::kAvx2Fma, &zero, &zero, &zero,
                           &zero, 0, 1, 0, 16, &texel);
}

// Packs `count` consecutive float bit patterns from `first` into the red
// byte, a wave-sized batch at a time, and compares each with Reference.
uint64_t Mismatches(uint32_t first, uint64_t count, Path path = Path::kPackDirect) {
  constexpr uint32_t kBatch = 64;
  const std::vector<uint32_t> zero(kBatch, 0);
  std::vector<uint32_t> red(kBatch), texels(kBatch);
  uint64_t bad = 0;
  for (uint64_t done = 0; done < count; done += kBatch) {
    const uint32_t lanes = uint32_t(std::min<uint64_t>(kBatch, count - done));
    for (uint32_t l = 0; l < lanes; ++l) red[l] = uint32_t(first + done + l);
    const uint32_t* const component[4] = {red.data(), zero.data(), zero.data(), zero.data()};
    if (path == Path::kPackDirect) {
      PackDirect(DirectColor::kRgba8Unorm, component, lanes, texels.data());
    } else {
      PackUnorm8FmaWith(path == Path::kAvx512 ? Unorm8Isa::kAvx512 : Unorm8Isa::kAvx2Fma, red.data(), zero.data(),
                        zero.data(), zero.data(), 0, lanes, 0, 16, texels.data());
    }
    for (uint32_t l = 0; l < lanes; ++l) {
      const uint32_t expected = Reference(red[l]);
      if ((texels[l] & 0xFF) != expected) {
        if (bad < 5)
          ADD_FAILURE() << std::hex << "bits 0x" << red[l] << ": " << (texels[l] & 0xFF) << " not " << expected;
        ++bad;
      }
    }
  }
  return bad;
}

TEST(RasterDirectColor, EveryFloatInTheUnitIntervalRoundsAsTheCodecs) {
  // 0.0f to 1.0f: every bit pattern from 0 to 0x3F800000, through
  // PackDirect (the CPU's widest path of raster/unorm8_fma, or the plain
  // one) and through the AVX2 FMA path too where the CPU has it.
  for (Path path : {Path::kPackDirect, Path::kAvx2Fma}) {
    if (!Available(path)) continue;
    EXPECT_EQ(Mismatches(0, 0x3F800001ull, path), 0u) << "path " << int(path);
  }
}

TEST(RasterDirectColor, OutOfRangeAndNaNClamp) {
  for (Path path : {Path::kPackDirect, Path::kAvx512, Path::kAvx2Fma}) {
    if (!Available(path)) continue;
    EXPECT_EQ(Mismatches(0x3F800000u, 1u << 20, path), 0u);  // just above 1
    EXPECT_EQ(Mismatches(0x7F800000u, 1u << 20, path), 0u);  // infinity, NaNs
    EXPECT_EQ(Mismatches(0x80000000u, 1u << 20, path), 0u);  // -0 and negative denormals
    EXPECT_EQ(Mismatches(0xBF800000u, 1u << 20, path), 0u);  // -1 and below
  }
}

TEST(RasterDirectColor, ChannelsLandInTheirBytes) {
  const uint32_t r = std::bit_cast<uint32_t>(1.0f), g = std::bit_cast<uint32_t>(0.5f),
                 b = std::bit_cast<uint32_t>(0.0f), a = std::bit_cast<uint32_t>(0.2f);
  const uint32_t* const component[4] = {&r, &g, &b, &a};
  uint32_t texel = 0;
  PackDirect(DirectColor::kRgba8Unorm, component, 1, &texel);
  EXPECT_EQ(texel, 0xFFu | 128u << 8 | 0u << 16 | 51u << 24);
  PackDirect(DirectColor::kBgra8Unorm, component, 1, &texel);
  EXPECT_EQ(texel, 0u | 128u << 8 | 0xFFu << 16 | 51u << 24);
}

TEST(RasterDirectColor, OneAlphaForEveryLanePacksAsTheLanesWould) {
  std::vector<uint32_t> r(64), g(64), b(64), a(64);
  for (uint32_t l = 0; l < 64; ++l) {
    r[l] = std::bit_cast<uint32_t>(float(l) / 63.0f);
    g[l] = std::bit_cast<uint32_t>(1.0f - float(l) / 63.0f);
    b[l] = std::bit_cast<uint32_t>(float(l % 7) / 6.0f);
  }
  for (const DirectColor direct :
       {DirectColor::kRgba8Unorm, DirectColor::kBgra8Unorm, DirectColor::kRgba8Srgb, DirectColor::kBgra8Srgb})
    for (const float alpha : {1.0f, 0.5f, 0.0f, 2.0f}) {
      std::fill(a.begin(), a.end(), std::bit_cast<uint32_t>(alpha));
      const uint32_t* const lanes[4] = {r.data(), g.data(), b.data(), a.data()};
      std::vector<uint32_t> expected(64), got(64);
      PackDirect(direct, lanes, 64, expected.data());
      PackDirectAlpha(direct, lanes, std::bit_cast<uint32_t>(alpha), 64, got.data());
      EXPECT_EQ(got, expected) << "format " << int(direct) << " alpha " << alpha;
    }
}

}  // namespace
}  // namespace duet::raster

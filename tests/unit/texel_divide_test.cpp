// texel/divide_by_255.h: the AVX-512 division by 255 without a division
// gives x / 255.0f's bits. Exhaustive over [0, 256] when written (about
// 2^30 floats, a second); here every 61st float of that range, plus the
// values a bilinear filter of UNORM codes lands on most: whole codes and
// codes with short binary fractions.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

#include "texel/divide_by_255.h"
#include "util/cpu_features.h"

namespace duet::texel {
namespace {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

// Divides 16 floats with DivideBy255 and checks each against x / 255.0f;
// the number that differ.
__attribute__((target("avx512f"))) int CountWrong(const float (&x)[16]) {
  alignas(64) float got[16];
  _mm512_store_ps(got, DivideBy255(_mm512_loadu_ps(x)));
  int wrong = 0;
  for (int k = 0; k < 16; ++k) {
    if (std::bit_cast<uint32_t>(got[k]) != std::bit_cast<uint32_t>(x[k] / 255.0f)) {
      ADD_FAILURE() << x[k] << " (" << std::hexfloat << x[k] << "): " << got[k] << ", x / 255 is " << x[k] / 255.0f;
      ++wrong;
    }
  }
  return wrong;
}

TEST(DivideBy255, GivesTheQuotientsBits) {
  if (!CpuHasAvx512()) GTEST_SKIP() << "no AVX-512";
  int wrong = 0;
  float x[16];
  uint32_t filled = 0;
  auto check = [&](float v) {
    x[filled++] = v;
    if (filled == 16) {
      wrong += CountWrong(x);
      filled = 0;
    }
  };
  for (uint32_t bits = 0; bits <= std::bit_cast<uint32_t>(256.0f) && wrong < 10; bits += 61)
    check(std::bit_cast<float>(bits));
  for (uint32_t n = 0; n <= 256 * 1024 && wrong < 10; ++n) check(float(n) / 1024.0f);
  while (filled != 0) check(0.0f);
  EXPECT_EQ(wrong, 0);
}

#endif

}  // namespace
}  // namespace duet::texel

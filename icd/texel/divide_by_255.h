// x / 255 correctly rounded, without a division: the RGBA8 filter divides
// every weighted UNORM code by 255, and a vector division is its slowest
// step (AVX-512: one per five cycles or so). q = x * RN(1/255) is at most
// an ulp off; the exact residual x - 255q (one FMA) times RN(1/255), added
// back with a second FMA, gives the correctly rounded quotient: the same
// bits as x / 255.0f for every float x in [0, 256] (checked exhaustively
// when written; texel_divide_test checks a sample on every run). Used by
// the AVX-512 groups (AVX-512F has FMA); the narrower ones, which must give
// the same bits, divide.
#pragma once

#include <immintrin.h>

namespace duet::texel {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

inline constexpr float kReciprocal255 = 1.0f / 255.0f;

__attribute__((target("avx512f"))) inline __m512 DivideBy255(__m512 x) {
  const __m512 r = _mm512_set1_ps(kReciprocal255);
  const __m512 q = _mm512_mul_ps(x, r);
  const __m512 residual = _mm512_fnmadd_ps(q, _mm512_set1_ps(255.0f), x);
  return _mm512_fmadd_ps(residual, r, q);
}

#endif

}  // namespace duet::texel

// The lane kernels (see lane_kernels.h), compiled once per instruction set.
//
// No include guard: lane_kernels.cpp, lane_kernels_avx2.cpp and
// lane_kernels_avx512.cpp each include this file once, inside their own
// namespace and after their target pragma, having included
// lane_kernels_prelude.h first (this file includes nothing itself: whatever
// comes from a header keeps the baseline target and is inlined here).
// Everything but Kernels(), the set's entry point, is in an anonymous
// namespace so that the copies for different instruction sets can never be
// merged by the linker. DUET_LANE_AVX2 / DUET_LANE_AVX512 select the few
// places written with intrinsics.
//
// Each kernel is a loop over the lanes with a fixed trip count, written so
// that GCC vectorizes it: selects instead of branches, no calls. The few
// functions that need the C library (atan, sinh, frexp...) call it lane by
// lane; they are rare in shaders. sin, cos, tan, exp, exp2, log, log2 and
// pow are polynomials here, at least as precise as the Vulkan spec's
// precision table asks (and much closer than that), with the C library
// taking over for the lanes a polynomial does not cover (|x| too large for
// the range reduction, or special operands of pow).

namespace {

using Word = uint32_t;
constexpr uint32_t W = kWaveWidth;
static_assert(W % 32 == 0, "lane masks are read 32 lanes at a time");

inline float F(Word u) { return std::bit_cast<float>(u); }
inline Word U(float f) { return std::bit_cast<Word>(f); }
inline int32_t S(Word u) { return static_cast<int32_t>(u); }

inline float Abs(float x) { return F(U(x) & 0x7FFFFFFFu); }
inline float CopySign(float magnitude, float sign) { return F((U(magnitude) & 0x7FFFFFFFu) | (U(sign) & 0x80000000u)); }
inline bool IsNan(float x) { return x != x; }
// c ? t : f as bit operations: GCC will not vectorize some selects written
// with ?: (one feeding a conversion to integer, for instance).
inline Word PickBits(bool c, Word t, Word f) {
  const Word m = Word(0) - Word(c);
  return (t & m) | (f & ~m);
}
inline float Pick(bool c, float t, float f) { return F(PickBits(c, U(t), U(f))); }

constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr float kTwo23 = 8388608.0f;       // 2^23: floats at least this large have no fraction
constexpr float kRoundMagic = 12582912.0f;  // 1.5 * 2^23: (x + it) - it rounds |x| < 2^22 to an integer

// select[l] = all ones for the lanes of `mask`, 0 for the others. Lane
// masks are read 32 bits at a time: shifts of 32-bit words vectorize, 64-bit
// ones do not.
[[gnu::always_inline]] inline void ExpandMask(LaneMask mask, Word* __restrict select) {
  for (uint32_t chunk = 0; chunk < W; chunk += 32) {
    const Word bits = Word(mask >> (chunk % (sizeof(LaneMask) * 8)));
    for (uint32_t l = 0; l < 32; ++l) select[chunk + l] = Word(0) - ((bits >> l) & 1u);
  }
}

// Reductions over the lanes of a register: whether all its words are 0,
// and which are not. Written with the instruction set's intrinsics where
// the compiler's own vectorization of a reduction is poor.
inline bool AllZero(const Word* v) {
#if defined(DUET_LANE_AVX512)
  __m512i acc = _mm512_loadu_si512(v);
  for (uint32_t i = 16; i < W; i += 16) acc = _mm512_or_si512(acc, _mm512_loadu_si512(v + i));
  return _mm512_test_epi32_mask(acc, acc) == 0;
#elif defined(DUET_LANE_AVX2)
  __m256i acc = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v));
  for (uint32_t i = 8; i < W; i += 8)
    acc = _mm256_or_si256(acc, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + i)));
  return _mm256_testz_si256(acc, acc) != 0;
#else
  Word acc = 0;
  for (uint32_t l = 0; l < W; ++l) acc |= v[l];
  return acc == 0;
#endif
}

inline LaneMask NonzeroBits(const Word* v) {
  LaneMask m = 0;
#if defined(DUET_LANE_AVX512)
  for (uint32_t i = 0; i < W; i += 16) {
    const __m512i x = _mm512_loadu_si512(v + i);
    m |= LaneMask(_mm512_test_epi32_mask(x, x)) << i;
  }
#elif defined(DUET_LANE_AVX2)
  const __m256i zero = _mm256_setzero_si256();
  for (uint32_t i = 0; i < W; i += 8) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + i));
    const Word zeros = Word(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, zero))));
    m |= LaneMask(~zeros & 0xFFu) << i;
  }
#else
  for (uint32_t chunk = 0; chunk < W; chunk += 32) {  // 32-bit shifts vectorize, 64-bit ones do not
    Word bits = 0;
    for (uint32_t l = 0; l < 32; ++l) bits |= Word(v[chunk + l] != 0) << l;
    m |= LaneMask(bits) << (chunk % (sizeof(LaneMask) * 8));
  }
#endif
  return m;
}

// dst[l] = f(l) in the active lanes. With every lane active this is a plain
// loop; otherwise each lane's result is blended with what dst held (f runs
// in every lane: kernels are pure functions of their operands).
template <typename Fn>
[[gnu::always_inline]] inline void Lanes(Word* __restrict dst, LaneMask active, Fn f) {
  if (active == kAllLanes) {
    for (uint32_t l = 0; l < W; ++l) dst[l] = f(l);
  } else {
    Word select[W];
    ExpandMask(active, select);
    for (uint32_t l = 0; l < W; ++l) dst[l] = (f(l) & select[l]) | (dst[l] & ~select[l]);
  }
}

// Kernel families. A family computes one lane (Apply) from its operands;
// Kernel<Family, V> runs it over a register in variant V, where bit i of V
// says operand i is uniform (the same in every lane that reads it), so the
// kernel reads its lane 0 and broadcasts it instead of loading the whole
// register. With every operand uniform the result is computed once and
// written to every lane, active or not (see ir_prepare.cpp for when that
// is allowed).
template <auto Fn>
struct Unary {
  static constexpr uint32_t kArity = 1;
  static Word Apply(Word a, Word, Word) { return Fn(a); }
};
template <auto Fn>
struct Binary {
  static constexpr uint32_t kArity = 2;
  static Word Apply(Word a, Word b, Word) { return Fn(a, b); }
};
template <auto Fn>
struct Ternary {
  static constexpr uint32_t kArity = 3;
  static Word Apply(Word a, Word b, Word c) { return Fn(a, b, c); }
};
template <auto Fn>
struct FloatUnary {
  static constexpr uint32_t kArity = 1;
  static Word Apply(Word a, Word, Word) { return U(Fn(F(a))); }
};
template <auto Fn>
struct FloatBinary {
  static constexpr uint32_t kArity = 2;
  static Word Apply(Word a, Word b, Word) { return U(Fn(F(a), F(b))); }
};
template <auto Fn>
struct FloatTernary {
  static constexpr uint32_t kArity = 3;
  static Word Apply(Word a, Word b, Word c) { return U(Fn(F(a), F(b), F(c))); }
};
template <auto Fn>
struct FloatCompare {
  static constexpr uint32_t kArity = 2;
  static Word Apply(Word a, Word b, Word) { return Word(Fn(F(a), F(b))); }
};

// Operand `bit` of lane l in variant V: the lane's word, or lane 0's.
template <uint32_t V, uint32_t kBit>
[[gnu::always_inline]] inline Word Operand(const Word* r, uint32_t l) {
  if constexpr ((V & kBit) != 0) {
    return r[0];
  } else {
    return r[l];
  }
}

// A polynomial for the lanes `covered` accepts and the C library for the
// others. When some lane is not covered, the polynomial runs over every
// lane into a temporary (operands outside its range replaced by 0) and the
// rare others are redone one by one.
template <auto Covered, auto Fast, auto Slow>
struct FloatUnaryWithFallback {
  static constexpr uint32_t kArity = 1;
  static constexpr bool kVector = true;
  static Word Apply(Word a, Word, Word) {
    const float x = F(a);
    return U(Covered(x) ? Fast(x) : Slow(x));
  }
  template <uint32_t V>
  static void Vector(Word* __restrict d, const Word* a, const Word*, const Word*, LaneMask m) {
    // Usually every lane is covered: the polynomial in one pass.
    Word uncovered_lanes[W];
    for (uint32_t l = 0; l < W; ++l) uncovered_lanes[l] = Word(!Covered(F(a[l])));
    if (AllZero(uncovered_lanes)) {
      Lanes(d, m, [a](uint32_t l) { return U(Fast(F(a[l]))); });
      return;
    }
    // Some lane is not: the polynomial over the covered ones, then the others one by one.
    float x[W], r[W];
    for (uint32_t l = 0; l < W; ++l) x[l] = F(a[l]);
    for (uint32_t l = 0; l < W; ++l) r[l] = Fast(uncovered_lanes[l] != 0 ? 0.0f : x[l]);
    for (uint32_t l = 0; l < W; ++l)
      if (uncovered_lanes[l] != 0) r[l] = Slow(x[l]);
    Lanes(d, m, [&r](uint32_t l) { return U(r[l]); });
  }
};

template <auto Covered, auto Fast, auto Slow>
struct FloatBinaryWithFallback {
  static constexpr uint32_t kArity = 2;
  static constexpr bool kVector = true;
  static Word Apply(Word a, Word b, Word) {
    const float x = F(a), y = F(b);
    return U(Covered(x, y) ? Fast(x, y) : Slow(x, y));
  }
  template <uint32_t V>
  static void Vector(Word* __restrict d, const Word* a, const Word* b, const Word*, LaneMask m) {
    // Usually every lane is covered: the polynomial in one pass.
    Word uncovered_lanes[W];
    for (uint32_t l = 0; l < W; ++l)
      uncovered_lanes[l] = Word(!Covered(F(Operand<V, 1>(a, l)), F(Operand<V, 2>(b, l))));
    if (AllZero(uncovered_lanes)) {
      Lanes(d, m, [a, b](uint32_t l) { return U(Fast(F(Operand<V, 1>(a, l)), F(Operand<V, 2>(b, l)))); });
      return;
    }
    // Some lane is not: the polynomial over the covered ones, then the others one by one.
    float x[W], y[W], r[W];
    for (uint32_t l = 0; l < W; ++l) {
      x[l] = F(Operand<V, 1>(a, l));
      y[l] = F(Operand<V, 2>(b, l));
    }
    for (uint32_t l = 0; l < W; ++l) {
      const bool covered = uncovered_lanes[l] == 0;
      r[l] = Fast(covered ? x[l] : 1.0f, covered ? y[l] : 1.0f);
    }
    for (uint32_t l = 0; l < W; ++l)
      if (uncovered_lanes[l] != 0) r[l] = Slow(x[l], y[l]);
    Lanes(d, m, [&r](uint32_t l) { return U(r[l]); });
  }
};

template <typename Family>
concept HasVector = Family::kVector;

template <typename Family, uint32_t V>
void Kernel(Word* __restrict d, const Word* a, const Word* b, const Word* c, LaneMask m) {
  if constexpr (V == (1u << Family::kArity) - 1) {
    const Word v = Family::Apply(a[0], b[0], c[0]);
    for (uint32_t l = 0; l < W; ++l) d[l] = v;
  } else if constexpr (HasVector<Family>) {
    Family::template Vector<V>(d, a, b, c, m);
  } else {
    Lanes(d, m, [a, b, c](uint32_t l) {
      return Family::Apply(Operand<V, 1>(a, l), Operand<V, 2>(b, l), Operand<V, 4>(c, l));
    });
  }
}

template <typename Family, uint32_t... V>
void FillVariants(LaneKernel* slots, std::integer_sequence<uint32_t, V...>) {
  ((slots[V] = &Kernel<Family, V>), ...);
}

// ---- rounding, without the C library (exact) ----

inline bool HasFraction(float x) { return Abs(x) < kTwo23; }  // false for NaN and infinities

inline float Trunc(float x) {
  const bool small = HasFraction(x);
  const float t = float(int32_t(Pick(small, x, 0.0f)));
  return Pick(small, CopySign(t, x), x);  // trunc(-0.5) = -0
}
inline float Floor(float x) {
  const float t = Trunc(x);
  return t > x ? t - 1.0f : t;
}
inline float Ceil(float x) {
  const float t = Trunc(x);
  return t < x ? t + 1.0f : t;
}
// To nearest, ties to even (the default rounding mode does the work).
inline float RoundEven(float x) {
  return HasFraction(x) ? CopySign((Abs(x) + kTwo23) - kTwo23, x) : x;
}
// To nearest, ties away from zero (std::round).
inline float Round(float x) {
  const float t = Trunc(x);
  return Abs(x - t) >= 0.5f ? t + CopySign(1.0f, x) : t;
}
// The fractional part of modf: sign of x, 0 for infinities.
inline float ModfFraction(float x) {
  return Pick(Abs(x) >= kTwo23, CopySign(0.0f, x), CopySign(x - Trunc(x), x));
}

// x * y + z rounded once. Without an FMA instruction (where the C library's
// fmaf is slow): x * y is exact in double, the sum is rounded to odd (TwoSum
// gives its error: an inexact sum with an even significand steps one ulp
// towards the exact value), and a double has the room to round that to
// float as a single rounding would.
inline float Fma(float x, float y, float z) {
#if defined(DUET_LANE_AVX2) || defined(DUET_LANE_AVX512)
  return std::fma(x, y, z);
#else
  const double product = double(x) * double(y), addend = double(z);
  const double sum = product + addend;
  const double product_part = sum - addend;
  const double error = (product - product_part) + (addend - (sum - product_part));
  uint64_t bits = std::bit_cast<uint64_t>(sum);
  const bool finite = (bits & 0x7FF0000000000000ull) != 0x7FF0000000000000ull;
  if (finite && error != 0 && (bits & 1) == 0) bits += (error > 0) == (sum > 0) ? 1 : uint64_t(-1);
  return float(std::bit_cast<double>(bits));
#endif
}

// IEEE minNum/maxNum: a NaN operand yields the other operand. NMin/NMax
// require it; FMin/FMax leave NaN operands undefined, so they share it.
inline float NMin(float x, float y) { return IsNan(x) ? y : IsNan(y) ? x : (y < x ? y : x); }
inline float NMax(float x, float y) { return IsNan(x) ? y : IsNan(y) ? x : (x < y ? y : x); }

// ---- sin, cos, tan ----
//
// sin: x = m * pi/2 + r with m = 2k even, k = x / pi rounded, |r| <= pi/2,
// and sin x = (-1)^k sin r; cos x = sin(x + pi/2) the same way with m =
// 2k - 1 odd, k = x / pi + 1/2 rounded. r is x minus m times pi/2 in three
// parts (Cody and Waite), the first two short enough that m times them is
// exact for |m| < 2^12. sin r is a polynomial of degree 9, r + r^3 p(r^2)
// with p fitted by least squares on Chebyshev nodes of [0, pi/2] for
// relative error (below 3e-8 before rounding). tan x = sin x / cos x uses
// quarter turns: k = x * 2/pi rounded, |r| <= pi/4, the Taylor series of
// sin and cos of r (degree 9 and 10, truncation below 2e-9) picked by k
// mod 4.
constexpr float kOneOverPi = 0.318309886f;
constexpr float kTwoOverPi = 0.636619747f;
constexpr float kHalfPi1 = 1.57080078125f;             // 12 significant bits
constexpr float kHalfPi2 = -4.4535845518112183e-06f;   // 12 significant bits
constexpr float kHalfPi3 = -8.7055157527160532e-10f;
constexpr float kMaxReduced = 4000.0f;  // |x| beyond this goes to the C library

inline bool Reducible(float x) { return Abs(x) <= kMaxReduced; }  // false for NaN and infinities

struct Quadrant {
  float r;
  int32_t k;
};
inline Quadrant ReduceHalfPi(float x) {
  const float k = (x * kTwoOverPi + kRoundMagic) - kRoundMagic;
  const float r = ((x - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3;
  return {r, int32_t(k)};
}
inline float SinSeries(float r) {
  const float r2 = r * r;
  return r + r * r2 * (-1.666666667e-01f + r2 * (8.333333333e-03f + r2 * (-1.984126984e-04f + r2 * 2.755731922e-06f)));
}
inline float CosSeries(float r) {
  const float r2 = r * r;
  return 1.0f + r2 * (-0.5f + r2 * (4.166666667e-02f +
                                    r2 * (-1.388888889e-03f + r2 * (2.480158730e-05f + r2 * -2.755731922e-07f))));
}
inline float SinHalfTurnSeries(float r) {
  const float r2 = r * r;
  return r + r * r2 * (-1.6666659713e-01f + r2 * (8.3330841735e-03f + r2 * (-1.9810871163e-04f + r2 * 2.6084539968e-06f)));
}
// (-1)^k sin(x - m pi/2), k = `half_turns` (rounded), m = 2k + `odd` (0 or -1).
inline float SinHalfTurns(float x, float half_turns, float odd) {
  const float k = (half_turns + kRoundMagic) - kRoundMagic;
  const float m = k + k + odd;
  const float r = ((x - m * kHalfPi1) - m * kHalfPi2) - m * kHalfPi3;
  return F(U(SinHalfTurnSeries(r)) ^ (Word(int32_t(k)) << 31));
}
// Below 2^-12, sin x and tan x round to x (which keeps the sign of zero)
// and cos x to 1.
inline bool Tiny(float x) { return Abs(x) < 2.44140625e-4f; }
inline float FastSin(float x) { return Pick(Tiny(x), x, SinHalfTurns(x, x * kOneOverPi, 0.0f)); }
inline float FastCos(float x) { return Pick(Tiny(x), 1.0f, SinHalfTurns(x, x * kOneOverPi + 0.5f, -1.0f)); }
inline float FastTan(float x) {
  const Quadrant q = ReduceHalfPi(x);
  const float s = SinSeries(q.r), c = CosSeries(q.r);
  return Pick(Tiny(x), x, (q.k & 1) != 0 ? -c / s : s / c);
}

// ---- atan, atan2, asin, acos ----
//
// atan(n / d) for 0 <= n <= d: above tan(pi/8) the identity atan t = pi/4 +
// atan((t - 1) / (t + 1)) brings the argument to |u| <= tan(pi/8), where
// the Taylor series to u^15 truncates below 2e-8 (under an ULP of the
// result); u is (n - d) / (n + d) then, so one division serves both.
// Larger arguments use atan t = pi/2 - atan(1/t); atan2 and the inverse
// sines take the smaller operand over the larger (asin x = atan2(x,
// sqrt(1 - x^2)), 1 - x^2 as (1 - x)(1 + x), exact near 1).
constexpr float kQuarterPi = 0.785398163f;
constexpr float kHalfPi = 1.57079633f;
constexpr float kPi = 3.14159265f;
inline float AtanRatio(float n, float d) {
  const float scale = Pick(d > 1e38f, 0.5f, 1.0f);  // (so that n + d cannot overflow)
  n *= scale;
  d *= scale;
  const bool high = n > 0.414213562f * d;
  const float u = Pick(high, n - d, n) / Pick(high, n + d, d);
  const float u2 = u * u;
  const float series =
      u + u * u2 *
              (-0.333333333f +
               u2 * (0.2f +
                     u2 * (-0.142857143f +
                           u2 * (0.111111111f + u2 * (-0.0909090909f + u2 * (0.0769230769f + u2 * -0.0666666667f))))));
  return Pick(high, kQuarterPi + series, series);
}
inline float FastAtan(float x) {
  const float a = Abs(x);
  const bool large = a > 1.0f;  // (infinities too: atan(1 / inf) = 0)
  const float r = AtanRatio(Pick(large, 1.0f, a), Pick(large, a, 1.0f));
  return CopySign(Pick(large, kHalfPi - r, r), x);
}
// The angle of (x, y) for x, y >= 0, not both 0.
inline float AngleOfFirstQuadrant(float y, float x) {
  const bool steep = y > x;
  const float r = AtanRatio(Pick(steep, x, y), Pick(steep, y, x));
  return Pick(steep, kHalfPi - r, r);
}
// Finite operands, not both zero (the C library takes the others).
inline bool Atan2Regular(float y, float x) {
  // (Words, not bools with && and ||: no branches, so the loop vectorizes.)
  const Word finite = Word(Abs(x) < kInfinity) & Word(Abs(y) < kInfinity);
  return (finite & (Word(x != 0.0f) | Word(y != 0.0f))) != 0;
}
inline float FastAtan2(float y, float x) {
  const float r = AngleOfFirstQuadrant(Abs(y), Abs(x));
  return CopySign(Pick(x < 0.0f, kPi - r, r), y);
}
inline bool InUnitRange(float x) { return Abs(x) <= 1.0f; }  // false for NaN
inline float SqrtOneMinusSquare(float a) { return std::sqrt((1.0f - a) * (1.0f + a)); }
inline float FastAsin(float x) {
  const float a = Abs(x);
  return CopySign(AngleOfFirstQuadrant(a, SqrtOneMinusSquare(a)), x);
}
inline float FastAcos(float x) {
  const float r = AngleOfFirstQuadrant(SqrtOneMinusSquare(Abs(x)), Abs(x));
  return Pick(x < 0.0f, kPi - r, r);
}

// ---- exp2, exp, log2, log, pow ----

// 2^x = 2^n * 2^f with n = x rounded and |f| <= 1/2; 2^f is the Taylor
// series of e^(f ln 2) to degree 7 (truncation below 6e-9), and 2^n is
// applied in two halves so that results from the denormals to overflow
// come out with a single rounding.
inline float FastExp2(float x) {
  const float clamped = IsNan(x) ? 0.0f : (x < -160.0f ? -160.0f : (x > 160.0f ? 160.0f : x));
  const float n = (clamped + kRoundMagic) - kRoundMagic;
  const float f = clamped - n;
  const float p =
      1.0f + f * (6.931471806e-01f +
                  f * (2.402265070e-01f +
                       f * (5.550410866e-02f +
                            f * (9.618129108e-03f +
                                 f * (1.333355815e-03f + f * (1.540353039e-04f + f * 1.525273380e-05f))))));
  const int32_t ni = int32_t(n);
  const int32_t n1 = ni >> 1, n2 = ni - n1;  // each in [-80, 80]
  const float r = p * F(Word(n1 + 127) << 23) * F(Word(n2 + 127) << 23);
  return IsNan(x) ? x : r;
}
constexpr float kLog2E = 1.44269504088896341f;
inline float FastExp(float x) { return FastExp2(x * kLog2E); }

// For x > 0 (denormals included): x = 2^e * m with m in [sqrt(1/2),
// sqrt(2)), and ln m = 2 atanh(t), t = (m - 1) / (m + 1), |t| <= 0.172,
// as its series to t^9 (truncation below 1e-9).
struct LogParts {
  float e;     // the exponent
  float ln_m;  // ln of the significand
};
inline LogParts SplitLog(float x) {
  const bool denormal = x < 1.17549435e-38f;
  const Word b = PickBits(denormal, U(x * kTwo23), U(x));
  const int32_t e = int32_t(b >> 23) - int32_t(PickBits(denormal, 127 + 23, 127));
  float m = F((b & 0x007FFFFFu) | 0x3F800000u);
  const bool high = m > 1.41421356f;
  m = Pick(high, m * 0.5f, m);
  const float t = (m - 1.0f) / (m + 1.0f);
  const float t2 = t * t;
  const float ln_m =
      2.0f * t + 2.0f * t * t2 * (0.333333333f + t2 * (0.2f + t2 * (0.142857143f + t2 * 0.111111111f)));
  return {float(e + int32_t(high)), ln_m};
}
// log of the special operands: 0 -> -inf, negative -> NaN, inf -> inf, NaN -> NaN.
inline bool LogOperandRegular(float x) { return x > 0.0f && x < kInfinity; }
inline float LogSpecial(float x) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  return Pick(IsNan(x), x, Pick(x == 0.0f, -kInfinity, Pick(x < 0.0f, nan, kInfinity)));
}
inline float FastLog2(float x) {
  const bool regular = LogOperandRegular(x);
  const LogParts p = SplitLog(Pick(regular, x, 1.0f));
  return Pick(regular, p.e + p.ln_m * kLog2E, LogSpecial(x));
}
constexpr float kLn2High = 0.693115234375f;  // 12 significant bits: e * it is exact
constexpr float kLn2Low = 3.1946183298714459e-05f;
inline float FastLog(float x) {
  const bool regular = LogOperandRegular(x);
  const LogParts p = SplitLog(Pick(regular, x, 1.0f));
  return Pick(regular, p.e * kLn2High + (p.ln_m + p.e * kLn2Low), LogSpecial(x));
}

// sinh, cosh and tanh from e^|x| as the spec defines them (infinite where
// e^|x| overflows, past ~88.72), with their Taylor series below 1/8, where
// the formulas' differences cancel (truncation below 1e-12). tanh x = 1 -
// 2 / (e^2|x| + 1) rounds to 1 from |x| = 9 on.
constexpr float kSmallHyperbolic = 0.125f;
inline float FastSinh(float x) {
  const float a = Abs(x), a2 = a * a;
  const float series = a + a * a2 * (0.166666667f + a2 * (0.00833333333f + a2 * 0.000198412698f));
  const float e = FastExp(a);
  return CopySign(Pick(a < kSmallHyperbolic, series, 0.5f * (e - 1.0f / e)), x);
}
inline float FastCosh(float x) {
  const float e = FastExp(Abs(x));
  return 0.5f * (e + 1.0f / e);
}
inline float FastTanh(float x) {
  const float a = Abs(x), a2 = a * a;
  const float series = a + a * a2 * (-0.333333333f + a2 * (0.133333333f + a2 * (-0.0539682540f + a2 * 0.0218694885f)));
  const float e = FastExp(2.0f * Pick(a > 9.0f, 9.0f, a));
  return CopySign(Pick(a < kSmallHyperbolic, series, 1.0f - 2.0f / (e + 1.0f)), x);
}

// pow = exp2(y log2 x) for x > 0 and finite operands; the C library for the rest.
inline bool PowRegular(float x, float y) { return LogOperandRegular(x) && Abs(y) < kInfinity; }
inline float FastPow(float x, float y) { return FastExp2(y * FastLog2(x)); }

// ---- integers ----

// Bit fields: count 0 gives 0 (extract); offset + count beyond 32 is
// undefined in SPIR-V, and here never undefined in C++.
inline Word FieldMask(Word count) { return count >= 32 ? ~0u : (1u << (count & 31)) - 1u; }
inline Word BitFieldUExtract(Word value, Word offset, Word count) {
  return offset >= 32 ? 0u : (value >> (offset & 31)) & FieldMask(count);
}
inline Word BitFieldSExtract(Word value, Word offset, Word count) {
  const Word field = (value >> (offset & 31)) & FieldMask(count);
  const bool negative = count < 32 && ((field >> ((count - 1) & 31)) & 1u) != 0;
  const Word extended = negative ? field | ~FieldMask(count) : field;
  return (count == 0 || offset >= 32) ? 0u : extended;
}
inline Word BitReverse(Word v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
  v = ((v >> 8) & 0x00FF00FFu) | ((v & 0x00FF00FFu) << 8);
  return (v >> 16) | (v << 16);
}
inline Word BitCount(Word v) {
  v = v - ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  v = (v + (v >> 4)) & 0x0F0F0F0Fu;
  return (v * 0x01010101u) >> 24;
}

// Division by zero (and INT_MIN / -1) is undefined in SPIR-V; it gives 0
// here rather than a trap. Quotients go through double, which is exact for
// 32-bit operands (the quotient is never within 2^-53 of the next integer).
// AVX2 has vector int32 <-> double conversions only (uint32 and int64 ones
// made GCC divide lane by lane), so there unsigned words cross as signed
// ones; AVX-512 converts them itself, and the baseline's scalar 64-bit
// conversions are shorter.
#if defined(DUET_LANE_AVX2)
inline double UnsignedToDouble(Word a) { return double(int32_t(a ^ 0x80000000u)) + 2147483648.0; }
inline Word UnsignedQuotient(double q) {  // q in [0, 2^32), truncated
  const bool high = q >= 2147483648.0;
  return Word(int32_t(high ? q - 2147483648.0 : q)) + (high ? 0x80000000u : 0u);
}
#else
inline double UnsignedToDouble(Word a) { return double(a); }
inline Word UnsignedQuotient(double q) { return Word(uint64_t(q)); }
#endif
inline Word UDiv(Word a, Word b) {
  return b != 0 ? UnsignedQuotient(UnsignedToDouble(a) / UnsignedToDouble(b != 0 ? b : 1)) : 0u;
}
inline Word UMod(Word a, Word b) { return a - UDiv(a, b) * b; }  // b == 0: a - 0, then masked below
inline int32_t SDivQuotient(int32_t x, int32_t y) {
  const double q = double(x) / double(y == 0 ? 1 : y);
  return int32_t(q < 2147483647.0 ? q : 2147483647.0);  // truncates toward zero (INT32_MIN / -1: the callers')
}
inline Word SDiv(Word a, Word b) {
  const int32_t x = S(a), y = S(b);
  return (y == 0 || (x == INT32_MIN && y == -1)) ? 0u : Word(SDivQuotient(x, y));
}
inline Word SRem(Word a, Word b) {
  const int32_t x = S(a), y = S(b);
  const int32_t r = int32_t(Word(x) - Word(SDivQuotient(x, y)) * Word(y));
  return (y == 0 || y == -1) ? 0u : Word(r);
}
inline Word SMod(Word a, Word b) {  // sign of the divisor
  const int32_t y = S(b);
  const Word r = SRem(a, b);
  const Word other_sign = Word(r != 0) & Word((S(r) < 0) != (y < 0));  // (no branches: vectorizes)
  return r + (Word(y) & (0u - other_sign));
}

// Float to integer conversions saturate and map NaN to 0: the spec leaves
// out-of-range results undefined, and C++ would make them undefined behaviour.
inline Word FloatToInt(float f) {
  const bool in_range = f > -2147483648.0f && f < 2147483648.0f;  // false for NaN
  const Word v = Word(int32_t(in_range ? f : 0.0f));
  return in_range ? v : IsNan(f) ? 0u : f < 0.0f ? Word(INT32_MIN) : Word(INT32_MAX);
}
inline Word FloatToUint(float f) {
  const bool in_range = f > 0.0f && f < 4294967296.0f;
  const Word v = Word(in_range ? f : 0.0f);
  return in_range ? v : f >= 4294967296.0f ? UINT32_MAX : 0u;
}

inline Word QuantizeToF16(Word bits) { return U(texel::QuantizeToHalf(F(bits))); }

// ---- memory ----

// A 32-bit word anywhere in memory the application gave us (no alignment
// or type assumed); reading through it vectorizes into gathers.
typedef Word LooseWord __attribute__((aligned(1), may_alias));

// Loads: a group of 16 (AVX-512) or 8 (AVX2) lanes often reads
// consecutive words (a row of a 2D workgroup) or a single word (uniform
// data): a vector load or a broadcast, and a gather otherwise. Offsets
// below 2^31 serve as gather indices.
#if defined(DUET_LANE_AVX512)
// The byte offsets of lanes i..i+15 and whether they are 16 consecutive
// words inside [0, limit].
struct Group {
  __m512i offset;
  Word start;
  bool consecutive;
};
inline Group GroupAt(const Word* offsets, uint32_t i, Word constant, Word limit) {
  const __m512i steps = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60);
  const __m512i offset = _mm512_add_epi32(_mm512_loadu_si512(offsets + i), _mm512_set1_epi32(int32_t(constant)));
  const Word start = offsets[i] + constant;
  const bool consecutive =
      _mm512_cmpeq_epi32_mask(offset, _mm512_add_epi32(_mm512_set1_epi32(int32_t(start)), steps)) == 0xFFFF &&
      limit >= 60 && start <= limit - 60;
  return {offset, start, consecutive};
}

void LoadGroups(Word* __restrict dst, const Word* offsets, Word constant, const std::byte* base, Word limit,
                LaneMask active) {
  const __m512i limits = _mm512_set1_epi32(int32_t(limit));
  for (uint32_t i = 0; i < W; i += 16) {
    const __mmask16 lanes = __mmask16(active >> i);
    if (lanes == 0) continue;
    const auto [offset, start, consecutive] = GroupAt(offsets, i, constant, limit);
    __m512i words;
    if (consecutive) {
      words = _mm512_loadu_si512(base + start);
    } else if (_mm512_cmpeq_epi32_mask(offset, _mm512_set1_epi32(int32_t(start))) == 0xFFFF && start <= limit) {
      words = _mm512_set1_epi32(int32_t(*reinterpret_cast<const LooseWord*>(base + start)));
    } else {
      const __mmask16 inside = _mm512_cmple_epu32_mask(offset, limits) & lanes;
      words = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), inside, offset, base, 1);
    }
    _mm512_mask_storeu_epi32(dst + i, lanes, words);
  }
}
#elif defined(DUET_LANE_AVX2)
void LoadGroups(Word* __restrict dst, const Word* offsets, Word constant, const std::byte* base, Word limit,
                LaneMask active) {
  const __m256i limits = _mm256_set1_epi32(int32_t(limit));
  const __m256i constants = _mm256_set1_epi32(int32_t(constant));
  const __m256i steps = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
  Word select[W];
  ExpandMask(active, select);
  for (uint32_t i = 0; i < W; i += 8) {
    const __m256i lanes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(select + i));
    if (_mm256_testz_si256(lanes, lanes)) continue;
    const __m256i offset =
        _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(offsets + i)), constants);
    const Word start = offsets[i] + constant;
    const __m256i first = _mm256_set1_epi32(int32_t(start));
    __m256i words;
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(offset, _mm256_add_epi32(first, steps))) == -1 && limit >= 28 &&
        start <= limit - 28) {
      words = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + start));
    } else if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(offset, first)) == -1 && start <= limit) {
      words = _mm256_set1_epi32(int32_t(*reinterpret_cast<const LooseWord*>(base + start)));
    } else {
      const __m256i inside = _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_min_epu32(offset, limits), offset), lanes);
      words = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), reinterpret_cast<const int*>(base), offset, inside,
                                          1);
    }
    const __m256i old = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dst + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), _mm256_blendv_epi8(old, words, lanes));
  }
}
#else
// Without vector intrinsics: one word for all the active lanes, a whole
// wave of consecutive words, or a gather the compiler emulates.
void LoadGroups(Word* __restrict dst, const Word* offsets, Word constant, const std::byte* base, Word limit,
                LaneMask active) {
  Word o[W];
  for (uint32_t l = 0; l < W; ++l) o[l] = offsets[l] + constant;
  const Word first = o[std::countr_zero(active)];
  Word select[W], differs[W];
  ExpandMask(active, select);
  for (uint32_t l = 0; l < W; ++l) differs[l] = (o[l] ^ first) & select[l];
  if (AllZero(differs)) {
    const Word v = first <= limit ? *reinterpret_cast<const LooseWord*>(base + first) : 0u;
    Lanes(dst, active, [v](uint32_t) { return v; });
    return;
  }
  if (active == kAllLanes && limit >= 4 * (W - 1) && first <= limit - 4 * (W - 1)) {
    Word gaps[W];
    for (uint32_t l = 0; l < W; ++l) gaps[l] = o[l] ^ (first + 4 * l);
    if (AllZero(gaps)) {
      std::memcpy(dst, base + first, 4 * W);
      return;
    }
  }
  Lanes(dst, active, [&o, base, limit](uint32_t l) {
    const Word inside = Word(0) - Word(o[l] <= limit);
    return *reinterpret_cast<const LooseWord*>(base + int32_t(o[l] & inside)) & inside;
  });
}
#endif

void LoadWords(Word* __restrict dst, const Word* offsets, Word constant, const std::byte* base, uint32_t range,
               uint32_t lane_stride, LaneMask active) {
  if (active == 0) return;
  if (base == nullptr || range < 4) {
    Lanes(dst, active, [](uint32_t) { return 0u; });
    return;
  }
  const Word limit = range - 4;
  if (lane_stride == 0 && limit < 0x80000000u) {
    LoadGroups(dst, offsets, constant, base, limit, active);
    return;
  }
  // Per-lane memory, or a buffer past 2 GiB.
  Lanes(dst, active, [offsets, constant, base, limit, lane_stride](uint32_t l) {
    const Word o = offsets[l] + constant;
    const bool inside = o <= limit;
    Word v;
    std::memcpy(&v, base + size_t(lane_stride) * l + (inside ? o : 0u), 4);
    return inside ? v : 0u;
  });
}

// Stores: a whole group of consecutive in-range words at once, lanes one by
// one otherwise (in order: the last lane writing a word wins).
void StoreWords(const Word* values, const Word* offsets, Word constant, std::byte* base, uint32_t range,
                uint32_t lane_stride, LaneMask writers) {
  if (writers == 0 || base == nullptr || range < 4) return;
  const Word limit = range - 4;
#if defined(DUET_LANE_AVX512)
  if (lane_stride == 0) {
    for (uint32_t i = 0; i < W; i += 16) {
      const __mmask16 lanes = __mmask16(writers >> i);
      if (lanes == 0) continue;
      const Group group = GroupAt(offsets, i, constant, limit);
      if (group.consecutive) {
        _mm512_mask_storeu_epi32(base + group.start, lanes, _mm512_loadu_si512(values + i));
        continue;
      }
      for (uint32_t l = i; l < i + 16; ++l) {
        const Word o = offsets[l] + constant;
        if (((writers >> l) & 1) != 0 && o <= limit) std::memcpy(base + o, &values[l], 4);
      }
    }
    return;
  }
#endif
  if (lane_stride == 0 && writers == kAllLanes && limit >= 4 * (W - 1)) {
    const Word first = offsets[0] + constant;
    Word gaps[W];
    for (uint32_t l = 0; l < W; ++l) gaps[l] = (offsets[l] + constant) ^ (first + 4 * l);
    if (AllZero(gaps) && first <= limit - 4 * (W - 1)) {
      std::memcpy(base + first, values, 4 * W);
      return;
    }
  }
  for (uint32_t l = 0; l < W; ++l) {
    const Word o = offsets[l] + constant;
    if (((writers >> l) & 1) != 0 && o <= limit) std::memcpy(base + size_t(lane_stride) * l + o, &values[l], 4);
  }
}

// ---- lane masks ----

LaneMask NonzeroLanes(const Word* words) { return NonzeroBits(words); }

void BitFieldInsertLanes(Word* __restrict d, const Word* base, const Word* insert, const Word* offset, const Word* count,
                         LaneMask m) {
  Lanes(d, m, [=](uint32_t l) {
    const Word o = offset[l];
    const Word mask = o >= 32 ? 0u : FieldMask(count[l]) << (o & 31);
    return (base[l] & ~mask) | ((insert[l] << (o & 31)) & mask);
  });
}

LaneMask EqualLanes(const Word* words, Word value) {
  Word differences[W];
  for (uint32_t l = 0; l < W; ++l) differences[l] = words[l] ^ value;
  return ~NonzeroBits(differences);
}

// ---- the kernels' operations ----

constexpr auto kMove = [](Word a) { return a; };
constexpr auto kSelect = [](Word c, Word t, Word f) { return c != 0 ? t : f; };
constexpr auto kIAdd = [](Word a, Word b) { return a + b; };
constexpr auto kISub = [](Word a, Word b) { return a - b; };
constexpr auto kIMul = [](Word a, Word b) { return a * b; };
constexpr auto kUDiv = [](Word a, Word b) { return UDiv(a, b); };
constexpr auto kUMod = [](Word a, Word b) { return b != 0 ? UMod(a, b) : 0u; };
constexpr auto kSDiv = [](Word a, Word b) { return SDiv(a, b); };
constexpr auto kSRem = [](Word a, Word b) { return SRem(a, b); };
constexpr auto kSMod = [](Word a, Word b) { return SMod(a, b); };
constexpr auto kSNegate = [](Word a) { return 0u - a; };
constexpr auto kShiftLeft = [](Word a, Word b) { return a << (b & 31); };
constexpr auto kShiftRightLogical = [](Word a, Word b) { return a >> (b & 31); };
constexpr auto kShiftRightArithmetic = [](Word a, Word b) { return Word(S(a) >> (b & 31)); };
constexpr auto kBitAnd = [](Word a, Word b) { return a & b; };
constexpr auto kBitOr = [](Word a, Word b) { return a | b; };
constexpr auto kBitXor = [](Word a, Word b) { return a ^ b; };
constexpr auto kXorShiftLeft = [](Word a, Word b) { return a ^ kShiftLeft(a, b); };
constexpr auto kXorShiftRight = [](Word a, Word b) { return a ^ kShiftRightLogical(a, b); };
constexpr auto kFunnelShiftRight = [](Word a, Word b, Word c) { return (a >> (c & 31)) | (b << ((32 - c) & 31)); };
constexpr auto kIMulAdd = [](Word a, Word b, Word c) { return a * b + c; };
constexpr auto kIMulXor = [](Word a, Word b, Word c) { return (a * b) ^ c; };
constexpr auto kXorShiftRightMul = [](Word a, Word b, Word c) { return kXorShiftRight(a, b) * c; };
constexpr auto kXorFunnelShiftRight = [](Word a, Word b, Word c) { return a ^ kFunnelShiftRight(a, b, c); };
constexpr auto kBitNot = [](Word a) { return ~a; };
#if defined(DUET_LANE_AVX512) || defined(DUET_LANE_AVX2)
// Whole registers of words, for the kernels whose C++ the compiler turns
// into a scalar loop or a poor vector one (WordVectorUnary/Binary, the
// double pairs): the operations they need, at this instruction set's width.
#if defined(DUET_LANE_AVX512)
using WordVector = __m512i;
constexpr uint32_t kVectorWords = 16;
inline WordVector LoadWords(const Word* p) { return _mm512_loadu_si512(p); }
inline void StoreWords(Word* p, WordVector v) { _mm512_storeu_si512(p, v); }
// The same 16 bytes (four words, w0 lowest) in every 128 bits.
inline WordVector Repeat128(Word w0, Word w1, Word w2, Word w3) {
  return _mm512_set4_epi32(int(w3), int(w2), int(w1), int(w0));
}
inline WordVector AllBytes(uint8_t b) { return _mm512_set1_epi8(char(b)); }
inline WordVector Shuffle(WordVector table, WordVector index) { return _mm512_shuffle_epi8(table, index); }
inline WordVector And(WordVector a, WordVector b) { return _mm512_and_si512(a, b); }
inline WordVector Or(WordVector a, WordVector b) { return _mm512_or_si512(a, b); }
inline WordVector AddBytes(WordVector a, WordVector b) { return _mm512_add_epi8(a, b); }
inline WordVector ShiftLeft16(WordVector a, int n) { return _mm512_slli_epi16(a, n); }
inline WordVector ShiftRight16(WordVector a, int n) { return _mm512_srli_epi16(a, n); }
// Each word: the sum of its four bytes (each at most 127).
inline WordVector SumBytes(WordVector a) {
  return _mm512_madd_epi16(_mm512_maddubs_epi16(a, _mm512_set1_epi8(1)), _mm512_set1_epi16(1));
}
inline WordVector AllWords(Word w) { return _mm512_set1_epi32(int(w)); }
// The high words of the words' 64-bit products: the even words' products
// and the odd words' (moved down), their high halves blended into place.
template <bool kSigned>
inline WordVector MulHighWords(WordVector a, WordVector b) {
  // (The zero-masked forms: GCC 12 warns of the plain ones' undefined source.)
  constexpr __mmask8 kAll = 0xFF;
  const WordVector a_odd = _mm512_maskz_srli_epi64(kAll, a, 32), b_odd = _mm512_maskz_srli_epi64(kAll, b, 32);
  const WordVector even = kSigned ? _mm512_maskz_mul_epi32(kAll, a, b) : _mm512_maskz_mul_epu32(kAll, a, b);
  const WordVector odd =
      kSigned ? _mm512_maskz_mul_epi32(kAll, a_odd, b_odd) : _mm512_maskz_mul_epu32(kAll, a_odd, b_odd);
  return _mm512_mask_blend_epi32(__mmask16(0xAAAA), _mm512_maskz_srli_epi64(kAll, even, 32), odd);
}
#else
using WordVector = __m256i;
constexpr uint32_t kVectorWords = 8;
inline WordVector LoadWords(const Word* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline void StoreWords(Word* p, WordVector v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
inline WordVector Repeat128(Word w0, Word w1, Word w2, Word w3) {
  return _mm256_setr_epi32(int(w0), int(w1), int(w2), int(w3), int(w0), int(w1), int(w2), int(w3));
}
inline WordVector AllBytes(uint8_t b) { return _mm256_set1_epi8(char(b)); }
inline WordVector Shuffle(WordVector table, WordVector index) { return _mm256_shuffle_epi8(table, index); }
inline WordVector And(WordVector a, WordVector b) { return _mm256_and_si256(a, b); }
inline WordVector Or(WordVector a, WordVector b) { return _mm256_or_si256(a, b); }
inline WordVector AddBytes(WordVector a, WordVector b) { return _mm256_add_epi8(a, b); }
inline WordVector ShiftLeft16(WordVector a, int n) { return _mm256_slli_epi16(a, n); }
inline WordVector ShiftRight16(WordVector a, int n) { return _mm256_srli_epi16(a, n); }
inline WordVector SumBytes(WordVector a) {
  return _mm256_madd_epi16(_mm256_maddubs_epi16(a, _mm256_set1_epi8(1)), _mm256_set1_epi16(1));
}
inline WordVector AllWords(Word w) { return _mm256_set1_epi32(int(w)); }
template <bool kSigned>
inline WordVector MulHighWords(WordVector a, WordVector b) {
  const WordVector a_odd = _mm256_srli_epi64(a, 32), b_odd = _mm256_srli_epi64(b, 32);
  const WordVector even = kSigned ? _mm256_mul_epi32(a, b) : _mm256_mul_epu32(a, b);
  const WordVector odd = kSigned ? _mm256_mul_epi32(a_odd, b_odd) : _mm256_mul_epu32(a_odd, b_odd);
  return _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
}
#endif

// The low and high nibble of every byte.
inline WordVector LowNibbles(WordVector x) { return And(x, AllBytes(0x0F)); }
inline WordVector HighNibbles(WordVector x) { return And(ShiftRight16(x, 4), AllBytes(0x0F)); }

// Each nibble's count from a table, the bytes' counts summed per word.
inline WordVector BitCountWords(WordVector x) {
  const WordVector counts = Repeat128(0x02010100, 0x03020201, 0x03020201, 0x04030302);
  return SumBytes(AddBytes(Shuffle(counts, LowNibbles(x)), Shuffle(counts, HighNibbles(x))));
}

// Each byte's bits reversed (its nibbles reversed from a table and
// swapped), then the bytes of each word in reverse order.
inline WordVector BitReverseWords(WordVector x) {
  const WordVector reversed = Repeat128(0x0C040800, 0x0E060A02, 0x0D050901, 0x0F070B03);
  const WordVector bytes = Or(ShiftLeft16(Shuffle(reversed, LowNibbles(x)), 4), Shuffle(reversed, HighNibbles(x)));
  return Shuffle(bytes, Repeat128(0x00010203, 0x04050607, 0x08090A0B, 0x0C0D0E0F));
}
#endif

// A one-operand kernel the compiler does not vectorize (BitCount becomes the
// scalar popcnt instruction, one lane per iteration; BitReverse's shifts
// take several passes): with AVX2 and AVX-512, `Words` over whole registers.
template <auto Fn, auto Words>
struct WordVectorUnary {
  static constexpr uint32_t kArity = 1;
  static constexpr bool kVector = true;
  static Word Apply(Word a, Word, Word) { return Fn(a); }
  template <uint32_t V>
  static void Vector(Word* __restrict d, const Word* a, const Word*, const Word*, LaneMask m) {
    Word r[W];
    Word* out = m == kAllLanes ? d : r;  // (loads precede stores at each index: `d` may be `a`)
#if defined(DUET_LANE_AVX512) || defined(DUET_LANE_AVX2)
    for (uint32_t i = 0; i < W; i += kVectorWords) StoreWords(out + i, Words(LoadWords(a + i)));
#else
    for (uint32_t l = 0; l < W; ++l) out[l] = Fn(a[l]);
#endif
    if (out == r) Lanes(d, m, [&r](uint32_t l) { return r[l]; });
  }
};

#if defined(DUET_LANE_AVX512) || defined(DUET_LANE_AVX2)
// A two-operand kernel likewise: the high word of a 32x32-bit product,
// which GCC widens to 64-bit lanes and packs back with four shuffles per
// vector (AVX2) or multiplies with the slow vpmullq (AVX-512); a uniform
// operand is broadcast. (The baseline keeps the plain Binary family.)
template <auto Fn, auto Words>
struct WordVectorBinary {
  static constexpr uint32_t kArity = 2;
  static constexpr bool kVector = true;
  static Word Apply(Word a, Word b, Word) { return Fn(a, b); }
  template <uint32_t V>
  static void Vector(Word* __restrict d, const Word* a, const Word* b, const Word*, LaneMask m) {
    Word r[W];
    Word* out = m == kAllLanes ? d : r;  // (loads precede stores at each index: `d` may be an operand)
    for (uint32_t i = 0; i < W; i += kVectorWords) {
      const WordVector x = (V & 1) != 0 ? AllWords(a[0]) : LoadWords(a + i);
      const WordVector y = (V & 2) != 0 ? AllWords(b[0]) : LoadWords(b + i);
      StoreWords(out + i, Words(x, y));
    }
    if (out == r) Lanes(d, m, [&r](uint32_t l) { return r[l]; });
  }
};
#endif

#if defined(DUET_LANE_AVX512) || defined(DUET_LANE_AVX2)
using BitCounts = WordVectorUnary<BitCount, BitCountWords>;
using BitReverses = WordVectorUnary<BitReverse, BitReverseWords>;
#else
using BitCounts = WordVectorUnary<BitCount, nullptr>;
using BitReverses = WordVectorUnary<BitReverse, nullptr>;
#endif
constexpr auto kBitFieldSExtract = [](Word v, Word o, Word c) { return BitFieldSExtract(v, o, c); };
constexpr auto kBitFieldUExtract = [](Word v, Word o, Word c) { return BitFieldUExtract(v, o, c); };
constexpr auto kIMulHighU = [](Word a, Word b) { return Word((uint64_t(a) * b) >> 32); };
constexpr auto kIMulHighS = [](Word a, Word b) { return Word(uint64_t(int64_t(S(a)) * S(b)) >> 32); };
#if defined(DUET_LANE_AVX512) || defined(DUET_LANE_AVX2)
using MulHighsU = WordVectorBinary<kIMulHighU, MulHighWords<false>>;
using MulHighsS = WordVectorBinary<kIMulHighS, MulHighWords<true>>;
#else
using MulHighsU = Binary<kIMulHighU>;
using MulHighsS = Binary<kIMulHighS>;
#endif
constexpr auto kIAddCarry = [](Word a, Word b) { return Word(a + b < a); };
constexpr auto kISubBorrow = [](Word a, Word b) { return Word(a < b); };
constexpr auto kIAddSatU = [](Word a, Word b) { return a + b < a ? UINT32_MAX : a + b; };
constexpr auto kIAddSatS = [](Word a, Word b) {
  const int64_t sum = int64_t(S(a)) + S(b);
  return Word(int32_t(sum < INT32_MIN ? INT32_MIN : sum > INT32_MAX ? INT32_MAX : sum));
};

constexpr auto kFAdd = [](float a, float b) { return a + b; };
constexpr auto kFSub = [](float a, float b) { return a - b; };
constexpr auto kFMul = [](float a, float b) { return a * b; };
constexpr auto kFMulAdd = [](float a, float b, float c) { return a * b + c; };  // (never contracted: two roundings)
constexpr auto kFDiv = [](float a, float b) { return a / b; };
constexpr auto kFRem = [](float a, float b) { return std::fmod(a, b); };
constexpr auto kFMod = [](float a, float b) { return a - b * Floor(a / b); };
constexpr auto kFNegate = [](Word a) { return a ^ 0x80000000u; };
constexpr auto kQuantizeToF16 = [](Word a) { return QuantizeToF16(a); };
// 16-bit floats held as floats (compile_narrow.cpp). A NaN keeps its top
// mantissa bits and is not quietened, so that a half's bits survive the
// round trip through a register (OpBitcast must not change them).
inline Word FloatToHalfBits(Word bits) {
  if ((bits & 0x7FFFFFFFu) <= 0x7F800000u) return texel::FloatToHalf(F(bits));
  const Word mantissa = (bits >> 13) & 0x3FFu;
  return ((bits >> 16) & 0x8000u) | 0x7C00u | (mantissa != 0 ? mantissa : 0x200u);
}
constexpr auto kHalfToFloat = [](Word a) { return U(texel::HalfToFloat(uint16_t(a))); };
constexpr auto kFloatToHalf = [](Word a) { return FloatToHalfBits(a); };
// The float of the half nearest to a (ties to even), in float bits and
// with selects only, so that it vectorizes: every half operation ends
// with one. NaNs as FloatToHalfBits keeps them; past 65504 infinity.
constexpr auto kRoundToF16 = [](Word a) {
  const Word sign = a & 0x80000000u, magnitude = a & 0x7FFFFFFFu;
  // Normal halves: the float's mantissa rounded to 10 bits (a carry moves
  // into the exponent); beyond the largest half, infinity.
  const Word normal = (magnitude + 0xFFFu + ((magnitude >> 13) & 1u)) & 0xFFFFE000u;
  const Word finite = normal > 0x477FE000u ? 0x7F800000u : normal;
  // Below 2^-14: whole units of 2^-24, rounded to even; float holds them exactly.
  const Word exponent = magnitude >> 23;
  const Word shift = exponent >= 112u ? 14u : std::min<Word>(126u - exponent, 31u);
  const Word significand = (magnitude & 0x7FFFFFu) | 0x800000u;
  const Word kept = significand >> shift, rest = significand & ((1u << shift) - 1u), tie = 1u << (shift - 1u);
  const Word units = kept + Word(rest > tie || (rest == tie && (kept & 1u) != 0));
  const Word denormal = U(float(units) * 5.9604644775390625e-8f);  // * 2^-24: exact
  // A NaN keeps its top 10 mantissa bits (some set: quiet if none were).
  const Word payload = magnitude & 0x007FE000u;
  const Word nan = 0x7F800000u | (payload != 0 ? payload : 0x00400000u);
  return sign | (magnitude > 0x7F800000u ? nan : magnitude < 0x38800000u ? denormal : finite);
};
// Rounded to nearest, then one half ulp toward zero where that went outward
// (the infinity past 65504 becomes 65504).
constexpr auto kRoundToF16TowardZero = [](Word a) {
  Word h = FloatToHalfBits(a);
  if (IsNan(F(a))) return U(texel::HalfToFloat(uint16_t(h)));
  if (Abs(texel::HalfToFloat(uint16_t(h))) > Abs(F(a))) --h;
  return U(texel::HalfToFloat(uint16_t(h)));
};

// Float results rounded to the nearest half (kRoundToF16), in place: F16C's
// conversions where the set has them. They quieten a signalling NaN, which
// kRoundToF16 keeps; arithmetic never yields one, so the fused operations
// below (whose operands may be any float) give the same bits either way.
inline void RoundToHalves(float* r) {
#if defined(DUET_LANE_AVX512)
  for (uint32_t i = 0; i < W; i += 16) {
    // (The zero-masking forms: GCC 12 warns that the plain ones read an undefined register.)
    const __m256i h =
        _mm512_maskz_cvtps_ph(__mmask16(0xFFFF), _mm512_loadu_ps(r + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm512_storeu_ps(r + i, _mm512_maskz_cvtph_ps(__mmask16(0xFFFF), h));
  }
#elif defined(DUET_LANE_AVX2)
  for (uint32_t i = 0; i < W; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(r + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm256_storeu_ps(r + i, _mm256_cvtph_ps(h));
  }
#else
  for (uint32_t l = 0; l < W; ++l) r[l] = F(kRoundToF16(U(r[l])));
#endif
}

// A 16-bit float operation: the float operation, then its result rounded
// to a half (kFAddToF16...; ir_prepare fuses the two).
template <auto Fn, uint32_t kOperands>
struct HalfRounded {
  static constexpr uint32_t kArity = kOperands;
  static constexpr bool kVector = true;
  static float Compute(float a, float b, float c) {
    if constexpr (kOperands == 2) {
      return Fn(a, b);
    } else {
      return Fn(a, b, c);
    }
  }
  static Word Apply(Word a, Word b, Word c) { return kRoundToF16(U(Compute(F(a), F(b), F(c)))); }
  template <uint32_t V>
  static void Vector(Word* __restrict d, const Word* a, const Word* b, const Word* c, LaneMask m) {
    float r[W];
    for (uint32_t l = 0; l < W; ++l)
      r[l] = Compute(F(Operand<V, 1>(a, l)), F(Operand<V, 2>(b, l)), F(Operand<V, 4>(c, l)));
    RoundToHalves(r);
    Lanes(d, m, [&r](uint32_t l) { return U(r[l]); });
  }
};

constexpr auto kIEqual = [](Word a, Word b) { return Word(a == b); };
constexpr auto kINotEqual = [](Word a, Word b) { return Word(a != b); };
constexpr auto kSLess = [](Word a, Word b) { return Word(S(a) < S(b)); };
constexpr auto kSLessEqual = [](Word a, Word b) { return Word(S(a) <= S(b)); };
constexpr auto kSGreater = [](Word a, Word b) { return Word(S(a) > S(b)); };
constexpr auto kSGreaterEqual = [](Word a, Word b) { return Word(S(a) >= S(b)); };
constexpr auto kULess = [](Word a, Word b) { return Word(a < b); };
constexpr auto kULessEqual = [](Word a, Word b) { return Word(a <= b); };
constexpr auto kUGreater = [](Word a, Word b) { return Word(a > b); };
constexpr auto kUGreaterEqual = [](Word a, Word b) { return Word(a >= b); };
constexpr auto kFOrdEqual = [](float a, float b) { return a == b; };
constexpr auto kFOrdNotEqual = [](float a, float b) { return !IsNan(a) && !IsNan(b) && a != b; };
constexpr auto kFOrdLess = [](float a, float b) { return a < b; };
constexpr auto kFOrdLessEqual = [](float a, float b) { return a <= b; };
constexpr auto kFOrdGreater = [](float a, float b) { return a > b; };
constexpr auto kFOrdGreaterEqual = [](float a, float b) { return a >= b; };
constexpr auto kFUnordEqual = [](float a, float b) { return IsNan(a) || IsNan(b) || a == b; };
constexpr auto kFUnordNotEqual = [](float a, float b) { return a != b; };
constexpr auto kFUnordLess = [](float a, float b) { return !(a >= b); };
constexpr auto kFUnordLessEqual = [](float a, float b) { return !(a > b); };
constexpr auto kFUnordGreater = [](float a, float b) { return !(a <= b); };
constexpr auto kFUnordGreaterEqual = [](float a, float b) { return !(a < b); };
constexpr auto kIsNan = [](Word a) { return Word(IsNan(F(a))); };
constexpr auto kIsInf = [](Word a) { return Word(Abs(F(a)) == kInfinity); };
constexpr auto kLogicalNot = [](Word a) { return Word(a == 0); };

constexpr auto kConvertFToS = [](Word a) { return FloatToInt(F(a)); };
constexpr auto kConvertFToU = [](Word a) { return FloatToUint(F(a)); };
constexpr auto kConvertSToF = [](Word a) { return U(float(S(a))); };
constexpr auto kConvertUToF = [](Word a) { return U(float(a)); };
constexpr auto kFrexpExponent = [](Word a) {
  int exponent = 0;
  std::frexp(F(a), &exponent);
  return Word(exponent);
};

// GLSL.std.450, component-wise.
constexpr auto kRound = [](float x) { return Round(x); };
constexpr auto kRoundEven = [](float x) { return RoundEven(x); };
constexpr auto kTrunc = [](float x) { return Trunc(x); };
constexpr auto kFAbs = [](Word a) { return a & 0x7FFFFFFFu; };
constexpr auto kSAbs = [](Word a) { return S(a) < 0 ? 0u - a : a; };
constexpr auto kFSign = [](float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x; };
constexpr auto kSSign = [](Word a) { return Word(S(a) > 0 ? 1 : S(a) < 0 ? -1 : 0); };
constexpr auto kFloor = [](float x) { return Floor(x); };
constexpr auto kCeil = [](float x) { return Ceil(x); };
constexpr auto kFract = [](float x) { return x - Floor(x); };  // as the spec defines it: fract(-1e-10) = 1.0
constexpr auto kModf = [](float x) { return ModfFraction(x); };
constexpr auto kFrexp = [](float x) {  // the significand, in [0.5, 1) (the exponent is kFrexpExponent)
  int exponent = 0;
  return std::frexp(x, &exponent);
};
constexpr auto kRadians = [](float x) { return x * 0.017453292519943295f; };
constexpr auto kDegrees = [](float x) { return x * 57.29577951308232f; };
constexpr auto kReducible = [](float x) { return Reducible(x); };
constexpr auto kFastSin = [](float x) { return FastSin(x); };
constexpr auto kFastCos = [](float x) { return FastCos(x); };
constexpr auto kFastTan = [](float x) { return FastTan(x); };
constexpr auto kLibSin = [](float x) { return std::sin(x); };
constexpr auto kLibCos = [](float x) { return std::cos(x); };
constexpr auto kLibTan = [](float x) { return std::tan(x); };
constexpr auto kInUnitRange = [](float x) { return InUnitRange(x); };
constexpr auto kFastAsin = [](float x) { return FastAsin(x); };
constexpr auto kFastAcos = [](float x) { return FastAcos(x); };
constexpr auto kLibAsin = [](float x) { return std::asin(x); };
constexpr auto kLibAcos = [](float x) { return std::acos(x); };
constexpr auto kAtan = [](float x) { return FastAtan(x); };
constexpr auto kSinh = [](float x) { return FastSinh(x); };
constexpr auto kCosh = [](float x) { return FastCosh(x); };
constexpr auto kTanh = [](float x) { return FastTanh(x); };
constexpr auto kAsinh = [](float x) { return std::asinh(x); };
constexpr auto kAcosh = [](float x) { return std::acosh(x); };
constexpr auto kAtanh = [](float x) { return std::atanh(x); };
constexpr auto kExp = [](float x) { return FastExp(x); };
constexpr auto kLog = [](float x) { return FastLog(x); };
constexpr auto kExp2 = [](float x) { return FastExp2(x); };
constexpr auto kLog2 = [](float x) { return FastLog2(x); };
constexpr auto kSqrt = [](float x) { return std::sqrt(x); };
constexpr auto kInverseSqrt = [](float x) { return 1.0f / std::sqrt(x); };
// 31 - countl_zero is -1 (UINT32_MAX) for 0 by itself, and countl_zero
// vectorizes (AVX-512 CD) where countr_zero does not: the lowest set bit
// alone (a & -a) has its index as its highest.
constexpr auto kFindILsb = [](Word a) { return 31u - Word(std::countl_zero(a & (0u - a))); };
constexpr auto kFindUMsb = [](Word a) { return 31u - Word(std::countl_zero(a)); };
constexpr auto kFindSMsb = [](Word a) { return 31u - Word(std::countl_zero(S(a) < 0 ? ~a : a)); };
#if defined(DUET_LANE_AVX2)
// AVX2 has no vector countl_zero (GCC runs lzcnt lane by lane). The index
// of the highest set bit is the exponent of the word converted to float,
// made exact by keeping only the bits whose upper neighbour is clear (the
// highest stays; with no two adjacent bits set, rounding cannot carry into
// the next power of two), with bit 31 taken apart (the conversion is
// signed) and 0 giving -1.
inline WordVector HighestBitWords(WordVector x) {
  const WordVector tops = _mm256_andnot_si256(_mm256_srli_epi32(x, 1), x);
  const __m256 value = _mm256_cvtepi32_ps(_mm256_and_si256(tops, _mm256_set1_epi32(0x7FFFFFFF)));
  const WordVector exponent = _mm256_srli_epi32(_mm256_castps_si256(value), 23);
  const WordVector index = _mm256_max_epi32(_mm256_sub_epi32(exponent, _mm256_set1_epi32(127)), _mm256_set1_epi32(-1));
  const __m256 top = _mm256_castsi256_ps(_mm256_set1_epi32(31));
  return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(index), top, _mm256_castsi256_ps(x)));
}
inline WordVector LowestBitWords(WordVector x) {
  return HighestBitWords(_mm256_and_si256(x, _mm256_sub_epi32(_mm256_setzero_si256(), x)));
}
inline WordVector SignedHighestBitWords(WordVector x) {
  return HighestBitWords(_mm256_xor_si256(x, _mm256_srai_epi32(x, 31)));
}
using FindILsbs = WordVectorUnary<kFindILsb, LowestBitWords>;
using FindUMsbs = WordVectorUnary<kFindUMsb, HighestBitWords>;
using FindSMsbs = WordVectorUnary<kFindSMsb, SignedHighestBitWords>;
#else
using FindILsbs = Unary<kFindILsb>;
using FindUMsbs = Unary<kFindUMsb>;
using FindSMsbs = Unary<kFindSMsb>;
#endif

constexpr auto kAtan2Regular = [](float y, float x) { return Atan2Regular(y, x); };
constexpr auto kFastAtan2 = [](float y, float x) { return FastAtan2(y, x); };
constexpr auto kLibAtan2 = [](float y, float x) { return std::atan2(y, x); };
constexpr auto kPowRegular = [](float x, float y) { return PowRegular(x, y); };
constexpr auto kFastPow = [](float x, float y) { return FastPow(x, y); };
constexpr auto kLibPow = [](float x, float y) { return std::pow(x, y); };
constexpr auto kNMin = [](float x, float y) { return NMin(x, y); };
constexpr auto kNMax = [](float x, float y) { return NMax(x, y); };
constexpr auto kStep = [](float edge, float x) { return x < edge ? 0.0f : 1.0f; };
constexpr auto kLdexp = [](Word x, Word e) { return U(std::ldexp(F(x), S(e))); };
constexpr auto kUMin = [](Word a, Word b) { return a < b ? a : b; };
constexpr auto kUMax = [](Word a, Word b) { return a < b ? b : a; };
constexpr auto kSMin = [](Word a, Word b) { return S(b) < S(a) ? b : a; };
constexpr auto kSMax = [](Word a, Word b) { return S(a) < S(b) ? b : a; };

constexpr auto kFClamp = [](float x, float lo, float hi) { return NMin(NMax(x, lo), hi); };
constexpr auto kFMix = [](float x, float y, float t) { return x * (1.0f - t) + y * t; };
constexpr auto kFma = [](float x, float y, float z) { return Fma(x, y, z); };
constexpr auto kSmoothStep = [](float e0, float e1, float x) {
  const float v = (x - e0) / (e1 - e0);
  const float t = v < 0.0f ? 0.0f : (1.0f < v ? 1.0f : v);  // std::clamp(v, 0, 1)
  return t * t * (3.0f - 2.0f * t);
};
constexpr auto kUClamp = [](Word x, Word lo, Word hi) {
  const Word low = x < lo ? lo : x;
  return hi < low ? hi : low;
};
constexpr auto kSClamp = [](Word x, Word lo, Word hi) {
  const int32_t low = S(x) < S(lo) ? S(lo) : S(x);
  return Word(S(hi) < low ? S(hi) : low);
};

// ---- 64-bit floats (kDouble) ----
//
// A double is a register pair: the lanes' low words, then their high words
// in the next register (W words on). A kernel joins the lanes' operands,
// computes them as doubles (double_lanes.h) into a scratch array and then
// writes the active lanes of the destination, which may so overlap any
// operand (even its other half).
template <uint32_t kRegisters>
[[gnu::always_inline]] inline uint64_t DoubleOperand(const Word* r, uint32_t l) {
  if constexpr (kRegisters == 2) {
    return uint64_t{r[l]} | uint64_t{r[l + W]} << 32;
  } else if constexpr (kRegisters == 1) {
    return r[l];
  } else {
    return 0;
  }
}

#if defined(DUET_LANE_AVX512) || defined(DUET_LANE_AVX2)
// With AVX2 and AVX-512 the pairs are joined and split a vector at a time:
// the unpack instructions interleave low and high words within each 128
// bits, so a group's doubles come out in the order 0,1,4,5,2,3,6,7 (and so
// on per 8 lanes), which a lane-wise operation does not mind and the split
// (one shuffle of the results' low words, one of their high words) undoes.
// The compiler's own joins (a widening, a shift and an or per four lanes)
// and splits took four times the instructions of the arithmetic.
// (WordVector, LoadWords and StoreWords are the bit kernels', above.)
constexpr uint32_t kPairGroup = kVectorWords;
inline void StorePairBits(uint64_t* p, WordVector v) { StoreWords(reinterpret_cast<Word*>(p), v); }
inline WordVector LoadPairBits(const uint64_t* p) { return LoadWords(reinterpret_cast<const Word*>(p)); }
#if defined(DUET_LANE_AVX512)
inline WordVector LowWords(WordVector r0, WordVector r1) {
  return _mm512_castps_si512(_mm512_shuffle_ps(_mm512_castsi512_ps(r0), _mm512_castsi512_ps(r1), 0x88));
}
inline WordVector HighWords(WordVector r0, WordVector r1) {
  return _mm512_castps_si512(_mm512_shuffle_ps(_mm512_castsi512_ps(r0), _mm512_castsi512_ps(r1), 0xDD));
}
inline void StoreActiveWords(Word* p, WordVector v, LaneMask m, uint32_t g) {
  _mm512_mask_storeu_epi32(p, __mmask16(m >> g), v);
}
// (The zero-masked forms: GCC 12 warns of the plain ones' undefined source.)
#define DUET_PAIR_UNPACK(suffix, x, y) _mm512_maskz_unpack##suffix##_epi32(__mmask16(0xFFFF), x, y)
#define DUET_PAIR_ZERO _mm512_setzero_si512()
#else
inline WordVector LowWords(WordVector r0, WordVector r1) {
  return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(r0), _mm256_castsi256_ps(r1), 0x88));
}
inline WordVector HighWords(WordVector r0, WordVector r1) {
  return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(r0), _mm256_castsi256_ps(r1), 0xDD));
}
inline void StoreActiveWords(Word* p, WordVector v, LaneMask m, uint32_t g) {
  if (m == kAllLanes) return StoreWords(p, v);
  const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  const __m256i active = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(int(Word(m >> g) & 0xFFu)), bit), bit);
  StoreWords(p, _mm256_blendv_epi8(LoadWords(p), v, active));
}
#define DUET_PAIR_UNPACK(suffix, x, y) _mm256_unpack##suffix##_epi32(x, y)
#define DUET_PAIR_ZERO _mm256_setzero_si256()
#endif

// Lanes g.. of an operand of kRegisters registers as 64-bit values, in the
// unpack order.
template <uint32_t kRegisters>
[[gnu::always_inline]] inline void JoinPairs(const Word* r, uint32_t g, uint64_t* out) {
  if constexpr (kRegisters == 0) {
    StorePairBits(out, DUET_PAIR_ZERO);
    StorePairBits(out + kPairGroup / 2, DUET_PAIR_ZERO);
  } else {
    const WordVector low = LoadWords(r + g);
    const WordVector high = kRegisters == 2 ? LoadWords(r + W + g) : DUET_PAIR_ZERO;
    StorePairBits(out, DUET_PAIR_UNPACK(lo, low, high));
    StorePairBits(out + kPairGroup / 2, DUET_PAIR_UNPACK(hi, low, high));
  }
}

// The active lanes g.. of a result of kRegisters registers (1: the low
// words only) from 64-bit values in the unpack order.
template <uint32_t kRegisters>
[[gnu::always_inline]] inline void SplitPairs(const uint64_t* r, Word* d, uint32_t g, LaneMask m) {
  const WordVector r0 = LoadPairBits(r), r1 = LoadPairBits(r + kPairGroup / 2);
  StoreActiveWords(d + g, LowWords(r0, r1), m, g);
  if constexpr (kRegisters == 2) StoreActiveWords(d + W + g, HighWords(r0, r1), m, g);
}
#undef DUET_PAIR_UNPACK
#undef DUET_PAIR_ZERO

// A group's operands are read before its results are written, and a group
// reads and writes the same lanes of every register, so the destination may
// overlap any operand here too.
template <DoubleOp kOp>
void DoubleKernel(Word* d, const Word* a, const Word* b, const Word* c, LaneMask m) {
  constexpr DoubleShape kShape = DoubleShapeOf(kOp, 0);
  for (uint32_t g = 0; g < W; g += kPairGroup) {
    alignas(64) uint64_t x[kPairGroup], y[kPairGroup], z[kPairGroup], r[kPairGroup];
    JoinPairs<kShape.a>(a, g, x);
    JoinPairs<kShape.b>(b, g, y);
    JoinPairs<kShape.c>(c, g, z);
    for (uint32_t i = 0; i < kPairGroup; ++i) r[i] = double_lanes::Lane(kOp, false, x[i], y[i], z[i]);
    SplitPairs<kShape.result>(r, d, g, m);
  }
}
#else
template <DoubleOp kOp>
void DoubleKernel(Word* d, const Word* a, const Word* b, const Word* c, LaneMask m) {
  constexpr DoubleShape kShape = DoubleShapeOf(kOp, 0);
  uint64_t r[W];
  for (uint32_t l = 0; l < W; ++l)
    r[l] = double_lanes::Lane(kOp, false, DoubleOperand<kShape.a>(a, l), DoubleOperand<kShape.b>(b, l),
                              DoubleOperand<kShape.c>(c, l));
  Lanes(d, m, [&r](uint32_t l) { return Word(r[l]); });
  if constexpr (kShape.result == 2) Lanes(d + W, m, [&r](uint32_t l) { return Word(r[l] >> 32); });
}
#endif

template <uint16_t... kOps>
void FillDoubleKernels(LaneKernel* slots, std::integer_sequence<uint16_t, kOps...>) {
  auto kernel = []<DoubleOp kOp>() -> LaneKernel {
    if constexpr (kOp == DoubleOp::kToFloat || kOp == DoubleOp::kToHalf || kOp == DoubleOp::kDeterminant ||
                  kOp == DoubleOp::kMatrixInverse) {
      return nullptr;
    } else {
      return &DoubleKernel<kOp>;
    }
  };
  ((slots[kOps] = kernel.template operator()<DoubleOp(kOps)>()), ...);
}

LaneKernels MakeKernels(const char* isa) {
  LaneKernels k;
  k.isa = isa;
  auto op = [&k]<typename Family>(Op o, Family) {
    const uint16_t i = static_cast<uint16_t>(o);
    FillVariants<Family>(k.op[i], std::make_integer_sequence<uint32_t, 1u << Family::kArity>{});
    k.op_operands[i] = Family::kArity;
  };
  op(Op::kMove, Unary<kMove>{});
  op(Op::kSelect, Ternary<kSelect>{});
  op(Op::kIAdd, Binary<kIAdd>{});
  op(Op::kISub, Binary<kISub>{});
  op(Op::kIMul, Binary<kIMul>{});
  op(Op::kSDiv, Binary<kSDiv>{});
  op(Op::kUDiv, Binary<kUDiv>{});
  op(Op::kSRem, Binary<kSRem>{});
  op(Op::kSMod, Binary<kSMod>{});
  op(Op::kUMod, Binary<kUMod>{});
  op(Op::kSNegate, Unary<kSNegate>{});
  op(Op::kShiftLeft, Binary<kShiftLeft>{});
  op(Op::kShiftRightLogical, Binary<kShiftRightLogical>{});
  op(Op::kShiftRightArithmetic, Binary<kShiftRightArithmetic>{});
  op(Op::kBitAnd, Binary<kBitAnd>{});
  op(Op::kBitOr, Binary<kBitOr>{});
  op(Op::kBitXor, Binary<kBitXor>{});
  op(Op::kXorShiftLeft, Binary<kXorShiftLeft>{});
  op(Op::kXorShiftRight, Binary<kXorShiftRight>{});
  op(Op::kFunnelShiftRight, Ternary<kFunnelShiftRight>{});
  op(Op::kIMulAdd, Ternary<kIMulAdd>{});
  op(Op::kIMulXor, Ternary<kIMulXor>{});
  op(Op::kXorShiftRightMul, Ternary<kXorShiftRightMul>{});
  op(Op::kXorFunnelShiftRight, Ternary<kXorFunnelShiftRight>{});
  op(Op::kBitNot, Unary<kBitNot>{});
  op(Op::kBitReverse, BitReverses{});
  op(Op::kBitCount, BitCounts{});
  op(Op::kBitFieldSExtract, Ternary<kBitFieldSExtract>{});
  op(Op::kBitFieldUExtract, Ternary<kBitFieldUExtract>{});
  op(Op::kIMulHighU, MulHighsU{});
  op(Op::kIMulHighS, MulHighsS{});
  op(Op::kIAddCarry, Binary<kIAddCarry>{});
  op(Op::kISubBorrow, Binary<kISubBorrow>{});
  op(Op::kIAddSatU, Binary<kIAddSatU>{});
  op(Op::kIAddSatS, Binary<kIAddSatS>{});
  op(Op::kFAdd, FloatBinary<kFAdd>{});
  op(Op::kFSub, FloatBinary<kFSub>{});
  op(Op::kFMul, FloatBinary<kFMul>{});
  op(Op::kFMulAdd, FloatTernary<kFMulAdd>{});
  op(Op::kFDiv, FloatBinary<kFDiv>{});
  op(Op::kFRem, FloatBinary<kFRem>{});
  op(Op::kFMod, FloatBinary<kFMod>{});
  op(Op::kFNegate, Unary<kFNegate>{});
  op(Op::kQuantizeToF16, Unary<kQuantizeToF16>{});
  op(Op::kHalfToFloat, Unary<kHalfToFloat>{});
  op(Op::kFloatToHalf, Unary<kFloatToHalf>{});
  op(Op::kRoundToF16, Unary<kRoundToF16>{});
  op(Op::kRoundToF16TowardZero, Unary<kRoundToF16TowardZero>{});
  op(Op::kFAddToF16, HalfRounded<kFAdd, 2>{});
  op(Op::kFSubToF16, HalfRounded<kFSub, 2>{});
  op(Op::kFMulToF16, HalfRounded<kFMul, 2>{});
  op(Op::kFDivToF16, HalfRounded<kFDiv, 2>{});
  op(Op::kFmaToF16, HalfRounded<kFma, 3>{});
  op(Op::kIEqual, Binary<kIEqual>{});
  op(Op::kINotEqual, Binary<kINotEqual>{});
  op(Op::kSLess, Binary<kSLess>{});
  op(Op::kSLessEqual, Binary<kSLessEqual>{});
  op(Op::kSGreater, Binary<kSGreater>{});
  op(Op::kSGreaterEqual, Binary<kSGreaterEqual>{});
  op(Op::kULess, Binary<kULess>{});
  op(Op::kULessEqual, Binary<kULessEqual>{});
  op(Op::kUGreater, Binary<kUGreater>{});
  op(Op::kUGreaterEqual, Binary<kUGreaterEqual>{});
  op(Op::kFOrdEqual, FloatCompare<kFOrdEqual>{});
  op(Op::kFOrdNotEqual, FloatCompare<kFOrdNotEqual>{});
  op(Op::kFOrdLess, FloatCompare<kFOrdLess>{});
  op(Op::kFOrdLessEqual, FloatCompare<kFOrdLessEqual>{});
  op(Op::kFOrdGreater, FloatCompare<kFOrdGreater>{});
  op(Op::kFOrdGreaterEqual, FloatCompare<kFOrdGreaterEqual>{});
  op(Op::kFUnordEqual, FloatCompare<kFUnordEqual>{});
  op(Op::kFUnordNotEqual, FloatCompare<kFUnordNotEqual>{});
  op(Op::kFUnordLess, FloatCompare<kFUnordLess>{});
  op(Op::kFUnordLessEqual, FloatCompare<kFUnordLessEqual>{});
  op(Op::kFUnordGreater, FloatCompare<kFUnordGreater>{});
  op(Op::kFUnordGreaterEqual, FloatCompare<kFUnordGreaterEqual>{});
  op(Op::kIsNan, Unary<kIsNan>{});
  op(Op::kIsInf, Unary<kIsInf>{});
  op(Op::kLogicalNot, Unary<kLogicalNot>{});
  op(Op::kConvertFToS, Unary<kConvertFToS>{});
  op(Op::kConvertFToU, Unary<kConvertFToU>{});
  op(Op::kConvertSToF, Unary<kConvertSToF>{});
  op(Op::kConvertUToF, Unary<kConvertUToF>{});
  op(Op::kFrexpExponent, Unary<kFrexpExponent>{});

  auto glsl = [&k]<typename Family>(uint32_t o, Family) {
    FillVariants<Family>(k.glsl[o], std::make_integer_sequence<uint32_t, 1u << Family::kArity>{});
    k.glsl_operands[o] = Family::kArity;
  };
  glsl(GLSLstd450Round, FloatUnary<kRound>{});
  glsl(GLSLstd450RoundEven, FloatUnary<kRoundEven>{});
  glsl(GLSLstd450Trunc, FloatUnary<kTrunc>{});
  glsl(GLSLstd450FAbs, Unary<kFAbs>{});
  glsl(GLSLstd450SAbs, Unary<kSAbs>{});
  glsl(GLSLstd450FSign, FloatUnary<kFSign>{});
  glsl(GLSLstd450SSign, Unary<kSSign>{});
  glsl(GLSLstd450Floor, FloatUnary<kFloor>{});
  glsl(GLSLstd450Ceil, FloatUnary<kCeil>{});
  glsl(GLSLstd450Fract, FloatUnary<kFract>{});
  glsl(GLSLstd450Modf, FloatUnary<kModf>{});
  glsl(GLSLstd450ModfStruct, FloatUnary<kModf>{});
  glsl(GLSLstd450Frexp, FloatUnary<kFrexp>{});
  glsl(GLSLstd450FrexpStruct, FloatUnary<kFrexp>{});
  glsl(GLSLstd450Radians, FloatUnary<kRadians>{});
  glsl(GLSLstd450Degrees, FloatUnary<kDegrees>{});
  glsl(GLSLstd450Sin, FloatUnaryWithFallback<kReducible, kFastSin, kLibSin>{});
  glsl(GLSLstd450Cos, FloatUnaryWithFallback<kReducible, kFastCos, kLibCos>{});
  glsl(GLSLstd450Tan, FloatUnaryWithFallback<kReducible, kFastTan, kLibTan>{});
  glsl(GLSLstd450Asin, FloatUnaryWithFallback<kInUnitRange, kFastAsin, kLibAsin>{});
  glsl(GLSLstd450Acos, FloatUnaryWithFallback<kInUnitRange, kFastAcos, kLibAcos>{});
  glsl(GLSLstd450Atan, FloatUnary<kAtan>{});
  glsl(GLSLstd450Sinh, FloatUnary<kSinh>{});
  glsl(GLSLstd450Cosh, FloatUnary<kCosh>{});
  glsl(GLSLstd450Tanh, FloatUnary<kTanh>{});
  glsl(GLSLstd450Asinh, FloatUnary<kAsinh>{});
  glsl(GLSLstd450Acosh, FloatUnary<kAcosh>{});
  glsl(GLSLstd450Atanh, FloatUnary<kAtanh>{});
  glsl(GLSLstd450Exp, FloatUnary<kExp>{});
  glsl(GLSLstd450Log, FloatUnary<kLog>{});
  glsl(GLSLstd450Exp2, FloatUnary<kExp2>{});
  glsl(GLSLstd450Log2, FloatUnary<kLog2>{});
  glsl(GLSLstd450Sqrt, FloatUnary<kSqrt>{});
  glsl(GLSLstd450InverseSqrt, FloatUnary<kInverseSqrt>{});
  glsl(GLSLstd450FindILsb, FindILsbs{});
  glsl(GLSLstd450FindUMsb, FindUMsbs{});
  glsl(GLSLstd450FindSMsb, FindSMsbs{});

  glsl(GLSLstd450Atan2, FloatBinaryWithFallback<kAtan2Regular, kFastAtan2, kLibAtan2>{});
  glsl(GLSLstd450Pow, FloatBinaryWithFallback<kPowRegular, kFastPow, kLibPow>{});
  glsl(GLSLstd450FMin, FloatBinary<kNMin>{});
  glsl(GLSLstd450FMax, FloatBinary<kNMax>{});
  glsl(GLSLstd450NMin, FloatBinary<kNMin>{});
  glsl(GLSLstd450NMax, FloatBinary<kNMax>{});
  glsl(GLSLstd450Step, FloatBinary<kStep>{});
  glsl(GLSLstd450Ldexp, Binary<kLdexp>{});
  glsl(GLSLstd450UMin, Binary<kUMin>{});
  glsl(GLSLstd450UMax, Binary<kUMax>{});
  glsl(GLSLstd450SMin, Binary<kSMin>{});
  glsl(GLSLstd450SMax, Binary<kSMax>{});

  glsl(GLSLstd450FClamp, FloatTernary<kFClamp>{});
  glsl(GLSLstd450NClamp, FloatTernary<kFClamp>{});
  glsl(GLSLstd450FMix, FloatTernary<kFMix>{});
  glsl(GLSLstd450Fma, FloatTernary<kFma>{});
  glsl(GLSLstd450SmoothStep, FloatTernary<kSmoothStep>{});
  glsl(GLSLstd450UClamp, Ternary<kUClamp>{});
  glsl(GLSLstd450SClamp, Ternary<kSClamp>{});
  FillDoubleKernels(k.double_op, std::make_integer_sequence<uint16_t, uint16_t(DoubleOp::kMatrixInverse) + 1>{});
  k.load = &LoadWords;
  k.store = &StoreWords;
  k.nonzero = &NonzeroLanes;
  k.bitfield_insert = &BitFieldInsertLanes;
  k.equal = &EqualLanes;
  return k;
}

}  // namespace

const LaneKernels& Kernels() {
  static const LaneKernels kernels = MakeKernels(DUET_LANE_ISA_NAME);
  return kernels;
}

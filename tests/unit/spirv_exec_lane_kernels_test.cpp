// The interpreter's lane kernels directly: every instruction set this CPU
// runs gives the same bits as the baseline for every kernel (special
// values, random bit patterns, partial lane masks), and the polynomial
// sin, cos, tan, exp, exp2, log, log2 and pow stay well inside the Vulkan
// spec's precision table (much closer than it requires: the integration
// tests check the table itself through a device).
#include <gtest/gtest.h>

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "spirv_exec/double_lanes.h"
#include "spirv_exec/lane_kernels.h"
#include "spirv_exec/wave.h"
#include "texel/float_formats.h"

namespace duet::spirv_exec {
namespace {

constexpr uint32_t W = kWaveWidth;

float F(uint32_t u) { return std::bit_cast<float>(u); }
uint32_t U(float f) { return std::bit_cast<uint32_t>(f); }

// Operands: special floats and integers first, then random bits and
// random floats of every magnitude.
std::vector<uint32_t> OperandPool() {
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 3.14159265f, -3.14159265f,
                            1e-40f, -1e-40f, 1.17549435e-38f, 3.4e38f, -3.4e38f, 8388607.5f, 8388608.0f, 16777217.0f,
                            2147483648.0f, -2147483648.0f, 4294967296.0f, 1e10f, -1e10f, 4000.0f, 4001.0f, 1e5f,
                            inf, -inf, std::numeric_limits<float>::quiet_NaN(), 87.0f, -87.0f, 127.5f, -149.5f, 200.0f};
  std::vector<uint32_t> pool;
  for (float f : specials) pool.push_back(U(f));
  for (uint32_t v : {0u, 1u, 2u, 3u, 7u, 31u, 32u, 33u, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0xFFFFFFFEu})
    pool.push_back(v);
  std::mt19937 rng(7);
  for (int i = 0; i < 400; ++i) pool.push_back(rng());
  for (int i = 0; i < 400; ++i) {
    const float magnitude = std::ldexp(1.0f, int(rng() % 64) - 32);
    pool.push_back(U(std::uniform_real_distribution<float>(-magnitude, magnitude)(rng)));
  }
  return pool;
}

// Every kernel and variant: its name, operands, and the kernel of each set.
struct Family {
  std::string name;
  uint32_t operands;
  const LaneKernel* (*variants)(const LaneKernels&, uint32_t index);
  uint32_t index;
};

std::vector<Family> Families(const LaneKernels& k) {
  std::vector<Family> out;
  for (uint32_t op = 0; op < kLaneKernelOps; ++op)
    if (k.op[op][0] != nullptr)
      out.push_back({"op " + std::to_string(op), k.op_operands[op],
                     [](const LaneKernels& s, uint32_t i) -> const LaneKernel* { return s.op[i]; }, op});
  for (uint32_t op = 0; op < kLaneKernelGlsl; ++op)
    if (k.glsl[op][0] != nullptr)
      out.push_back({"GLSL.std.450 " + std::to_string(op), k.glsl_operands[op],
                     [](const LaneKernels& s, uint32_t i) -> const LaneKernel* { return s.glsl[i]; }, op});
  return out;
}

// `kernel` with x (and y) in every lane: its result.
float OnEveryLane(LaneKernel kernel, float x, float y = 0.0f) {
  uint32_t a[W], b[W], out[W];
  for (uint32_t l = 0; l < W; ++l) {
    a[l] = U(x);
    b[l] = U(y);
  }
  kernel(out, a, b, b, kAllLanes);
  return F(out[W - 1]);
}

bool SameBits(uint32_t x, uint32_t y) { return x == y || (std::isnan(F(x)) && std::isnan(F(y))); }

TEST(SpirvExecLaneKernelsTest, EveryInstructionSetGivesTheBaselineBits) {
  const LaneKernels* sets[3];
  const uint32_t count = AvailableLaneKernels(sets);
  ASSERT_GE(count, 1u);
  const std::vector<uint32_t> pool = OperandPool();
  std::mt19937 rng(11);
  const LaneMask masks[] = {kAllLanes, LaneMask{0x5}, LaneMask(kAllLanes >> 1), LaneMask{1} << (W - 1)};
  for (const Family& family : Families(*sets[0])) {
    for (int round = 0; round < 40; ++round) {
      uint32_t a[W], b[W], c[W], before[W];
      for (uint32_t l = 0; l < W; ++l) {
        a[l] = pool[(round * W + l) % pool.size()];
        b[l] = pool[rng() % pool.size()];
        c[l] = pool[rng() % pool.size()];
        before[l] = rng();
      }
      const LaneMask mask = masks[round % 4];
      uint32_t expected[W];
      std::memcpy(expected, before, sizeof expected);
      family.variants(*sets[0], family.index)[0](expected, a, b, c, mask);
      for (uint32_t l = 0; l < W; ++l)
        if (((mask >> l) & 1) == 0) ASSERT_EQ(expected[l], before[l]) << family.name << ": inactive lane " << l;
      for (uint32_t s = 0; s < count; ++s) {
        const LaneKernel* variants = family.variants(*sets[s], family.index);
        const std::string where = family.name + " (" + sets[s]->isa + ")";
        uint32_t got[W];
        std::memcpy(got, before, sizeof got);
        variants[0](got, a, b, c, mask);
        for (uint32_t l = 0; l < W; ++l)
          ASSERT_TRUE(SameBits(got[l], expected[l]))
              << where << " lane " << l << ": operands 0x" << std::hex << a[l] << ", 0x" << b[l] << ", 0x" << c[l];
        // Variant v reads lane 0 of the operands of its bits: the plain
        // kernel over those operands broadcast; with all of them uniform it
        // writes every lane.
        const uint32_t all = (1u << family.operands) - 1;
        for (uint32_t v = 1; v <= all; ++v) {
          uint32_t ua[W], ub[W], uc[W];
          for (uint32_t l = 0; l < W; ++l) {
            ua[l] = (v & 1) != 0 ? a[0] : a[l];
            ub[l] = (v & 2) != 0 ? b[0] : b[l];
            uc[l] = (v & 4) != 0 ? c[0] : c[l];
          }
          const LaneMask lanes = v == all ? kAllLanes : mask;
          uint32_t want[W], variant[W];
          std::memcpy(want, before, sizeof want);
          std::memcpy(variant, before, sizeof variant);
          family.variants(*sets[0], family.index)[0](want, ua, ub, uc, lanes);
          ASSERT_NE(variants[v], nullptr) << where << " variant " << v;
          // The uniform operands' other lanes must not matter.
          variants[v](variant, (v & 1) != 0 ? ua : a, (v & 2) != 0 ? ub : b, (v & 4) != 0 ? uc : c, mask);
          uint32_t junk_a[W], junk_b[W], junk_c[W];
          for (uint32_t l = 0; l < W; ++l) {
            junk_a[l] = (v & 1) != 0 && l != 0 ? rng() : ua[l];
            junk_b[l] = (v & 2) != 0 && l != 0 ? rng() : ub[l];
            junk_c[l] = (v & 4) != 0 && l != 0 ? rng() : uc[l];
          }
          uint32_t with_junk[W];
          std::memcpy(with_junk, before, sizeof with_junk);
          variants[v](with_junk, junk_a, junk_b, junk_c, mask);
          for (uint32_t l = 0; l < W; ++l) {
            ASSERT_TRUE(SameBits(variant[l], want[l])) << where << " variant " << v << " lane " << l;
            ASSERT_TRUE(SameBits(with_junk[l], want[l])) << where << " variant " << v << " lane " << l;
          }
        }
      }
      // A kernel may write over its own operand.
      const LaneKernel last = family.variants(*sets[count - 1], family.index)[0];
      uint32_t in_place[W], separate[W];
      std::memcpy(in_place, a, sizeof in_place);
      last(in_place, in_place, b, c, kAllLanes);
      last(separate, a, b, c, kAllLanes);
      for (uint32_t l = 0; l < W; ++l)
        ASSERT_TRUE(SameBits(in_place[l], separate[l])) << family.name << " in place, lane " << l;
    }
  }
}

// Largest error of a one-operand kernel against a double reference, in
// units of 2^-24 relative (about half a float ULP) or absolute.
struct Accuracy {
  double worst_relative = 0, worst_absolute = 0;
};

template <typename Ref>
Accuracy Measure(LaneKernel kernel, float lo, float hi, Ref reference) {
  Accuracy acc;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (int round = 0; round < 400; ++round) {
    uint32_t a[W], out[W];
    for (uint32_t l = 0; l < W; ++l) a[l] = U(dist(rng));
    kernel(out, a, a, a, kAllLanes);
    for (uint32_t l = 0; l < W; ++l) {
      const double want = reference(double(F(a[l])));
      const double error = std::fabs(double(F(out[l])) - want);
      acc.worst_absolute = std::max(acc.worst_absolute, error);
      if (want != 0) acc.worst_relative = std::max(acc.worst_relative, error / std::fabs(want));
    }
  }
  return acc;
}

// kBitFieldInsert (four operands: not in the op table) against a scalar
// reference on every instruction set: fields anywhere, count 0 and 32,
// offsets past the word, inactive lanes kept.
TEST(SpirvExecLaneKernelsTest, BitFieldInsertOnEveryIsa) {
  auto reference = [](uint32_t base, uint32_t insert, uint32_t offset, uint32_t count) {
    if (offset >= 32 || count == 0) return base;
    const uint32_t field = count >= 32 ? ~0u : (1u << count) - 1u;
    const uint32_t mask = field << offset;
    return (base & ~mask) | ((insert << offset) & mask);
  };
  const LaneKernels* sets[3];
  const uint32_t count = AvailableLaneKernels(sets);
  std::mt19937 rng(5);
  const LaneMask masks[] = {kAllLanes, LaneMask{0x5}, LaneMask(kAllLanes >> 3)};
  for (int round = 0; round < 60; ++round) {
    uint32_t base[W], insert[W], offset[W], bits[W], before[W];
    for (uint32_t l = 0; l < W; ++l) {
      base[l] = rng();
      insert[l] = rng();
      offset[l] = l < 8 ? l * 5 : rng() % 34;  // 32 and 33: past the word
      bits[l] = round % 3 == 0 ? 32 - std::min(offset[l], 32u) : rng() % 33;
      if (l == 3) bits[l] = 0;
      before[l] = rng();
    }
    const LaneMask mask = masks[round % 3];
    for (uint32_t s = 0; s < count; ++s) {
      uint32_t got[W];
      std::memcpy(got, before, sizeof got);
      sets[s]->bitfield_insert(got, base, insert, offset, bits, mask);
      for (uint32_t l = 0; l < W; ++l) {
        const uint32_t want = ((mask >> l) & 1) != 0 ? reference(base[l], insert[l], offset[l], bits[l]) : before[l];
        ASSERT_EQ(got[l], want) << sets[s]->isa << " lane " << l << ": offset " << offset[l] << ", count " << bits[l];
      }
    }
  }
}

TEST(SpirvExecLaneKernelsTest, PolynomialsAreAccurate) {
  const LaneKernels& k = SelectedLaneKernels();
  const double ulp = std::ldexp(1.0, -23);
  // sin and cos: the spec asks for 2^-11 absolute on [-pi, pi].
  EXPECT_LT(Measure(k.glsl[GLSLstd450Sin][0], -3.2f, 3.2f, [](double x) { return std::sin(x); }).worst_absolute,
            2 * ulp);
  EXPECT_LT(Measure(k.glsl[GLSLstd450Cos][0], -3.2f, 3.2f, [](double x) { return std::cos(x); }).worst_absolute,
            2 * ulp);
  EXPECT_LT(Measure(k.glsl[GLSLstd450Sin][0], -3000.0f, 3000.0f, [](double x) { return std::sin(x); }).worst_absolute,
            1e-4);
  EXPECT_LT(Measure(k.glsl[GLSLstd450Tan][0], -1.5f, 1.5f, [](double x) { return std::tan(x); }).worst_relative,
            4 * ulp);
  // exp and exp2: 3 + 2|x| ULP; log and log2: 3 ULP (2^-21 absolute near 1).
  EXPECT_LT(Measure(k.glsl[GLSLstd450Exp2][0], -126.0f, 126.0f, [](double x) { return std::exp2(x); }).worst_relative,
            2 * ulp);
  EXPECT_LT(Measure(k.glsl[GLSLstd450Exp][0], -80.0f, 80.0f, [](double x) { return std::exp(x); }).worst_relative,
            64 * ulp);
  EXPECT_LT(Measure(k.glsl[GLSLstd450Log2][0], 1e-30f, 1e30f, [](double x) { return std::log2(x); }).worst_relative,
            2 * ulp);
  EXPECT_LT(Measure(k.glsl[GLSLstd450Log2][0], 0.5f, 2.0f, [](double x) { return std::log2(x); }).worst_absolute,
            std::ldexp(1.0, -23));
  EXPECT_LT(Measure(k.glsl[GLSLstd450Log][0], 1e-30f, 1e30f, [](double x) { return std::log(x); }).worst_relative,
            2 * ulp);
  // The inverse and hyperbolic functions (the spec asks 4096 ULP of atan and
  // atan2, the rest inherit from formulas): a few ULP here, and exp's
  // error (which grows with |x|) for sinh and cosh.
  for (auto [lo, hi] : {std::pair{-1.0f, 1.0f}, std::pair{-1e4f, 1e4f}})
    EXPECT_LT(Measure(k.glsl[GLSLstd450Atan][0], lo, hi, [](double x) { return std::atan(x); }).worst_relative,
              2 * ulp);
  EXPECT_LT(Measure(k.glsl[GLSLstd450Asin][0], -1.0f, 1.0f, [](double x) { return std::asin(x); }).worst_relative,
            4 * ulp);
  EXPECT_LT(Measure(k.glsl[GLSLstd450Acos][0], -1.0f, 1.0f, [](double x) { return std::acos(x); }).worst_relative,
            4 * ulp);
  EXPECT_LT(Measure(k.glsl[GLSLstd450Acos][0], 0.999f, 1.0f, [](double x) { return std::acos(x); }).worst_relative,
            4 * ulp);
  for (auto [lo, hi] : {std::pair{-0.2f, 0.2f}, std::pair{-10.0f, 10.0f}})
    EXPECT_LT(Measure(k.glsl[GLSLstd450Tanh][0], lo, hi, [](double x) { return std::tanh(x); }).worst_relative,
              8 * ulp);
  for (auto [lo, hi] : {std::pair{-0.2f, 0.2f}, std::pair{-80.0f, 80.0f}}) {
    EXPECT_LT(Measure(k.glsl[GLSLstd450Sinh][0], lo, hi, [](double x) { return std::sinh(x); }).worst_relative,
              64 * ulp);
    EXPECT_LT(Measure(k.glsl[GLSLstd450Cosh][0], lo, hi, [](double x) { return std::cosh(x); }).worst_relative,
              64 * ulp);
  }
  // atan2 in every quadrant, at every ratio of the operands' magnitudes.
  std::mt19937 rng(5);
  double worst = 0;
  for (int round = 0; round < 400; ++round) {
    uint32_t y[W], x[W], out[W];
    for (uint32_t l = 0; l < W; ++l) {
      const float scale = std::ldexp(1.0f, int(rng() % 40) - 20);
      y[l] = U(std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng) * scale);
      x[l] = U(std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng));
    }
    k.glsl[GLSLstd450Atan2][0](out, y, x, x, kAllLanes);
    for (uint32_t l = 0; l < W; ++l) {
      const double want = std::atan2(double(F(y[l])), double(F(x[l])));
      if (want != 0) worst = std::max(worst, std::fabs(double(F(out[l])) - want) / std::fabs(want));
    }
  }
  EXPECT_LT(worst, 2 * ulp);
  // Operands near the largest floats, whose sum overflows.
  for (auto [y, x] : {std::pair{-2.27e38f, 3.4e38f}, std::pair{3.4e38f, 3.3e38f}, std::pair{1e38f, -3e38f}}) {
    const double want = std::atan2(double(y), double(x));
    EXPECT_LT(std::fabs(double(OnEveryLane(k.glsl[GLSLstd450Atan2][0], y, x)) - want) / std::fabs(want), 2 * ulp)
        << y << ", " << x;
  }
}

// The special operands of the inverse and hyperbolic functions: what the C
// library gives (signed zeros, infinities, the quadrants of atan2 on the
// axes, NaN outside asin and acos's domain).
TEST(SpirvExecLaneKernelsTest, InverseAndHyperbolicSpecialOperands) {
  const LaneKernels& k = SelectedLaneKernels();
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  auto run1 = [&](uint32_t op, float v) { return OnEveryLane(k.glsl[op][0], v); };
  auto same = [](float got, double want) {
    return (std::isnan(got) && std::isnan(want)) ||
           (std::signbit(got) == std::signbit(want) && std::fabs(double(got) - want) <= 1e-6 * std::fabs(want));
  };
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-40f, 0.5f, 1.0f, -1.0f, 1.0000001f, 2.0f, 90.0f, -90.0f, inf, -inf, nan}) {
    EXPECT_TRUE(same(run1(GLSLstd450Atan, v), std::atan(double(v)))) << "atan " << v;
    EXPECT_TRUE(same(run1(GLSLstd450Asin, v), std::asin(double(v)))) << "asin " << v;
    EXPECT_TRUE(same(run1(GLSLstd450Acos, v), std::acos(double(v)))) << "acos " << v;
    EXPECT_TRUE(same(run1(GLSLstd450Tanh, v), std::tanh(double(v)))) << "tanh " << v;
    if (std::fabs(v) < 88.0f || std::isnan(v)) {
      EXPECT_TRUE(same(run1(GLSLstd450Sinh, v), std::sinh(double(v)))) << "sinh " << v;
      EXPECT_TRUE(same(run1(GLSLstd450Cosh, v), std::cosh(double(v)))) << "cosh " << v;
    }
  }
  // Past e^|x|'s overflow the spec's formula is infinite.
  EXPECT_EQ(run1(GLSLstd450Sinh, -90.0f), -inf);
  EXPECT_EQ(run1(GLSLstd450Cosh, 90.0f), inf);
  for (float y : {0.0f, -0.0f, 1.0f, -1.0f, inf, -inf})
    for (float x : {0.0f, -0.0f, 1.0f, -1.0f, inf, -inf}) {
      if (y == 0 && x == 0) continue;  // undefined in the spec
      EXPECT_TRUE(same(OnEveryLane(k.glsl[GLSLstd450Atan2][0], y, x), std::atan2(double(y), double(x))))
          << "atan2 " << y << ", " << x;
    }
}

// Bit counts, reversals and searches against plain C++ on every set: the
// sets agree with the baseline above, and this pins the baseline too (the
// branch-free searches give -1 when no bit is found; AVX2/AVX-512 count and
// reverse with byte shuffles).
TEST(SpirvExecLaneKernelsTest, BitCountsReversalsAndSearchesMatchPlainCppOnEveryIsa) {
  const LaneKernels* sets[3];
  const uint32_t count = AvailableLaneKernels(sets);
  std::vector<uint32_t> values = OperandPool();
  for (uint32_t bit = 0; bit < 32; ++bit)
    for (uint32_t v : {1u << bit, (1u << bit) - 1u, ~(1u << bit), 0u - (1u << bit), 0xAAAAAAAAu >> bit,
                       0xFFFFFFFFu >> bit, (0xFFFFFF80u >> bit) | 1u})
      values.push_back(v);
  while (values.size() % W != 0) values.push_back(0);
  auto find_lsb = [](uint32_t v) { return v == 0 ? UINT32_MAX : uint32_t(std::countr_zero(v)); };
  auto find_umsb = [](uint32_t v) { return v == 0 ? UINT32_MAX : 31u - uint32_t(std::countl_zero(v)); };
  auto find_smsb = [&](uint32_t v) { return find_umsb(int32_t(v) < 0 ? ~v : v); };
  auto reverse = [](uint32_t v) {
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
    return r;
  };
  for (uint32_t s = 0; s < count; ++s) {
    const LaneKernels& k = *sets[s];
    for (size_t first = 0; first < values.size(); first += W) {
      const uint32_t* a = &values[first];
      uint32_t bits[W], reversed[W], lsb[W], umsb[W], smsb[W];
      k.op[uint32_t(Op::kBitCount)][0](bits, a, a, a, kAllLanes);
      k.op[uint32_t(Op::kBitReverse)][0](reversed, a, a, a, kAllLanes);
      k.glsl[GLSLstd450FindILsb][0](lsb, a, a, a, kAllLanes);
      k.glsl[GLSLstd450FindUMsb][0](umsb, a, a, a, kAllLanes);
      k.glsl[GLSLstd450FindSMsb][0](smsb, a, a, a, kAllLanes);
      for (uint32_t l = 0; l < W; ++l) {
        ASSERT_EQ(bits[l], uint32_t(std::popcount(a[l]))) << k.isa << " BitCount 0x" << std::hex << a[l];
        ASSERT_EQ(reversed[l], reverse(a[l])) << k.isa << " BitReverse 0x" << std::hex << a[l];
        ASSERT_EQ(lsb[l], find_lsb(a[l])) << k.isa << " FindILsb 0x" << std::hex << a[l];
        ASSERT_EQ(umsb[l], find_umsb(a[l])) << k.isa << " FindUMsb 0x" << std::hex << a[l];
        ASSERT_EQ(smsb[l], find_smsb(a[l])) << k.isa << " FindSMsb 0x" << std::hex << a[l];
      }
    }
  }
}

// Integer division and remainders against plain C++ on every set, at the
// edges (0, 1, -1, INT32_MIN, UINT32_MAX, quotients just below powers of
// two) and on random words; division by zero and INT32_MIN / -1 (undefined
// in SPIR-V) give 0.
TEST(SpirvExecLaneKernelsTest, IntegerDivisionMatchesPlainCppOnEveryIsa) {
  const LaneKernels* sets[3];
  const uint32_t count = AvailableLaneKernels(sets);
  std::vector<uint32_t> values = {0u,          1u,          2u,          3u,          7u,
                                  0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFFu, 0xFFFFFFFEu,
                                  0xFFFFFFFDu, 65535u,      65536u,      65537u,      1000000007u};
  std::mt19937 rng(13);
  for (int i = 0; i < 40; ++i) values.push_back(rng());
  for (int i = 0; i < 20; ++i) values.push_back(rng() >> (rng() % 32));
  for (uint32_t s = 0; s < count; ++s) {
    const LaneKernels& k = *sets[s];
    for (uint32_t divisor : values) {
      for (size_t first = 0; first < values.size(); first += W) {
        uint32_t a[W], b[W], udiv[W], umod[W], sdiv[W], srem[W], smod[W];
        for (uint32_t l = 0; l < W; ++l) a[l] = values[(first + l) % values.size()], b[l] = divisor;
        k.op[uint32_t(Op::kUDiv)][0](udiv, a, b, b, kAllLanes);
        k.op[uint32_t(Op::kUMod)][0](umod, a, b, b, kAllLanes);
        k.op[uint32_t(Op::kSDiv)][0](sdiv, a, b, b, kAllLanes);
        k.op[uint32_t(Op::kSRem)][0](srem, a, b, b, kAllLanes);
        k.op[uint32_t(Op::kSMod)][0](smod, a, b, b, kAllLanes);
        for (uint32_t l = 0; l < W; ++l) {
          const uint32_t x = a[l], y = divisor;
          const int32_t sx = int32_t(x), sy = int32_t(y);
          const bool s_defined = sy != 0 && !(sx == INT32_MIN && sy == -1);
          const int32_t rem = sy != 0 && sy != -1 ? sx % sy : 0;
          const std::string where = std::string(k.isa) + " " + std::to_string(x) + " by " + std::to_string(y);
          ASSERT_EQ(udiv[l], y != 0 ? x / y : 0u) << where;
          ASSERT_EQ(umod[l], y != 0 ? x % y : 0u) << where;
          ASSERT_EQ(sdiv[l], s_defined ? uint32_t(sx / sy) : 0u) << where;
          ASSERT_EQ(srem[l], uint32_t(rem)) << where;
          ASSERT_EQ(smod[l], uint32_t(rem != 0 && (rem < 0) != (sy < 0) ? rem + sy : rem)) << where;
        }
      }
    }
  }
}

TEST(SpirvExecLaneKernelsTest, SpecialOperands) {
  const LaneKernels& k = SelectedLaneKernels();
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Log2][0], 0.0f), -inf);
  EXPECT_TRUE(std::isnan(OnEveryLane(k.glsl[GLSLstd450Log2][0], -1.0f)));
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Log2][0], inf), inf);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Log2][0], 1.0f), 0.0f);
  EXPECT_NEAR(OnEveryLane(k.glsl[GLSLstd450Log2][0], 1e-40f), std::log2(1e-40), 1e-4);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Exp2][0], -inf), 0.0f);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Exp2][0], inf), inf);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Exp2][0], 200.0f), inf);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Exp2][0], 3.0f), 8.0f);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Exp2][0], -149.0f), std::ldexp(1.0f, -149));
  EXPECT_TRUE(std::isnan(OnEveryLane(k.glsl[GLSLstd450Exp2][0], nan)));
  EXPECT_TRUE(std::isnan(OnEveryLane(k.glsl[GLSLstd450Sin][0], inf)));
  EXPECT_EQ(std::signbit(OnEveryLane(k.glsl[GLSLstd450Sin][0], -0.0f)), true);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Cos][0], 0.0f), 1.0f);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Pow][0], 2.0f, 10.0f), 1024.0f);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Pow][0], 0.0f, 2.0f), 0.0f);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Pow][0], -2.0f, 2.0f), 4.0f);  // the C library's, for x <= 0
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Pow][0], 5.0f, 0.0f), 1.0f);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Floor][0], -0.5f), -1.0f);
  EXPECT_EQ(std::signbit(OnEveryLane(k.glsl[GLSLstd450Ceil][0], -0.5f)), true);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Round][0], -2.5f), -3.0f);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450RoundEven][0], -2.5f), -2.0f);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Trunc][0], 1e30f), 1e30f);
  EXPECT_EQ(std::signbit(OnEveryLane(k.glsl[GLSLstd450Modf][0], -3.0f)), true);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Modf][0], -inf), 0.0f);
  // sinh and cosh are (e^x -+ e^-x) / 2 in float: infinite once e^|x| is,
  // although sinh(89.4) itself would fit a float.
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Sinh][0], 89.4f), inf);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Sinh][0], -89.4f), -inf);
  EXPECT_EQ(OnEveryLane(k.glsl[GLSLstd450Cosh][0], -89.4f), inf);
  // (exp's error, 3 + 2|x| ULP in the spec, grows with |x|.)
  EXPECT_NEAR(OnEveryLane(k.glsl[GLSLstd450Sinh][0], 88.0f), std::sinh(88.0), std::sinh(88.0) * 1e-5);
  EXPECT_NEAR(OnEveryLane(k.glsl[GLSLstd450Cosh][0], 1.0f), std::cosh(1.0), 1e-6);
  EXPECT_TRUE(std::isnan(OnEveryLane(k.glsl[GLSLstd450Sinh][0], nan)));
}

// 16-bit floats held as floats: every half survives the round trip
// through a register bit for bit (signalling NaNs too), and rounding to
// half is to nearest even with denormals kept and overflow to infinity.
TEST(SpirvExecLaneKernelsTest, HalfConversions) {
  const LaneKernels& k = SelectedLaneKernels();
  auto run = [&](Op op, uint32_t x) {
    uint32_t a[W], out[W];
    std::fill(a, a + W, x);
    k.op[uint16_t(op)][0](out, a, a, a, kAllLanes);
    return out[W - 1];
  };
  for (uint32_t h = 0; h < 0x10000; ++h)
    ASSERT_EQ(run(Op::kFloatToHalf, run(Op::kHalfToFloat, h)), h) << std::hex << h;
  EXPECT_EQ(F(run(Op::kHalfToFloat, 0x0001)), std::ldexp(1.0f, -24));  // smallest denormal
  EXPECT_EQ(F(run(Op::kRoundToF16, U(1.0f + std::ldexp(1.0f, -11)))), 1.0f);  // a tie: to even
  EXPECT_EQ(F(run(Op::kRoundToF16, U(1.0f + 3 * std::ldexp(1.0f, -11)))), 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(F(run(Op::kRoundToF16, U(65520.0f))), std::numeric_limits<float>::infinity());
  EXPECT_EQ(F(run(Op::kRoundToF16, U(65519.0f))), 65504.0f);
  EXPECT_EQ(F(run(Op::kRoundToF16, U(std::ldexp(3.0f, -25)))), std::ldexp(1.0f, -23));  // denormal, rounded up
  EXPECT_EQ(run(Op::kRoundToF16, U(-0.0f)), U(-0.0f));
  EXPECT_EQ(run(Op::kRoundToF16, 0x7FA00000u), 0x7FA00000u);  // a signalling NaN stays one
}

// kRoundToF16 (selects on float bits) against the scalar reference
// (texel::FloatToHalf, HalfToFloat) on every instruction set: every half
// and the floats half an ulp either side (ties, both signs), and a sweep of
// all float bit patterns, NaNs and denormals included.
TEST(SpirvExecLaneKernelsTest, RoundToF16MatchesTheScalarReferenceOnEveryIsa) {
  const LaneKernels* sets[3];
  const uint32_t count = AvailableLaneKernels(sets);
  auto reference = [](uint32_t x) {
    const uint32_t magnitude = x & 0x7FFFFFFFu;
    if (magnitude > 0x7F800000u) {  // NaN: the top mantissa bits, some set
      const uint32_t payload = magnitude & 0x007FE000u;
      return (x & 0x80000000u) | 0x7F800000u | (payload != 0 ? payload : 0x00400000u);
    }
    return U(texel::HalfToFloat(texel::FloatToHalf(F(x))));
  };
  std::vector<uint32_t> inputs;
  for (uint32_t h = 0; h < 0x8000; ++h) {
    const uint32_t f = U(texel::HalfToFloat(uint16_t(h)));
    for (uint32_t x : {f, f + 0x1000u, f - 0x1000u, f + 0xFFFu, f + 0x1001u}) {
      inputs.push_back(x);
      inputs.push_back(x | 0x80000000u);
    }
  }
  for (uint64_t x = 0; x <= 0xFFFFFFFFu; x += 4099) inputs.push_back(uint32_t(x));
  for (uint32_t s = 0; s < count; ++s) {
    const LaneKernels& k = *sets[s];
    uint32_t a[W], out[W];
    for (size_t i = 0; i < inputs.size(); i += W) {
      for (uint32_t l = 0; l < W; ++l) a[l] = inputs[std::min(i + l, inputs.size() - 1)];
      k.op[uint16_t(Op::kRoundToF16)][0](out, a, a, a, kAllLanes);
      for (uint32_t l = 0; l < W; ++l)
        ASSERT_EQ(out[l], reference(a[l])) << k.isa << " " << std::hex << a[l];
    }
  }
}

// The kDouble kernels (register pairs) against the scalar reference they
// are built from (double_lanes::Lane) on every instruction set: special
// doubles (signed zeros, denormals, infinities, NaN, integer limits) and
// random ones, every lane mask shape, and a destination that overlaps its
// operand's second register.
TEST(SpirvExecLaneKernelsTest, DoubleKernelsMatchTheScalarReferenceOnEveryIsa) {
  const LaneKernels* sets[3];
  const uint32_t count = AvailableLaneKernels(sets);
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<uint64_t> pool;
  for (double d : {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.375, 3.0, 1e-310, -1e-310, 4.9e-324,
                   2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308, 9007199254740993.0,
                   4503599627370495.5, 2147483648.0, -2147483649.0, 4294967296.0, 9.2233720368547758e18,
                   -9.2233720368547758e18, 1.8446744073709552e19, 1e300, -1e300, inf, -inf,
                   std::numeric_limits<double>::quiet_NaN()})
    pool.push_back(std::bit_cast<uint64_t>(d));
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{0xFFFFFFFF}, uint64_t{0x80000000}, ~uint64_t{0},
                     uint64_t{1} << 63, (uint64_t{1} << 63) - 1})
    pool.push_back(v);
  std::mt19937_64 rng(11);
  for (int i = 0; i < 200; ++i) pool.push_back(rng());
  for (int i = 0; i < 200; ++i) {
    const double magnitude = std::ldexp(1.0, int(rng() % 128) - 64);
    pool.push_back(std::bit_cast<uint64_t>(std::uniform_real_distribution<double>(-magnitude, magnitude)(rng)));
  }
  const LaneMask masks[] = {kAllLanes, 1, LaneMask{1} << 63, 0x5555555555555555ull, 0x00000000FFFF0000ull,
                            0x0F0F00000000F0F0ull};
  // Registers: a = 0-1, b = 2-3, c = 4-5, dst = 6-7.
  std::vector<uint32_t> regs(8 * W), before(8 * W);
  auto pair = [&](uint32_t reg, uint32_t l) { return uint64_t{regs[reg * W + l]} | uint64_t{regs[(reg + 1) * W + l]} << 32; };
  uint32_t kernels_seen = 0;
  for (uint32_t s = 0; s < count; ++s) {
    const LaneKernels& k = *sets[s];
    for (uint32_t o = 0; o < kLaneKernelDoubleOps; ++o) {
      const LaneKernel kernel = k.double_op[o];
      if (kernel == nullptr) continue;
      ++kernels_seen;
      const auto op = static_cast<DoubleOp>(o);
      const DoubleShape shape = DoubleShapeOf(op, 0);
      auto operand = [&](uint32_t reg, uint32_t registers, uint32_t l) {
        return registers == 2 ? pair(reg, l) : registers == 1 ? uint64_t{regs[reg * W + l]} : 0;
      };
      for (size_t start = 0; start < pool.size(); start += 13) {
        for (uint32_t l = 0; l < W; ++l)
          for (uint32_t r = 0; r < 3; ++r) {
            const uint64_t v = pool[(start + l * 7 + r * 31) % pool.size()];
            regs[(2 * r) * W + l] = uint32_t(v);
            regs[(2 * r + 1) * W + l] = uint32_t(v >> 32);
          }
        for (uint32_t l = 0; l < 2 * W; ++l) regs[6 * W + l] = 0xDEAD0000u + l;
        before = regs;
        const LaneMask mask = masks[start % std::size(masks)];
        uint64_t expected[W];
        for (uint32_t l = 0; l < W; ++l)
          expected[l] = double_lanes::Lane(op, false, operand(0, shape.a, l), operand(2, shape.b, l), operand(4, shape.c, l));
        // Into the destination pair, or over a's second register when the result is a pair.
        const bool overlap = shape.result == 2 && start % 2 == 1 && shape.a == 2;
        const uint32_t dst = overlap ? 1 : 6;
        kernel(&regs[dst * W], &regs[0], &regs[2 * W], &regs[4 * W], mask);
        for (uint32_t l = 0; l < W; ++l) {
          const bool active = ((mask >> l) & 1) != 0;
          const uint64_t low = active ? uint32_t(expected[l]) : before[dst * W + l];
          ASSERT_EQ(regs[dst * W + l], low) << k.isa << " op " << o << " lane " << l;
          if (shape.result == 2) {
            const uint64_t high = active ? uint32_t(expected[l] >> 32) : before[(dst + 1) * W + l];
            ASSERT_EQ(regs[(dst + 1) * W + l], high) << k.isa << " op " << o << " lane " << l;
          }
        }
      }
    }
  }
  EXPECT_GE(kernels_seen, 50u);
}

TEST(SpirvExecLaneKernelsTest, LoadsAndStoresStayInRange) {
  const LaneKernels* sets[3];
  const uint32_t count = AvailableLaneKernels(sets);
  std::vector<uint32_t> memory(4 * W);
  for (uint32_t i = 0; i < memory.size(); ++i) memory[i] = 1000 + i;
  const auto* base = reinterpret_cast<const std::byte*>(memory.data());
  const uint32_t range = uint32_t(memory.size() * 4);
  for (uint32_t s = 0; s < count; ++s) {
    const LaneKernels& k = *sets[s];
    uint32_t offsets[W], out[W];
    // Consecutive words, the same word, scattered words with some out of range.
    for (uint32_t l = 0; l < W; ++l) offsets[l] = 4 * l;
    k.load(out, offsets, 8, base, range, 0, kAllLanes);
    for (uint32_t l = 0; l < W; ++l) EXPECT_EQ(out[l], 1002 + l) << sets[s]->isa;
    for (uint32_t l = 0; l < W; ++l) offsets[l] = 12;
    k.load(out, offsets, 0, base, range, 0, kAllLanes);
    for (uint32_t l = 0; l < W; ++l) EXPECT_EQ(out[l], 1003u) << sets[s]->isa;
    for (uint32_t l = 0; l < W; ++l) offsets[l] = (l * 37 % 7 == 0) ? range - 2 + l : 4 * ((l * 7) % (4 * W));
    k.load(out, offsets, 0, base, range, 0, kAllLanes);
    for (uint32_t l = 0; l < W; ++l)
      EXPECT_EQ(out[l], offsets[l] + 4 <= range ? 1000 + offsets[l] / 4 : 0u) << sets[s]->isa << " lane " << l;
    // Groups of lanes: rows of consecutive words at different places, one
    // word for a group, under a partial mask (inactive lanes keep theirs).
    for (uint32_t l = 0; l < W; ++l) {
      const uint32_t group = l / 8;
      offsets[l] = group == 1 ? 40 : 4 * (group * 13 + l % 8);
      out[l] = 7;
    }
    const LaneMask partial = kAllLanes ^ (LaneMask{1} << 3) ^ (LaneMask{1} << (W - 2));
    k.load(out, offsets, 4, base, range, 0, partial);
    for (uint32_t l = 0; l < W; ++l) {
      const uint32_t want = ((partial >> l) & 1) == 0 ? 7 : 1000 + (offsets[l] + 4) / 4;
      EXPECT_EQ(out[l], offsets[l] + 8 <= range || ((partial >> l) & 1) == 0 ? want : 0u)
          << sets[s]->isa << " lane " << l;
    }
    // Stores: in range only, the last lane to a word wins.
    std::vector<uint32_t> target(2 * W, 0);
    uint32_t values[W];
    for (uint32_t l = 0; l < W; ++l) {
      values[l] = 7 + l;
      offsets[l] = l < W / 2 ? 4 * (l % 3) : 8 * W + 4 * l;
    }
    k.store(values, offsets, 0, reinterpret_cast<std::byte*>(target.data()), uint32_t(target.size() * 4), 0,
            kAllLanes);
    EXPECT_EQ(target[0], 7 + (W / 2 - 1) / 3 * 3) << sets[s]->isa;
    for (uint32_t i = 3; i < target.size(); ++i) EXPECT_EQ(target[i], 0u) << sets[s]->isa;
    // A row of consecutive words, some lanes not writing.
    std::fill(target.begin(), target.end(), 0u);
    for (uint32_t l = 0; l < W; ++l) offsets[l] = 4 * l;
    k.store(values, offsets, 8, reinterpret_cast<std::byte*>(target.data()), uint32_t(target.size() * 4), 0, partial);
    for (uint32_t l = 0; l < W; ++l)
      EXPECT_EQ(target[l + 2], ((partial >> l) & 1) != 0 ? values[l] : 0u) << sets[s]->isa << " lane " << l;
  }
}

}  // namespace
}  // namespace duet::spirv_exec

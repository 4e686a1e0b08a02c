// 32-bit integer instructions in a compute shader against C++ references:
// bit fields, carries and extended multiplies, bit counts and scans,
// GLSL.std.450 integer functions, division, shifts, conversions,
// comparisons and boolean vectors. Inputs mix random words with the edge
// cases (0, 1, -1, INT_MIN, INT_MAX, powers of two).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <random>
#include <vector>

#include "compute_fixture.h"
#include "float_reference.h"
#include "shaders/integer_functions.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kSlots = 44;  // as integer_functions.comp writes them

int32_t S(uint32_t u) { return static_cast<int32_t>(u); }
uint32_t FieldMask(uint32_t count) { return count >= 32 ? ~0u : (1u << count) - 1u; }

// What the shader's slots should hold for (a, b, c).
std::vector<uint32_t> Expected(uint32_t a, uint32_t b, uint32_t c) {
  std::vector<uint32_t> r(kSlots, 0);
  const int32_t sa = S(a), sb = S(b), sc = S(c);
  const uint32_t offset = c & 31u;
  const uint32_t count = (c >> 8) % (33 - offset);
  const uint32_t field = count == 0 ? 0 : (a >> offset) & FieldMask(count);
  const bool negative = count > 0 && count < 32 && ((field >> (count - 1)) & 1u);
  r[0] = negative ? field | ~FieldMask(count) : field;
  r[1] = field;
  const uint32_t mask = count == 0 ? 0 : FieldMask(count) << offset;
  r[2] = (a & ~mask) | ((b << offset) & mask);
  r[3] = a + b;
  r[4] = a + b < a;
  r[5] = a - b;
  r[6] = a < b;
  const uint64_t up = uint64_t(a) * b;
  r[7] = uint32_t(up >> 32);
  r[8] = uint32_t(up);
  const int64_t sp = int64_t(sa) * sb;
  r[9] = uint32_t(uint64_t(sp) >> 32);
  r[10] = uint32_t(uint64_t(sp));
  r[11] = std::popcount(a);
  uint32_t reversed = 0;
  for (int i = 0; i < 32; ++i) reversed |= ((a >> i) & 1u) << (31 - i);
  r[12] = reversed;
  r[13] = a == 0 ? ~0u : std::countr_zero(a);
  const uint32_t magnitude = sa < 0 ? ~a : a;
  r[14] = magnitude == 0 ? ~0u : 31 - std::countl_zero(magnitude);
  r[15] = a == 0 ? ~0u : 31 - std::countl_zero(a);
  r[16] = sa < 0 ? 0u - a : a;
  r[17] = uint32_t(sa > 0 ? 1 : sa < 0 ? -1 : 0);
  r[18] = uint32_t(std::min(sa, sb));
  r[19] = uint32_t(std::max(sa, sb));
  r[20] = std::min(a, b);
  r[21] = std::max(a, b);
  r[22] = uint32_t(std::clamp(sa, std::min(sb, sc), std::max(sb, sc)));
  r[23] = std::clamp(a, std::min(b, c), std::max(b, c));
  r[24] = b != 0 ? a / b : 0;
  r[25] = b != 0 ? a % b : 0;
  const bool defined = sb != 0 && !(sa == INT32_MIN && sb == -1);
  r[26] = defined ? uint32_t(sa / sb) : 0;
  if (defined) {
    int32_t m = sb == -1 ? 0 : sa % sb;
    if (m != 0 && ((m < 0) != (sb < 0))) m += sb;
    r[27] = uint32_t(m);
  }
  r[28] = a << (b & 31);
  r[29] = a >> (b & 31);
  r[30] = uint32_t(sa >> (b & 31));
  r[31] = 0u - a;
  r[32] = ~a;
  r[33] = a * b;
  r[34] = a + b;
  r[35] = a - b;
  r[36] = Bits(float(sa));
  r[37] = Bits(float(a));
  const float f = FromBits(c);
  r[38] = std::fabs(f) < 2147483520.0f ? uint32_t(int32_t(f)) : 0;
  r[39] = (f > -1.0f && f < 4294967040.0f) ? uint32_t(f) : 0;
  r[40] = uint32_t(sa < sb) | uint32_t(a < b) << 1 | uint32_t(a == b) << 2 | uint32_t(sa >= sb) << 3 |
          uint32_t(a >= b) << 4 | uint32_t(sa <= sb) << 5 | uint32_t(a <= b) << 6 | uint32_t(sa > sb) << 7 |
          uint32_t(a > b) << 8 | uint32_t(a != b) << 9;
  const bool less[3] = {a < b, b < c, c < a};
  const bool any = less[0] || less[1] || less[2], all = less[0] && less[1] && less[2];
  const bool any_not = !less[0] || !less[1] || !less[2];
  r[41] = uint32_t(any) | uint32_t(all) << 1 | uint32_t(any_not) << 2 | 1u << 3;
  r[42] = (a & b) ^ (a | c);
  r[43] = uint32_t(less[0] != less[1]) | uint32_t(less[0] == less[1]) << 1 | uint32_t(!less[0] && less[1]) << 2 |
          uint32_t(less[0] || !less[1]) << 3;
  return r;
}

class ShaderIntegerTest : public ComputeFixture {};

TEST_F(ShaderIntegerTest, MatchesReference) {
  const uint32_t edges[] = {0,          1,          2,          3,          0xFFFFFFFF, 0x80000000, 0x7FFFFFFF,
                            0x80000001, 0xFFFFFFFE, 0x00010000, 0x0000FFFF, 0x55555555, 0xAAAAAAAA, 31,
                            32,         33,         0x40000000, 100,        0xFFFFFF9C, 0x4F000000, 0xCF000000,
                            0x3F800000, 0xBF800000, 0x4B800001, 0x7F800000, 0x7FC00000};
  std::mt19937 rng(99);
  std::vector<uint32_t> inputs;
  for (uint32_t a : edges)
    for (uint32_t b : edges) inputs.insert(inputs.end(), {a, b, uint32_t(rng()), 0});
  while (inputs.size() < 4 * 4096) {
    // Random words, some with small magnitudes (shift amounts, divisors, floats in range).
    const uint32_t a = rng(), b = rng() % 4 == 0 ? rng() % 64 : rng();
    const uint32_t c = rng() % 3 == 0 ? Bits(std::uniform_real_distribution<float>(-3e9f, 5e9f)(rng)) : rng();
    inputs.insert(inputs.end(), {a, b, c, 0});
  }
  const uint32_t n = uint32_t(inputs.size() / 4);
  HostBuffer in = StorageBuffer(inputs.size() * 4), out = StorageBuffer(size_t(n) * kSlots * 4);
  std::copy(inputs.begin(), inputs.end(), in.as<uint32_t>());
  Kernel k = MakeKernel(kIntegerFunctionsComp, {in.buffer, out.buffer}, 4);
  Run(k, (n + 63) / 64, 1, 1, &n, 4);

  const char* names[kSlots] = {"bitfieldExtract(int)", "bitfieldExtract(uint)", "bitfieldInsert", "uaddCarry",
                               "carry", "usubBorrow", "borrow", "umulExtended.msb", "umulExtended.lsb",
                               "imulExtended.msb", "imulExtended.lsb", "bitCount", "bitfieldReverse", "findLSB",
                               "findMSB(int)", "findMSB(uint)", "abs(int)", "sign(int)", "min(int)", "max(int)",
                               "min(uint)", "max(uint)", "clamp(int)", "clamp(uint)", "udiv", "umod", "sdiv",
                               "smod", "shl", "shr", "sar", "negate", "not", "mul", "add", "sub", "float(int)",
                               "float(uint)", "int(float)", "uint(float)", "comparisons", "any/all", "bit ops",
                               "logical ops"};
  uint32_t failures = 0;
  for (uint32_t i = 0; i < n && failures < 20; ++i) {
    const uint32_t a = inputs[i * 4], b = inputs[i * 4 + 1], c = inputs[i * 4 + 2];
    const std::vector<uint32_t> expected = Expected(a, b, c);
    for (uint32_t s = 0; s < kSlots; ++s) {
      const uint32_t got = out.as<uint32_t>()[i * kSlots + s];
      if (got == expected[s]) continue;
      ++failures;
      ADD_FAILURE() << names[s] << " of a=0x" << std::hex << a << " b=0x" << b << " c=0x" << c << ": got 0x" << got
                    << ", expected 0x" << expected[s];
    }
  }
}

}  // namespace
}  // namespace duet_test

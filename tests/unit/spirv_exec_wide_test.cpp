// 64-bit integer instructions of the interpreter (kWide) against C++ on
// edge values (0, +-1, INT64_MIN / -1, around 2^32, shifts of 0 and 63),
// driven directly on a wave; and OpSpecConstantOp evaluation.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "spirv_exec/interpreter_wide.h"
#include "spirv_exec/ir.h"
#include "spirv_exec/spec_constant_op.h"
#include "spirv_exec/wave.h"

namespace duet::spirv_exec {
namespace {

constexpr uint64_t kEdges[] = {0,
                               1,
                               2,
                               ~uint64_t{0},
                               uint64_t{1} << 63,
                               (uint64_t{1} << 63) - 1,
                               0xFFFFFFFFull,
                               0x100000000ull,
                               0xFFFFFFFF00000000ull,
                               0x8000000000000001ull,
                               63,
                               64,
                               uint64_t(-7)};

// Runs `op` on every (a, b) pair of kEdges, one pair per lane; registers:
// a = 0-1, b = 2-3, a 32-bit b = 4, dst = 6-7.
std::vector<uint64_t> RunWide(WideOp op, const std::vector<std::pair<uint64_t, uint64_t>>& pairs) {
  WaveState w;
  w.registers.assign(8 * kWaveWidth, 0);
  std::vector<uint64_t> results;
  for (size_t first = 0; first < pairs.size(); first += kWaveWidth) {
    const size_t n = std::min<size_t>(kWaveWidth, pairs.size() - first);
    for (size_t l = 0; l < n; ++l) {
      const auto [a, b] = pairs[first + l];
      w.Register(0)[l] = uint32_t(a);
      w.Register(1)[l] = uint32_t(a >> 32);
      w.Register(2)[l] = uint32_t(b);
      w.Register(3)[l] = uint32_t(b >> 32);
      w.Register(4)[l] = uint32_t(b);
    }
    w.active = n == kWaveWidth ? kAllLanes : (LaneMask{1} << n) - 1;
    const bool shift = op == WideOp::kShiftLeft || op == WideOp::kShiftRightLogical || op == WideOp::kShiftRightArithmetic;
    ExecuteWideInstruction({Op::kWide, uint16_t(op), 6, 0, shift ? 4u : 2u, kNoOperand, kNoOperand}, w);
    for (size_t l = 0; l < n; ++l)
      results.push_back(WideResultRegisters(op) == 2 ? uint64_t{w.Register(6)[l]} | uint64_t{w.Register(7)[l]} << 32
                                                     : w.Register(6)[l]);
  }
  return results;
}

std::vector<std::pair<uint64_t, uint64_t>> AllPairs() {
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  for (uint64_t a : kEdges)
    for (uint64_t b : kEdges) pairs.emplace_back(a, b);
  return pairs;
}

template <typename Fn>
void Check(WideOp op, Fn reference) {
  const auto pairs = AllPairs();
  const std::vector<uint64_t> got = RunWide(op, pairs);
  for (size_t i = 0; i < pairs.size(); ++i)
    EXPECT_EQ(got[i], reference(pairs[i].first, pairs[i].second))
        << "op " << int(op) << " a=" << std::hex << pairs[i].first << " b=" << pairs[i].second;
}

TEST(SpirvExecWideTest, DivisionAndRemainder) {
  // Division by zero and INT64_MIN / -1 are undefined in SPIR-V: 0 and the wrapped value.
  Check(WideOp::kUDiv, [](uint64_t a, uint64_t b) { return b == 0 ? 0 : a / b; });
  Check(WideOp::kUMod, [](uint64_t a, uint64_t b) { return b == 0 ? 0 : a % b; });
  Check(WideOp::kSDiv, [](uint64_t a, uint64_t b) {
    return b == 0 ? 0 : int64_t(b) == -1 ? uint64_t(0) - a : uint64_t(int64_t(a) / int64_t(b));
  });
  Check(WideOp::kSRem, [](uint64_t a, uint64_t b) {
    return b == 0 || int64_t(b) == -1 ? 0 : uint64_t(int64_t(a) % int64_t(b));
  });
  Check(WideOp::kSMod, [](uint64_t a, uint64_t b) -> uint64_t {
    if (b == 0 || int64_t(b) == -1) return 0;
    const int64_t r = int64_t(a) % int64_t(b);
    return uint64_t(r != 0 && (r < 0) != (int64_t(b) < 0) ? r + int64_t(b) : r);
  });
}

TEST(SpirvExecWideTest, ProductsShiftsAndOrder) {
  Check(WideOp::kMulHighU, [](uint64_t a, uint64_t b) {
    __extension__ typedef unsigned __int128 U128;
    return uint64_t(U128(a) * b >> 64);
  });
  Check(WideOp::kMulHighS, [](uint64_t a, uint64_t b) {
    __extension__ typedef __int128 I128;
    return uint64_t(I128(int64_t(a)) * int64_t(b) >> 64);
  });
  Check(WideOp::kShiftLeft, [](uint64_t a, uint64_t b) { return a << (b & 63); });
  Check(WideOp::kShiftRightLogical, [](uint64_t a, uint64_t b) { return a >> (b & 63); });
  Check(WideOp::kShiftRightArithmetic, [](uint64_t a, uint64_t b) { return uint64_t(int64_t(a) >> (b & 63)); });
  Check(WideOp::kSLess, [](uint64_t a, uint64_t b) -> uint64_t { return int64_t(a) < int64_t(b); });
  Check(WideOp::kUGreaterEqual, [](uint64_t a, uint64_t b) -> uint64_t { return a >= b; });
  Check(WideOp::kSMin, [](uint64_t a, uint64_t b) { return uint64_t(std::min(int64_t(a), int64_t(b))); });
  Check(WideOp::kUMax, [](uint64_t a, uint64_t b) { return std::max(a, b); });
}

TEST(SpirvExecWideTest, UnaryOperationsAndConversions) {
  Check(WideOp::kSAbs, [](uint64_t a, uint64_t) { return int64_t(a) < 0 ? uint64_t(0) - a : a; });
  Check(WideOp::kSSign, [](uint64_t a, uint64_t) { return uint64_t(int64_t(a) > 0 ? 1 : int64_t(a) < 0 ? -1 : 0); });
  Check(WideOp::kBitCount, [](uint64_t a, uint64_t) { return uint64_t(std::popcount(a)); });
  Check(WideOp::kFindLsb, [](uint64_t a, uint64_t) -> uint64_t { return a == 0 ? UINT32_MAX : std::countr_zero(a); });
  Check(WideOp::kFindUMsb,
        [](uint64_t a, uint64_t) -> uint64_t { return a == 0 ? UINT32_MAX : 63 - std::countl_zero(a); });
  Check(WideOp::kUToF, [](uint64_t a, uint64_t) -> uint64_t { return std::bit_cast<uint32_t>(float(a)); });
  Check(WideOp::kSToF, [](uint64_t a, uint64_t) -> uint64_t { return std::bit_cast<uint32_t>(float(int64_t(a))); });
  // Float to 64-bit from register 0: exact in range, saturated outside (undefined), NaN gives 0.
  const std::vector<float> floats = {0.0f, -1.5f, 3.0e9f, -3.0e9f, 1.0e19f, 2.0e19f, -1.0e19f, std::nanf("")};
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  for (float f : floats) pairs.emplace_back(std::bit_cast<uint32_t>(f), 0);
  const std::vector<uint64_t> to_signed = RunWide(WideOp::kFToS, pairs), to_unsigned = RunWide(WideOp::kFToU, pairs);
  const int64_t signed_expected[] = {0, -1, 3000000000, -3000000000, std::numeric_limits<int64_t>::max(),
                                     std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(), 0};
  const uint64_t unsigned_expected[] = {0, 0, 3000000000, 0, uint64_t(1.0e19f), UINT64_MAX, 0, 0};
  for (size_t i = 0; i < floats.size(); ++i) {
    EXPECT_EQ(int64_t(to_signed[i]), signed_expected[i]) << floats[i];
    EXPECT_EQ(to_unsigned[i], unsigned_expected[i]) << floats[i];
  }
}

TEST(SpirvExecWideTest, SpecConstantOperations) {
  std::vector<uint32_t> out;
  // 64-bit shifts (which the optimizer's folding leaves), signed and unsigned.
  ASSERT_TRUE(EvaluateSpecConstantOp(spv::Op::OpShiftLeftLogical, 2, true, {{1, 0}, {40, 0}}, &out));
  EXPECT_EQ(out, (std::vector<uint32_t>{0, 1u << 8}));
  ASSERT_TRUE(EvaluateSpecConstantOp(spv::Op::OpShiftRightArithmetic, 2, true, {{0, 0x80000000u}, {63, 0}}, &out));
  EXPECT_EQ(out, (std::vector<uint32_t>{UINT32_MAX, UINT32_MAX}));
  // 32-bit, per component of a vector; a comparison of 64-bit values to booleans.
  ASSERT_TRUE(EvaluateSpecConstantOp(spv::Op::OpISub, 2, false, {{5, 7}, {6, 2}}, &out));
  EXPECT_EQ(out, (std::vector<uint32_t>{UINT32_MAX, 5}));
  ASSERT_TRUE(EvaluateSpecConstantOp(spv::Op::OpSLessThan, 1, false, {{0, UINT32_MAX}, {0, 0}}, &out));
  EXPECT_EQ(out, (std::vector<uint32_t>{1}));
  ASSERT_TRUE(EvaluateSpecConstantOp(spv::Op::OpSConvert, 2, true, {{uint32_t(-3)}}, &out));
  EXPECT_EQ(out, (std::vector<uint32_t>{uint32_t(-3), UINT32_MAX}));
  ASSERT_TRUE(EvaluateSpecConstantOp(spv::Op::OpSelect, 1, false, {{0}, {10}, {20}}, &out));
  EXPECT_EQ(out, (std::vector<uint32_t>{20}));
  // Division by zero gives 0 rather than trapping; unknown operations are refused.
  ASSERT_TRUE(EvaluateSpecConstantOp(spv::Op::OpUDiv, 1, false, {{9}, {0}}, &out));
  EXPECT_EQ(out, (std::vector<uint32_t>{0}));
  ASSERT_TRUE(EvaluateSpecConstantOp(spv::Op::OpSDiv, 1, false, {{9}, {0}}, &out));
  EXPECT_EQ(out, (std::vector<uint32_t>{0})) << "as the interpreter's kSDiv";
  EXPECT_FALSE(EvaluateSpecConstantOp(spv::Op::OpFAdd, 1, false, {{0}, {0}}, &out));
}

}  // namespace
}  // namespace duet::spirv_exec

#include "spirv_exec/interpreter_wide.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "spirv_exec/double_conversion.h"
#include "spirv_exec/integer_division.h"
#include "spirv_exec/interpreter_lanes.h"

namespace duet::spirv_exec {
namespace {

using lanes::F;
using lanes::U;
using lanes::W;

// GCC and Clang's 128-bit integers, for the high halves of 64-bit products.
__extension__ typedef unsigned __int128 Uint128;
__extension__ typedef __int128 Int128;

// The 64-bit value of lane l of the pair from register r.
struct Pair {
  const uint32_t* low;
  const uint32_t* high;
  uint64_t operator[](uint32_t l) const { return uint64_t{low[l]} | uint64_t{high[l]} << 32; }
};

uint64_t Binary(WideOp op, uint64_t a, uint64_t b) {
  const int64_t sa = int64_t(a), sb = int64_t(b);
  switch (op) {
    case WideOp::kMulHighU: return uint64_t(Uint128(a) * b >> 64);
    case WideOp::kMulHighS: return uint64_t(Int128(sa) * sb >> 64);
    case WideOp::kUDiv: return UnsignedDivide(a, b);
    case WideOp::kUMod: return UnsignedRemainder(a, b);
    case WideOp::kSDiv: return SignedDivide(sa, sb);
    case WideOp::kSRem: return SignedRemainder(sa, sb);
    case WideOp::kSMod: return SignedModulo(sa, sb);
    case WideOp::kSMin: return uint64_t(std::min(sa, sb));
    case WideOp::kSMax: return uint64_t(std::max(sa, sb));
    case WideOp::kUMin: return std::min(a, b);
    case WideOp::kUMax: return std::max(a, b);
    case WideOp::kSLess: return sa < sb;
    case WideOp::kSLessEqual: return sa <= sb;
    case WideOp::kSGreater: return sa > sb;
    case WideOp::kSGreaterEqual: return sa >= sb;
    case WideOp::kULess: return a < b;
    case WideOp::kULessEqual: return a <= b;
    case WideOp::kUGreater: return a > b;
    default: return a >= b;  // kUGreaterEqual
  }
}

uint64_t Unary(WideOp op, uint64_t a) {
  const int64_t sa = int64_t(a);
  switch (op) {
    case WideOp::kSAbs: return sa < 0 ? uint64_t(0) - a : a;
    case WideOp::kSSign: return uint64_t(sa > 0 ? 1 : sa < 0 ? -1 : 0);
    case WideOp::kBitReverse: {
      uint64_t r = 0;
      for (int i = 0; i < 64; ++i) r |= ((a >> i) & 1) << (63 - i);
      return r;
    }
    case WideOp::kBitCount: return uint64_t(std::popcount(a));
    case WideOp::kFindLsb: return a == 0 ? UINT32_MAX : uint32_t(std::countr_zero(a));
    case WideOp::kFindUMsb: return a == 0 ? UINT32_MAX : 63u - uint32_t(std::countl_zero(a));
    case WideOp::kFindSMsb: {  // the most significant bit that differs from the sign bit
      const uint64_t v = sa < 0 ? ~a : a;
      return v == 0 ? UINT32_MAX : 63u - uint32_t(std::countl_zero(v));
    }
    case WideOp::kUToF: return U(float(a));
    default: return U(float(sa));  // kSToF
  }
}

uint64_t BitFieldExtract(uint64_t base, uint32_t offset, uint32_t count, bool is_signed) {
  if (count == 0 || offset >= 64) return 0;
  count = std::min(count, 64 - offset);
  const uint64_t field = (base >> offset) & (count == 64 ? UINT64_MAX : (uint64_t{1} << count) - 1);
  if (!is_signed || count == 64 || ((field >> (count - 1)) & 1) == 0) return field;
  return field | (UINT64_MAX << count);
}

uint64_t BitFieldInsert(uint64_t base, uint64_t insert, uint32_t offset, uint32_t count) {
  if (count == 0 || offset >= 64) return base;
  count = std::min(count, 64 - offset);
  const uint64_t mask = (count == 64 ? UINT64_MAX : (uint64_t{1} << count) - 1) << offset;
  return (base & ~mask) | ((insert << offset) & mask);
}

// out[l] = f(l) for every lane (pure functions: inactive lanes compute
// garbage that is never written back), one tight loop per operation so
// that the compiler can vectorize it.
template <typename Fn>
void AllLanes(uint64_t* out, Fn f) {
  for (uint32_t l = 0; l < W; ++l) out[l] = f(l);
}

template <WideOp kOp>
void BinaryLanes(const Pair& a, const Pair& b, uint64_t* out) {
  AllLanes(out, [&](uint32_t l) { return Binary(kOp, a[l], b[l]); });
}

void ExecuteBinary(WideOp op, const Pair& a, const Pair& b, uint64_t* out) {
  switch (op) {
    case WideOp::kUDiv: return BinaryLanes<WideOp::kUDiv>(a, b, out);
    case WideOp::kSDiv: return BinaryLanes<WideOp::kSDiv>(a, b, out);
    case WideOp::kUMod: return BinaryLanes<WideOp::kUMod>(a, b, out);
    case WideOp::kSRem: return BinaryLanes<WideOp::kSRem>(a, b, out);
    case WideOp::kSMod: return BinaryLanes<WideOp::kSMod>(a, b, out);
    case WideOp::kMulHighU: return BinaryLanes<WideOp::kMulHighU>(a, b, out);
    case WideOp::kMulHighS: return BinaryLanes<WideOp::kMulHighS>(a, b, out);
    case WideOp::kSMin: return BinaryLanes<WideOp::kSMin>(a, b, out);
    case WideOp::kSMax: return BinaryLanes<WideOp::kSMax>(a, b, out);
    case WideOp::kUMin: return BinaryLanes<WideOp::kUMin>(a, b, out);
    case WideOp::kUMax: return BinaryLanes<WideOp::kUMax>(a, b, out);
    case WideOp::kSLess: return BinaryLanes<WideOp::kSLess>(a, b, out);
    case WideOp::kSLessEqual: return BinaryLanes<WideOp::kSLessEqual>(a, b, out);
    case WideOp::kSGreater: return BinaryLanes<WideOp::kSGreater>(a, b, out);
    case WideOp::kSGreaterEqual: return BinaryLanes<WideOp::kSGreaterEqual>(a, b, out);
    case WideOp::kULess: return BinaryLanes<WideOp::kULess>(a, b, out);
    case WideOp::kULessEqual: return BinaryLanes<WideOp::kULessEqual>(a, b, out);
    case WideOp::kUGreater: return BinaryLanes<WideOp::kUGreater>(a, b, out);
    default: return BinaryLanes<WideOp::kUGreaterEqual>(a, b, out);
  }
}

}  // namespace

void ExecuteWideInstruction(const Inst& in, WaveState& w) {
  const auto op = static_cast<WideOp>(in.aux);
  const LaneMask active = w.active;
  if (active == 0) return;
  // Results go to a scratch copy first: dst may overlap an operand.
  alignas(64) uint64_t out[W];
  const Pair a{w.Register(in.a), WideSourceRegisters(op) == 2 ? w.Register(in.a + 1) : nullptr};
  switch (op) {
    case WideOp::kShiftLeft: {
      const uint32_t* shift = w.Register(in.b);
      AllLanes(out, [&](uint32_t l) { return a[l] << (shift[l] & 63); });
      break;
    }
    case WideOp::kShiftRightLogical: {
      const uint32_t* shift = w.Register(in.b);
      AllLanes(out, [&](uint32_t l) { return a[l] >> (shift[l] & 63); });
      break;
    }
    case WideOp::kShiftRightArithmetic: {
      const uint32_t* shift = w.Register(in.b);
      AllLanes(out, [&](uint32_t l) { return uint64_t(int64_t(a[l]) >> (shift[l] & 63)); });
      break;
    }
    case WideOp::kBitFieldUExtract:
    case WideOp::kBitFieldSExtract: {
      const uint32_t *offset = w.Register(in.b), *count = w.Register(in.c);
      const bool is_signed = op == WideOp::kBitFieldSExtract;
      AllLanes(out, [&](uint32_t l) { return BitFieldExtract(a[l], offset[l], count[l], is_signed); });
      break;
    }
    case WideOp::kBitFieldInsert: {
      const Pair insert{w.Register(in.b), w.Register(in.b + 1)};
      const uint32_t *offset = w.Register(in.c), *count = w.Register(in.ext);
      AllLanes(out, [&](uint32_t l) { return BitFieldInsert(a[l], insert[l], offset[l], count[l]); });
      break;
    }
    case WideOp::kFToU:
    case WideOp::kFToS: {
      const uint32_t* f = w.Register(in.a);
      const bool is_signed = op == WideOp::kFToS;
      AllLanes(out, [&](uint32_t l) {
        const double value = F(f[l]);
        return is_signed ? uint64_t(SaturatingToInteger<int64_t>(value)) : SaturatingToInteger<uint64_t>(value);
      });
      break;
    }
    default:
      if (WideBinary(op))
        ExecuteBinary(op, a, Pair{w.Register(in.b), w.Register(in.b + 1)}, out);
      else
        for (uint32_t l = 0; l < W; ++l) out[l] = ((active >> l) & 1) ? Unary(op, a[l]) : 0;
      break;
  }
  uint32_t* low = w.Register(in.dst);
  lanes::ForActive(active, low, [&](uint32_t l) { return uint32_t(out[l]); });
  if (WideResultRegisters(op) == 2) {
    uint32_t* high = w.Register(in.dst + 1);
    lanes::ForActive(active, high, [&](uint32_t l) { return uint32_t(out[l] >> 32); });
  }
}

}  // namespace duet::spirv_exec

// 64-bit floats (shaderFloat64), lane by lane in C++ doubles: IEEE
// double arithmetic, so additions, multiplications, divisions, fma and
// square roots are correctly rounded as the spec asks.
#include "spirv_exec/interpreter_double.h"

#include <bit>
#include <cmath>
#include <cstdint>

#include "spirv_exec/double_conversion.h"
#include "spirv_exec/glsl_std450.h"
#include "spirv_exec/interpreter_lanes.h"

namespace duet::spirv_exec {
namespace {

using lanes::F;
using lanes::U;
using lanes::W;

[[gnu::always_inline]] inline double D(uint64_t bits) { return std::bit_cast<double>(bits); }
[[gnu::always_inline]] inline uint64_t Bits(double d) { return std::bit_cast<uint64_t>(d); }

// Lane l of the pair from register r.
uint64_t PairAt(WaveState& w, uint32_t reg, uint32_t l) {
  return uint64_t{w.Register(reg)[l]} | uint64_t{w.Register(reg + 1)[l]} << 32;
}

// fmin and fmax as selects (which vectorize): a NaN operand gives the other.
[[gnu::always_inline]] inline double Min(double a, double b) { return (a < b || b != b) ? a : b; }
[[gnu::always_inline]] inline double Max(double a, double b) { return (a > b || b != b) ? a : b; }

[[gnu::always_inline]] inline double Binary(DoubleOp op, double a, double b) {
  switch (op) {
    case DoubleOp::kAdd: return a + b;
    case DoubleOp::kSub: return a - b;
    case DoubleOp::kMul: return a * b;
    case DoubleOp::kDiv: return a / b;
    case DoubleOp::kRem: return std::fmod(a, b);             // the sign of a
    case DoubleOp::kMod: return a - b * std::floor(a / b);   // the sign of b
    case DoubleOp::kMin:
    case DoubleOp::kNMin: return Min(a, b);
    case DoubleOp::kMax:
    case DoubleOp::kNMax: return Max(a, b);
    default: return b < a ? 0.0 : 1.0;                       // kStep: edge a, x b
  }
}

[[gnu::always_inline]] inline double Ternary(DoubleOp op, double a, double b, double c) {
  switch (op) {
    case DoubleOp::kFma: return std::fma(a, b, c);
    case DoubleOp::kClamp:
    case DoubleOp::kNClamp: return Min(Max(a, b), c);
    case DoubleOp::kMix: return a * (1.0 - c) + b * c;
    default: {  // kSmoothStep: edges a, b; x c
      const double t = Min(Max((c - a) / (b - a), 0.0), 1.0);
      return t * t * (3.0 - 2.0 * t);
    }
  }
}

[[gnu::always_inline]] inline double Unary(DoubleOp op, double a) {
  switch (op) {
    case DoubleOp::kNegate: return -a;
    case DoubleOp::kAbs: return std::fabs(a);
    case DoubleOp::kSign: return a > 0.0 ? 1.0 : a < 0.0 ? -1.0 : a;
    case DoubleOp::kFloor: return std::floor(a);
    case DoubleOp::kCeil: return std::ceil(a);
    case DoubleOp::kTrunc: return std::trunc(a);
    case DoubleOp::kRound: return std::round(a);
    case DoubleOp::kRoundEven: return std::nearbyint(a);  // the default rounding: to nearest even
    case DoubleOp::kFract: return a - std::floor(a);
    case DoubleOp::kSqrt: return std::sqrt(a);
    case DoubleOp::kInverseSqrt: return 1.0 / std::sqrt(a);
    case DoubleOp::kFrexpSignificand: {
      int exponent = 0;
      return std::frexp(a, &exponent);
    }
    default: {  // kModfFraction
      double whole = 0.0;
      return std::modf(a, &whole);
    }
  }
}

[[gnu::always_inline]] inline bool Compare(DoubleOp op, double a, double b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (op) {
    case DoubleOp::kOrdEqual: return !unordered && a == b;
    case DoubleOp::kOrdNotEqual: return !unordered && a != b;
    case DoubleOp::kOrdLess: return !unordered && a < b;
    case DoubleOp::kOrdLessEqual: return !unordered && a <= b;
    case DoubleOp::kOrdGreater: return !unordered && a > b;
    case DoubleOp::kOrdGreaterEqual: return !unordered && a >= b;
    case DoubleOp::kUnordEqual: return unordered || a == b;
    case DoubleOp::kUnordNotEqual: return unordered || a != b;
    case DoubleOp::kUnordLess: return unordered || a < b;
    case DoubleOp::kUnordLessEqual: return unordered || a <= b;
    case DoubleOp::kUnordGreater: return unordered || a > b;
    default: return unordered || a >= b;  // kUnordGreaterEqual
  }
}

// The result of lane l: 64 bits for a pair, the low 32 for one register.
uint64_t Lane(const Inst& in, WaveState& w, DoubleOp op, uint32_t l) {
  const bool toward_zero = in.ext == 1;
  auto a = [&] { return D(PairAt(w, in.a, l)); };
  auto b = [&] { return D(PairAt(w, in.b, l)); };
  if (op <= DoubleOp::kStep) return Bits(Binary(op, a(), b()));
  if (op <= DoubleOp::kSmoothStep) return Bits(Ternary(op, a(), b(), D(PairAt(w, in.c, l))));
  switch (op) {
    case DoubleOp::kFromInt64: return Bits(double(int64_t(PairAt(w, in.a, l))));
    case DoubleOp::kFromUint64: return Bits(double(PairAt(w, in.a, l)));
    case DoubleOp::kToInt64: return uint64_t(SaturatingToInteger<int64_t>(a()));
    case DoubleOp::kToUint64: return SaturatingToInteger<uint64_t>(a());
    case DoubleOp::kLdexp: return Bits(std::ldexp(a(), int32_t(w.Register(in.b)[l])));
    case DoubleOp::kIsNan: return std::isnan(a());
    case DoubleOp::kIsInf: return std::isinf(a());
    case DoubleOp::kToFloat: return U(DoubleToFloat(a(), toward_zero));
    case DoubleOp::kToHalf: return U(DoubleToHalf(a(), toward_zero));
    case DoubleOp::kToInt32: return uint32_t(SaturatingToInteger<int32_t>(a()));
    case DoubleOp::kToUint32: return SaturatingToInteger<uint32_t>(a());
    case DoubleOp::kFrexpExponent: {
      int exponent = 0;
      const double v = a();
      if (std::isnan(v) || std::isinf(v)) return 0;
      std::frexp(v, &exponent);
      return uint32_t(exponent);
    }
    case DoubleOp::kFromFloat: return Bits(double(F(w.Register(in.a)[l])));
    case DoubleOp::kFromInt32: return Bits(double(int32_t(w.Register(in.a)[l])));
    case DoubleOp::kFromUint32: return Bits(double(w.Register(in.a)[l]));
    default:
      if (op >= DoubleOp::kOrdEqual && op <= DoubleOp::kUnordGreaterEqual) return Compare(op, a(), b());
      return Bits(Unary(op, a()));
  }
}

// The hot operations run as one fused loop per operation over all lanes:
// each lane's operands joined from their register pairs, computed, and its
// result split into the destination pair where the lane is active
// (inactive lanes compute unused values; IEEE exceptions are masked). The
// loops are written so that the compiler vectorizes them, and built for
// AVX-512 and AVX2 as well as the baseline (target_clones on WholeWave,
// into which they are all inlined).
struct PairLanes {
  const uint32_t* low;
  const uint32_t* high;
  [[gnu::always_inline]] double operator[](uint32_t l) const { return D(uint64_t{low[l]} | uint64_t{high[l]} << 32); }
};

template <DoubleOp kOp>
[[gnu::always_inline]] inline void BinaryLanes(PairLanes a, PairLanes b, uint64_t* out) {
  for (uint32_t l = 0; l < W; ++l) out[l] = Bits(Binary(kOp, a[l], b[l]));
}

template <DoubleOp kOp>
[[gnu::always_inline]] inline void TernaryLanes(PairLanes a, PairLanes b, PairLanes c, uint64_t* out) {
  for (uint32_t l = 0; l < W; ++l) out[l] = Bits(Ternary(kOp, a[l], b[l], c[l]));
}

template <DoubleOp kOp>
[[gnu::always_inline]] inline void UnaryLanes(PairLanes a, uint64_t* out) {
  for (uint32_t l = 0; l < W; ++l) out[l] = Bits(Unary(kOp, a[l]));
}

template <DoubleOp kOp>
[[gnu::always_inline]] inline void CompareLanes(PairLanes a, PairLanes b, uint64_t* out) {
  for (uint32_t l = 0; l < W; ++l) out[l] = Compare(kOp, a[l], b[l]);
}

// The active lanes' results into the destination pair (its low register
// only for a one-register result).
[[gnu::always_inline]] inline void Split(const uint64_t* out, uint32_t* low, uint32_t* high, LaneMask active) {
  if (active == kAllLanes) {
    for (uint32_t l = 0; l < W; ++l) low[l] = uint32_t(out[l]);
    if (high != nullptr)
      for (uint32_t l = 0; l < W; ++l) high[l] = uint32_t(out[l] >> 32);
    return;
  }
  for (LaneMask m = active; m != 0; m &= m - 1) {
    const uint32_t l = uint32_t(std::countr_zero(m));
    low[l] = uint32_t(out[l]);
    if (high != nullptr) high[l] = uint32_t(out[l] >> 32);
  }
}

// False for the operations without a whole-wave loop. Results go to a
// scratch array first: the destination may be an operand.
__attribute__((target_clones("avx512f", "avx2", "default"))) bool WholeWave(DoubleOp op, WaveState& w, const Inst& in,
                                                                           LaneMask active) {
  const PairLanes a{w.Register(in.a), w.Register(in.a + 1)};
  const PairLanes b{w.Register(in.b), w.Register(in.b + 1)};
  alignas(64) uint64_t out[W];
  bool pair = true;
  switch (op) {
    case DoubleOp::kAdd: BinaryLanes<DoubleOp::kAdd>(a, b, out); break;
    case DoubleOp::kSub: BinaryLanes<DoubleOp::kSub>(a, b, out); break;
    case DoubleOp::kMul: BinaryLanes<DoubleOp::kMul>(a, b, out); break;
    case DoubleOp::kDiv: BinaryLanes<DoubleOp::kDiv>(a, b, out); break;
    case DoubleOp::kMin: BinaryLanes<DoubleOp::kMin>(a, b, out); break;
    case DoubleOp::kMax: BinaryLanes<DoubleOp::kMax>(a, b, out); break;
    case DoubleOp::kFma:
    case DoubleOp::kClamp:
    case DoubleOp::kMix: {
      const PairLanes c{w.Register(in.c), w.Register(in.c + 1)};
      if (op == DoubleOp::kFma) TernaryLanes<DoubleOp::kFma>(a, b, c, out);
      if (op == DoubleOp::kClamp) TernaryLanes<DoubleOp::kClamp>(a, b, c, out);
      if (op == DoubleOp::kMix) TernaryLanes<DoubleOp::kMix>(a, b, c, out);
      break;
    }
    case DoubleOp::kNegate: UnaryLanes<DoubleOp::kNegate>(a, out); break;
    case DoubleOp::kAbs: UnaryLanes<DoubleOp::kAbs>(a, out); break;
    case DoubleOp::kFloor: UnaryLanes<DoubleOp::kFloor>(a, out); break;
    case DoubleOp::kSqrt: UnaryLanes<DoubleOp::kSqrt>(a, out); break;
    case DoubleOp::kOrdLess: CompareLanes<DoubleOp::kOrdLess>(a, b, out), pair = false; break;
    case DoubleOp::kOrdLessEqual: CompareLanes<DoubleOp::kOrdLessEqual>(a, b, out), pair = false; break;
    case DoubleOp::kOrdGreater: CompareLanes<DoubleOp::kOrdGreater>(a, b, out), pair = false; break;
    case DoubleOp::kOrdGreaterEqual: CompareLanes<DoubleOp::kOrdGreaterEqual>(a, b, out), pair = false; break;
    case DoubleOp::kOrdEqual: CompareLanes<DoubleOp::kOrdEqual>(a, b, out), pair = false; break;
    default: return false;
  }
  Split(out, w.Register(in.dst), pair ? w.Register(in.dst + 1) : nullptr, active);
  return true;
}

}  // namespace

void ExecuteDoubleInstruction(const Inst& in, WaveState& w) {
  const auto op = static_cast<DoubleOp>(in.aux);
  const LaneMask active = w.active;
  if (active == 0) return;
  if (op == DoubleOp::kDeterminant) return ExecuteDoubleDeterminant(in.ext, w.Register(in.dst), w.Register(in.a), active);
  if (op == DoubleOp::kMatrixInverse)
    return ExecuteDoubleMatrixInverse(in.ext, w.Register(in.dst), w.Register(in.a), active);
  if (WholeWave(op, w, in, active)) return;
  // Results go to a scratch copy first: dst may overlap an operand.
  alignas(64) uint64_t out[W];
  for (uint32_t l = 0; l < W; ++l) out[l] = ((active >> l) & 1) != 0 ? Lane(in, w, op, l) : 0;
  lanes::ForActive(active, w.Register(in.dst), [&](uint32_t l) { return uint32_t(out[l]); });
  if (DoubleShapeOf(op, in.ext).result == 2)
    lanes::ForActive(active, w.Register(in.dst + 1), [&](uint32_t l) { return uint32_t(out[l] >> 32); });
}

}  // namespace duet::spirv_exec

// What a kDouble operation (ir.h) computes for one lane, on the operands'
// bits: IEEE double arithmetic, so additions, multiplications, divisions,
// fma and square roots are correctly rounded as the spec asks. Shared by
// the lane kernels (lane_kernels_impl.h, which instantiate it per operation
// and vectorize it) and interpreter_double.cpp (the operations without a
// kernel). Every function is inlined into its caller, so each instruction
// set's copy is built for that set.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include "spirv_exec/double_conversion.h"
#include "spirv_exec/ir.h"

namespace duet::spirv_exec::double_lanes {

[[gnu::always_inline]] inline double D(uint64_t bits) { return std::bit_cast<double>(bits); }
[[gnu::always_inline]] inline uint64_t Bits(double d) { return std::bit_cast<uint64_t>(d); }
[[gnu::always_inline]] inline float F(uint64_t word) { return std::bit_cast<float>(uint32_t(word)); }
[[gnu::always_inline]] inline uint64_t U(float f) { return std::bit_cast<uint32_t>(f); }

// fmin and fmax as selects (which vectorize): a NaN operand gives the other.
[[gnu::always_inline]] inline double Min(double a, double b) { return (a < b || b != b) ? a : b; }
[[gnu::always_inline]] inline double Max(double a, double b) { return (a > b || b != b) ? a : b; }

[[gnu::always_inline]] inline double Binary(DoubleOp op, double a, double b) {
  switch (op) {
    case DoubleOp::kAdd:
      return a + b;
    case DoubleOp::kSub:
      return a - b;
    case DoubleOp::kMul:
      return a * b;
    case DoubleOp::kDiv:
      return a / b;
    case DoubleOp::kRem:
      return std::fmod(a, b);  // the sign of a
    case DoubleOp::kMod:
      return a - b * std::floor(a / b);  // the sign of b
    case DoubleOp::kMin:
    case DoubleOp::kNMin:
      return Min(a, b);
    case DoubleOp::kMax:
    case DoubleOp::kNMax:
      return Max(a, b);
    default:
      return b < a ? 0.0 : 1.0;  // kStep: edge a, x b
  }
}

[[gnu::always_inline]] inline double Ternary(DoubleOp op, double a, double b, double c) {
  switch (op) {
    case DoubleOp::kFma:
      return std::fma(a, b, c);
    case DoubleOp::kClamp:
    case DoubleOp::kNClamp:
      return Min(Max(a, b), c);
    case DoubleOp::kMix:
      return a * (1.0 - c) + b * c;
    default: {  // kSmoothStep: edges a, b; x c
      const double t = Min(Max((c - a) / (b - a), 0.0), 1.0);
      return t * t * (3.0 - 2.0 * t);
    }
  }
}

[[gnu::always_inline]] inline double Unary(DoubleOp op, double a) {
  switch (op) {
    case DoubleOp::kNegate:
      return -a;
    case DoubleOp::kAbs:
      return std::fabs(a);
    case DoubleOp::kSign:
      return a > 0.0 ? 1.0 : a < 0.0 ? -1.0 : a;
    case DoubleOp::kFloor:
      return std::floor(a);
    case DoubleOp::kCeil:
      return std::ceil(a);
    case DoubleOp::kTrunc:
      return std::trunc(a);
    case DoubleOp::kRound:
      return std::round(a);
    case DoubleOp::kRoundEven:
      return std::nearbyint(a);  // the default rounding: to nearest even
    case DoubleOp::kFract:
      return a - std::floor(a);
    case DoubleOp::kSqrt:
      return std::sqrt(a);
    case DoubleOp::kInverseSqrt:
      return 1.0 / std::sqrt(a);
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
    case DoubleOp::kOrdEqual:
      return !unordered && a == b;
    case DoubleOp::kOrdNotEqual:
      return !unordered && a != b;
    case DoubleOp::kOrdLess:
      return !unordered && a < b;
    case DoubleOp::kOrdLessEqual:
      return !unordered && a <= b;
    case DoubleOp::kOrdGreater:
      return !unordered && a > b;
    case DoubleOp::kOrdGreaterEqual:
      return !unordered && a >= b;
    case DoubleOp::kUnordEqual:
      return unordered || a == b;
    case DoubleOp::kUnordNotEqual:
      return unordered || a != b;
    case DoubleOp::kUnordLess:
      return unordered || a < b;
    case DoubleOp::kUnordLessEqual:
      return unordered || a <= b;
    case DoubleOp::kUnordGreater:
      return unordered || a > b;
    default:
      return unordered || a >= b;  // kUnordGreaterEqual
  }
}

// The result of `op` (not kDeterminant or kMatrixInverse) from its operands
// as DoubleShapeOf gives them: a pair's 64 bits, or one register's word in
// the low 32. A one-register result is the low 32 bits of the return value.
[[gnu::always_inline]] inline uint64_t Lane(DoubleOp op, bool toward_zero, uint64_t a, uint64_t b, uint64_t c) {
  if (op <= DoubleOp::kStep) return Bits(Binary(op, D(a), D(b)));
  if (op <= DoubleOp::kSmoothStep) return Bits(Ternary(op, D(a), D(b), D(c)));
  switch (op) {
    case DoubleOp::kFromInt64:
      return Bits(double(int64_t(a)));
    case DoubleOp::kFromUint64:
      return Bits(double(a));
    case DoubleOp::kToInt64:
      return uint64_t(SaturatingToInteger<int64_t>(D(a)));
    case DoubleOp::kToUint64:
      return SaturatingToInteger<uint64_t>(D(a));
    case DoubleOp::kLdexp:
      return Bits(std::ldexp(D(a), int32_t(uint32_t(b))));
    case DoubleOp::kIsNan:
      return std::isnan(D(a));
    case DoubleOp::kIsInf:
      return std::isinf(D(a));
    case DoubleOp::kToFloat:
      return U(DoubleToFloat(D(a), toward_zero));
    case DoubleOp::kToHalf:
      return U(DoubleToHalf(D(a), toward_zero));
    case DoubleOp::kToInt32:
      return uint32_t(SaturatingToInteger<int32_t>(D(a)));
    case DoubleOp::kToUint32:
      return SaturatingToInteger<uint32_t>(D(a));
    case DoubleOp::kFrexpExponent: {
      int exponent = 0;
      const double v = D(a);
      if (std::isnan(v) || std::isinf(v)) return 0;
      std::frexp(v, &exponent);
      return uint32_t(exponent);
    }
    case DoubleOp::kFromFloat:
      return Bits(double(F(a)));
    case DoubleOp::kFromInt32:
      return Bits(double(int32_t(uint32_t(a))));
    case DoubleOp::kFromUint32:
      return Bits(double(uint32_t(a)));
    default:
      if (op >= DoubleOp::kOrdEqual && op <= DoubleOp::kUnordGreaterEqual) return Compare(op, D(a), D(b));
      return Bits(Unary(op, D(a)));
  }
}

}  // namespace duet::spirv_exec::double_lanes

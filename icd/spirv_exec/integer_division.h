// SPIR-V's integer divisions on 64-bit values (32-bit operands are zero- or
// sign-extended first), defined where SPIR-V leaves them undefined:
// dividing by zero gives 0 and INT_MIN / -1 wraps, so no operand traps.
// Shared by the interpreter (kWide) and spec-constant folding.
#pragma once

#include <cstdint>

namespace duet::spirv_exec {

inline uint64_t UnsignedDivide(uint64_t a, uint64_t b) { return b == 0 ? 0 : a / b; }
inline uint64_t UnsignedRemainder(uint64_t a, uint64_t b) { return b == 0 ? 0 : a % b; }
inline uint64_t SignedDivide(int64_t a, int64_t b) {
  return b == 0 ? 0 : b == -1 ? uint64_t(0) - uint64_t(a) : uint64_t(a / b);
}
// OpSRem: the sign of the dividend.
inline uint64_t SignedRemainder(int64_t a, int64_t b) { return b == 0 || b == -1 ? 0 : uint64_t(a % b); }
// OpSMod: the sign of the divisor.
inline uint64_t SignedModulo(int64_t a, int64_t b) {
  if (b == 0 || b == -1) return 0;
  const int64_t r = a % b;
  return uint64_t(r != 0 && (r < 0) != (b < 0) ? r + b : r);
}

}  // namespace duet::spirv_exec

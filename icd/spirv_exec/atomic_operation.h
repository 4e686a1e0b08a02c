// The 32-bit atomic operations of SPIR-V on one word of memory, shared by
// buffer, workgroup and image atomics: integer ones and the float add, min
// and max of SPV_EXT_shader_atomic_float_add / _min_max.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace duet::spirv_exec {

// Applies SPIR-V atomic `opcode` (OpAtomicLoad ... OpAtomicXor, OpAtomicF*EXT) to the word
// at `address` with `value` (compare-exchange: stores `value` when the word
// equals `comparator`); returns the word's old value (0 for a store).
inline uint32_t AtomicOperation(uint32_t opcode, std::byte* address, uint32_t value, uint32_t comparator) {
  std::atomic_ref<uint32_t> word(*reinterpret_cast<uint32_t*>(address));
  switch (static_cast<spv::Op>(opcode)) {
    case spv::Op::OpAtomicLoad: return word.load();
    case spv::Op::OpAtomicStore: word.store(value); return 0;
    case spv::Op::OpAtomicExchange: return word.exchange(value);
    case spv::Op::OpAtomicCompareExchange: {
      uint32_t expected = comparator;
      word.compare_exchange_strong(expected, value);
      return expected;
    }
    case spv::Op::OpAtomicIIncrement:
    case spv::Op::OpAtomicIAdd: return word.fetch_add(value);
    case spv::Op::OpAtomicIDecrement:
    case spv::Op::OpAtomicISub: return word.fetch_sub(value);
    case spv::Op::OpAtomicAnd: return word.fetch_and(value);
    case spv::Op::OpAtomicOr: return word.fetch_or(value);
    case spv::Op::OpAtomicXor: return word.fetch_xor(value);
    default: break;
  }
  // Min/max and float add: a compare-exchange loop.
  uint32_t old = word.load();
  for (;;) {
    uint32_t desired = old;
    switch (static_cast<spv::Op>(opcode)) {
      case spv::Op::OpAtomicSMin: desired = uint32_t(std::min(int32_t(old), int32_t(value))); break;
      case spv::Op::OpAtomicSMax: desired = uint32_t(std::max(int32_t(old), int32_t(value))); break;
      case spv::Op::OpAtomicUMin: desired = std::min(old, value); break;
      case spv::Op::OpAtomicUMax: desired = std::max(old, value); break;
      case spv::Op::OpAtomicFAddEXT:
        desired = std::bit_cast<uint32_t>(std::bit_cast<float>(old) + std::bit_cast<float>(value));
        break;
      // A NaN operand gives the other one, as fmin/fmax (and GLSL's min/max on most hardware).
      case spv::Op::OpAtomicFMinEXT:
        desired = std::bit_cast<uint32_t>(std::fmin(std::bit_cast<float>(old), std::bit_cast<float>(value)));
        break;
      case spv::Op::OpAtomicFMaxEXT:
        desired = std::bit_cast<uint32_t>(std::fmax(std::bit_cast<float>(old), std::bit_cast<float>(value)));
        break;
      default: return old;
    }
    if (desired == old || word.compare_exchange_weak(old, desired)) return old;
  }
}

}  // namespace duet::spirv_exec

// The atomic operations of SPIR-V on one word of memory, shared by buffer,
// workgroup and image atomics: integer ones on 32- and 64-bit words, and the
// float add, min and max of SPV_EXT_shader_atomic_float_add / _min_max.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace duet::spirv_exec {

// Applies SPIR-V atomic `opcode` (OpAtomicLoad ... OpAtomicXor, OpAtomicF*EXT) to the word
// at `address` with `value` (compare-exchange: stores `value` when the word
// equals `comparator`); returns the word's old value (0 for a store).
// Word: uint32_t, or uint64_t for 64-bit integers (no float operations).
template <typename Word>
inline Word AtomicOperationOn(uint32_t opcode, std::byte* address, Word value, Word comparator) {
  using Signed = std::make_signed_t<Word>;
  std::atomic_ref<Word> word(*reinterpret_cast<Word*>(address));
  switch (static_cast<spv::Op>(opcode)) {
    case spv::Op::OpAtomicLoad: return word.load();
    case spv::Op::OpAtomicStore: word.store(value); return 0;
    case spv::Op::OpAtomicExchange: return word.exchange(value);
    case spv::Op::OpAtomicCompareExchange: {
      Word expected = comparator;
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
  Word old = word.load();
  for (;;) {
    Word desired = old;
    switch (static_cast<spv::Op>(opcode)) {
      case spv::Op::OpAtomicSMin: desired = Word(std::min(Signed(old), Signed(value))); break;
      case spv::Op::OpAtomicSMax: desired = Word(std::max(Signed(old), Signed(value))); break;
      case spv::Op::OpAtomicUMin: desired = std::min(old, value); break;
      case spv::Op::OpAtomicUMax: desired = std::max(old, value); break;
      default:
        if constexpr (sizeof(Word) == 4) {
          const float a = std::bit_cast<float>(old), b = std::bit_cast<float>(value);
          switch (static_cast<spv::Op>(opcode)) {
            case spv::Op::OpAtomicFAddEXT: desired = std::bit_cast<uint32_t>(a + b); break;
            // A NaN operand gives the other one, as fmin/fmax (and GLSL's min/max on most hardware).
            case spv::Op::OpAtomicFMinEXT: desired = std::bit_cast<uint32_t>(std::fmin(a, b)); break;
            case spv::Op::OpAtomicFMaxEXT: desired = std::bit_cast<uint32_t>(std::fmax(a, b)); break;
            default: return old;
          }
          break;
        } else {
          return old;
        }
    }
    if (desired == old || word.compare_exchange_weak(old, desired)) return old;
  }
}

inline uint32_t AtomicOperation(uint32_t opcode, std::byte* address, uint32_t value, uint32_t comparator) {
  return AtomicOperationOn<uint32_t>(opcode, address, value, comparator);
}

}  // namespace duet::spirv_exec

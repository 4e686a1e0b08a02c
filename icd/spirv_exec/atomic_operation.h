// The atomic operations of SPIR-V on one word of memory, shared by buffer,
// workgroup and image atomics: integer ones on 32- and 64-bit words, and the
// float add, min and max of SPV_EXT_shader_atomic_float_add / _min_max on
// 32- and 64-bit floats.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "texel/float_formats.h"

namespace duet::spirv_exec {

// Applies SPIR-V atomic `opcode` (OpAtomicLoad ... OpAtomicXor, OpAtomicF*EXT) to the word
// at `address` with `value` (compare-exchange: stores `value` when the word
// equals `comparator`); returns the word's old value (0 for a store).
// Word: uint32_t, or uint64_t for 64-bit integers and doubles.
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
      default: {
        // Floats of the word's width: float, or double for 64-bit words.
        using Float = std::conditional_t<sizeof(Word) == 4, float, double>;
        const Float a = std::bit_cast<Float>(old), b = std::bit_cast<Float>(value);
        switch (static_cast<spv::Op>(opcode)) {
          case spv::Op::OpAtomicFAddEXT: desired = std::bit_cast<Word>(Float(a + b)); break;
          // A NaN operand gives the other one, as fmin/fmax (and GLSL's min/max on most hardware).
          case spv::Op::OpAtomicFMinEXT: desired = std::bit_cast<Word>(Float(std::fmin(a, b))); break;
          case spv::Op::OpAtomicFMaxEXT: desired = std::bit_cast<Word>(Float(std::fmax(a, b))); break;
          default: return old;
        }
        break;
      }
    }
    if (desired == old || word.compare_exchange_weak(old, desired)) return old;
  }
}

inline uint32_t AtomicOperation(uint32_t opcode, std::byte* address, uint32_t value, uint32_t comparator) {
  return AtomicOperationOn<uint32_t>(opcode, address, value, comparator);
}

// The float atomics, load, store and exchange on a 16-bit float at
// `address`: its 2 bytes (Storage = uint16_t, 2-aligned), or a word holding
// the float of its value as registers do (uint32_t). `value` and the
// result are such floats. Sums are computed in float and rounded to half
// once: float has enough bits that this is the correctly rounded sum.
template <typename Storage>
inline uint32_t AtomicHalfOperation(uint32_t opcode, std::byte* address, uint32_t value) {
  std::atomic_ref<Storage> word(*reinterpret_cast<Storage*>(address));
  auto to_float = [](Storage s) {
    if constexpr (sizeof(Storage) == 2)
      return texel::HalfToFloat(s);
    else
      return std::bit_cast<float>(s);
  };
  auto from_float = [](float f) -> Storage {  // rounded to half
    if constexpr (sizeof(Storage) == 2)
      return texel::FloatToHalf(f);
    else
      return std::bit_cast<uint32_t>(texel::HalfToFloat(texel::FloatToHalf(f)));
  };
  auto result = [&](Storage s) { return std::bit_cast<uint32_t>(to_float(s)); };
  const Storage operand = from_float(std::bit_cast<float>(value));
  switch (static_cast<spv::Op>(opcode)) {
    case spv::Op::OpAtomicLoad: return result(word.load());
    case spv::Op::OpAtomicStore: word.store(operand); return 0;
    case spv::Op::OpAtomicExchange: return result(word.exchange(operand));
    case spv::Op::OpAtomicFAddEXT:
    case spv::Op::OpAtomicFMinEXT:
    case spv::Op::OpAtomicFMaxEXT: break;
    default: return result(word.load());
  }
  const float b = to_float(operand);
  Storage old = word.load();
  for (;;) {
    const float a = to_float(old);
    const float combined = static_cast<spv::Op>(opcode) == spv::Op::OpAtomicFAddEXT   ? a + b
                           : static_cast<spv::Op>(opcode) == spv::Op::OpAtomicFMinEXT ? std::fmin(a, b)
                                                                                      : std::fmax(a, b);
    const Storage desired = from_float(combined);
    if (desired == old || word.compare_exchange_weak(old, desired)) return result(old);
  }
}

}  // namespace duet::spirv_exec

// 64-bit integers (shaderInt64): a 64-bit value is two registers, low word
// first. Add, subtract, multiply, negate, equality and width conversions
// expand into 32-bit IR ops on the halves (vectorized lane kernels);
// division, shifts, ordering, min/max, bit counts and scans, bit fields
// and float conversions are kWide instructions (interpreter_wide.cpp).
// Bitwise ops, bitcasts, moves and selects need nothing: they work word
// by word in the ordinary code. 64-bit floats are compile_double.cpp's.
#include <spirv/unified1/GLSL.std.450.h>

#include "spirv_exec/compiler.h"

namespace duet::spirv_exec {

using SpvOp = spv::Op;

namespace {

struct WideOpcode {
  SpvOp spirv;
  WideOp op;
};

constexpr WideOpcode kBinary[] = {
    {SpvOp::OpUDiv, WideOp::kUDiv},
    {SpvOp::OpSDiv, WideOp::kSDiv},
    {SpvOp::OpUMod, WideOp::kUMod},
    {SpvOp::OpSRem, WideOp::kSRem},
    {SpvOp::OpSMod, WideOp::kSMod},
    {SpvOp::OpSLessThan, WideOp::kSLess},
    {SpvOp::OpSLessThanEqual, WideOp::kSLessEqual},
    {SpvOp::OpSGreaterThan, WideOp::kSGreater},
    {SpvOp::OpSGreaterThanEqual, WideOp::kSGreaterEqual},
    {SpvOp::OpULessThan, WideOp::kULess},
    {SpvOp::OpULessThanEqual, WideOp::kULessEqual},
    {SpvOp::OpUGreaterThan, WideOp::kUGreater},
    {SpvOp::OpUGreaterThanEqual, WideOp::kUGreaterEqual},
};

constexpr WideOpcode kShifts[] = {
    {SpvOp::OpShiftLeftLogical, WideOp::kShiftLeft},
    {SpvOp::OpShiftRightLogical, WideOp::kShiftRightLogical},
    {SpvOp::OpShiftRightArithmetic, WideOp::kShiftRightArithmetic},
};

}  // namespace

bool Compiler::IsWideInteger(uint32_t type) const {
  const SpirvType* t = &module_.Type(type);
  if (t->kind == SpvOp::OpTypeVector) t = &module_.Type(t->element);
  return t->kind == SpvOp::OpTypeInt && t->width == 64;
}

// A 64-bit shift by a constant, as a 32-bit shift of one half and a funnel
// shift of both into the other (vectorized lane kernels: hashes and
// packing shift by constants).
void Compiler::EmitConstantShift(WideOp op, uint32_t s, uint32_t dst, uint32_t src) {
  // The halves go straight into dst, the result's own registers (no
  // copies left for ir_prepare to remove).
  auto shift = [&](Op kind, uint32_t to, uint32_t from, uint32_t amount) {
    Emit(kind, to, from, ConstantRegister(amount));
  };
  const bool arithmetic = op == WideOp::kShiftRightArithmetic;
  const Op right = arithmetic ? Op::kShiftRightArithmetic : Op::kShiftRightLogical;
  if (s == 0) {
    Emit(Op::kMove, dst, src);
    Emit(Op::kMove, dst + 1, src + 1);
  } else if (op == WideOp::kShiftLeft) {
    if (s < 32) {
      Emit(Op::kFunnelShiftRight, dst + 1, src, src + 1, ConstantRegister(32 - s));
      shift(Op::kShiftLeft, dst, src, s);
    } else {
      shift(Op::kShiftLeft, dst + 1, src, s - 32);
      Emit(Op::kMove, dst, ConstantRegister(0));
    }
  } else if (s < 32) {
    Emit(Op::kFunnelShiftRight, dst, src, src + 1, ConstantRegister(s));
    shift(right, dst + 1, src + 1, s);
  } else {
    shift(right, dst, src + 1, s - 32);
    if (arithmetic)
      shift(Op::kShiftRightArithmetic, dst + 1, src + 1, 31);
    else
      Emit(Op::kMove, dst + 1, ConstantRegister(0));
  }
}

bool Compiler::CompileInt64Instruction(const SpirvInstruction& inst) {
  const uint32_t result_type = inst[0];
  // Registers per component of a value: 2 for 64-bit, 1 otherwise.
  auto width = [this](const CompiledValue& v) { return IsWide(v.type) ? 2u : 1u; };
  auto wide_op = [this](WideOp op, uint32_t dst, uint32_t a, uint32_t b = kNoOperand, uint32_t c = kNoOperand,
                        uint32_t ext = kNoOperand) { Emit(Op::kWide, dst, a, b, c, uint16_t(op), ext); };
  for (const WideOpcode& w : kBinary) {
    if (w.spirv != inst.op) continue;
    const CompiledValue& a = Value(inst[2]);
    const CompiledValue& b = Value(inst[3]);
    if (!IsWideInteger(a.type) || !IsWideInteger(b.type)) return Fail("mismatched 64-bit operands");
    const uint32_t components = a.count / 2;
    const uint32_t result_width = WideResultRegisters(w.op);
    const CompiledValue& v = Define(inst[1], result_type, components * result_width);
    for (uint32_t i = 0; i < components; ++i) wide_op(w.op, v.reg + i * result_width, a.reg + 2 * i, b.reg + 2 * i);
    return true;
  }
  for (const WideOpcode& w : kShifts) {
    if (w.spirv != inst.op) continue;
    const CompiledValue& base = Value(inst[2]);
    const CompiledValue& shift = Value(inst[3]);
    const uint32_t components = ScalarCount(result_type) / (IsWide(result_type) ? 2 : 1);
    const CompiledValue& v = Define(inst[1], result_type, ScalarCount(result_type));
    for (uint32_t i = 0; i < components; ++i) {
      const uint32_t amount = shift.reg + i * width(shift);  // a 64-bit shift's low word
      uint32_t constant = 0;
      if (IsWide(result_type) && module_.ScalarConstant(inst[3], &constant)) {
        EmitConstantShift(w.op, constant & 63, v.reg + 2 * i, base.reg + 2 * i);
      } else if (IsWide(result_type)) {
        wide_op(w.op, v.reg + 2 * i, base.reg + 2 * i, amount);
      } else {  // a 32-bit base shifted by a 64-bit amount
        const Op op = w.op == WideOp::kShiftLeft           ? Op::kShiftLeft
                      : w.op == WideOp::kShiftRightLogical ? Op::kShiftRightLogical
                                                           : Op::kShiftRightArithmetic;
        Emit(op, v.reg + i, base.reg + i, amount);
      }
    }
    return true;
  }

  // dst pair = a pair op b pair, for add, subtract and multiply (low 64
  // bits). The partial results take registers of their own and the last
  // two instructions write the halves, so no copy is left.
  auto arithmetic = [this](SpvOp op, uint32_t lo, uint32_t a_lo, uint32_t b_lo) {
    const uint32_t hi = lo + 1;
    if (op == SpvOp::OpIMul) {  // (a_hi a_lo) * (b_hi b_lo), low 64 bits
      const uint32_t carried = NewRegisters(1), cross_a = NewRegisters(1), partial = NewRegisters(1),
                     cross_b = NewRegisters(1);
      Emit(Op::kIMulHighU, carried, a_lo, b_lo);
      Emit(Op::kIMul, cross_a, a_lo, b_lo + 1);
      Emit(Op::kIAdd, partial, carried, cross_a);
      Emit(Op::kIMul, lo, a_lo, b_lo);
      Emit(Op::kIMul, cross_b, a_lo + 1, b_lo);
      Emit(Op::kIAdd, hi, partial, cross_b);
      return;
    }
    const bool add = op == SpvOp::OpIAdd;
    const uint32_t carry = NewRegisters(1), high = NewRegisters(1);
    Emit(add ? Op::kIAddCarry : Op::kISubBorrow, carry, a_lo, b_lo);
    Emit(add ? Op::kIAdd : Op::kISub, high, a_lo + 1, b_lo + 1);
    Emit(add ? Op::kIAdd : Op::kISub, lo, a_lo, b_lo);
    Emit(add ? Op::kIAdd : Op::kISub, hi, high, carry);
  };
  switch (inst.op) {
    case SpvOp::OpIAdd:
    case SpvOp::OpISub:
    case SpvOp::OpIMul: {
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& b = Value(inst[3]);
      const CompiledValue& v = Define(inst[1], result_type, ScalarCount(result_type));
      if (a.count != v.count || b.count != v.count) return Fail("mismatched 64-bit operands");
      for (uint32_t i = 0; i < v.count; i += 2) arithmetic(inst.op, v.reg + i, a.reg + i, b.reg + i);
      return true;
    }
    case SpvOp::OpIAddCarry:
    case SpvOp::OpISubBorrow:
    case SpvOp::OpUMulExtended:
    case SpvOp::OpSMulExtended: {
      // struct { low result, carry / borrow / high half }, each as wide as the operands.
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& b = Value(inst[3]);
      const uint32_t n = a.count;
      if (!IsWideInteger(a.type) || b.count != n) return Fail("mismatched 64-bit operands");
      const CompiledValue& v = Define(inst[1], result_type, 2 * n);
      for (uint32_t i = 0; i < n; i += 2) {
        const uint32_t low = v.reg + i, high = v.reg + n + i;
        if (inst.op == SpvOp::OpUMulExtended || inst.op == SpvOp::OpSMulExtended) {
          wide_op(inst.op == SpvOp::OpUMulExtended ? WideOp::kMulHighU : WideOp::kMulHighS, high, a.reg + i, b.reg + i);
          arithmetic(SpvOp::OpIMul, low, a.reg + i, b.reg + i);
          continue;
        }
        // Carry: the sum wrapped below a; borrow: a below b.
        const bool add = inst.op == SpvOp::OpIAddCarry;
        const uint32_t result = NewRegisters(2);
        arithmetic(add ? SpvOp::OpIAdd : SpvOp::OpISub, result, a.reg + i, b.reg + i);
        if (add)
          wide_op(WideOp::kULess, high, result, a.reg + i);
        else
          wide_op(WideOp::kULess, high, a.reg + i, b.reg + i);
        Emit(Op::kMove, high + 1, ConstantRegister(0));
        Emit(Op::kMove, low, result);
        Emit(Op::kMove, low + 1, result + 1);
      }
      return true;
    }
    case SpvOp::OpSNegate: {  // ~a + 1: the carry into the high word is 1 when the low word is 0
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& v = Define(inst[1], result_type, a.count);
      for (uint32_t i = 0; i < v.count; i += 2) {
        const uint32_t carry = NewRegisters(1);
        Emit(Op::kIEqual, carry, a.reg + i, ConstantRegister(0));
        Emit(Op::kBitNot, v.reg + i + 1, a.reg + i + 1);
        Emit(Op::kIAdd, v.reg + i + 1, v.reg + i + 1, carry);
        Emit(Op::kSNegate, v.reg + i, a.reg + i);
      }
      return true;
    }
    case SpvOp::OpIEqual:
    case SpvOp::OpINotEqual: {
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& b = Value(inst[3]);
      const CompiledValue& v = Define(inst[1], result_type, ScalarCount(result_type));
      if (a.count != 2 * v.count || b.count != 2 * v.count) return Fail("mismatched 64-bit operands");
      const bool equal = inst.op == SpvOp::OpIEqual;
      for (uint32_t i = 0; i < v.count; ++i) {
        const uint32_t t = NewRegisters(1);
        Emit(equal ? Op::kIEqual : Op::kINotEqual, t, a.reg + 2 * i, b.reg + 2 * i);
        Emit(equal ? Op::kIEqual : Op::kINotEqual, v.reg + i, a.reg + 2 * i + 1, b.reg + 2 * i + 1);
        Emit(equal ? Op::kBitAnd : Op::kBitOr, v.reg + i, v.reg + i, t);
      }
      return true;
    }
    case SpvOp::OpUConvert:
    case SpvOp::OpSConvert: {
      // 32 <-> 64 bits: zero- or sign-extend, or keep the low word.
      const CompiledValue& a = Value(inst[2]);
      const bool from_wide = IsWide(a.type), to_wide = IsWide(result_type);
      const uint32_t components = from_wide ? a.count / 2 : a.count;
      const CompiledValue& v = Define(inst[1], result_type, ScalarCount(result_type));
      for (uint32_t i = 0; i < components; ++i) {
        const uint32_t from = a.reg + (from_wide ? 2 * i : i), to = v.reg + (to_wide ? 2 * i : i);
        Emit(Op::kMove, to, from);
        if (from_wide && to_wide) Emit(Op::kMove, to + 1, from + 1);
        if (!from_wide && to_wide) {
          if (inst.op == SpvOp::OpSConvert)
            Emit(Op::kShiftRightArithmetic, to + 1, from, ConstantRegister(31));
          else
            Emit(Op::kMove, to + 1, ConstantRegister(0));
        }
      }
      return true;
    }
    case SpvOp::OpConvertUToF:
    case SpvOp::OpConvertSToF:
    case SpvOp::OpConvertFToU:
    case SpvOp::OpConvertFToS: {
      const bool to_float = inst.op == SpvOp::OpConvertUToF || inst.op == SpvOp::OpConvertSToF;
      const CompiledValue& a = Value(inst[2]);
      if (to_float ? (!IsWideInteger(a.type) || IsWide(result_type)) : (IsWide(a.type) || !IsWideInteger(result_type)))
        return Fail("64-bit float operand of an integer instruction");
      const WideOp op = inst.op == SpvOp::OpConvertUToF   ? WideOp::kUToF
                        : inst.op == SpvOp::OpConvertSToF ? WideOp::kSToF
                        : inst.op == SpvOp::OpConvertFToU ? WideOp::kFToU
                                                          : WideOp::kFToS;
      const uint32_t components = to_float ? a.count / 2 : a.count;
      const CompiledValue& v = Define(inst[1], result_type, ScalarCount(result_type));
      for (uint32_t i = 0; i < components; ++i)
        wide_op(op, v.reg + (to_float ? i : 2 * i), a.reg + (to_float ? 2 * i : i));
      return true;
    }
    case SpvOp::OpBitCount:
    case SpvOp::OpBitReverse: {
      const CompiledValue& a = Value(inst[2]);
      if (!IsWideInteger(a.type)) return Fail("64-bit bit count of a 32-bit value");
      const uint32_t components = a.count / 2;
      const bool wide_result = IsWide(result_type);
      const CompiledValue& v = Define(inst[1], result_type, ScalarCount(result_type));
      for (uint32_t i = 0; i < components; ++i) {
        if (inst.op == SpvOp::OpBitReverse) {
          wide_op(WideOp::kBitReverse, v.reg + 2 * i, a.reg + 2 * i);
        } else {
          wide_op(WideOp::kBitCount, v.reg + (wide_result ? 2 * i : i), a.reg + 2 * i);
          if (wide_result) Emit(Op::kMove, v.reg + 2 * i + 1, ConstantRegister(0));
        }
      }
      return true;
    }
    case SpvOp::OpBitFieldInsert:
    case SpvOp::OpBitFieldSExtract:
    case SpvOp::OpBitFieldUExtract: {
      const bool insert = inst.op == SpvOp::OpBitFieldInsert;
      const CompiledValue& base = Value(inst[2]);
      // Offset and count are scalars, perhaps 64-bit: their low words.
      const uint32_t offset = Value(inst[insert ? 4 : 3]).reg, count = Value(inst[insert ? 5 : 4]).reg;
      const CompiledValue& v = Define(inst[1], result_type, base.count);
      if (!IsWideInteger(base.type)) {  // a 32-bit field with 64-bit offset or count
        const uint32_t insert_reg = insert ? Value(inst[3]).reg : 0;
        for (uint32_t i = 0; i < base.count; ++i) {
          if (insert)
            Emit(Op::kBitFieldInsert, v.reg + i, base.reg + i, insert_reg + i, offset, 0, count);
          else
            Emit(inst.op == SpvOp::OpBitFieldSExtract ? Op::kBitFieldSExtract : Op::kBitFieldUExtract, v.reg + i,
                 base.reg + i, offset, count);
        }
        return true;
      }
      for (uint32_t i = 0; i < base.count; i += 2) {
        if (insert)
          wide_op(WideOp::kBitFieldInsert, v.reg + i, base.reg + i, Value(inst[3]).reg + i, offset, count);
        else
          wide_op(inst.op == SpvOp::OpBitFieldSExtract ? WideOp::kBitFieldSExtract : WideOp::kBitFieldUExtract,
                  v.reg + i, base.reg + i, offset, count);
      }
      return true;
    }
    case SpvOp::OpExtInst: {
      if (module_.ext_inst_sets.count(inst[2]) == 0 || module_.ext_inst_sets.at(inst[2]) != 1)
        return Fail("64-bit operands of an extended instruction set other than GLSL.std.450");
      const uint32_t glsl = inst[3];
      const CompiledValue& a = Value(inst[4]);
      if (!IsWideInteger(a.type)) return Fail("64-bit float operand of an integer instruction");
      const uint32_t components = a.count / 2;
      switch (glsl) {
        case GLSLstd450SAbs:
        case GLSLstd450SSign: {
          const CompiledValue& v = Define(inst[1], result_type, a.count);
          for (uint32_t i = 0; i < a.count; i += 2)
            wide_op(glsl == GLSLstd450SAbs ? WideOp::kSAbs : WideOp::kSSign, v.reg + i, a.reg + i);
          return true;
        }
        case GLSLstd450SMin:
        case GLSLstd450SMax:
        case GLSLstd450UMin:
        case GLSLstd450UMax: {
          const CompiledValue& b = Value(inst[5]);
          const WideOp op = glsl == GLSLstd450SMin   ? WideOp::kSMin
                            : glsl == GLSLstd450SMax ? WideOp::kSMax
                            : glsl == GLSLstd450UMin ? WideOp::kUMin
                                                     : WideOp::kUMax;
          const CompiledValue& v = Define(inst[1], result_type, a.count);
          for (uint32_t i = 0; i < a.count; i += 2) wide_op(op, v.reg + i, a.reg + i, b.reg + i);
          return true;
        }
        case GLSLstd450SClamp:
        case GLSLstd450UClamp: {  // min(max(x, low), high)
          const bool is_signed = glsl == GLSLstd450SClamp;
          const CompiledValue& low = Value(inst[5]);
          const CompiledValue& high = Value(inst[6]);
          const CompiledValue& v = Define(inst[1], result_type, a.count);
          for (uint32_t i = 0; i < a.count; i += 2) {
            const uint32_t t = NewRegisters(2);
            wide_op(is_signed ? WideOp::kSMax : WideOp::kUMax, t, a.reg + i, low.reg + i);
            wide_op(is_signed ? WideOp::kSMin : WideOp::kUMin, v.reg + i, t, high.reg + i);
          }
          return true;
        }
        case GLSLstd450FindILsb:
        case GLSLstd450FindSMsb:
        case GLSLstd450FindUMsb: {
          const WideOp op = glsl == GLSLstd450FindILsb   ? WideOp::kFindLsb
                            : glsl == GLSLstd450FindSMsb ? WideOp::kFindSMsb
                                                         : WideOp::kFindUMsb;
          const bool wide_result = IsWide(result_type);
          const CompiledValue& v = Define(inst[1], result_type, ScalarCount(result_type));
          for (uint32_t i = 0; i < components; ++i) {
            const uint32_t to = v.reg + (wide_result ? 2 * i : i);
            wide_op(op, to, a.reg + 2 * i);
            if (wide_result) Emit(Op::kShiftRightArithmetic, to + 1, to, ConstantRegister(31));  // -1 stays -1
          }
          return true;
        }
        default:
          return Fail("GLSL.std.450 instruction " + std::to_string(glsl) + " on 64-bit values is not supported");
      }
    }
    default:
      return Fail(std::string("64-bit operands of opcode ") + std::to_string(uint32_t(inst.op)) +
                  " are not supported");
  }
}

}  // namespace duet::spirv_exec

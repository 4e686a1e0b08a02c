// Arithmetic, comparisons, conversions, composites, matrices and integer dot
// products: every vector or matrix operation becomes one scalar IR
// instruction per component. GLSL.std.450 is in compile_glsl.cpp.
#include <spirv/unified1/GLSL.std.450.h>

#include "spirv_exec/compiler.h"

namespace duet::spirv_exec {

using SpvOp = spv::Op;

namespace {

// SPIR-V opcodes that map one-to-one onto a scalar IR op, component-wise.
struct LaneOp {
  SpvOp spirv;
  Op ir;
  uint8_t operands;  // 1 or 2
};

constexpr LaneOp kLaneOps[] = {
    {SpvOp::OpIAdd, Op::kIAdd, 2}, {SpvOp::OpISub, Op::kISub, 2}, {SpvOp::OpIMul, Op::kIMul, 2},
    {SpvOp::OpSDiv, Op::kSDiv, 2}, {SpvOp::OpUDiv, Op::kUDiv, 2}, {SpvOp::OpSRem, Op::kSRem, 2},
    {SpvOp::OpSMod, Op::kSMod, 2}, {SpvOp::OpUMod, Op::kUMod, 2}, {SpvOp::OpSNegate, Op::kSNegate, 1},
    {SpvOp::OpShiftLeftLogical, Op::kShiftLeft, 2}, {SpvOp::OpShiftRightLogical, Op::kShiftRightLogical, 2},
    {SpvOp::OpShiftRightArithmetic, Op::kShiftRightArithmetic, 2},
    {SpvOp::OpBitwiseAnd, Op::kBitAnd, 2}, {SpvOp::OpBitwiseOr, Op::kBitOr, 2}, {SpvOp::OpBitwiseXor, Op::kBitXor, 2},
    {SpvOp::OpNot, Op::kBitNot, 1}, {SpvOp::OpBitReverse, Op::kBitReverse, 1}, {SpvOp::OpBitCount, Op::kBitCount, 1},
    {SpvOp::OpFAdd, Op::kFAdd, 2}, {SpvOp::OpFSub, Op::kFSub, 2}, {SpvOp::OpFMul, Op::kFMul, 2},
    {SpvOp::OpFDiv, Op::kFDiv, 2}, {SpvOp::OpFRem, Op::kFRem, 2}, {SpvOp::OpFMod, Op::kFMod, 2},
    {SpvOp::OpFNegate, Op::kFNegate, 1},
    {SpvOp::OpIEqual, Op::kIEqual, 2}, {SpvOp::OpINotEqual, Op::kINotEqual, 2},
    {SpvOp::OpSLessThan, Op::kSLess, 2}, {SpvOp::OpSLessThanEqual, Op::kSLessEqual, 2},
    {SpvOp::OpSGreaterThan, Op::kSGreater, 2}, {SpvOp::OpSGreaterThanEqual, Op::kSGreaterEqual, 2},
    {SpvOp::OpULessThan, Op::kULess, 2}, {SpvOp::OpULessThanEqual, Op::kULessEqual, 2},
    {SpvOp::OpUGreaterThan, Op::kUGreater, 2}, {SpvOp::OpUGreaterThanEqual, Op::kUGreaterEqual, 2},
    {SpvOp::OpFOrdEqual, Op::kFOrdEqual, 2}, {SpvOp::OpFOrdNotEqual, Op::kFOrdNotEqual, 2},
    {SpvOp::OpFOrdLessThan, Op::kFOrdLess, 2}, {SpvOp::OpFOrdLessThanEqual, Op::kFOrdLessEqual, 2},
    {SpvOp::OpFOrdGreaterThan, Op::kFOrdGreater, 2}, {SpvOp::OpFOrdGreaterThanEqual, Op::kFOrdGreaterEqual, 2},
    {SpvOp::OpFUnordEqual, Op::kFUnordEqual, 2}, {SpvOp::OpFUnordNotEqual, Op::kFUnordNotEqual, 2},
    {SpvOp::OpFUnordLessThan, Op::kFUnordLess, 2}, {SpvOp::OpFUnordLessThanEqual, Op::kFUnordLessEqual, 2},
    {SpvOp::OpFUnordGreaterThan, Op::kFUnordGreater, 2},
    {SpvOp::OpFUnordGreaterThanEqual, Op::kFUnordGreaterEqual, 2},
    {SpvOp::OpIsNan, Op::kIsNan, 1}, {SpvOp::OpIsInf, Op::kIsInf, 1},
    // Booleans are 0 or 1, so logical ops are bit ops and comparisons.
    {SpvOp::OpLogicalAnd, Op::kBitAnd, 2}, {SpvOp::OpLogicalOr, Op::kBitOr, 2},
    {SpvOp::OpLogicalEqual, Op::kIEqual, 2}, {SpvOp::OpLogicalNotEqual, Op::kINotEqual, 2},
    {SpvOp::OpLogicalNot, Op::kLogicalNot, 1},
    {SpvOp::OpConvertFToS, Op::kConvertFToS, 1}, {SpvOp::OpConvertFToU, Op::kConvertFToU, 1},
    {SpvOp::OpConvertSToF, Op::kConvertSToF, 1}, {SpvOp::OpConvertUToF, Op::kConvertUToF, 1},
    {SpvOp::OpBitcast, Op::kMove, 1},
    {SpvOp::OpQuantizeToF16, Op::kQuantizeToF16, 1},
};

bool IsIntegerDot(SpvOp op) {
  switch (op) {
    case SpvOp::OpSDot: case SpvOp::OpUDot: case SpvOp::OpSUDot:
    case SpvOp::OpSDotAccSat: case SpvOp::OpUDotAccSat: case SpvOp::OpSUDotAccSat:
      return true;
    default:
      return false;
  }
}

// Ops whose 64-bit forms act on each 32-bit word alone: on a 64-bit value
// (two registers) the ordinary per-register code is right.
bool WordWise(SpvOp op) {
  switch (op) {
    case SpvOp::OpBitwiseAnd: case SpvOp::OpBitwiseOr: case SpvOp::OpBitwiseXor: case SpvOp::OpNot:
    case SpvOp::OpBitcast:
      return true;
    default:
      return false;
  }
}

// Ops that compute on their operands' values (not just move them).
// Dot, vector-times-scalar and matrix products.
bool IsFloatProduct(SpvOp op) { return op >= SpvOp::OpVectorTimesScalar && op <= SpvOp::OpDot; }

bool Arithmetic(SpvOp op) {
  for (const LaneOp& lane : kLaneOps)
    if (lane.spirv == op) return !WordWise(op);
  switch (op) {
    case SpvOp::OpUConvert: case SpvOp::OpSConvert: case SpvOp::OpFConvert: case SpvOp::OpExtInst:
    case SpvOp::OpBitFieldInsert: case SpvOp::OpBitFieldSExtract: case SpvOp::OpBitFieldUExtract:
    case SpvOp::OpIAddCarry: case SpvOp::OpISubBorrow: case SpvOp::OpUMulExtended: case SpvOp::OpSMulExtended:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool Compiler::IsWide(uint32_t type) const {
  const SpirvType* t = &module_.Type(type);
  if (t->kind == SpvOp::OpTypeVector) t = &module_.Type(t->element);
  return (t->kind == SpvOp::OpTypeInt || t->kind == SpvOp::OpTypeFloat) && t->width == 64;
}

// Instructions with a 64-bit operand or result that compute on it go to
// compile_wide.cpp; moves, selects and bitwise ops work register by register.
bool Compiler::CompileWideInstruction(const SpirvInstruction& inst, bool* handled) {
  *handled = false;
  if (!Arithmetic(inst.op)) return true;
  const uint32_t first_operand = inst.op == SpvOp::OpExtInst ? 4 : 2;
  bool wide = IsWide(inst[0]);
  for (uint32_t i = first_operand; i < inst.word_count; ++i) wide = wide || IsWide(TypeOfId(inst[i]));
  if (!wide) return true;
  *handled = true;
  return CompileInt64Instruction(inst);
}

bool Compiler::CompileAluInstruction(const SpirvInstruction& inst, bool* handled) {
  if (!compiling_narrow_) {
    if (!CompileDoubleInstruction(inst, handled)) return false;
    if (*handled) return true;
  }
  // (Products of half vectors and matrices too, so that their results are
  // rounded to half like every other half arithmetic's.)
  if (!compiling_narrow_ && (Arithmetic(inst.op) || IsIntegerDot(inst.op) || inst.op == SpvOp::OpNot ||
                             inst.op == SpvOp::OpBitcast || IsFloatProduct(inst.op))) {
    if (!CompileNarrowInstruction(inst, handled)) return false;
    if (*handled) return true;
  }
  if (!CompileWideInstruction(inst, handled)) return false;
  if (*handled) return true;
  *handled = true;
  const SpirvModule& m = module_;

  for (const LaneOp& lane : kLaneOps) {
    if (lane.spirv != inst.op) continue;
    const uint32_t count = ScalarCount(inst[0]);
    const CompiledValue& a = Value(inst[2]);
    const CompiledValue& b = lane.operands == 2 ? Value(inst[3]) : a;
    const CompiledValue& v = Define(inst[1], inst[0], count);
    if (a.count < count || b.count < count) return Fail("64-bit or mismatched operands are not supported yet");
    for (uint32_t i = 0; i < count; ++i) Emit(lane.ir, v.reg + i, a.reg + i, b.reg + i);
    return true;
  }

  if (IsIntegerDot(inst.op)) return CompileIntegerDot(inst);

  switch (inst.op) {
    case SpvOp::OpCopyObject:
    case SpvOp::OpCopyLogical:  // registers have no layout: a logical copy is a copy
    case SpvOp::OpUConvert:
    case SpvOp::OpSConvert:
    case SpvOp::OpFConvert: {
      // Between 32-bit and narrower types (compile_narrow.cpp makes narrow
      // results canonical); 64-bit ones are compile_wide.cpp's.
      const CompiledValue& a = Value(inst[2]);
      if (a.kind == CompiledValue::Kind::kImage || a.kind == CompiledValue::Kind::kPointer) {
        // A copy of an image, sampler or pointer (nonuniformEXT(sampler2D(...))
        // copies one to decorate it) is the same value.
        const CompiledValue copy = a;
        values_[inst[1]] = copy;
        return true;
      }
      if (a.count != ScalarCount(inst[0])) return Fail("width-changing conversions are not supported yet");
      const CompiledValue& v = Define(inst[1], inst[0], a.count);
      for (uint32_t i = 0; i < a.count; ++i) Emit(Op::kMove, v.reg + i, a.reg + i);
      return true;
    }
    case SpvOp::OpUndef:
      Define(inst[1], inst[0], ScalarCount(inst[0]));
      return true;
    case SpvOp::OpBitFieldInsert: {  // base, insert, offset, count (offset and count are scalars)
      const CompiledValue& base = Value(inst[2]);
      const CompiledValue& insert = Value(inst[3]);
      const uint32_t offset = Value(inst[4]).reg, count = Value(inst[5]).reg;
      const CompiledValue& v = Define(inst[1], inst[0], base.count);
      for (uint32_t i = 0; i < base.count; ++i)
        Emit(Op::kBitFieldInsert, v.reg + i, base.reg + i, insert.reg + i, offset, 0, count);
      return true;
    }
    case SpvOp::OpBitFieldSExtract:
    case SpvOp::OpBitFieldUExtract: {  // base, offset, count
      const CompiledValue& base = Value(inst[2]);
      const uint32_t offset = Value(inst[3]).reg, count = Value(inst[4]).reg;
      const CompiledValue& v = Define(inst[1], inst[0], base.count);
      const Op ir = inst.op == SpvOp::OpBitFieldSExtract ? Op::kBitFieldSExtract : Op::kBitFieldUExtract;
      for (uint32_t i = 0; i < base.count; ++i) Emit(ir, v.reg + i, base.reg + i, offset, count);
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
      const CompiledValue& v = Define(inst[1], inst[0], 2 * n);
      Op low = Op::kIAdd, high = Op::kIAddCarry;
      if (inst.op == SpvOp::OpISubBorrow) low = Op::kISub, high = Op::kISubBorrow;
      if (inst.op == SpvOp::OpUMulExtended) low = Op::kIMul, high = Op::kIMulHighU;
      if (inst.op == SpvOp::OpSMulExtended) low = Op::kIMul, high = Op::kIMulHighS;
      for (uint32_t i = 0; i < n; ++i) {
        Emit(low, v.reg + i, a.reg + i, b.reg + i);
        Emit(high, v.reg + n + i, a.reg + i, b.reg + i);
      }
      return true;
    }
    case SpvOp::OpAny:
    case SpvOp::OpAll: {  // booleans are 0 or 1
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& v = Define(inst[1], inst[0], 1);
      Emit(Op::kMove, v.reg, a.reg);
      const Op combine = inst.op == SpvOp::OpAny ? Op::kBitOr : Op::kBitAnd;
      for (uint32_t i = 1; i < a.count; ++i) Emit(combine, v.reg, v.reg, a.reg + i);
      return true;
    }
    case SpvOp::OpDemoteToHelperInvocation:
      Emit(Op::kDemote);
      return true;
    case SpvOp::OpReadClockKHR: {
      // A uint64 or a uvec2: two registers, low word first, either way.
      if (ScalarCount(inst[0]) != 2) return Fail("OpReadClockKHR result is not 64 bits");
      Emit(Op::kReadClock, Define(inst[1], inst[0], 2).reg);
      return true;
    }
    case SpvOp::OpIsHelperInvocationEXT:
      Emit(Op::kIsHelper, Define(inst[1], inst[0], 1).reg);
      return true;
    case SpvOp::OpSelect: {
      if (module_.Type(inst[0]).kind == SpvOp::OpTypePointer) {
        // A select between arrays of storage buffers (no address points to
        // such an array): access chains into it select between their
        // results (CompileAccessChain).
        if (PointerOf(inst[3]).descriptor_variable != 0 || PointerOf(inst[4]).descriptor_variable != 0) {
          descriptor_selects_[inst[1]] = {inst[2], inst[3], inst[4]};
          return true;
        }
        // Variable pointers: a select between addresses.
        const uint32_t t = PointerRegisters(inst[3]), f = PointerRegisters(inst[4]);
        const CompiledValue& cond = Value(inst[2]);
        const CompiledValue& v = Define(inst[1], inst[0], 2);
        for (uint32_t i = 0; i < 2; ++i) Emit(Op::kSelect, v.reg + i, cond.reg, t + i, f + i);
        return true;
      }
      const uint32_t count = ScalarCount(inst[0]);
      const CompiledValue& cond = Value(inst[2]);
      const CompiledValue& t = Value(inst[3]);
      const CompiledValue& f = Value(inst[4]);
      const CompiledValue& v = Define(inst[1], inst[0], count);
      // A scalar condition selects whole composites; a vector one selects
      // each component's registers (two for a 64-bit component).
      for (uint32_t i = 0; i < count; ++i)
        Emit(Op::kSelect, v.reg + i, cond.reg + (cond.count == 1 ? 0 : i * cond.count / count), t.reg + i, f.reg + i);
      return true;
    }
    case SpvOp::OpCompositeConstruct: {
      const uint32_t count = ScalarCount(inst[0]);
      const CompiledValue& v = Define(inst[1], inst[0], count);
      uint32_t at = 0;
      for (uint32_t i = 2; i < inst.word_count; ++i) {
        const CompiledValue& part = Value(inst[i]);
        for (uint32_t c = 0; c < part.count && at < count; ++c) Emit(Op::kMove, v.reg + at++, part.reg + c);
      }
      return true;
    }
    case SpvOp::OpCompositeExtract:
    case SpvOp::OpCompositeInsert: {
      const bool insert = inst.op == SpvOp::OpCompositeInsert;
      const CompiledValue& composite = Value(inst[insert ? 3 : 2]);
      // Walk the indices to the part's first register and type.
      uint32_t type = composite.type;
      uint32_t offset = 0;
      for (uint32_t i = insert ? 4 : 3; i < inst.word_count; ++i) {
        const SpirvType& t = m.Type(type);
        const uint32_t index = inst[i];
        if (t.kind == SpvOp::OpTypeStruct) {
          for (uint32_t k = 0; k < index; ++k) offset += ScalarCount(t.members[k]);
          type = t.members[index];
        } else {
          offset += index * ScalarCount(t.element);
          type = t.element;
        }
      }
      const uint32_t part_count = ScalarCount(type);
      if (!insert) {
        const CompiledValue& v = Define(inst[1], inst[0], part_count);
        for (uint32_t c = 0; c < part_count; ++c) Emit(Op::kMove, v.reg + c, composite.reg + offset + c);
        return true;
      }
      const CompiledValue& object = Value(inst[2]);
      const CompiledValue& v = Define(inst[1], inst[0], composite.count);
      for (uint32_t c = 0; c < composite.count; ++c) Emit(Op::kMove, v.reg + c, composite.reg + c);
      for (uint32_t c = 0; c < part_count; ++c) Emit(Op::kMove, v.reg + offset + c, object.reg + c);
      return true;
    }
    case SpvOp::OpVectorShuffle: {
      // Components of `w` registers each (2 for 64-bit ones).
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& b = Value(inst[3]);
      const uint32_t count = inst.word_count - 4;
      const uint32_t w = IsWide(inst[0]) ? 2 : 1;
      const uint32_t a_components = a.count / w;
      const CompiledValue& v = Define(inst[1], inst[0], count * w);
      for (uint32_t i = 0; i < count; ++i) {
        const uint32_t pick = inst[4 + i];
        if (pick == 0xFFFFFFFF) continue;  // undefined component
        const uint32_t from = pick < a_components ? a.reg + pick * w : b.reg + (pick - a_components) * w;
        for (uint32_t k = 0; k < w; ++k) Emit(Op::kMove, v.reg + i * w + k, from + k);
      }
      return true;
    }
    case SpvOp::OpVectorExtractDynamic: {
      const CompiledValue& vec = Value(inst[2]);
      const CompiledValue& index = Value(inst[3]);  // (a 64-bit index: its low word)
      const uint32_t w = IsWide(inst[0]) ? 2 : 1;
      const CompiledValue& v = Define(inst[1], inst[0], w);
      const uint32_t is = NewRegisters(1);
      for (uint32_t k = 0; k < w; ++k) Emit(Op::kMove, v.reg + k, vec.reg + k);
      for (uint32_t i = 1; i < vec.count / w; ++i) {
        Emit(Op::kIEqual, is, index.reg, ConstantRegister(i));
        for (uint32_t k = 0; k < w; ++k) Emit(Op::kSelect, v.reg + k, is, vec.reg + i * w + k, v.reg + k);
      }
      return true;
    }
    case SpvOp::OpVectorInsertDynamic: {
      const CompiledValue& vec = Value(inst[2]);
      const CompiledValue& component = Value(inst[3]);
      const CompiledValue& index = Value(inst[4]);
      const uint32_t w = IsWide(component.type) ? 2 : 1;
      const CompiledValue& v = Define(inst[1], inst[0], vec.count);
      const uint32_t is = NewRegisters(1);
      for (uint32_t i = 0; i < vec.count / w; ++i) {
        Emit(Op::kIEqual, is, index.reg, ConstantRegister(i));
        for (uint32_t k = 0; k < w; ++k) Emit(Op::kSelect, v.reg + i * w + k, is, component.reg + k, vec.reg + i * w + k);
      }
      return true;
    }
    case SpvOp::OpVectorTimesScalar:
    case SpvOp::OpMatrixTimesScalar: {
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& s = Value(inst[3]);
      const CompiledValue& v = Define(inst[1], inst[0], a.count);
      for (uint32_t i = 0; i < a.count; ++i) Emit(Op::kFMul, v.reg + i, a.reg + i, s.reg);
      return true;
    }
    case SpvOp::OpDot: {
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& b = Value(inst[3]);
      const CompiledValue& v = Define(inst[1], inst[0], 1);
      Emit(Op::kFMul, v.reg, a.reg, b.reg);
      EmitHalfStepRounding(v.reg);
      const uint32_t t = NewRegisters(1);
      for (uint32_t i = 1; i < a.count; ++i) {
        Emit(Op::kFMul, t, a.reg + i, b.reg + i);
        EmitHalfStepRounding(t);
        Emit(Op::kFAdd, v.reg, v.reg, t);
        EmitHalfStepRounding(v.reg);
      }
      return true;
    }
    case SpvOp::OpMatrixTimesVector:
    case SpvOp::OpVectorTimesMatrix:
    case SpvOp::OpMatrixTimesMatrix:
    case SpvOp::OpOuterProduct:
    case SpvOp::OpTranspose:
      return CompileMatrixInstruction(inst);
    case SpvOp::OpExtInst:
      return CompileGlslInstruction(inst);
    case SpvOp::OpDPdx:
    case SpvOp::OpDPdy:
    case SpvOp::OpDPdxFine:
    case SpvOp::OpDPdyFine:
    case SpvOp::OpDPdxCoarse:
    case SpvOp::OpDPdyCoarse:
    case SpvOp::OpFwidth:
    case SpvOp::OpFwidthFine:
    case SpvOp::OpFwidthCoarse: {
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& v = Define(inst[1], inst[0], a.count);
      program_.uses_derivatives = true;
      const bool coarse = inst.op == SpvOp::OpDPdxCoarse || inst.op == SpvOp::OpDPdyCoarse ||
                          inst.op == SpvOp::OpFwidthCoarse;
      const uint16_t fine = coarse ? 0 : 1;
      const bool x = inst.op == SpvOp::OpDPdx || inst.op == SpvOp::OpDPdxFine || inst.op == SpvOp::OpDPdxCoarse;
      const bool y = inst.op == SpvOp::OpDPdy || inst.op == SpvOp::OpDPdyFine || inst.op == SpvOp::OpDPdyCoarse;
      const uint32_t t = NewRegisters(2);
      for (uint32_t c = 0; c < a.count; ++c) {
        if (x) Emit(Op::kDerivX, v.reg + c, a.reg + c, 0, 0, fine);
        if (y) Emit(Op::kDerivY, v.reg + c, a.reg + c, 0, 0, fine);
        if (!x && !y) {  // fwidth = |dx| + |dy|
          Emit(Op::kDerivX, t, a.reg + c, 0, 0, fine);
          Emit(Op::kDerivY, t + 1, a.reg + c, 0, 0, fine);
          Emit(Op::kGlslUnary, t, t, 0, 0, GLSLstd450FAbs);
          Emit(Op::kGlslUnary, t + 1, t + 1, 0, 0, GLSLstd450FAbs);
          Emit(Op::kFAdd, v.reg + c, t, t + 1);
        }
      }
      return true;
    }
    default:
      *handled = false;
      return true;
  }
}

// OpSDot, OpUDot, OpSUDot and their *AccSat forms. Operands are vectors of
// 32-bit integers (DotProductInputAll) or 32-bit integers holding four 8-bit
// components (PackedVectorFormat4x8Bit). Products and their sum wrap (an
// overflow there is undefined); only the accumulation saturates.
bool Compiler::CompileIntegerDot(const SpirvInstruction& inst) {
  const CompiledValue& a = Value(inst[2]);
  const CompiledValue& b = Value(inst[3]);
  const bool accumulate = inst.op == SpvOp::OpSDotAccSat || inst.op == SpvOp::OpUDotAccSat ||
                          inst.op == SpvOp::OpSUDotAccSat;
  const bool a_signed = inst.op != SpvOp::OpUDot && inst.op != SpvOp::OpUDotAccSat;
  const bool b_signed = inst.op == SpvOp::OpSDot || inst.op == SpvOp::OpSDotAccSat;
  const bool packed = module_.Type(a.type).kind != SpvOp::OpTypeVector;
  const uint32_t accumulator = accumulate ? Value(inst[4]).reg : kNoRegister;
  if (ScalarCount(inst[0]) != 1) return Fail("integer dot product with a result wider than 32 bits");
  const CompiledValue& v = Define(inst[1], inst[0], 1);
  const uint32_t sum = accumulate ? NewRegisters(1) : v.reg;
  const uint32_t product = NewRegisters(1);
  if (packed) {
    const uint32_t x = NewRegisters(2), y = x + 1, eight = ConstantRegister(8);
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t offset = ConstantRegister(8 * i);
      Emit(a_signed ? Op::kBitFieldSExtract : Op::kBitFieldUExtract, x, a.reg, offset, eight);
      Emit(b_signed ? Op::kBitFieldSExtract : Op::kBitFieldUExtract, y, b.reg, offset, eight);
      Emit(Op::kIMul, i == 0 ? sum : product, x, y);
      if (i != 0) Emit(Op::kIAdd, sum, sum, product);
    }
  } else {
    // Two's complement: the low 32 bits of a product do not depend on signedness.
    for (uint32_t i = 0; i < a.count; ++i) {
      Emit(Op::kIMul, i == 0 ? sum : product, a.reg + i, b.reg + i);
      if (i != 0) Emit(Op::kIAdd, sum, sum, product);
    }
  }
  if (!accumulate) return true;
  const Narrow narrow = NarrowOf(inst[0]);
  if (narrow == Narrow::kNone) {
    Emit(a_signed ? Op::kIAddSatS : Op::kIAddSatU, v.reg, sum, accumulator);
    return true;
  }
  // 8/16-bit result (operands sign-extended by compile_narrow where signed):
  // the sum fits in 32 bits, then saturates to the result's width.
  const bool result_signed = inst.op != SpvOp::OpUDotAccSat;
  const uint32_t bits = narrow == Narrow::kInt8 ? 8 : 16;
  Emit(Op::kIAdd, v.reg, sum, accumulator);
  if (result_signed)
    Emit(Op::kGlslTernary, v.reg, v.reg, ConstantRegister(~0u << (bits - 1)), ConstantRegister((1u << (bits - 1)) - 1),
         uint16_t(GLSLstd450SClamp));
  else
    Emit(Op::kGlslBinary, v.reg, v.reg, ConstantRegister((1u << bits) - 1), 0, uint16_t(GLSLstd450UMin));
  return true;
}

bool Compiler::CompileMatrixInstruction(const SpirvInstruction& inst) {
  const SpirvModule& m = module_;
  // Column-major: element (column c, row r) of a matrix with R rows is register c*R + r.
  auto rows_of = [&](uint32_t matrix_type) { return m.Type(m.Type(matrix_type).element).count; };
  const uint32_t t = NewRegisters(1);
  auto dot_into = [&](uint32_t dst, auto a_at, auto b_at, uint32_t n) {
    Emit(Op::kFMul, dst, a_at(0), b_at(0));
    EmitHalfStepRounding(dst);
    for (uint32_t k = 1; k < n; ++k) {
      Emit(Op::kFMul, t, a_at(k), b_at(k));
      EmitHalfStepRounding(t);
      Emit(Op::kFAdd, dst, dst, t);
      EmitHalfStepRounding(dst);
    }
  };
  switch (inst.op) {
    case SpvOp::OpMatrixTimesVector: {  // result[r] = sum_c M[c][r] * v[c]
      const CompiledValue& mat = Value(inst[2]);
      const CompiledValue& vec = Value(inst[3]);
      const uint32_t rows = rows_of(mat.type), cols = m.Type(mat.type).count;
      const CompiledValue& v = Define(inst[1], inst[0], rows);
      for (uint32_t r = 0; r < rows; ++r)
        dot_into(v.reg + r, [&](uint32_t c) { return mat.reg + c * rows + r; }, [&](uint32_t c) { return vec.reg + c; },
                 cols);
      return true;
    }
    case SpvOp::OpVectorTimesMatrix: {  // result[c] = dot(v, M[c])
      const CompiledValue& vec = Value(inst[2]);
      const CompiledValue& mat = Value(inst[3]);
      const uint32_t rows = rows_of(mat.type), cols = m.Type(mat.type).count;
      const CompiledValue& v = Define(inst[1], inst[0], cols);
      for (uint32_t c = 0; c < cols; ++c)
        dot_into(v.reg + c, [&](uint32_t r) { return vec.reg + r; }, [&](uint32_t r) { return mat.reg + c * rows + r; },
                 rows);
      return true;
    }
    case SpvOp::OpMatrixTimesMatrix: {  // result[c][r] = sum_k A[k][r] * B[c][k]
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& b = Value(inst[3]);
      const uint32_t rows = rows_of(a.type), inner = m.Type(a.type).count, cols = m.Type(b.type).count;
      const CompiledValue& v = Define(inst[1], inst[0], rows * cols);
      for (uint32_t c = 0; c < cols; ++c)
        for (uint32_t r = 0; r < rows; ++r)
          dot_into(v.reg + c * rows + r, [&](uint32_t k) { return a.reg + k * rows + r; },
                   [&](uint32_t k) { return b.reg + c * inner + k; }, inner);
      return true;
    }
    case SpvOp::OpOuterProduct: {  // result[c][r] = a[r] * b[c]
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& b = Value(inst[3]);
      const CompiledValue& v = Define(inst[1], inst[0], a.count * b.count);
      for (uint32_t c = 0; c < b.count; ++c)
        for (uint32_t r = 0; r < a.count; ++r) Emit(Op::kFMul, v.reg + c * a.count + r, a.reg + r, b.reg + c);
      return true;
    }
    case SpvOp::OpTranspose: {
      const CompiledValue& a = Value(inst[2]);
      const uint32_t rows = rows_of(a.type), cols = m.Type(a.type).count;
      const CompiledValue& v = Define(inst[1], inst[0], rows * cols);
      for (uint32_t c = 0; c < cols; ++c)
        for (uint32_t r = 0; r < rows; ++r) Emit(Op::kMove, v.reg + r * cols + c, a.reg + c * rows + r);
      return true;
    }
    default:
      return Fail("unsupported matrix instruction");
  }
}

}  // namespace duet::spirv_exec

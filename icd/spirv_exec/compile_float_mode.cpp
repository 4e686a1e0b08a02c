// Float controls (SPV_KHR_float_controls): DenormFlushToZero and
// RoundingModeRTZ, per float width. The lane kernels and the double
// operations compute with SSE, so an instruction under a non-default mode
// runs between two kFloatModes that set and restore MXCSR: denormal
// operands of a flushing width read as zero (DAZ), denormal results of one
// become zero (FTZ), results of a rounding-toward-zero width round so (RZ).
// Halves compute in float, then round to half: toward zero too under RTZ
// (EmitCanonical). Non-arithmetic instructions (loads, stores, copies,
// composites, selects, bitcasts) keep denormals whatever the mode.
#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>

#include "spirv_exec/compiler.h"

namespace duet::spirv_exec {

using SpvOp = spv::Op;

namespace {

// The arithmetic instructions float controls apply to.
bool IsFloatArithmetic(SpvOp op) {
  const auto in = [op](SpvOp first, SpvOp last) { return op >= first && op <= last; };
  return in(SpvOp::OpConvertFToU, SpvOp::OpQuantizeToF16) ||  // conversions
         in(SpvOp::OpSNegate, SpvOp::OpFMod) ||               // arithmetic
         in(SpvOp::OpVectorTimesScalar, SpvOp::OpDot) ||      // vector and matrix products
         in(SpvOp::OpFOrdEqual, SpvOp::OpFUnordGreaterThanEqual) ||
         in(SpvOp::OpDPdx, SpvOp::OpFwidthCoarse) || op == SpvOp::OpExtInst;
}

}  // namespace

uint32_t Compiler::FloatWidthOf(uint32_t type) const {
  if (type == 0) return 0;
  const SpirvType* t = &module_.Type(type);
  if (t->kind == SpvOp::OpTypeMatrix) t = &module_.Type(t->element);
  if (t->kind == SpvOp::OpTypeVector) t = &module_.Type(t->element);
  return t->kind == SpvOp::OpTypeFloat ? t->width : 0;
}

uint32_t Compiler::FloatModeOf(const SpirvInstruction& inst) const {
  if ((flush_widths_ | toward_zero_widths_) == 0 || !IsFloatArithmetic(inst.op) || inst.word_count < 3) return 0;
  const uint32_t result = FloatWidthOf(inst[0]) / 16;
  // The first operand: after the instruction set and number of an OpExtInst.
  const uint32_t first_operand = inst.op == SpvOp::OpExtInst ? 4 : 2;
  const uint32_t operand =
      inst.word_count > first_operand ? FloatWidthOf(module_.TypeOf(inst[first_operand])) / 16 : 0;
  uint32_t mode = 0;
  if ((flush_widths_ & operand) != 0) mode |= kMxcsrDenormalsAreZero;
  if ((flush_widths_ & result) != 0) mode |= kMxcsrFlushToZero;
  // A conversion's FPRoundingMode decoration wins over the execution mode.
  const Decorations* d = module_.DecorationsOf(inst[1]);
  const bool decorated = d != nullptr && d->rounding_mode >= 0;
  if (decorated ? d->rounding_mode == int32_t(spv::FPRoundingMode::RTZ) : (toward_zero_widths_ & result) != 0)
    mode |= kMxcsrRoundTowardZero;
  return mode == 0 ? 0 : kMxcsrDefault | mode;
}

void Compiler::EmitHalfStepRounding(uint32_t reg) {
  if (compiling_narrow_ && (toward_zero_widths_ & 1) != 0) Emit(Op::kRoundToF16TowardZero, reg, reg);
}

void Compiler::EmitFlushDenormal(uint32_t width, uint32_t reg) {
  const uint32_t sign = ConstantRegister(0x80000000u), zero = ConstantRegister(0);
  const uint32_t bits = NewRegisters(1), denormal = NewRegisters(1), signed_zero = NewRegisters(1);
  const uint32_t high = width == 64 ? reg + 1 : reg;
  if (width == 16) {
    // A half held as the float of its value: below the smallest normal half, 2^-14.
    Emit(Op::kBitAnd, bits, high, ConstantRegister(0x7FFFFFFFu));
    Emit(Op::kULess, denormal, bits, ConstantRegister(0x38800000u));
  } else {
    // Exponent bits all zero (in the high word of a double).
    Emit(Op::kBitAnd, bits, high, ConstantRegister(width == 32 ? 0x7F800000u : 0x7FF00000u));
    Emit(Op::kIEqual, denormal, bits, zero);
  }
  Emit(Op::kBitAnd, signed_zero, high, sign);
  Emit(Op::kSelect, high, denormal, signed_zero, high);
  if (width == 64) Emit(Op::kSelect, reg, denormal, zero, reg);
}

void Compiler::EmitFlushDenormals(const SpirvInstruction& inst) {
  if (flush_widths_ == 0 || !IsFloatArithmetic(inst.op)) return;
  // UnpackHalf2x16 reads halves: denormal ones flush as DenormFlushToZero 16 says.
  const bool glsl = inst.op == SpvOp::OpExtInst && module_.ext_inst_sets.count(inst[2]) != 0 &&
                    module_.ext_inst_sets.at(inst[2]) == 1;
  if (glsl && inst[3] == GLSLstd450UnpackHalf2x16) {
    if ((flush_widths_ & 1) == 0) return;
    const CompiledValue& v = Value(inst[1]);
    for (uint32_t r = 0; r < v.count; ++r) EmitFlushDenormal(16, v.reg + r);
    return;
  }
  // Of a struct (ModfStruct, FrexpStruct): its first member.
  uint32_t type = inst[0];
  if (module_.Type(type).kind == SpvOp::OpTypeStruct && !module_.Type(type).members.empty())
    type = module_.Type(type).members[0];
  const uint32_t width = FloatWidthOf(type);
  if (width == 0 || (flush_widths_ & (width / 16)) == 0) return;
  const CompiledValue& v = Value(inst[1]);
  const uint32_t step = width == 64 ? 2 : 1;
  for (uint32_t r = 0; r < ScalarCount(type) && r < v.count; r += step) EmitFlushDenormal(width, v.reg + r);
}

std::vector<std::pair<uint32_t, CompiledValue>> Compiler::FlushHalfOperands(const SpirvInstruction& inst) {
  std::vector<std::pair<uint32_t, CompiledValue>> originals;
  if ((flush_widths_ & 1) == 0 || !IsFloatArithmetic(inst.op)) return originals;
  for (uint32_t i = inst.op == SpvOp::OpExtInst ? 4 : 2; i < inst.word_count; ++i) {
    const uint32_t id = inst[i];
    if (FloatWidthOf(TypeOfId(id)) != 16) continue;
    if (std::any_of(originals.begin(), originals.end(), [id](const auto& o) { return o.first == id; })) continue;
    const CompiledValue original = Value(id);
    CompiledValue flushed = original;
    flushed.reg = NewRegisters(original.count);
    for (uint32_t r = 0; r < original.count; ++r) {
      Emit(Op::kMove, flushed.reg + r, original.reg + r);
      EmitFlushDenormal(16, flushed.reg + r);
    }
    originals.emplace_back(id, original);
    values_[id] = flushed;
  }
  return originals;
}

}  // namespace duet::spirv_exec

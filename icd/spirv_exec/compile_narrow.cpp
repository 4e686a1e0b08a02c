// 8- and 16-bit types (shaderInt8, shaderInt16, shaderFloat16). A narrow
// scalar takes one register, in a canonical form that keeps the 32-bit
// code right for it:
//   8/16-bit integers: zero-extended (upper bits 0);
//   16-bit floats: the 32-bit float of the same value.
// An instruction on narrow values runs as its 32-bit form, with the
// operands it reads as signed sign-extended first, and its narrow results
// put back in canonical form: integers masked, floats rounded to the
// nearest half. A 32-bit float operation rounded once more to half gives
// the correctly rounded half result for +, -, *, / and sqrt (24 >= 2*11 + 2
// significand bits), and never less precision than the spec asks
// elsewhere. Memory keeps the real widths (compile_memory.cpp: kLoadNarrow,
// kStoreNarrow, kHalfToFloat, kFloatToHalf); bitcasts repack bits here.
#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>

#include "spirv_exec/compiler.h"
#include "texel/float_formats.h"

namespace duet::spirv_exec {

using SpvOp = spv::Op;

namespace {

// Operands of an OpExtInst that it reads as signed integers (see
// SignedOperandsOf).
uint32_t SignedOperands(const SpirvInstruction& inst, bool glsl_set) {
  if (inst.op != SpvOp::OpExtInst) return SignedOperandsOf(inst.op);
  if (!glsl_set) return 0;
  switch (inst[3]) {
    case GLSLstd450SAbs: case GLSLstd450SSign: case GLSLstd450SMin: case GLSLstd450SMax:
    case GLSLstd450SClamp: case GLSLstd450FindSMsb:
      return ~0u;
    default:
      return 0;
  }
}

// Whether the half results of `inst` on halves are halves already: it
// picks, negates or rounds its operands to integers (which halves hold
// exactly), so rounding them again would do nothing.
bool ExactOnHalves(const SpirvInstruction& inst, bool glsl_set) {
  if (inst.op == SpvOp::OpFNegate) return true;
  if (inst.op != SpvOp::OpExtInst || !glsl_set) return false;
  switch (inst[3]) {
    case GLSLstd450FAbs: case GLSLstd450FSign: case GLSLstd450Floor: case GLSLstd450Ceil: case GLSLstd450Trunc:
    case GLSLstd450Round: case GLSLstd450RoundEven: case GLSLstd450FMin: case GLSLstd450FMax:
    case GLSLstd450FClamp: case GLSLstd450NMin: case GLSLstd450NMax: case GLSLstd450NClamp:
      return true;
    default:
      return false;
  }
}

}  // namespace

uint32_t SignedOperandsOf(spv::Op op) {
  switch (op) {
    case SpvOp::OpSDiv: case SpvOp::OpSRem: case SpvOp::OpSMod:
    case SpvOp::OpSLessThan: case SpvOp::OpSLessThanEqual: case SpvOp::OpSGreaterThan:
    case SpvOp::OpSGreaterThanEqual: case SpvOp::OpSMulExtended:
    case SpvOp::OpSDot: case SpvOp::OpSDotAccSat:
      return ~0u;
    case SpvOp::OpShiftRightArithmetic: case SpvOp::OpSConvert: case SpvOp::OpConvertSToF:
    case SpvOp::OpSUDot:
      return 1;
    case SpvOp::OpSUDotAccSat:
      return 1 | 4;  // (the accumulator is signed)
    default:
      return 0;
  }
}

Compiler::Narrow Compiler::NarrowOf(uint32_t type) const {
  if (type == 0) return Narrow::kNone;
  const SpirvType* t = &module_.Type(type);
  if (t->kind == SpvOp::OpTypeVector) t = &module_.Type(t->element);
  if (t->kind == SpvOp::OpTypeFloat && t->width == 16) return Narrow::kHalf;
  if (t->kind != SpvOp::OpTypeInt) return Narrow::kNone;
  return t->width == 8 ? Narrow::kInt8 : t->width == 16 ? Narrow::kInt16 : Narrow::kNone;
}

void Compiler::NarrowRegisters(uint32_t type, std::vector<Narrow>* out, std::vector<bool>* is_signed) const {
  const SpirvType& t = module_.Type(type);
  switch (t.kind) {
    case SpvOp::OpTypeVector:
      out->insert(out->end(), t.count, NarrowOf(type));
      if (is_signed != nullptr) is_signed->insert(is_signed->end(), t.count, module_.Type(t.element).is_signed);
      return;
    case SpvOp::OpTypeMatrix:
    case SpvOp::OpTypeArray:
      for (uint32_t i = 0; i < t.count; ++i) NarrowRegisters(t.element, out, is_signed);
      return;
    case SpvOp::OpTypeStruct:
      for (uint32_t member : t.members) NarrowRegisters(member, out, is_signed);
      return;
    default:
      out->insert(out->end(), ScalarCount(type), NarrowOf(type));
      if (is_signed != nullptr) is_signed->insert(is_signed->end(), ScalarCount(type), t.is_signed);
      return;
  }
}

// Stage inputs and outputs are registers the pipeline fills and reads as
// 32-bit values (storageInputOutput16): an input arrives as the vertex
// fetch or the interpolation left it, so a load makes it canonical; a
// store sign-extends signed narrow integers, which attachments and the
// next stage read as 32-bit ones.
void Compiler::CanonicalizeInterfaceLoad(uint32_t type, uint32_t first) {
  std::vector<Narrow> kinds;
  NarrowRegisters(type, &kinds);
  for (uint32_t j = 0; j < kinds.size(); ++j) EmitCanonical(kinds[j], first + j);
}

uint32_t Compiler::InterfaceStoreValue(uint32_t type, uint32_t first) {
  std::vector<Narrow> kinds;
  std::vector<bool> is_signed;
  NarrowRegisters(type, &kinds, &is_signed);
  auto signed_int = [&](uint32_t j) {
    return (kinds[j] == Narrow::kInt8 || kinds[j] == Narrow::kInt16) && is_signed[j];
  };
  bool any = false;
  for (uint32_t j = 0; j < kinds.size(); ++j) any = any || signed_int(j);
  if (!any) return first;
  const uint32_t extended = NewRegisters(uint32_t(kinds.size()));
  for (uint32_t j = 0; j < kinds.size(); ++j) {
    if (signed_int(j)) EmitSignExtend(kinds[j], extended + j, first + j);
    else Emit(Op::kMove, extended + j, first + j);
  }
  return extended;
}

uint32_t CanonicalNarrow(Compiler::Narrow narrow, uint32_t word) {
  switch (narrow) {
    case Compiler::Narrow::kInt8: return word & 0xFF;
    case Compiler::Narrow::kInt16: return word & 0xFFFF;
    case Compiler::Narrow::kHalf: return std::bit_cast<uint32_t>(texel::HalfToFloat(uint16_t(word)));
    default: return word;
  }
}

void Compiler::EmitCanonical(Narrow narrow, uint32_t reg) {
  switch (narrow) {
    case Narrow::kInt8: Emit(Op::kBitAnd, reg, reg, ConstantRegister(0xFF)); return;
    case Narrow::kInt16: Emit(Op::kBitAnd, reg, reg, ConstantRegister(0xFFFF)); return;
    case Narrow::kHalf:  // RoundingModeRTZ for halves (compile_float_mode.cpp)
      Emit((toward_zero_widths_ & 1) != 0 ? Op::kRoundToF16TowardZero : Op::kRoundToF16, reg, reg);
      return;
    default: return;
  }
}

void Compiler::EmitSignExtend(Narrow narrow, uint32_t dst, uint32_t src) {
  Emit(Op::kBitFieldSExtract, dst, src, ConstantRegister(0), ConstantRegister(narrow == Narrow::kInt8 ? 8 : 16));
}

bool Compiler::CompileNarrowInstruction(const SpirvInstruction& inst, bool* handled) {
  *handled = false;
  const bool ext = inst.op == SpvOp::OpExtInst;
  const uint32_t first_operand = ext ? 4 : 2;
  std::vector<Narrow> results;
  NarrowRegisters(inst[0], &results);
  bool narrow = std::any_of(results.begin(), results.end(), [](Narrow n) { return n != Narrow::kNone; });
  for (uint32_t i = first_operand; i < inst.word_count; ++i) narrow = narrow || NarrowOf(TypeOfId(inst[i])) != Narrow::kNone;
  if (!narrow) return true;
  *handled = true;
  if (inst.op == SpvOp::OpBitcast) return CompileNarrowBitcast(inst);

  const uint32_t width = NarrowOf(TypeOfId(inst[first_operand])) == Narrow::kInt8 ? 8 : 16;
  const bool glsl_set = ext && module_.ext_inst_sets.count(inst[2]) != 0 && module_.ext_inst_sets.at(inst[2]) == 1;
  if (glsl_set && (inst[3] == GLSLstd450Degrees || inst[3] == GLSLstd450Radians) && !results.empty() &&
      results[0] == Narrow::kHalf) {
    // x * C in 16-bit arithmetic: C is a half too (what the CTS expects),
    // and the product of two halves is exact in a float, so rounds once.
    const float c = inst[3] == GLSLstd450Degrees ? 57.295779513f : 0.017453292520f;
    const uint32_t half_c = CanonicalNarrow(Narrow::kHalf, texel::FloatToHalf(c));
    const CompiledValue& a = Value(inst[4]);
    const CompiledValue& v = Define(inst[1], inst[0], a.count);
    for (uint32_t r = 0; r < a.count; ++r) {
      Emit(Op::kFMul, v.reg + r, a.reg + r, ConstantRegister(half_c));
      EmitCanonical(Narrow::kHalf, v.reg + r);
    }
    return true;
  }
  switch (inst.op) {
    case SpvOp::OpIAddCarry:
    case SpvOp::OpUMulExtended:
    case SpvOp::OpSMulExtended: {
      // The whole sum or product fits in 32 bits: its low and high halves.
      const bool is_signed = inst.op == SpvOp::OpSMulExtended;
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& b = Value(inst[3]);
      const Narrow kind = NarrowOf(a.type);
      const uint32_t n = a.count;
      const CompiledValue& v = Define(inst[1], inst[0], 2 * n);
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t x = a.reg + i, y = b.reg + i;
        if (is_signed) {
          x = NewRegisters(1), y = NewRegisters(1);
          EmitSignExtend(kind, x, a.reg + i);
          EmitSignExtend(kind, y, b.reg + i);
        }
        const uint32_t full = NewRegisters(1);
        Emit(inst.op == SpvOp::OpIAddCarry ? Op::kIAdd : Op::kIMul, full, x, y);
        Emit(is_signed ? Op::kShiftRightArithmetic : Op::kShiftRightLogical, v.reg + n + i, full,
             ConstantRegister(width));
        EmitCanonical(kind, v.reg + n + i);
        Emit(Op::kMove, v.reg + i, full);
        EmitCanonical(kind, v.reg + i);
      }
      return true;
    }
    default:
      break;
  }

  // Sign-extend what the instruction reads as signed, run its 32-bit form,
  // then make its narrow results canonical.
  const uint32_t signed_operands = SignedOperands(inst, glsl_set);
  std::vector<std::pair<uint32_t, CompiledValue>> saved;
  for (uint32_t i = first_operand; i < inst.word_count; ++i) {
    const uint32_t bit = i - first_operand;
    if (bit >= 32 || ((signed_operands >> bit) & 1) == 0) continue;
    const uint32_t id = inst[i];
    const Narrow kind = NarrowOf(TypeOfId(id));
    if (kind != Narrow::kInt8 && kind != Narrow::kInt16) continue;
    if (std::any_of(saved.begin(), saved.end(), [&](const auto& s) { return s.first == id; })) continue;
    const CompiledValue original = Value(id);
    CompiledValue extended = original;
    extended.reg = NewRegisters(original.count);
    for (uint32_t r = 0; r < original.count; ++r) EmitSignExtend(kind, extended.reg + r, original.reg + r);
    saved.emplace_back(id, original);
    values_[id] = extended;
  }
  bool inner_handled = false;
  compiling_narrow_ = true;
  const bool ok = CompileAluInstruction(inst, &inner_handled);
  compiling_narrow_ = false;
  for (const auto& [id, original] : saved) values_[id] = original;
  if (!ok) return false;
  if (!inner_handled) return Fail("unsupported instruction on 8- or 16-bit values");
  const CompiledValue& v = Value(inst[1]);
  // A conversion decorated FPRoundingMode rounds as it says, whatever the
  // RoundingMode* execution mode (EmitCanonical) asks of other instructions.
  const Decorations* d = module_.DecorationsOf(inst[1]);
  const int32_t rounding = d != nullptr ? d->rounding_mode : -1;
  for (uint32_t r = 0; r < v.count && r < results.size(); ++r) {
    if (rounding >= 0 && results[r] == Narrow::kHalf) {
      const bool toward_zero = rounding == int32_t(spv::FPRoundingMode::RTZ);
      Emit(toward_zero ? Op::kRoundToF16TowardZero : Op::kRoundToF16, v.reg + r, v.reg + r);
      continue;
    }
    if (inst.op == SpvOp::OpBitReverse && results[r] != Narrow::kHalf && results[r] != Narrow::kNone) {
      // The reversed bits sit at the top of the 32-bit word.
      Emit(Op::kShiftRightLogical, v.reg + r, v.reg + r, ConstantRegister(32 - width));
      continue;
    }
    if (results[r] == Narrow::kHalf && ExactOnHalves(inst, glsl_set)) continue;
    EmitCanonical(results[r], v.reg + r);
  }
  return true;
}

// A bitcast between types of different component widths: the source's bits
// laid out little-endian in 32-bit words, then cut into the result's
// components (16-bit floats converted to and from their bits).
bool Compiler::CompileNarrowBitcast(const SpirvInstruction& inst) {
  const CompiledValue& a = Value(inst[2]);
  if (a.kind == CompiledValue::Kind::kPointer) return Fail("bitcast of a pointer to an 8- or 16-bit value");
  auto component_bits = [this](uint32_t type) {
    const SpirvType* t = &module_.Type(type);
    if (t->kind == SpvOp::OpTypeVector) t = &module_.Type(t->element);
    return t->kind == SpvOp::OpTypePointer ? 64u : t->width;
  };
  const uint32_t from_bits = component_bits(a.type), to_bits = component_bits(inst[0]);
  const Narrow from = NarrowOf(a.type), to = NarrowOf(inst[0]);
  const uint32_t count = ScalarCount(inst[0]);
  const CompiledValue& v = Define(inst[1], inst[0], count);
  if (from_bits == to_bits) {  // same layout: only 16-bit floats change form
    for (uint32_t i = 0; i < count; ++i) {
      if (from == Narrow::kHalf && to != Narrow::kHalf)
        Emit(Op::kFloatToHalf, v.reg + i, a.reg + i);
      else if (to == Narrow::kHalf && from != Narrow::kHalf)
        Emit(Op::kHalfToFloat, v.reg + i, a.reg + i);
      else
        Emit(Op::kMove, v.reg + i, a.reg + i);
    }
    return true;
  }
  // The source's bits, one register per 32 bits (a 16-bit total fills half of one).
  const uint32_t source_components = from_bits == 64 ? a.count / 2 : a.count;
  const uint32_t total_bits = source_components * from_bits;
  const uint32_t words = (total_bits + 31) / 32;
  uint32_t packed = a.reg;
  if (from_bits < 32) {
    packed = NewRegisters(words);
    for (uint32_t w = 0; w < words; ++w) Emit(Op::kMove, packed + w, ConstantRegister(0));
    const uint32_t t = NewRegisters(1);
    for (uint32_t i = 0; i < source_components; ++i) {
      const uint32_t bit = i * from_bits;
      uint32_t bits = a.reg + i;
      if (from == Narrow::kHalf) {
        Emit(Op::kFloatToHalf, t, bits);
        bits = t;
      }
      Emit(Op::kShiftLeft, t, bits, ConstantRegister(bit % 32));
      Emit(Op::kBitOr, packed + bit / 32, packed + bit / 32, t);
    }
  }
  if (to_bits >= 32) {
    for (uint32_t w = 0; w < words && w < count; ++w) Emit(Op::kMove, v.reg + w, packed + w);
    return true;
  }
  for (uint32_t j = 0; j < count; ++j) {
    const uint32_t bit = j * to_bits;
    Emit(Op::kShiftRightLogical, v.reg + j, packed + bit / 32, ConstantRegister(bit % 32));
    Emit(Op::kBitAnd, v.reg + j, v.reg + j, ConstantRegister((1u << to_bits) - 1));
    if (to == Narrow::kHalf) Emit(Op::kHalfToFloat, v.reg + j, v.reg + j);
  }
  return true;
}

}  // namespace duet::spirv_exec

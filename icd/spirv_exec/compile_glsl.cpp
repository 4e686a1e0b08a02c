// GLSL.std.450: component-wise functions become one IR instruction per
// component; geometric functions are expanded into arithmetic; packing,
// determinants and inverses are IR instructions of their own.
#include <spirv/unified1/GLSL.std.450.h>

#include <bit>

#include "spirv_exec/compiler.h"

namespace duet::spirv_exec {

using SpvOp = spv::Op;

namespace {

// GLSL.std.450 instructions that work component by component.
bool IsComponentwiseGlsl(uint32_t op, uint32_t* operands) {
  switch (op) {
    case GLSLstd450Round: case GLSLstd450RoundEven: case GLSLstd450Trunc: case GLSLstd450FAbs:
    case GLSLstd450SAbs: case GLSLstd450FSign: case GLSLstd450SSign: case GLSLstd450Floor:
    case GLSLstd450Ceil: case GLSLstd450Fract: case GLSLstd450Radians: case GLSLstd450Degrees:
    case GLSLstd450Sin: case GLSLstd450Cos: case GLSLstd450Tan: case GLSLstd450Asin:
    case GLSLstd450Acos: case GLSLstd450Atan: case GLSLstd450Sinh: case GLSLstd450Cosh:
    case GLSLstd450Tanh: case GLSLstd450Asinh: case GLSLstd450Acosh: case GLSLstd450Atanh:
    case GLSLstd450Exp: case GLSLstd450Log: case GLSLstd450Exp2: case GLSLstd450Log2:
    case GLSLstd450Sqrt: case GLSLstd450InverseSqrt: case GLSLstd450FindILsb:
    case GLSLstd450FindSMsb: case GLSLstd450FindUMsb:
      *operands = 1;
      return true;
    case GLSLstd450Atan2: case GLSLstd450Pow: case GLSLstd450FMin: case GLSLstd450UMin:
    case GLSLstd450SMin: case GLSLstd450FMax: case GLSLstd450UMax: case GLSLstd450SMax:
    case GLSLstd450Step: case GLSLstd450Ldexp: case GLSLstd450NMin: case GLSLstd450NMax:
      *operands = 2;
      return true;
    case GLSLstd450FClamp: case GLSLstd450UClamp: case GLSLstd450SClamp: case GLSLstd450FMix:
    case GLSLstd450SmoothStep: case GLSLstd450Fma: case GLSLstd450NClamp:
      *operands = 3;
      return true;
    default:
      return false;
  }
}

uint32_t FloatBits(float f) { return std::bit_cast<uint32_t>(f); }

// dst = dot(a, b) over n components (registers from a and b).
void EmitDot(Compiler& c, uint32_t dst, uint32_t a, uint32_t b, uint32_t n) {
  c.Emit(Op::kFMul, dst, a, b);
  if (n == 1) return;
  const uint32_t t = c.NewRegisters(1);
  for (uint32_t i = 1; i < n; ++i) {
    c.Emit(Op::kFMul, t, a + i, b + i);
    c.Emit(Op::kFAdd, dst, dst, t);
  }
}

// Components packed into one 32-bit value by a Pack* instruction (0: not one).
uint32_t PackedComponents(uint32_t op) {
  switch (op) {
    case GLSLstd450PackSnorm4x8: case GLSLstd450PackUnorm4x8:
    case GLSLstd450UnpackSnorm4x8: case GLSLstd450UnpackUnorm4x8:
      return 4;
    case GLSLstd450PackSnorm2x16: case GLSLstd450PackUnorm2x16: case GLSLstd450PackHalf2x16:
    case GLSLstd450UnpackSnorm2x16: case GLSLstd450UnpackUnorm2x16: case GLSLstd450UnpackHalf2x16:
      return 2;
    default:
      return 0;
  }
}

bool IsPack(uint32_t op) {
  return op == GLSLstd450PackSnorm4x8 || op == GLSLstd450PackUnorm4x8 || op == GLSLstd450PackSnorm2x16 ||
         op == GLSLstd450PackUnorm2x16 || op == GLSLstd450PackHalf2x16;
}

}  // namespace

bool Compiler::CompileGlslInstruction(const SpirvInstruction& inst) {
  if (module_.ext_inst_sets.count(inst[2]) == 0 || module_.ext_inst_sets.at(inst[2]) != 1)
    return Fail("unsupported extended instruction set");
  const uint32_t op = inst[3];
  const uint32_t count = ScalarCount(inst[0]);
  uint32_t operands = 0;
  if (IsComponentwiseGlsl(op, &operands)) {
    const CompiledValue& v = Define(inst[1], inst[0], count);
    uint32_t regs[3] = {};
    uint32_t counts[3] = {};
    for (uint32_t i = 0; i < operands; ++i) {
      const CompiledValue& a = Value(inst[4 + i]);
      regs[i] = a.reg;
      counts[i] = a.count;
    }
    // Scalar operands of vector forms (step(edge, v), mix(x, y, a)...) broadcast.
    auto at = [&](uint32_t i, uint32_t c) { return regs[i] + (counts[i] == 1 ? 0 : c); };
    const Op ir = operands == 1 ? Op::kGlslUnary : operands == 2 ? Op::kGlslBinary : Op::kGlslTernary;
    for (uint32_t c = 0; c < count; ++c) Emit(ir, v.reg + c, at(0, c), at(1, c), at(2, c), uint16_t(op));
    return true;
  }
  if (const uint32_t packed = PackedComponents(op); packed != 0) {
    const CompiledValue& a = Value(inst[4]);
    const CompiledValue& v = Define(inst[1], inst[0], count);
    if (IsPack(op)) {
      Emit(Op::kGlslPack, v.reg, a.reg, packed, 0, uint16_t(op));
    } else {
      Emit(Op::kGlslUnpack, v.reg, a.reg, packed, 0, uint16_t(op));
    }
    return true;
  }
  const uint32_t t = NewRegisters(2);
  switch (op) {
    case GLSLstd450Length:
    case GLSLstd450Distance:
    case GLSLstd450Normalize: {
      const CompiledValue& a = Value(inst[4]);
      uint32_t x = a.reg;
      if (op == GLSLstd450Distance) {  // length(a - b)
        const CompiledValue& b = Value(inst[5]);
        x = NewRegisters(a.count);
        for (uint32_t c = 0; c < a.count; ++c) Emit(Op::kFSub, x + c, a.reg + c, b.reg + c);
      }
      const uint32_t sum = NewRegisters(1);
      EmitDot(*this, sum, x, x, a.count);
      const CompiledValue& v = Define(inst[1], inst[0], count);
      if (op != GLSLstd450Normalize) {
        Emit(Op::kGlslUnary, v.reg, sum, 0, 0, GLSLstd450Sqrt);
        return true;
      }
      Emit(Op::kGlslUnary, t, sum, 0, 0, GLSLstd450InverseSqrt);
      for (uint32_t c = 0; c < count; ++c) Emit(Op::kFMul, v.reg + c, x + c, t);
      return true;
    }
    case GLSLstd450Cross: {
      const CompiledValue& a = Value(inst[4]);
      const CompiledValue& b = Value(inst[5]);
      const CompiledValue& v = Define(inst[1], inst[0], 3);
      for (uint32_t c = 0; c < 3; ++c) {
        const uint32_t i = (c + 1) % 3, j = (c + 2) % 3;
        Emit(Op::kFMul, t, a.reg + i, b.reg + j);
        Emit(Op::kFMul, t + 1, a.reg + j, b.reg + i);
        Emit(Op::kFSub, v.reg + c, t, t + 1);
      }
      return true;
    }
    case GLSLstd450Reflect: {  // I - 2 * dot(N, I) * N
      const CompiledValue& i_vec = Value(inst[4]);
      const CompiledValue& n = Value(inst[5]);
      const uint32_t d = NewRegisters(1);
      EmitDot(*this, d, n.reg, i_vec.reg, count);
      Emit(Op::kFAdd, d, d, d);
      const CompiledValue& v = Define(inst[1], inst[0], count);
      for (uint32_t c = 0; c < count; ++c) {
        Emit(Op::kFMul, t, d, n.reg + c);
        Emit(Op::kFSub, v.reg + c, i_vec.reg + c, t);
      }
      return true;
    }
    case GLSLstd450Refract: {
      // k = 1 - eta^2 (1 - dot(N, I)^2); k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N
      const CompiledValue& i_vec = Value(inst[4]);
      const CompiledValue& n = Value(inst[5]);
      const uint32_t eta = Value(inst[6]).reg;
      const uint32_t one = ConstantRegister(FloatBits(1.0f)), zero = ConstantRegister(0);
      const uint32_t d = NewRegisters(1), k = NewRegisters(1), total_internal = NewRegisters(1), f = NewRegisters(1);
      EmitDot(*this, d, n.reg, i_vec.reg, count);
      Emit(Op::kFMul, t, d, d);
      Emit(Op::kFSub, t, one, t);
      Emit(Op::kFMul, t + 1, eta, eta);
      Emit(Op::kFMul, t, t + 1, t);
      Emit(Op::kFSub, k, one, t);
      Emit(Op::kFOrdLess, total_internal, k, zero);
      Emit(Op::kGlslUnary, t, k, 0, 0, GLSLstd450Sqrt);
      Emit(Op::kFMul, f, eta, d);
      Emit(Op::kFAdd, f, f, t);
      const CompiledValue& v = Define(inst[1], inst[0], count);
      for (uint32_t c = 0; c < count; ++c) {
        Emit(Op::kFMul, t, eta, i_vec.reg + c);
        Emit(Op::kFMul, t + 1, f, n.reg + c);
        Emit(Op::kFSub, t, t, t + 1);
        Emit(Op::kSelect, v.reg + c, total_internal, zero, t);
      }
      return true;
    }
    case GLSLstd450FaceForward: {  // dot(Nref, I) < 0 ? N : -N
      const CompiledValue& n = Value(inst[4]);
      const CompiledValue& i_vec = Value(inst[5]);
      const CompiledValue& nref = Value(inst[6]);
      const uint32_t d = NewRegisters(1);
      EmitDot(*this, d, nref.reg, i_vec.reg, count);
      Emit(Op::kFOrdLess, d, d, ConstantRegister(0));
      const CompiledValue& v = Define(inst[1], inst[0], count);
      for (uint32_t c = 0; c < count; ++c) {
        Emit(Op::kFNegate, t, n.reg + c);
        Emit(Op::kSelect, v.reg + c, d, n.reg + c, t);
      }
      return true;
    }
    case GLSLstd450Modf:
    case GLSLstd450Frexp: {
      // The fractional part / significand is the result; the whole part /
      // exponent goes through the pointer operand.
      const CompiledValue& x = Value(inst[4]);
      const CompiledValue& out = Value(inst[5]);
      if (out.kind != CompiledValue::Kind::kPointer) return Fail("modf/frexp without a pointer operand");
      const CompiledValue& v = Define(inst[1], inst[0], count);
      const uint32_t second = NewRegisters(count);
      for (uint32_t c = 0; c < count; ++c) {
        Emit(Op::kGlslUnary, v.reg + c, x.reg + c, 0, 0, uint16_t(op));
        if (op == GLSLstd450Modf) Emit(Op::kGlslUnary, second + c, x.reg + c, 0, 0, GLSLstd450Trunc);
        else Emit(Op::kFrexpExponent, second + c, x.reg + c);
      }
      return StoreThrough(out.pointer, second);
    }
    case GLSLstd450ModfStruct:
    case GLSLstd450FrexpStruct: {
      // struct { fraction or significand; whole part or exponent }.
      const CompiledValue& x = Value(inst[4]);
      const CompiledValue& v = Define(inst[1], inst[0], 2 * x.count);
      for (uint32_t c = 0; c < x.count; ++c) {
        Emit(Op::kGlslUnary, v.reg + c, x.reg + c, 0, 0, uint16_t(op));
        if (op == GLSLstd450ModfStruct) Emit(Op::kGlslUnary, v.reg + x.count + c, x.reg + c, 0, 0, GLSLstd450Trunc);
        else Emit(Op::kFrexpExponent, v.reg + x.count + c, x.reg + c);
      }
      return true;
    }
    case GLSLstd450Determinant:
    case GLSLstd450MatrixInverse: {
      const CompiledValue& m = Value(inst[4]);
      const uint32_t n = module_.Type(m.type).count;
      if (n < 2 || n > 4 || m.count != n * n) return Fail("determinant/inverse of an unsupported matrix");
      const CompiledValue& v = Define(inst[1], inst[0], count);
      Emit(op == GLSLstd450Determinant ? Op::kDeterminant : Op::kMatrixInverse, v.reg, m.reg, n);
      return true;
    }
    case GLSLstd450InterpolateAtCentroid:
    case GLSLstd450InterpolateAtSample:
    case GLSLstd450InterpolateAtOffset: {
      // Fragment inputs are interpolated once per pixel, at its centre.
      // Without multisampling that is also the centroid (the only sample).
      // At an offset from the centre, the value moves along the input's
      // fine derivatives (exact for inputs linear in screen space, first
      // order for perspective ones), unless the shader runs per sample
      // (its inputs are then at the sample, not the centre). At a sample it
      // stays an approximation, to be replaced when the rasterizer can
      // interpolate at any point.
      const CompiledValue& input = Value(inst[4]);
      if (input.kind != CompiledValue::Kind::kPointer || input.pointer.builtin_register == kNoRegister)
        return Fail("interpolateAt* of something other than a stage input");
      const PointerValue p = input.pointer;  // (Define may move values_)
      const CompiledValue& v = Define(inst[1], inst[0], count);
      if (!LoadThrough(p, inst[0], v.reg)) return false;
      bool per_sample = program_.BuiltinInput(uint32_t(spv::BuiltIn::SampleId)) != UINT32_MAX ||
                        program_.BuiltinInput(uint32_t(spv::BuiltIn::SamplePosition)) != UINT32_MAX;
      for (const InterfaceSlot& slot : program_.inputs) per_sample = per_sample || slot.sample;
      if (op != GLSLstd450InterpolateAtOffset || program_.stage != ShaderStage::kFragment || per_sample) return true;
      const CompiledValue& offset = Value(inst[5]);
      if (offset.count < 2) return Fail("interpolateAtOffset without a vec2 offset");
      program_.uses_derivatives = true;
      constexpr uint16_t kFine = 1;
      const uint32_t dx = NewRegisters(1), dy = NewRegisters(1);
      for (uint32_t c = 0; c < count; ++c) {
        Emit(Op::kDerivX, dx, v.reg + c, 0, 0, kFine);
        Emit(Op::kDerivY, dy, v.reg + c, 0, 0, kFine);
        Emit(Op::kFMul, dx, dx, offset.reg);
        Emit(Op::kFMul, dy, dy, offset.reg + 1);
        Emit(Op::kFAdd, v.reg + c, v.reg + c, dx);
        Emit(Op::kFAdd, v.reg + c, v.reg + c, dy);
      }
      return true;
    }
    default:
      return Fail("unsupported GLSL.std.450 instruction " + std::to_string(op));
  }
}

}  // namespace duet::spirv_exec

// 64-bit floats (shaderFloat64): a double is two registers, low word
// first, like a 64-bit integer. Arithmetic, comparisons, conversions and
// GLSL.std.450 on doubles are kDouble instructions (interpreter_double.cpp);
// vector and matrix forms (dot, cross, length, reflect, matrix products...)
// expand here into them. Moves, selects, composites and bitcasts need
// nothing: they work register by register in the ordinary code.
#include <spirv/unified1/GLSL.std.450.h>

#include <bit>
#include <string>

#include "spirv_exec/compiler.h"

namespace duet::spirv_exec {

using SpvOp = spv::Op;

namespace {

struct DoubleOpcode {
  SpvOp spirv;
  DoubleOp op;
};

constexpr DoubleOpcode kArithmetic[] = {
    {SpvOp::OpFAdd, DoubleOp::kAdd},
    {SpvOp::OpFSub, DoubleOp::kSub},
    {SpvOp::OpFMul, DoubleOp::kMul},
    {SpvOp::OpFDiv, DoubleOp::kDiv},
    {SpvOp::OpFRem, DoubleOp::kRem},
    {SpvOp::OpFMod, DoubleOp::kMod},
    {SpvOp::OpFNegate, DoubleOp::kNegate},
    {SpvOp::OpFOrdEqual, DoubleOp::kOrdEqual},
    {SpvOp::OpFOrdNotEqual, DoubleOp::kOrdNotEqual},
    {SpvOp::OpFOrdLessThan, DoubleOp::kOrdLess},
    {SpvOp::OpFOrdLessThanEqual, DoubleOp::kOrdLessEqual},
    {SpvOp::OpFOrdGreaterThan, DoubleOp::kOrdGreater},
    {SpvOp::OpFOrdGreaterThanEqual, DoubleOp::kOrdGreaterEqual},
    {SpvOp::OpFUnordEqual, DoubleOp::kUnordEqual},
    {SpvOp::OpFUnordNotEqual, DoubleOp::kUnordNotEqual},
    {SpvOp::OpFUnordLessThan, DoubleOp::kUnordLess},
    {SpvOp::OpFUnordLessThanEqual, DoubleOp::kUnordLessEqual},
    {SpvOp::OpFUnordGreaterThan, DoubleOp::kUnordGreater},
    {SpvOp::OpFUnordGreaterThanEqual, DoubleOp::kUnordGreaterEqual},
    {SpvOp::OpIsNan, DoubleOp::kIsNan},
    {SpvOp::OpIsInf, DoubleOp::kIsInf},
};

struct GlslDouble {
  uint32_t glsl;
  DoubleOp op;
};

constexpr GlslDouble kGlslComponentWise[] = {
    {GLSLstd450Round, DoubleOp::kRound},
    {GLSLstd450RoundEven, DoubleOp::kRoundEven},
    {GLSLstd450Trunc, DoubleOp::kTrunc},
    {GLSLstd450FAbs, DoubleOp::kAbs},
    {GLSLstd450FSign, DoubleOp::kSign},
    {GLSLstd450Floor, DoubleOp::kFloor},
    {GLSLstd450Ceil, DoubleOp::kCeil},
    {GLSLstd450Fract, DoubleOp::kFract},
    {GLSLstd450Sqrt, DoubleOp::kSqrt},
    {GLSLstd450InverseSqrt, DoubleOp::kInverseSqrt},
    {GLSLstd450FMin, DoubleOp::kMin},
    {GLSLstd450FMax, DoubleOp::kMax},
    {GLSLstd450NMin, DoubleOp::kNMin},
    {GLSLstd450NMax, DoubleOp::kNMax},
    {GLSLstd450Step, DoubleOp::kStep},
    {GLSLstd450FClamp, DoubleOp::kClamp},
    {GLSLstd450NClamp, DoubleOp::kNClamp},
    {GLSLstd450FMix, DoubleOp::kMix},
    {GLSLstd450SmoothStep, DoubleOp::kSmoothStep},
    {GLSLstd450Fma, DoubleOp::kFma},
    {GLSLstd450Ldexp, DoubleOp::kLdexp},
};

}  // namespace

uint32_t Compiler::TypeOfId(uint32_t id) const {
  if (auto v = values_.find(id); v != values_.end()) return v->second.type;
  auto c = module_.constants.find(id);
  return c != module_.constants.end() ? c->second[0] : 0;
}

bool Compiler::IsDouble(uint32_t type) const {
  if (type == 0) return false;
  const SpirvType* t = &module_.Type(type);
  while (t->kind == SpvOp::OpTypeVector || t->kind == SpvOp::OpTypeMatrix) t = &module_.Type(t->element);
  return t->kind == SpvOp::OpTypeFloat && t->width == 64;
}

uint32_t Compiler::EmitDouble(DoubleOp op, uint32_t a, uint32_t b, uint32_t c, uint32_t ext) {
  const uint32_t dst = NewRegisters(DoubleShapeOf(op, ext).result);
  Emit(Op::kDouble, dst, a, b, c, uint16_t(op), ext);
  return dst;
}

void Compiler::EmitDoubleInto(uint32_t dst, DoubleOp op, uint32_t a, uint32_t b, uint32_t c, uint32_t ext) {
  Emit(Op::kDouble, dst, a, b, c, uint16_t(op), ext);
}

// dot(a, b) over n double components: one pair.
uint32_t Compiler::EmitDoubleDot(uint32_t a, uint32_t b, uint32_t n) {
  const uint32_t sum = EmitDouble(DoubleOp::kMul, a, b);
  for (uint32_t i = 1; i < n; ++i) EmitDoubleInto(sum, DoubleOp::kAdd, sum, EmitDouble(DoubleOp::kMul, a + 2 * i, b + 2 * i));
  return sum;
}

void Compiler::MovePair(uint32_t dst, uint32_t src) {
  Emit(Op::kMove, dst, src);
  Emit(Op::kMove, dst + 1, src + 1);
}

bool Compiler::CompileDoubleInstruction(const SpirvInstruction& inst, bool* handled) {
  *handled = false;
  const bool ext = inst.op == SpvOp::OpExtInst;
  bool involves = IsDouble(inst[0]);
  for (uint32_t i = ext ? 4 : 2; i < inst.word_count && !involves; ++i) involves = IsDouble(TypeOfId(inst[i]));
  if (!involves) return true;
  const uint32_t result_type = inst[0];
  const uint32_t components = module_.Type(result_type).kind == SpvOp::OpTypeVector ? module_.Type(result_type).count : 1;

  for (const DoubleOpcode& d : kArithmetic) {
    if (d.spirv != inst.op) continue;
    *handled = true;
    const DoubleShape shape = DoubleShapeOf(d.op, 0);
    const CompiledValue& a = Value(inst[2]);
    const uint32_t b = shape.b != 0 ? Value(inst[3]).reg : kNoOperand;
    const CompiledValue& v = Define(inst[1], result_type, components * shape.result);
    for (uint32_t i = 0; i < components; ++i)
      EmitDoubleInto(v.reg + i * shape.result, d.op, a.reg + 2 * i, b == kNoOperand ? kNoOperand : b + 2 * i);
    return true;
  }

  // A conversion rounds as its FPRoundingMode decoration says, else as the
  // result width's RoundingMode* execution mode (compile_float_mode.cpp).
  const Decorations* decorations = module_.DecorationsOf(inst[1]);
  const uint32_t toward_zero = decorations != nullptr && decorations->rounding_mode >= 0
                                   ? decorations->rounding_mode == int32_t(spv::FPRoundingMode::RTZ)
                                   : (toward_zero_widths_ & (FloatWidthOf(result_type) / 16)) != 0;
  switch (inst.op) {
    case SpvOp::OpFConvert: {
      *handled = true;
      const CompiledValue& a = Value(inst[2]);
      const bool to_double = IsDouble(result_type), from_double = IsDouble(a.type);
      const CompiledValue& v = Define(inst[1], result_type, ScalarCount(result_type));
      for (uint32_t i = 0; i < components; ++i) {
        if (to_double && from_double)
          MovePair(v.reg + 2 * i, a.reg + 2 * i);
        else if (to_double)  // a float, or a half held as the float of its value
          EmitDoubleInto(v.reg + 2 * i, DoubleOp::kFromFloat, a.reg + i);
        else
          EmitDoubleInto(v.reg + i, NarrowOf(result_type) == Narrow::kHalf ? DoubleOp::kToHalf : DoubleOp::kToFloat,
                         a.reg + 2 * i, kNoOperand, kNoOperand, toward_zero);
      }
      return true;
    }
    case SpvOp::OpConvertSToF:
    case SpvOp::OpConvertUToF: {
      if (!IsDouble(result_type)) return true;  // a double is not an integer operand
      *handled = true;
      const bool is_signed = inst.op == SpvOp::OpConvertSToF;
      const CompiledValue& a = Value(inst[2]);
      const bool wide = IsWide(a.type);
      const Narrow narrow = NarrowOf(a.type);
      const CompiledValue& v = Define(inst[1], result_type, 2 * components);
      for (uint32_t i = 0; i < components; ++i) {
        if (wide) {
          EmitDoubleInto(v.reg + 2 * i, is_signed ? DoubleOp::kFromInt64 : DoubleOp::kFromUint64, a.reg + 2 * i);
          continue;
        }
        uint32_t from = a.reg + i;
        if (is_signed && narrow != Narrow::kNone) {  // 8/16-bit integers are held zero-extended
          from = NewRegisters(1);
          EmitSignExtend(narrow, from, a.reg + i);
        }
        EmitDoubleInto(v.reg + 2 * i, is_signed ? DoubleOp::kFromInt32 : DoubleOp::kFromUint32, from);
      }
      return true;
    }
    case SpvOp::OpConvertFToS:
    case SpvOp::OpConvertFToU: {
      *handled = true;
      const bool is_signed = inst.op == SpvOp::OpConvertFToS;
      const CompiledValue& a = Value(inst[2]);
      const bool wide = IsWide(result_type);
      const Narrow narrow = NarrowOf(result_type);
      const CompiledValue& v = Define(inst[1], result_type, ScalarCount(result_type));
      for (uint32_t i = 0; i < components; ++i) {
        if (wide) {
          EmitDoubleInto(v.reg + 2 * i, is_signed ? DoubleOp::kToInt64 : DoubleOp::kToUint64, a.reg + 2 * i);
          continue;
        }
        EmitDoubleInto(v.reg + i, is_signed ? DoubleOp::kToInt32 : DoubleOp::kToUint32, a.reg + 2 * i);
        EmitCanonical(narrow, v.reg + i);
      }
      return true;
    }
    case SpvOp::OpDot: {
      *handled = true;
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& b = Value(inst[3]);
      const CompiledValue& v = Define(inst[1], result_type, 2);
      MovePair(v.reg, EmitDoubleDot(a.reg, b.reg, a.count / 2));
      return true;
    }
    case SpvOp::OpVectorTimesScalar:
    case SpvOp::OpMatrixTimesScalar: {
      *handled = true;
      const CompiledValue& a = Value(inst[2]);
      const CompiledValue& s = Value(inst[3]);
      const CompiledValue& v = Define(inst[1], result_type, a.count);
      for (uint32_t i = 0; i < a.count; i += 2) EmitDoubleInto(v.reg + i, DoubleOp::kMul, a.reg + i, s.reg);
      return true;
    }
    case SpvOp::OpMatrixTimesVector:
    case SpvOp::OpVectorTimesMatrix:
    case SpvOp::OpMatrixTimesMatrix:
    case SpvOp::OpOuterProduct:
    case SpvOp::OpTranspose:
      *handled = true;
      return CompileDoubleMatrixInstruction(inst);
    case SpvOp::OpExtInst:
      if (module_.ext_inst_sets.count(inst[2]) == 0 || module_.ext_inst_sets.at(inst[2]) != 1) return true;
      *handled = true;
      return CompileDoubleGlslInstruction(inst);
    default:
      return true;  // moves, selects, composites, bitcasts: register by register
  }
}

bool Compiler::CompileDoubleMatrixInstruction(const SpirvInstruction& inst) {
  const SpirvModule& m = module_;
  // Column-major: element (column c, row r) of a matrix with R rows is the pair at 2 * (c * R + r).
  auto rows_of = [&](uint32_t matrix_type) { return m.Type(m.Type(matrix_type).element).count; };
  // dst = sum over k of a_at(k) * b_at(k).
  auto dot_into = [&](uint32_t dst, auto a_at, auto b_at, uint32_t n) {
    const uint32_t sum = EmitDouble(DoubleOp::kMul, a_at(0), b_at(0));
    for (uint32_t k = 1; k < n; ++k) EmitDoubleInto(sum, DoubleOp::kAdd, sum, EmitDouble(DoubleOp::kMul, a_at(k), b_at(k)));
    MovePair(dst, sum);
  };
  const CompiledValue& a = Value(inst[2]);
  switch (inst.op) {
    case SpvOp::OpMatrixTimesVector: {  // result[r] = sum_c M[c][r] * v[c]
      const CompiledValue& vec = Value(inst[3]);
      const uint32_t rows = rows_of(a.type), cols = m.Type(a.type).count;
      const CompiledValue& v = Define(inst[1], inst[0], 2 * rows);
      for (uint32_t r = 0; r < rows; ++r)
        dot_into(v.reg + 2 * r, [&](uint32_t c) { return a.reg + 2 * (c * rows + r); },
                 [&](uint32_t c) { return vec.reg + 2 * c; }, cols);
      return true;
    }
    case SpvOp::OpVectorTimesMatrix: {  // result[c] = dot(v, M[c])
      const CompiledValue& mat = Value(inst[3]);
      const uint32_t rows = rows_of(mat.type), cols = m.Type(mat.type).count;
      const CompiledValue& v = Define(inst[1], inst[0], 2 * cols);
      for (uint32_t c = 0; c < cols; ++c)
        dot_into(v.reg + 2 * c, [&](uint32_t r) { return a.reg + 2 * r; },
                 [&](uint32_t r) { return mat.reg + 2 * (c * rows + r); }, rows);
      return true;
    }
    case SpvOp::OpMatrixTimesMatrix: {  // result[c][r] = sum_k A[k][r] * B[c][k]
      const CompiledValue& b = Value(inst[3]);
      const uint32_t rows = rows_of(a.type), inner = m.Type(a.type).count, cols = m.Type(b.type).count;
      const CompiledValue& v = Define(inst[1], inst[0], 2 * rows * cols);
      for (uint32_t c = 0; c < cols; ++c)
        for (uint32_t r = 0; r < rows; ++r)
          dot_into(v.reg + 2 * (c * rows + r), [&](uint32_t k) { return a.reg + 2 * (k * rows + r); },
                   [&](uint32_t k) { return b.reg + 2 * (c * inner + k); }, inner);
      return true;
    }
    case SpvOp::OpOuterProduct: {  // result[c][r] = a[r] * b[c]
      const CompiledValue& b = Value(inst[3]);
      const uint32_t rows = a.count / 2, cols = b.count / 2;
      const CompiledValue& v = Define(inst[1], inst[0], 2 * rows * cols);
      for (uint32_t c = 0; c < cols; ++c)
        for (uint32_t r = 0; r < rows; ++r)
          EmitDoubleInto(v.reg + 2 * (c * rows + r), DoubleOp::kMul, a.reg + 2 * r, b.reg + 2 * c);
      return true;
    }
    default: {  // OpTranspose
      const uint32_t rows = rows_of(a.type), cols = m.Type(a.type).count;
      const CompiledValue& v = Define(inst[1], inst[0], 2 * rows * cols);
      for (uint32_t c = 0; c < cols; ++c)
        for (uint32_t r = 0; r < rows; ++r) MovePair(v.reg + 2 * (r * cols + c), a.reg + 2 * (c * rows + r));
      return true;
    }
  }
}

bool Compiler::CompileDoubleGlslInstruction(const SpirvInstruction& inst) {
  const uint32_t glsl = inst[3];
  const uint32_t result_type = inst[0];
  const CompiledValue& x = Value(inst[4]);
  const uint32_t n = x.count / 2;  // components of the first operand (pairs)
  // Operand i's pair for component c: a scalar operand of a vector form broadcasts.
  auto at = [&](uint32_t i, uint32_t c) {
    const CompiledValue& o = Value(inst[4 + i]);
    return o.reg + (o.count <= 2 ? 0 : 2 * c);
  };
  for (const GlslDouble& g : kGlslComponentWise) {
    if (g.glsl != glsl) continue;
    const DoubleShape shape = DoubleShapeOf(g.op, 0);
    const CompiledValue& v = Define(inst[1], result_type, 2 * n);
    for (uint32_t c = 0; c < n; ++c) {
      uint32_t b = shape.b != 0 ? at(1, c) : kNoOperand;
      if (g.op == DoubleOp::kLdexp) {  // the exponent: a 32-bit integer per component
        const CompiledValue& e = Value(inst[5]);
        b = e.reg + (e.count == 1 ? 0 : c * (e.count / n));
      }
      EmitDoubleInto(v.reg + 2 * c, g.op, at(0, c), b, shape.c != 0 ? at(2, c) : kNoOperand);
    }
    return true;
  }
  switch (glsl) {
    case GLSLstd450Length: {
      const CompiledValue& v = Define(inst[1], result_type, 2);
      EmitDoubleInto(v.reg, DoubleOp::kSqrt, EmitDoubleDot(x.reg, x.reg, n));
      return true;
    }
    case GLSLstd450Distance: {
      const CompiledValue& y = Value(inst[5]);
      const uint32_t d = NewRegisters(2 * n);
      for (uint32_t c = 0; c < n; ++c) EmitDoubleInto(d + 2 * c, DoubleOp::kSub, x.reg + 2 * c, y.reg + 2 * c);
      const CompiledValue& v = Define(inst[1], result_type, 2);
      EmitDoubleInto(v.reg, DoubleOp::kSqrt, EmitDoubleDot(d, d, n));
      return true;
    }
    case GLSLstd450Normalize: {
      const uint32_t length = EmitDouble(DoubleOp::kSqrt, EmitDoubleDot(x.reg, x.reg, n));
      const CompiledValue& v = Define(inst[1], result_type, 2 * n);
      for (uint32_t c = 0; c < n; ++c) EmitDoubleInto(v.reg + 2 * c, DoubleOp::kDiv, x.reg + 2 * c, length);
      return true;
    }
    case GLSLstd450Cross: {
      const CompiledValue& y = Value(inst[5]);
      const CompiledValue& v = Define(inst[1], result_type, 6);
      const uint32_t result = NewRegisters(6);  // (v may be an operand)
      for (uint32_t c = 0; c < 3; ++c) {
        const uint32_t i = (c + 1) % 3, j = (c + 2) % 3;
        const uint32_t p = EmitDouble(DoubleOp::kMul, x.reg + 2 * i, y.reg + 2 * j);
        const uint32_t q = EmitDouble(DoubleOp::kMul, x.reg + 2 * j, y.reg + 2 * i);
        EmitDoubleInto(result + 2 * c, DoubleOp::kSub, p, q);
      }
      for (uint32_t r = 0; r < 6; ++r) Emit(Op::kMove, v.reg + r, result + r);
      return true;
    }
    case GLSLstd450FaceForward: {  // dot(Nref, I) < 0 ? N : -N
      const CompiledValue& i = Value(inst[5]);
      const CompiledValue& nref = Value(inst[6]);
      const uint32_t facing = EmitDouble(DoubleOp::kOrdLess, EmitDoubleDot(nref.reg, i.reg, n), ConstantDouble(0.0));
      const CompiledValue& v = Define(inst[1], result_type, 2 * n);
      for (uint32_t c = 0; c < n; ++c) {
        const uint32_t negated = EmitDouble(DoubleOp::kNegate, x.reg + 2 * c);
        for (uint32_t k = 0; k < 2; ++k) Emit(Op::kSelect, v.reg + 2 * c + k, facing, x.reg + 2 * c + k, negated + k);
      }
      return true;
    }
    case GLSLstd450Reflect: {  // I - 2 dot(N, I) N
      const CompiledValue& normal = Value(inst[5]);
      const uint32_t twice = EmitDouble(DoubleOp::kMul, EmitDoubleDot(normal.reg, x.reg, n), ConstantDouble(2.0));
      const CompiledValue& v = Define(inst[1], result_type, 2 * n);
      for (uint32_t c = 0; c < n; ++c)
        EmitDoubleInto(v.reg + 2 * c, DoubleOp::kSub, x.reg + 2 * c, EmitDouble(DoubleOp::kMul, twice, normal.reg + 2 * c));
      return true;
    }
    case GLSLstd450Refract: {
      // k = 1 - eta^2 (1 - dot(N, I)^2); k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N
      const CompiledValue& normal = Value(inst[5]);
      const CompiledValue& eta_value = Value(inst[6]);
      uint32_t eta = eta_value.reg;
      if (!IsDouble(eta_value.type)) eta = EmitDouble(DoubleOp::kFromFloat, eta_value.reg);
      const uint32_t one = ConstantDouble(1.0), zero = ConstantDouble(0.0);
      const uint32_t d = EmitDoubleDot(normal.reg, x.reg, n);
      const uint32_t k = EmitDouble(
          DoubleOp::kSub, one,
          EmitDouble(DoubleOp::kMul, EmitDouble(DoubleOp::kMul, eta, eta),
                     EmitDouble(DoubleOp::kSub, one, EmitDouble(DoubleOp::kMul, d, d))));
      const uint32_t total_reflection = EmitDouble(DoubleOp::kOrdLess, k, zero);
      const uint32_t scale =
          EmitDouble(DoubleOp::kAdd, EmitDouble(DoubleOp::kMul, eta, d), EmitDouble(DoubleOp::kSqrt, k));
      const CompiledValue& v = Define(inst[1], result_type, 2 * n);
      for (uint32_t c = 0; c < n; ++c) {
        const uint32_t r = EmitDouble(DoubleOp::kSub, EmitDouble(DoubleOp::kMul, eta, x.reg + 2 * c),
                                      EmitDouble(DoubleOp::kMul, scale, normal.reg + 2 * c));
        for (uint32_t w = 0; w < 2; ++w) Emit(Op::kSelect, v.reg + 2 * c + w, total_reflection, zero + w, r + w);
      }
      return true;
    }
    case GLSLstd450Determinant:
    case GLSLstd450MatrixInverse: {
      const uint32_t size = module_.Type(x.type).count;
      if (size < 2 || size > 4) return Fail("determinant or inverse of an unsupported matrix size");
      const bool inverse = glsl == GLSLstd450MatrixInverse;
      const CompiledValue& v = Define(inst[1], result_type, inverse ? 2 * size * size : 2);
      EmitDoubleInto(v.reg, inverse ? DoubleOp::kMatrixInverse : DoubleOp::kDeterminant, x.reg, kNoOperand,
                     kNoOperand, size);
      return true;
    }
    case GLSLstd450Modf:
    case GLSLstd450ModfStruct:
    case GLSLstd450Frexp:
    case GLSLstd450FrexpStruct: {
      // The first part is the result (or the struct's first member); the
      // second goes through the pointer operand (or is the second member).
      const bool modf = glsl == GLSLstd450Modf || glsl == GLSLstd450ModfStruct;
      const bool as_struct = glsl == GLSLstd450ModfStruct || glsl == GLSLstd450FrexpStruct;
      const uint32_t second_width = modf ? 2 : 1;
      const uint32_t second = NewRegisters(second_width * n);
      const CompiledValue& v = Define(inst[1], result_type, as_struct ? (2 + second_width) * n : 2 * n);
      for (uint32_t c = 0; c < n; ++c) {
        EmitDoubleInto(v.reg + 2 * c, modf ? DoubleOp::kModfFraction : DoubleOp::kFrexpSignificand, x.reg + 2 * c);
        if (modf)
          EmitDoubleInto(second + 2 * c, DoubleOp::kTrunc, x.reg + 2 * c);
        else
          EmitDoubleInto(second + c, DoubleOp::kFrexpExponent, x.reg + 2 * c);
      }
      if (as_struct) {
        for (uint32_t r = 0; r < second_width * n; ++r) Emit(Op::kMove, v.reg + 2 * n + r, second + r);
        return true;
      }
      const PointerValue p = PointerOf(inst[5]);
      return error_.empty() && StoreThrough(p, second);
    }
    case GLSLstd450PackDouble2x32:
    case GLSLstd450UnpackDouble2x32: {  // the same two words
      const CompiledValue& v = Define(inst[1], result_type, 2);
      MovePair(v.reg, x.reg);
      return true;
    }
    default:
      return Fail("GLSL.std.450 instruction " + std::to_string(glsl) + " on 64-bit floats is not supported");
  }
}

// A double constant: a pair of constant registers.
uint32_t Compiler::ConstantDouble(double value) {
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  const uint32_t reg = NewRegisters(2);
  program_.constants.emplace_back(reg, uint32_t(bits));
  program_.constants.emplace_back(reg + 1, uint32_t(bits >> 32));
  return reg;
}

}  // namespace duet::spirv_exec

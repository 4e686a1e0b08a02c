#include "spirv_exec/spec_constant_op.h"

#include <cstddef>

#include "spirv_exec/integer_division.h"

namespace duet::spirv_exec {
namespace {

using spv::Op;

// Component i of an operand whose components are `width` words (1 or 2).
uint64_t Component(const std::vector<uint32_t>& words, uint32_t width, uint32_t i) {
  const size_t at = size_t(i) * width;
  if (at + width > words.size()) return 0;
  return width == 2 ? uint64_t{words[at]} | uint64_t{words[at + 1]} << 32 : words[at];
}

int64_t Signed(uint64_t v, uint32_t width) { return width == 2 ? int64_t(v) : int64_t(int32_t(uint32_t(v))); }

bool Evaluate(Op op, uint64_t a, uint64_t b, uint32_t width, uint64_t* out) {
  const int64_t sa = Signed(a, width), sb = Signed(b, width);
  const uint32_t bits = width * 32;
  switch (op) {
    case Op::OpIAdd: *out = a + b; return true;
    case Op::OpISub: *out = a - b; return true;
    case Op::OpIMul: *out = a * b; return true;
    case Op::OpUDiv: *out = UnsignedDivide(a, b); return true;
    case Op::OpUMod: *out = UnsignedRemainder(a, b); return true;
    case Op::OpSDiv: *out = SignedDivide(sa, sb); return true;
    case Op::OpSRem: *out = SignedRemainder(sa, sb); return true;
    case Op::OpSMod: *out = SignedModulo(sa, sb); return true;
    case Op::OpShiftLeftLogical: *out = b >= bits ? 0 : a << b; return true;
    case Op::OpShiftRightLogical: *out = b >= bits ? 0 : a >> b; return true;
    case Op::OpShiftRightArithmetic: *out = uint64_t(sa >> (b >= bits ? bits - 1 : b)); return true;
    case Op::OpBitwiseOr: *out = a | b; return true;
    case Op::OpBitwiseXor: *out = a ^ b; return true;
    case Op::OpBitwiseAnd: *out = a & b; return true;
    case Op::OpNot: *out = ~a; return true;
    case Op::OpSNegate: *out = uint64_t(0) - a; return true;
    case Op::OpIEqual: *out = a == b; return true;
    case Op::OpINotEqual: *out = a != b; return true;
    case Op::OpULessThan: *out = a < b; return true;
    case Op::OpSLessThan: *out = sa < sb; return true;
    case Op::OpUGreaterThan: *out = a > b; return true;
    case Op::OpSGreaterThan: *out = sa > sb; return true;
    case Op::OpULessThanEqual: *out = a <= b; return true;
    case Op::OpSLessThanEqual: *out = sa <= sb; return true;
    case Op::OpUGreaterThanEqual: *out = a >= b; return true;
    case Op::OpSGreaterThanEqual: *out = sa >= sb; return true;
    case Op::OpLogicalOr: *out = (a | b) != 0; return true;
    case Op::OpLogicalAnd: *out = a != 0 && b != 0; return true;
    case Op::OpLogicalNot: *out = a == 0; return true;
    case Op::OpLogicalEqual: *out = (a != 0) == (b != 0); return true;
    case Op::OpLogicalNotEqual: *out = (a != 0) != (b != 0); return true;
    default: return false;
  }
}

}  // namespace

bool EvaluateSpecConstantOp(Op op, uint32_t result_words, bool wide_result,
                            const std::vector<std::vector<uint32_t>>& operands, std::vector<uint32_t>* result) {
  if (operands.empty()) return false;
  const uint32_t result_width = wide_result ? 2 : 1;
  const uint32_t components = result_words / result_width;
  if (components == 0) return false;
  result->clear();
  for (uint32_t i = 0; i < components; ++i) {
    uint64_t value = 0;
    if (op == Op::OpSelect) {  // condition (scalar or per component), then the two values
      if (operands.size() != 3) return false;
      const uint32_t width = uint32_t(operands[1].size()) / components;
      const bool pick = Component(operands[0], 1, operands[0].size() == 1 ? 0 : i) != 0;
      value = Component(operands[pick ? 1 : 2], width, i);
    } else if (op == Op::OpSConvert || op == Op::OpUConvert) {
      const uint32_t width = uint32_t(operands[0].size()) / components;
      value = Component(operands[0], width, i);
      if (op == Op::OpSConvert) value = uint64_t(Signed(value, width));
    } else {
      const uint32_t width = uint32_t(operands[0].size()) / components;
      if (width != 1 && width != 2) return false;
      const uint64_t b = operands.size() > 1 ? Component(operands[1], uint32_t(operands[1].size()) / components, i) : 0;
      if (!Evaluate(op, Component(operands[0], width, i), b, width, &value)) return false;
    }
    result->push_back(uint32_t(value));
    if (result_width == 2) result->push_back(uint32_t(value >> 32));
  }
  return true;
}

}  // namespace duet::spirv_exec

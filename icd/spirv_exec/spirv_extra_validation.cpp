#include "spirv_exec/spirv_extra_validation.h"

#include <spirv/unified1/spirv.hpp11>

#include <unordered_map>
#include <vector>

namespace duet::spirv_exec {
namespace {

using spv::Op;

// What the checks need of a type: its kind and the type of each part.
struct TypeShape {
  Op kind = Op::OpNop;
  std::vector<uint32_t> parts;  // member types; for vectors, matrices and arrays `count` copies of the element
};

class ModuleShapes {
 public:
  void Add(Op op, const uint32_t* operands, uint32_t count) {
    switch (op) {
      case Op::OpTypeVector:
      case Op::OpTypeMatrix:
        if (count >= 3) Set(operands[0], op, operands[1], operands[2]);
        break;
      case Op::OpTypeArray: {
        if (count < 3) break;
        auto length = scalar_constants_.find(operands[2]);
        // Specialized lengths are unknown here: such arrays are not checked.
        if (length != scalar_constants_.end()) Set(operands[0], op, operands[1], length->second);
        break;
      }
      case Op::OpTypeStruct:
        if (count >= 1) types_[operands[0]] = {op, std::vector<uint32_t>(operands + 1, operands + count)};
        break;
      case Op::OpConstant:
        if (count >= 3) scalar_constants_[operands[1]] = operands[2];
        [[fallthrough]];
      case Op::OpConstantTrue:
      case Op::OpConstantFalse:
      case Op::OpConstantNull:
      case Op::OpConstantComposite:
      case Op::OpSpecConstant:
      case Op::OpSpecConstantTrue:
      case Op::OpSpecConstantFalse:
      case Op::OpSpecConstantComposite:
      case Op::OpSpecConstantOp:
      case Op::OpUndef:
        if (count >= 2) value_types_[operands[1]] = operands[0];
        break;
      default:
        break;
    }
  }

  // Whether `indices` walk into the type of value `composite` (unknown
  // types pass: only what is known to be wrong is rejected).
  bool IndicesInRange(uint32_t composite, const uint32_t* indices, uint32_t count) const {
    auto value = value_types_.find(composite);
    if (value == value_types_.end()) return true;
    uint32_t type = value->second;
    for (uint32_t i = 0; i < count; ++i) {
      auto shape = types_.find(type);
      if (shape == types_.end()) return true;
      if (indices[i] >= shape->second.parts.size()) return false;
      type = shape->second.parts[indices[i]];
    }
    return true;
  }

  // Components of a vector value, or 0 when unknown.
  uint32_t VectorSize(uint32_t value) const {
    auto v = value_types_.find(value);
    if (v == value_types_.end()) return 0;
    auto shape = types_.find(v->second);
    return shape != types_.end() && shape->second.kind == Op::OpTypeVector ? uint32_t(shape->second.parts.size()) : 0;
  }

 private:
  void Set(uint32_t id, Op kind, uint32_t element, uint32_t count) {
    if (count > 4096) return;  // a huge array: not worth tracking, and not the crash being guarded against
    types_[id] = {kind, std::vector<uint32_t>(count, element)};
  }

  std::unordered_map<uint32_t, TypeShape> types_;
  std::unordered_map<uint32_t, uint32_t> value_types_;       // constant id -> its type
  std::unordered_map<uint32_t, uint32_t> scalar_constants_;  // OpConstant id -> its first word
};

}  // namespace

bool CheckBeyondValidator(const uint32_t* words, size_t word_count, std::string* error) {
  ModuleShapes shapes;
  for (size_t at = 5; at < word_count;) {
    const uint32_t count = words[at] >> 16;
    const Op op = static_cast<Op>(words[at] & 0xFFFF);
    if (count == 0 || at + count > word_count) return true;  // the validator reports those
    const uint32_t* operands = words + at + 1;
    const uint32_t operand_count = count - 1;
    at += count;
    if (op == Op::OpFunction) break;  // types and constants come before any function
    shapes.Add(op, operands, operand_count);
    // OpSpecConstantOp: result type, id, opcode, operands. SPIRV-Tools
    // validates neither composite indices nor shuffle components here, and
    // FoldSpecConstantOpAndCompositePass dereferences them.
    if (op != Op::OpSpecConstantOp || operand_count < 4) continue;
    const Op folded = static_cast<Op>(operands[2]);
    bool ok = true;
    if (folded == Op::OpCompositeExtract) {
      ok = shapes.IndicesInRange(operands[3], operands + 4, operand_count - 4);
    } else if (folded == Op::OpCompositeInsert && operand_count >= 5) {
      ok = shapes.IndicesInRange(operands[4], operands + 5, operand_count - 5);
    } else if (folded == Op::OpVectorShuffle && operand_count >= 5) {
      const uint32_t first = shapes.VectorSize(operands[3]), second = shapes.VectorSize(operands[4]);
      for (uint32_t i = 5; i < operand_count && first != 0 && second != 0; ++i)
        ok = ok && (operands[i] == 0xFFFFFFFFu || operands[i] < first + second);
    }
    if (!ok) {
      *error = "OpSpecConstantOp %" + std::to_string(operands[1]) + ": composite index out of range";
      return false;
    }
  }
  return true;
}

}  // namespace duet::spirv_exec

#include "spirv_exec/narrow_vector_bitcast.h"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.hpp11>

#include <map>
#include <set>
#include <unordered_map>

namespace duet::spirv_exec {
namespace {

using SpvOp = spv::Op;

struct ScalarOrVector {
  uint32_t component_type = 0;  // the type itself for a scalar
  uint32_t count = 1;
  uint32_t width = 0;
};

struct Instruction {
  size_t offset;
  uint16_t word_count;
  SpvOp op;
  uint32_t type_id;
  uint32_t result_id;
};

struct ModuleIndex {
  std::vector<Instruction> instructions;
  std::unordered_map<uint32_t, uint32_t> type_of;         // value id -> type id
  std::unordered_map<uint32_t, uint32_t> width_of;        // scalar numeric type id -> bits
  std::unordered_map<uint32_t, ScalarOrVector> vectors;   // vector type id -> shape
  std::map<uint32_t, uint32_t> unsigned_int;              // bits -> OpTypeInt <bits> 0
  std::set<uint32_t> capabilities;
};

spv_result_t Collect(void* user, const spv_parsed_instruction_t* parsed) {
  auto* index = static_cast<ModuleIndex*>(user);
  const uint32_t* w = parsed->words;
  const auto op = SpvOp(parsed->opcode);
  const size_t offset = index->instructions.empty()
                            ? 5
                            : index->instructions.back().offset + index->instructions.back().word_count;
  index->instructions.push_back({offset, parsed->num_words, op, parsed->type_id, parsed->result_id});
  if (parsed->type_id != 0 && parsed->result_id != 0) index->type_of[parsed->result_id] = parsed->type_id;
  if (op == SpvOp::OpCapability) index->capabilities.insert(w[1]);
  if (op == SpvOp::OpTypeInt || op == SpvOp::OpTypeFloat) index->width_of[w[1]] = w[2];
  if (op == SpvOp::OpTypeInt && w[3] == 0) index->unsigned_int.emplace(w[2], w[1]);
  if (op == SpvOp::OpTypeVector) index->vectors[w[1]] = {w[2], w[3], 0};
  return SPV_SUCCESS;
}

ScalarOrVector ShapeOf(const ModuleIndex& index, uint32_t type) {
  ScalarOrVector shape;
  if (auto v = index.vectors.find(type); v != index.vectors.end()) shape = v->second;
  else shape.component_type = type;
  auto width = index.width_of.find(shape.component_type);
  shape.width = width == index.width_of.end() ? 0 : width->second;
  return shape;
}

// Appends the instructions that build the module's additions.
class Emitter {
 public:
  Emitter(ModuleIndex* index, uint32_t bound) : index_(index), bound_(bound) {}

  uint32_t NewId() { return bound_++; }
  uint32_t bound() const { return bound_; }

  static void Put(std::vector<uint32_t>* out, SpvOp op, std::initializer_list<uint32_t> operands) {
    out->push_back(uint32_t(operands.size() + 1) << 16 | uint32_t(op));
    out->insert(out->end(), operands);
  }

  uint32_t UnsignedInt(uint32_t bits) {
    if (auto found = index_->unsigned_int.find(bits); found != index_->unsigned_int.end()) return found->second;
    const uint32_t id = NewId();
    Put(&globals, SpvOp::OpTypeInt, {id, bits, 0});
    index_->unsigned_int[bits] = id;
    const spv::Capability needed = bits == 8    ? spv::Capability::Int8
                                   : bits == 16 ? spv::Capability::Int16
                                   : bits == 64 ? spv::Capability::Int64
                                                : spv::Capability::Shader;
    if (index_->capabilities.insert(uint32_t(needed)).second) Put(&capabilities, SpvOp::OpCapability, {uint32_t(needed)});
    return id;
  }

  uint32_t ShiftAmount(uint32_t bits) {
    auto [it, added] = shifts_.emplace(bits, 0);
    if (added) {
      it->second = NewId();
      Put(&globals, SpvOp::OpConstant, {UnsignedInt(32), it->second, bits});
    }
    return it->second;
  }

  std::vector<uint32_t> capabilities, globals;

 private:
  ModuleIndex* index_;
  uint32_t bound_;
  std::map<uint32_t, uint32_t> shifts_;
};

// The bitcast `words` (OpBitcast result-type result operand) as extracts,
// zero extensions, shifts and ors of each result component.
void SpellOut(const ScalarOrVector& from, const ScalarOrVector& to, const uint32_t* words, Emitter* emitter,
              std::vector<uint32_t>* out) {
  const uint32_t result_type = words[1], result = words[2], operand = words[3];
  const uint32_t narrow = emitter->UnsignedInt(from.width), wide = emitter->UnsignedInt(to.width);
  auto Emit = [&](SpvOp op, uint32_t type, std::initializer_list<uint32_t> operands) {
    const uint32_t id = emitter->NewId();
    out->push_back(uint32_t(operands.size() + 3) << 16 | uint32_t(op));
    out->push_back(type);
    out->push_back(id);
    out->insert(out->end(), operands);
    return id;
  };
  const uint32_t per_component = from.count / to.count;
  std::vector<uint32_t> components;
  for (uint32_t j = 0; j < to.count; ++j) {
    uint32_t packed = 0;
    for (uint32_t k = 0; k < per_component; ++k) {
      uint32_t value = Emit(SpvOp::OpCompositeExtract, from.component_type, {operand, j * per_component + k});
      if (from.component_type != narrow) value = Emit(SpvOp::OpBitcast, narrow, {value});
      value = Emit(SpvOp::OpUConvert, wide, {value});
      if (k != 0) {
        value = Emit(SpvOp::OpShiftLeftLogical, wide, {value, emitter->ShiftAmount(k * from.width)});
        value = Emit(SpvOp::OpBitwiseOr, wide, {packed, value});
      }
      packed = value;
    }
    if (to.component_type != wide) packed = Emit(SpvOp::OpBitcast, to.component_type, {packed});
    components.push_back(packed);
  }
  // The result keeps its id (decorations and uses name it); the optimizer
  // removes the copy.
  if (to.count == 1) {
    Emitter::Put(out, SpvOp::OpCopyObject, {result_type, result, components[0]});
    return;
  }
  out->push_back(uint32_t(3 + components.size()) << 16 | uint32_t(SpvOp::OpCompositeConstruct));
  out->push_back(result_type);
  out->push_back(result);
  out->insert(out->end(), components.begin(), components.end());
}

}  // namespace

std::vector<uint32_t> SpellOutNarrowVectorBitcasts(const std::vector<uint32_t>& words) {
  ModuleIndex index;
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_3);
  const spv_result_t parsed =
      spvBinaryParse(context, &index, words.data(), words.size(), nullptr, Collect, nullptr);
  spvContextDestroy(context);
  if (parsed != SPV_SUCCESS || words.size() < 5) return words;

  auto Candidate = [&](const Instruction& inst, ScalarOrVector* from, ScalarOrVector* to) {
    if (inst.op != SpvOp::OpBitcast) return false;
    auto operand_type = index.type_of.find(words[inst.offset + 3]);
    if (operand_type == index.type_of.end()) return false;
    *from = ShapeOf(index, operand_type->second);
    *to = ShapeOf(index, inst.type_id);
    return from->count > 1 && from->width < 32 && to->count < from->count && to->width != 0 &&
           from->width * from->count == to->width * to->count;
  };
  ScalarOrVector from, to;
  bool any = false;
  for (const Instruction& inst : index.instructions) any = any || Candidate(inst, &from, &to);
  if (!any) return words;

  Emitter emitter(&index, words[3]);
  std::vector<uint32_t> body;
  size_t first_function = words.size();
  for (const Instruction& inst : index.instructions) {
    if (inst.op == SpvOp::OpFunction && first_function == words.size()) first_function = inst.offset;
    const uint32_t* w = words.data() + inst.offset;
    if (Candidate(inst, &from, &to)) SpellOut(from, to, w, &emitter, &body);
    else if (first_function != words.size()) body.insert(body.end(), w, w + inst.word_count);
  }

  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  out[3] = emitter.bound();
  out.insert(out.end(), emitter.capabilities.begin(), emitter.capabilities.end());
  out.insert(out.end(), words.begin() + 5, words.begin() + ptrdiff_t(first_function));
  out.insert(out.end(), emitter.globals.begin(), emitter.globals.end());
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

}  // namespace duet::spirv_exec

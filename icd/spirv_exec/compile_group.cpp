// Subgroup (OpGroupNonUniform*) instructions and the subgroup built-ins.
// A subgroup is a wave, or an aligned run of Program::subgroup_size lanes of
// it; every one becomes a kGroup per scalar component (interpreter_group.cpp
// runs them).
#include "spirv_exec/compiler.h"

namespace duet::spirv_exec {

using SpvOp = spv::Op;

namespace {

struct GroupOpcode {
  SpvOp spirv;
  GroupKind kind;
};

constexpr GroupOpcode kArithmetic[] = {
    {SpvOp::OpGroupNonUniformIAdd, GroupKind::kIAdd},
    {SpvOp::OpGroupNonUniformFAdd, GroupKind::kFAdd},
    {SpvOp::OpGroupNonUniformIMul, GroupKind::kIMul},
    {SpvOp::OpGroupNonUniformFMul, GroupKind::kFMul},
    {SpvOp::OpGroupNonUniformSMin, GroupKind::kSMin},
    {SpvOp::OpGroupNonUniformUMin, GroupKind::kUMin},
    {SpvOp::OpGroupNonUniformFMin, GroupKind::kFMin},
    {SpvOp::OpGroupNonUniformSMax, GroupKind::kSMax},
    {SpvOp::OpGroupNonUniformUMax, GroupKind::kUMax},
    {SpvOp::OpGroupNonUniformFMax, GroupKind::kFMax},
    {SpvOp::OpGroupNonUniformBitwiseAnd, GroupKind::kBitAnd},
    {SpvOp::OpGroupNonUniformBitwiseOr, GroupKind::kBitOr},
    {SpvOp::OpGroupNonUniformBitwiseXor, GroupKind::kBitXor},
    {SpvOp::OpGroupNonUniformLogicalAnd, GroupKind::kLogicalAnd},
    {SpvOp::OpGroupNonUniformLogicalOr, GroupKind::kLogicalOr},
    {SpvOp::OpGroupNonUniformLogicalXor, GroupKind::kLogicalXor},
};

// Operations whose result is another lane's operand: any width, register by register.
constexpr GroupOpcode kDataMovement[] = {
    {SpvOp::OpGroupNonUniformBroadcast, GroupKind::kBroadcast},
    {SpvOp::OpGroupNonUniformBroadcastFirst, GroupKind::kBroadcastFirst},
    {SpvOp::OpGroupNonUniformShuffle, GroupKind::kShuffle},
    {SpvOp::OpGroupNonUniformShuffleXor, GroupKind::kShuffleXor},
    {SpvOp::OpGroupNonUniformShuffleUp, GroupKind::kShuffleUp},
    {SpvOp::OpGroupNonUniformShuffleDown, GroupKind::kShuffleDown},
    {SpvOp::OpGroupNonUniformQuadBroadcast, GroupKind::kQuadBroadcast},
    {SpvOp::OpGroupNonUniformQuadSwap, GroupKind::kQuadSwap},
};

constexpr GroupOpcode kBallotReads[] = {
    {SpvOp::OpGroupNonUniformInverseBallot, GroupKind::kInverseBallot},
    {SpvOp::OpGroupNonUniformBallotBitExtract, GroupKind::kBallotBitExtract},
    {SpvOp::OpGroupNonUniformBallotBitCount, GroupKind::kBallotBitCount},
    {SpvOp::OpGroupNonUniformBallotFindLSB, GroupKind::kBallotFindLsb},
    {SpvOp::OpGroupNonUniformBallotFindMSB, GroupKind::kBallotFindMsb},
};

template <size_t N>
const GroupOpcode* Find(const GroupOpcode (&table)[N], SpvOp op) {
  for (const GroupOpcode& g : table)
    if (g.spirv == op) return &g;
  return nullptr;
}

bool IsGroupOpcode(SpvOp op) {
  return (op >= SpvOp::OpGroupNonUniformElect && op <= SpvOp::OpGroupNonUniformQuadSwap);
}

}  // namespace

bool Compiler::CompileGroupInstruction(const SpirvInstruction& inst, bool* handled) {
  // SPV_KHR_subgroup_vote (VK_EXT_shader_subgroup_vote, GL_ARB_shader_group_vote): no scope operand.
  if (inst.op == SpvOp::OpSubgroupAllKHR || inst.op == SpvOp::OpSubgroupAnyKHR ||
      inst.op == SpvOp::OpSubgroupAllEqualKHR) {
    *handled = true;
    const CompiledValue& value = Value(inst[2]);
    if (value.count != 1) return Fail("vector subgroup vote");
    const GroupKind kind = inst.op == SpvOp::OpSubgroupAllKHR   ? GroupKind::kAll
                           : inst.op == SpvOp::OpSubgroupAnyKHR ? GroupKind::kAny
                                                                : GroupKind::kAllEqual;
    Emit(Op::kGroup, Define(inst[1], inst[0], 1).reg, value.reg, kNoOperand, 0, uint16_t(kind));
    return true;
  }
  // SPV_KHR_shader_ballot (VK_EXT_shader_subgroup_ballot, GL_ARB_shader_ballot): no scope operand.
  if (inst.op == SpvOp::OpSubgroupBallotKHR || inst.op == SpvOp::OpSubgroupFirstInvocationKHR ||
      inst.op == SpvOp::OpSubgroupReadInvocationKHR) {
    *handled = true;
    const CompiledValue& value = Value(inst[2]);
    const uint32_t count = ScalarCount(inst[0]);
    const CompiledValue& v = Define(inst[1], inst[0], count);
    if (inst.op == SpvOp::OpSubgroupBallotKHR) {
      for (uint32_t word = 0; word < count; ++word)
        Emit(Op::kGroup, v.reg + word, value.reg, kNoOperand, word, uint16_t(GroupKind::kBallot));
      return true;
    }
    const bool read = inst.op == SpvOp::OpSubgroupReadInvocationKHR;
    const uint32_t lane = read ? Value(inst[3]).reg : kNoOperand;
    for (uint32_t i = 0; i < count; ++i)
      Emit(Op::kGroup, v.reg + i, value.reg + i, lane, 0,
           uint16_t(read ? GroupKind::kBroadcast : GroupKind::kBroadcastFirst));
    return true;
  }
  if (!IsGroupOpcode(inst.op)) return true;
  *handled = true;
  uint32_t scope = 0;
  if (!module_.ScalarConstant(inst[2], &scope) || static_cast<spv::Scope>(scope) != spv::Scope::Subgroup)
    return Fail("group operation outside the Subgroup scope");
  const uint32_t count = ScalarCount(inst[0]);
  auto group = [this](GroupKind kind, uint32_t dst, uint32_t a, uint32_t b = kNoOperand, uint32_t c = 0,
                      uint32_t ext = 0) { Emit(Op::kGroup, dst, a, b, c, uint16_t(kind), ext); };

  if (inst.op == SpvOp::OpGroupNonUniformElect) {
    Emit(Op::kElect, Define(inst[1], inst[0], 1).reg);
    return true;
  }
  if (const GroupOpcode* g = Find(kDataMovement, inst.op)) {
    const CompiledValue& value = Value(inst[3]);
    uint32_t operand = kNoOperand, direction = 0;
    if (g->kind == GroupKind::kQuadSwap) {
      if (!module_.ScalarConstant(inst[4], &direction) || direction > 2) return Fail("QuadSwap direction");
    } else if (g->kind != GroupKind::kBroadcastFirst) {
      operand = Value(inst[4]).reg;
    }
    const CompiledValue& v = Define(inst[1], inst[0], count);
    for (uint32_t i = 0; i < count; ++i) group(g->kind, v.reg + i, value.reg + i, operand, direction);
    return true;
  }
  if (const GroupOpcode* g = Find(kBallotReads, inst.op)) {
    // BallotBitCount has a GroupOperation before its value.
    const bool count_op = g->kind == GroupKind::kBallotBitCount;
    const CompiledValue& ballot = Value(inst[count_op ? 4 : 3]);
    if (ballot.count < 2) return Fail("ballot value is not a uvec4");
    const uint32_t index = g->kind == GroupKind::kBallotBitExtract ? Value(inst[4]).reg : kNoOperand;
    const uint32_t operation = count_op ? inst[3] : 0;
    if (operation > uint32_t(GroupOperation::kExclusiveScan)) return Fail("BallotBitCount group operation");
    group(g->kind, Define(inst[1], inst[0], 1).reg, ballot.reg, index, operation);
    return true;
  }
  switch (inst.op) {
    case SpvOp::OpGroupNonUniformAll:
    case SpvOp::OpGroupNonUniformAny: {
      const GroupKind kind = inst.op == SpvOp::OpGroupNonUniformAll ? GroupKind::kAll : GroupKind::kAny;
      group(kind, Define(inst[1], inst[0], 1).reg, Value(inst[3]).reg);
      return true;
    }
    case SpvOp::OpGroupNonUniformAllEqual: {
      // Every component equal: one vote per component, and-ed.
      const CompiledValue& value = Value(inst[3]);  // (64-bit: both words equal)
      const CompiledValue& v = Define(inst[1], inst[0], 1);
      group(GroupKind::kAllEqual, v.reg, value.reg);
      for (uint32_t i = 1; i < value.count; ++i) {
        const uint32_t part = NewRegisters(1);
        group(GroupKind::kAllEqual, part, value.reg + i);
        Emit(Op::kBitAnd, v.reg, v.reg, part);
      }
      return true;
    }
    case SpvOp::OpGroupNonUniformBallot: {
      const CompiledValue& predicate = Value(inst[3]);
      const CompiledValue& v = Define(inst[1], inst[0], 4);
      for (uint32_t word = 0; word < 4; ++word) group(GroupKind::kBallot, v.reg + word, predicate.reg, kNoOperand, word);
      return true;
    }
    default:
      break;
  }
  if (const GroupOpcode* g = Find(kArithmetic, inst.op)) {
    const uint32_t operation = inst[3];
    uint32_t cluster = 0;
    if (operation > uint32_t(GroupOperation::kClusteredReduce)) return Fail("unsupported group operation");
    if (operation == uint32_t(GroupOperation::kClusteredReduce) &&
        (inst.word_count < 6 || !module_.ScalarConstant(inst[5], &cluster) || cluster == 0 ||
         (cluster & (cluster - 1)) != 0))
      return Fail("ClusterSize is not a constant power of two");
    const CompiledValue& value = Value(inst[4]);
    const CompiledValue& v = Define(inst[1], inst[0], count);
    if (IsWide(inst[0])) {  // 64-bit integers and doubles: one kGroup per register pair
      for (uint32_t i = 0; i < count; i += 2)
        group(g->kind, v.reg + i, value.reg + i, kNoOperand, operation, cluster | kGroupWide);
      return true;
    }
    // 8/16-bit values (compile_narrow.cpp): results masked or rounded to
    // half. Signed min/max run as unsigned ones with the sign bit flipped,
    // which keeps the order and makes the identities of exclusive scans
    // (all ones, zero) the narrow type's INT_MAX and INT_MIN once masked.
    const Narrow narrow = NarrowOf(inst[0]);
    const bool flip_sign = (narrow == Narrow::kInt8 || narrow == Narrow::kInt16) &&
                           (g->kind == GroupKind::kSMin || g->kind == GroupKind::kSMax);
    const GroupKind kind = !flip_sign ? g->kind : g->kind == GroupKind::kSMin ? GroupKind::kUMin : GroupKind::kUMax;
    const uint32_t sign_bit = ConstantRegister(narrow == Narrow::kInt8 ? 0x80 : 0x8000);
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t operand = value.reg + i;
      if (flip_sign) {
        operand = NewRegisters(1);
        Emit(Op::kBitXor, operand, value.reg + i, sign_bit);
      }
      group(kind, v.reg + i, operand, kNoOperand, operation, cluster);
      EmitCanonical(narrow, v.reg + i);
      if (flip_sign) Emit(Op::kBitXor, v.reg + i, v.reg + i, sign_bit);
    }
    return true;
  }
  return Fail("unsupported group operation (opcode " + std::to_string(uint32_t(inst.op)) + ")");
}

bool Compiler::DeclareLaneBuiltin(uint32_t builtin, uint32_t reg) {
  switch (static_cast<spv::BuiltIn>(builtin)) {
    case spv::BuiltIn::SubgroupLocalInvocationId:
    case spv::BuiltIn::SubgroupSize:
    case spv::BuiltIn::SubgroupEqMask:
    case spv::BuiltIn::SubgroupGeMask:
    case spv::BuiltIn::SubgroupGtMask:
    case spv::BuiltIn::SubgroupLeMask:
    case spv::BuiltIn::SubgroupLtMask:
      lane_builtins_.emplace_back(builtin, reg);
      return true;
    default:
      return false;
  }
}

void Compiler::EmitLaneBuiltins() {
  for (const auto& [builtin, reg] : lane_builtins_) {
    const auto group = [this](GroupKind kind, uint32_t dst, uint32_t c = 0, uint32_t ext = 0) {
      Emit(Op::kGroup, dst, kNoOperand, kNoOperand, c, uint16_t(kind), ext);
    };
    LaneMaskRelation relation = LaneMaskRelation::kEq;
    switch (static_cast<spv::BuiltIn>(builtin)) {
      case spv::BuiltIn::SubgroupLocalInvocationId: group(GroupKind::kLaneIndex, reg); continue;
      case spv::BuiltIn::SubgroupSize: Emit(Op::kMove, reg, ConstantRegister(program_.subgroup_size)); continue;
      case spv::BuiltIn::SubgroupGeMask: relation = LaneMaskRelation::kGe; break;
      case spv::BuiltIn::SubgroupGtMask: relation = LaneMaskRelation::kGt; break;
      case spv::BuiltIn::SubgroupLeMask: relation = LaneMaskRelation::kLe; break;
      case spv::BuiltIn::SubgroupLtMask: relation = LaneMaskRelation::kLt; break;
      default: break;
    }
    for (uint32_t word = 0; word < 4; ++word) group(GroupKind::kLaneMask, reg + word, word, uint32_t(relation));
  }
}

}  // namespace duet::spirv_exec

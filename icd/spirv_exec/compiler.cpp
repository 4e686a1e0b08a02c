// Values, blocks and structured control flow (see ir.h for the model).
#include "spirv_exec/compiler.h"

#include <atomic>
#include <algorithm>
#include <bit>
#include <functional>
#include <unordered_set>

#include "objects/device_limits.h"
#include "spirv_exec/double_conversion.h"
#include "spirv_exec/ir_prepare.h"
#include "spirv_exec/spec_constant_op.h"
#include "texel/fixed_point.h"

namespace duet::spirv_exec {

using SpvOp = spv::Op;

uint32_t Compiler::NewRegisters(uint32_t count) {
  const uint32_t first = program_.register_count;
  // A wave holds every register for each lane: past kMaxRegisters the
  // program is refused (Compile fails) instead of the count wrapping.
  if (count > kMaxRegisters - std::min(first, kMaxRegisters)) {
    too_many_registers_ = true;
    return 0;
  }
  program_.register_count += count;
  return first;
}

uint32_t Compiler::ConstantRegister(uint32_t value) {
  auto it = constant_registers_.find(value);
  if (it != constant_registers_.end()) return it->second;
  const uint32_t reg = NewRegisters(1);
  program_.constants.emplace_back(reg, value);
  constant_registers_[value] = reg;
  return reg;
}

CompiledValue& Compiler::Define(uint32_t id, uint32_t type, uint32_t count) {
  CompiledValue& v = values_[id];
  if (v.kind == CompiledValue::Kind::kRegisters) return v;  // phis are defined before their block
  v.kind = CompiledValue::Kind::kRegisters;
  v.type = type;
  v.count = count;
  v.reg = NewRegisters(count);
  return v;
}

const CompiledValue& Compiler::Value(uint32_t id) {
  auto it = values_.find(id);
  if (it != values_.end()) return it->second;
  if (module_.constants.count(id) != 0 && CompileConstant(id)) return values_[id];
  static const CompiledValue kNone;
  Fail("use of unknown or unsupported value %" + std::to_string(id));
  return kNone;
}

uint32_t Compiler::ScalarCount(uint32_t type_id) const {
  const SpirvType& t = module_.Type(type_id);
  switch (t.kind) {
    case SpvOp::OpTypeBool:
    case SpvOp::OpTypeInt:
    case SpvOp::OpTypeFloat: return t.width == 64 ? 2 : 1;
    case SpvOp::OpTypeVector:
    case SpvOp::OpTypeMatrix:
    case SpvOp::OpTypeArray: return t.count * ScalarCount(t.element);
    case SpvOp::OpTypeStruct: {
      uint32_t n = 0;
      for (uint32_t m : t.members) n += ScalarCount(m);
      return n;
    }
    case SpvOp::OpTypePointer:
      // A buffer device address is a value: 64 bits. So is a storage buffer
      // or workgroup pointer where one is a value (variable pointers:
      // selects, phis).
      return IsAddressPointer(t) ? 2 : 0;
    default: return 0;
  }
}

PointerValue Compiler::PointerOf(uint32_t id) {
  const CompiledValue& v = Value(id);
  if (v.kind == CompiledValue::Kind::kPointer) return v.pointer;
  const SpirvType& t = module_.Type(v.type);
  PointerValue p;
  if (v.kind == CompiledValue::Kind::kRegisters && IsAddressPointer(t) && v.count == 2) {
    p.address_register = v.reg;
    p.pointee = t.element;
    p.explicit_layout = t.storage != spv::StorageClass::Workgroup;
    return p;
  }
  Fail("%" + std::to_string(id) + " is used as a pointer but is none the compiler can follow");
  return p;
}

uint32_t Compiler::PointerRegisters(uint32_t id) {
  const CompiledValue& v = Value(id);
  if (v.kind == CompiledValue::Kind::kRegisters && v.count == 2) return v.reg;
  if (v.kind != CompiledValue::Kind::kPointer) {
    Fail("%" + std::to_string(id) + " is used as a pointer but is none the compiler can follow");
    return 0;
  }
  const PointerValue& p = v.pointer;
  const uint32_t reg = NewRegisters(2);
  if (p.address_register != kNoRegister) {
    Emit(Op::kAddressAdd, reg, p.address_register, p.offset_register != kNoRegister ? p.offset_register : kNoOperand,
         p.static_offset);
    return reg;
  }
  const RootKind kind = p.root < program_.roots.size() ? program_.roots[p.root].kind : RootKind::kPrivate;
  const bool element = kind == RootKind::kDescriptorArray && p.descriptor_index != kNoRegister;
  if (p.image || p.descriptor_variable != 0 || p.builtin_register != kNoRegister ||
      (!element && (p.descriptor_index != kNoRegister ||
                    (kind != RootKind::kDescriptorBuffer && kind != RootKind::kWorkgroup)))) {
    Fail("a variable pointer other than into workgroup memory or a storage buffer");
    return 0;
  }
  Emit(Op::kRootAddress, reg, p.offset_register != kNoRegister ? p.offset_register : kNoOperand, p.static_offset,
       element ? p.descriptor_index : kNoOperand, uint16_t(p.root));
  return reg;
}

uint32_t Compiler::MemoryRootIndex(const MemoryRoot& root) {
  auto it = std::find(program_.roots.begin(), program_.roots.end(), root);
  if (it != program_.roots.end()) return static_cast<uint32_t>(it - program_.roots.begin());
  program_.roots.push_back(root);
  return static_cast<uint32_t>(program_.roots.size() - 1);
}

uint32_t Compiler::ImageRootIndex(const ImageRoot& root) {
  auto it = std::find(program_.images.begin(), program_.images.end(), root);
  if (it != program_.images.end()) return static_cast<uint32_t>(it - program_.images.begin());
  program_.images.push_back(root);
  return static_cast<uint32_t>(program_.images.size() - 1);
}

void Compiler::FindDataUses(const SpirvFunction& function) {
  for (const SpirvBlock& block : function.blocks) {
    for (const SpirvInstruction& inst : block.body) {
      // The operand words that are the instruction's pointers.
      uint32_t pointer = UINT32_MAX, second_pointer = UINT32_MAX;
      switch (inst.op) {
        case SpvOp::OpLoad:
        case SpvOp::OpAccessChain:
        case SpvOp::OpInBoundsAccessChain:
        case SpvOp::OpPtrAccessChain:
        case SpvOp::OpInBoundsPtrAccessChain:
        case SpvOp::OpArrayLength:
          pointer = 2;
          break;
        case SpvOp::OpStore:
        case SpvOp::OpAtomicStore:
          pointer = 0;
          break;
        case SpvOp::OpCopyMemory:
          pointer = 0;
          second_pointer = 1;
          break;
        default:
          // OpAtomicLoad .. OpAtomicXor (but OpAtomicStore) and the float atomics take theirs third.
          if ((inst.op >= SpvOp::OpAtomicLoad && inst.op <= SpvOp::OpAtomicXor) || inst.op == SpvOp::OpAtomicFAddEXT ||
              inst.op == SpvOp::OpAtomicFMinEXT || inst.op == SpvOp::OpAtomicFMaxEXT)
            pointer = 2;
          break;
      }
      for (uint32_t i = 0; i < inst.word_count; ++i)
        if (i != pointer && i != second_pointer) data_uses_.insert(inst[i]);
    }
  }
}

void Compiler::Emit(Op op, uint32_t dst, uint32_t a, uint32_t b, uint32_t c, uint16_t aux, uint32_t ext) {
  program_.code.push_back({op, aux, dst, a, b, c, ext});
}

bool Compiler::Fail(const std::string& message) {
  if (error_.empty()) error_ = message;
  return false;
}

// The composite operations of OpSpecConstantOp (their literal operands are
// not ids): CompositeExtract, CompositeInsert and VectorShuffle, appended to
// *scalars; false for other operations or operands that are not constants.
bool Compiler::EvaluateCompositeSpecConstantOp(const SpirvInstruction& k,
                                               const std::function<bool(uint32_t)>& flatten,
                                               std::vector<uint32_t>* scalars) {
  const auto op = static_cast<SpvOp>(k[2]);
  if (op != SpvOp::OpCompositeExtract && op != SpvOp::OpCompositeInsert && op != SpvOp::OpVectorShuffle) return false;
  // The scalars of constant `id`, and its type.
  auto words_of = [&](uint32_t id, std::vector<uint32_t>* words, uint32_t* type) {
    if (module_.constants.count(id) == 0) return false;
    const size_t before = scalars->size();
    if (!flatten(id)) return false;
    words->assign(scalars->begin() + std::ptrdiff_t(before), scalars->end());
    scalars->resize(before);
    *type = module_.constants.at(id)[0];
    return true;
  };
  // Registers from the start of `type` to the part that `indices` name, and that part's size.
  auto locate = [&](uint32_t type, uint32_t first_index, uint32_t* offset, uint32_t* size) {
    *offset = 0;
    for (uint32_t i = first_index; i < k.word_count; ++i) {
      const SpirvType& t = module_.Type(type);
      if (t.kind == SpvOp::OpTypeStruct) {
        if (k[i] >= t.members.size()) return false;
        for (uint32_t m = 0; m < k[i]; ++m) *offset += ScalarCount(t.members[m]);
        type = t.members[k[i]];
      } else {
        *offset += k[i] * ScalarCount(t.element);
        type = t.element;
      }
    }
    *size = ScalarCount(type);
    return true;
  };
  std::vector<uint32_t> a, b;
  uint32_t a_type = 0, b_type = 0, offset = 0, size = 0;
  switch (op) {
    case SpvOp::OpCompositeExtract:
      if (!words_of(k[3], &a, &a_type) || !locate(a_type, 4, &offset, &size) || offset + size > a.size()) return false;
      scalars->insert(scalars->end(), a.begin() + offset, a.begin() + offset + size);
      return true;
    case SpvOp::OpCompositeInsert:
      if (!words_of(k[3], &a, &a_type) || !words_of(k[4], &b, &b_type) || !locate(b_type, 5, &offset, &size) ||
          offset + size > b.size() || size != a.size())
        return false;
      std::copy(a.begin(), a.end(), b.begin() + offset);
      scalars->insert(scalars->end(), b.begin(), b.end());
      return true;
    default: {  // OpVectorShuffle
      if (!words_of(k[3], &a, &a_type) || !words_of(k[4], &b, &b_type)) return false;
      const uint32_t w = IsWide(a_type) ? 2 : 1;
      for (uint32_t i = 5; i < k.word_count; ++i) {
        const uint32_t pick = k[i] == 0xFFFFFFFF ? 0 : k[i];
        const std::vector<uint32_t>& from = pick < a.size() / w ? a : b;
        const uint32_t at = (pick < a.size() / w ? pick : pick - uint32_t(a.size()) / w) * w;
        if (at + w > from.size()) return false;
        scalars->insert(scalars->end(), from.begin() + at, from.begin() + at + w);
      }
      return true;
    }
  }
}

bool Compiler::CompileConstant(uint32_t id) {
  const SpirvInstruction& c = module_.constants.at(id);
  const uint32_t type = c[0];
  std::vector<uint32_t> scalars;
  std::function<bool(uint32_t)> flatten = [&](uint32_t cid) {
    const SpirvInstruction& k = module_.constants.at(cid);
    const uint32_t count = ScalarCount(k[0]);
    switch (k.op) {
      case SpvOp::OpConstant:
        for (uint32_t i = 0; i < count; ++i) scalars.push_back(CanonicalNarrow(NarrowOf(k[0]), k[2 + i]));
        return true;
      case SpvOp::OpConstantTrue: scalars.push_back(1); return true;
      case SpvOp::OpConstantFalse: scalars.push_back(0); return true;
      case SpvOp::OpConstantNull:
      case SpvOp::OpUndef: scalars.insert(scalars.end(), count, 0); return true;
      case SpvOp::OpConstantComposite:
      case SpvOp::OpSpecConstantComposite:
        for (uint32_t i = 2; i < k.word_count; ++i)
          if (module_.constants.count(k[i]) == 0 || !flatten(k[i])) return false;
        return true;
      case SpvOp::OpSpecConstantOp: {
        if (EvaluateCompositeSpecConstantOp(k, flatten, &scalars)) return true;
        const auto op = static_cast<SpvOp>(k[2]);
        const uint32_t signed_operands = SignedOperandsOf(op);
        std::vector<std::vector<uint32_t>> operands;
        for (uint32_t i = 3; i < k.word_count; ++i) {
          if (module_.constants.count(k[i]) == 0) return false;
          const size_t before = scalars.size();
          if (!flatten(k[i])) return false;
          operands.emplace_back(scalars.begin() + std::ptrdiff_t(before), scalars.end());
          scalars.resize(before);
          // Narrow integers are held zero-extended; signed operations read them sign-extended.
          const Narrow kind = NarrowOf(module_.constants.at(k[i])[0]);
          const unsigned bits = kind == Narrow::kInt8 ? 8 : kind == Narrow::kInt16 ? 16 : 0;
          if (bits != 0 && i - 3 < 32 && ((signed_operands >> (i - 3)) & 1))
            for (uint32_t& w : operands.back()) w = uint32_t(texel::SignExtend(w, bits));
        }
        const Narrow narrow = NarrowOf(k[0]);
        if (op == SpvOp::OpFConvert) {
          // Floats are 32-bit registers (a half the float of the same value):
          // only a conversion to 16 bits changes the value.
          // Doubles are two words, low first.
          if (operands.size() != 1) return false;
          // Rounded as the decoration says, else as the execution mode (compile_float_mode.cpp).
          const Decorations* d = module_.DecorationsOf(k[1]);
          const bool toward_zero = d != nullptr && d->rounding_mode >= 0
                                       ? d->rounding_mode == int32_t(spv::FPRoundingMode::RTZ)
                                       : (toward_zero_widths_ & (FloatWidthOf(k[0]) / 16)) != 0;
          const bool from_double = IsWide(module_.constants.at(k[3])[0]), to_double = IsWide(k[0]);
          const std::vector<uint32_t>& from = operands[0];
          for (uint32_t c = 0; c < count / (to_double ? 2 : 1); ++c) {
            const size_t at = from_double ? 2 * c : c;
            if (at + (from_double ? 1 : 0) >= from.size()) return false;
            const double value = from_double ? std::bit_cast<double>(uint64_t{from[at]} | uint64_t{from[at + 1]} << 32)
                                             : double(std::bit_cast<float>(from[at]));
            if (to_double) {
              const uint64_t bits = std::bit_cast<uint64_t>(value);
              scalars.insert(scalars.end(), {uint32_t(bits), uint32_t(bits >> 32)});
            } else {
              const float f = narrow == Narrow::kHalf ? DoubleToHalf(value, toward_zero) : DoubleToFloat(value, toward_zero);
              scalars.push_back(std::bit_cast<uint32_t>(f));
            }
          }
          return true;
        }
        std::vector<uint32_t> result;
        if (!EvaluateSpecConstantOp(op, count, IsWide(k[0]), operands, &result)) return false;
        for (uint32_t r : result) scalars.push_back(narrow == Narrow::kHalf ? r : CanonicalNarrow(narrow, r));
        return true;
      }
      default: return false;
    }
  };
  if (!flatten(id)) return Fail("unsupported constant %" + std::to_string(id));
  CompiledValue& v = values_[id];
  v.kind = CompiledValue::Kind::kRegisters;
  v.type = type;
  v.count = static_cast<uint32_t>(scalars.size());
  // Constants share registers; a composite needs consecutive ones.
  if (scalars.size() == 1) {
    v.reg = ConstantRegister(scalars[0]);
  } else {
    v.reg = NewRegisters(v.count);
    for (uint32_t i = 0; i < v.count; ++i) program_.constants.emplace_back(v.reg + i, scalars[i]);
  }
  return true;
}

// Structured order: a reverse postorder in which a header's merge block is
// visited first (so it is placed after everything inside the construct) and
// a loop's continue target second (after the loop body).
bool Compiler::OrderBlocks(const SpirvFunction& function) {
  std::unordered_map<uint32_t, const SpirvBlock*> by_label;
  for (const SpirvBlock& b : function.blocks) by_label[b.label] = &b;
  std::unordered_set<uint32_t> visited;
  std::vector<const SpirvBlock*> postorder;

  auto successors = [&](const SpirvBlock& b) {
    std::vector<uint32_t> next;
    if (b.merge != 0) next.push_back(b.merge);
    if (b.continue_target != 0) next.push_back(b.continue_target);
    const SpirvInstruction& t = b.body.back();
    switch (t.op) {
      case SpvOp::OpBranch: next.push_back(t[0]); break;
      case SpvOp::OpBranchConditional: next.push_back(t[2]); next.push_back(t[1]); break;
      case SpvOp::OpSwitch: {
        // (literal, label) pairs after the selector and default; a 64-bit selector's literals are two words.
        const uint32_t stride = ScalarCount(module_.TypeOf(t[0])) == 2 ? 3 : 2;
        for (uint32_t i = 2 + stride - 1; i < t.word_count; i += stride) next.push_back(t[i]);
        std::reverse(next.end() - std::ptrdiff_t((t.word_count - 2) / stride), next.end());
        next.push_back(t[1]);
        break;
      }
      default: break;
    }
    return next;
  };
  // Iterative DFS (deep shaders would overflow a recursive one).
  std::vector<std::pair<const SpirvBlock*, std::vector<uint32_t>>> stack;
  visited.insert(function.blocks[0].label);
  stack.push_back({&function.blocks[0], successors(function.blocks[0])});
  while (!stack.empty()) {
    auto& [block, pending] = stack.back();
    if (pending.empty()) {
      postorder.push_back(block);
      stack.pop_back();
      continue;
    }
    const uint32_t next = pending.front();
    pending.erase(pending.begin());
    if (!visited.insert(next).second) continue;
    auto it = by_label.find(next);
    if (it == by_label.end()) return Fail("branch to unknown block");
    stack.push_back({it->second, successors(*it->second)});
  }
  order_.assign(postorder.rbegin(), postorder.rend());
  for (uint32_t i = 0; i < order_.size(); ++i) block_index_[order_[i]->label] = i;
  return true;
}

void Compiler::EmitPhiMoves(uint32_t from_label, uint32_t to_label, uint16_t edge) {
  const SpirvBlock& to = *order_[block_index_.at(to_label)];
  // Phis read their sources as of the edge, so when one phi's source is
  // another phi of the same block, copy all sources to temporaries first.
  struct Move {
    uint32_t dst, src, count;
  };
  std::vector<Move> moves;
  std::unordered_set<uint32_t> phi_ids;
  bool reads_phi = false;
  for (const SpirvInstruction& inst : to.body) {
    if (inst.op != SpvOp::OpPhi) break;
    phi_ids.insert(inst[1]);
  }
  for (const SpirvInstruction& inst : to.body) {
    if (inst.op != SpvOp::OpPhi) break;
    for (uint32_t i = 2; i + 1 < inst.word_count; i += 2) {
      if (inst[i + 1] != from_label) continue;
      const CompiledValue& src = Value(inst[i]);
      const CompiledValue& dst = values_.at(inst[1]);
      reads_phi |= phi_ids.count(inst[i]) != 0;
      // A pointer phi (variable pointers) takes addresses.
      const uint32_t from = src.kind == CompiledValue::Kind::kPointer && dst.count == 2 ? PointerRegisters(inst[i]) : src.reg;
      moves.push_back({dst.reg, from, dst.count});
    }
  }
  if (reads_phi) {
    for (Move& m : moves) {
      const uint32_t temp = NewRegisters(m.count);
      for (uint32_t c = 0; c < m.count; ++c) Emit(Op::kMove, temp + c, m.src + c);
      m.src = temp;
    }
  }
  for (const Move& m : moves)
    for (uint32_t c = 0; c < m.count; ++c) Emit(Op::kEdgeMove, m.dst + c, m.src + c, 0, 0, edge);
}

bool Compiler::CompileTerminator(const SpirvBlock& block, const SpirvInstruction& t) {
  const uint32_t here = block_index_.at(block.label);
  std::vector<uint32_t> targets;
  switch (t.op) {
    case SpvOp::OpBranch:
      Emit(Op::kBranch, 0, block_index_.at(t[0]));
      EmitPhiMoves(block.label, t[0], 0);
      targets = {t[0]};
      break;
    case SpvOp::OpBranchConditional:
      Emit(Op::kBranchCond, 0, Value(t[0]).reg, block_index_.at(t[1]), block_index_.at(t[2]));
      EmitPhiMoves(block.label, t[1], 0);
      EmitPhiMoves(block.label, t[2], 1);
      targets = {t[1], t[2]};
      break;
    case SpvOp::OpSwitch: {
      SwitchTable table;
      table.default_block = block_index_.at(t[1]);
      const CompiledValue& selector = Value(t[0]);
      const uint32_t width = ScalarCount(selector.type);
      if (width != 1 && width != 2) return Fail("switch selector of " + std::to_string(width) + " words");
      // Cases are (literal words, label): one word each, or two for a 64-bit selector.
      const uint32_t stride = width + 1;
      uint32_t selector_reg = selector.reg;
      if (width == 2) {
        // A 64-bit selector switches on the index of the case it equals (UINT32_MAX: none).
        selector_reg = NewRegisters(1);
        const uint32_t low = NewRegisters(1), high = NewRegisters(1);
        Emit(Op::kMove, selector_reg, ConstantRegister(UINT32_MAX));
        for (uint32_t i = 2, k = 0; i + stride - 1 < t.word_count; i += stride, ++k) {
          Emit(Op::kIEqual, low, selector.reg, ConstantRegister(t[i]));
          Emit(Op::kIEqual, high, selector.reg + 1, ConstantRegister(t[i + 1]));
          Emit(Op::kBitAnd, low, low, high);
          Emit(Op::kSelect, selector_reg, low, ConstantRegister(k), selector_reg);
        }
      }
      for (uint32_t i = 2, k = 0; i + stride - 1 < t.word_count; i += stride, ++k)
        table.cases.emplace_back(width == 2 ? k : CanonicalNarrow(NarrowOf(selector.type), t[i]),
                                 block_index_.at(t[i + width]));
      Emit(Op::kSwitch, 0, selector_reg, static_cast<uint32_t>(program_.switches.size()));
      program_.switches.push_back(table);
      for (uint32_t i = 0; i < table.cases.size(); ++i)
        EmitPhiMoves(block.label, t[2 + stride * i + width], uint16_t(i));
      EmitPhiMoves(block.label, t[1], uint16_t(table.cases.size()));
      targets.push_back(t[1]);
      break;
    }
    case SpvOp::OpReturn:
    case SpvOp::OpReturnValue:
    case SpvOp::OpUnreachable:
      Emit(Op::kReturn);
      return true;
    case SpvOp::OpKill:
    case SpvOp::OpTerminateInvocation:
      Emit(Op::kKill);
      program_.uses_kill = true;
      return true;
    default:
      return Fail("unsupported terminator " + std::to_string(static_cast<uint32_t>(t.op)));
  }
  for (uint32_t target : targets)
    if (block_index_.at(target) <= here) Emit(Op::kLoopBack, 0, block_index_.at(target));
  return true;
}

bool Compiler::CompileBlock(const SpirvBlock& block) {
  program_.block_start.push_back(static_cast<uint32_t>(program_.code.size()));
  Emit(Op::kBlockBegin, 0, block_index_.at(block.label));
  if (&block == order_.front()) {
    EmitLaneBuiltins();
    if (!EmitGlobalInitializers()) return false;
  }
  for (size_t i = 0; i + 1 < block.body.size(); ++i) {
    const SpirvInstruction& inst = block.body[i];
    if (inst.op == SpvOp::OpPhi) continue;  // written by the incoming edges
    bool handled = false;
    if (!CompileNonSemantic(inst, &handled)) return false;
    if (handled) continue;
    const uint32_t float_mode = FloatModeOf(inst);
    const std::vector<std::pair<uint32_t, CompiledValue>> unflushed = FlushHalfOperands(inst);
    if (float_mode != 0) Emit(Op::kFloatMode, 0, 0, 0, float_mode);
    if (!CompileMemoryInstruction(inst, &handled)) return false;
    if (!handled && !CompileImageInstruction(inst, &handled)) return false;
    if (!handled && !CompileGroupInstruction(inst, &handled)) return false;
    if (!handled && !CompileAluInstruction(inst, &handled)) return false;
    if (!handled) return Fail("unsupported instruction (opcode " + std::to_string(static_cast<uint32_t>(inst.op)) + ")");
    if (!error_.empty()) return false;
    for (const auto& [id, original] : unflushed) values_[id] = original;
    if (float_mode != 0) Emit(Op::kFloatMode);
    EmitFlushDenormals(inst);
  }
  return CompileTerminator(block, block.body.back());
}

bool Compiler::Compile(const SpirvEntryPoint& entry, std::string* error) {
  const SpirvFunction* function = module_.Function(entry.function);
  flush_widths_ = entry.flush_widths;
  toward_zero_widths_ = entry.toward_zero_widths;
  bool ok = function != nullptr && !function->blocks.empty();
  if (!ok) Fail("entry point has no body");
  ok = ok && DeclareGlobals(entry) && OrderBlocks(*function);
  if (ok) {
    FindDataUses(*function);
    // Phi results get registers before any edge writes them.
    for (const SpirvBlock* block : order_)
      for (const SpirvInstruction& inst : block->body)
        if (inst.op == SpvOp::OpPhi) Define(inst[1], inst[0], ScalarCount(inst[0]));
    for (const SpirvBlock* block : order_) {
      if (!CompileBlock(*block) || !error_.empty()) {
        ok = false;
        break;
      }
    }
    program_.block_start.push_back(static_cast<uint32_t>(program_.code.size()));
  }
  if (too_many_registers_) {
    *error = "the shader needs more than " + std::to_string(kMaxRegisters) + " registers per lane";
    return false;
  }
  if (!ok || !error_.empty()) {
    *error = error_.empty() ? "compilation failed" : error_;
    return false;
  }
  return true;
}

namespace {

spv::ExecutionModel ExecutionModelOf(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::kCompute: return spv::ExecutionModel::GLCompute;
    case ShaderStage::kVertex: return spv::ExecutionModel::Vertex;
    case ShaderStage::kGeometry: return spv::ExecutionModel::Geometry;
    case ShaderStage::kTessControl: return spv::ExecutionModel::TessellationControl;
    case ShaderStage::kTessEvaluation: return spv::ExecutionModel::TessellationEvaluation;
    case ShaderStage::kFragment: break;
  }
  return spv::ExecutionModel::Fragment;
}

TessellationModes TessellationModesOf(const SpirvEntryPoint& entry) {
  TessellationModes t;
  using Mode = spv::ExecutionMode;
  switch (entry.tessellation_domain) {
    case Mode::Triangles: t.domain = TessellationModes::Domain::kTriangles; break;
    case Mode::Quads: t.domain = TessellationModes::Domain::kQuads; break;
    case Mode::Isolines: t.domain = TessellationModes::Domain::kIsolines; break;
    default: break;
  }
  switch (entry.tessellation_spacing) {
    case Mode::SpacingEqual: t.spacing = TessellationModes::Spacing::kEqual; break;
    case Mode::SpacingFractionalEven: t.spacing = TessellationModes::Spacing::kFractionalEven; break;
    case Mode::SpacingFractionalOdd: t.spacing = TessellationModes::Spacing::kFractionalOdd; break;
    default: break;
  }
  if (entry.vertex_order == Mode::VertexOrderCw) t.order = TessellationModes::Order::kCw;
  if (entry.vertex_order == Mode::VertexOrderCcw) t.order = TessellationModes::Order::kCcw;
  t.point_mode = entry.point_mode;
  t.output_vertices = entry.output_vertices;
  return t;
}

// Clip and cull distances within the device's limits: each clipped
// primitive pays for every plane, so invalid modules asking for more are
// refused. (Interface locations are bounded as they are declared:
// Compiler::DeclareInterface.)
bool DistancesWithinLimits(const Program& p, std::string* error) {
  for (const std::vector<BuiltinSlot>* builtins : {&p.builtin_inputs, &p.builtin_outputs}) {
    uint32_t clip = 0, cull = 0;
    for (const BuiltinSlot& b : *builtins) {
      if (b.builtin == uint32_t(spv::BuiltIn::ClipDistance)) clip = std::max(clip, b.count);
      if (b.builtin == uint32_t(spv::BuiltIn::CullDistance)) cull = std::max(cull, b.count);
    }
    if (clip > limits::kMaxClipDistances || cull > limits::kMaxCullDistances ||
        clip + cull > limits::kMaxCombinedClipAndCullDistances) {
      *error = "ClipDistance/CullDistance arrays over the device's limits";
      return false;
    }
  }
  return true;
}

bool WritesMemory(const Program& p) {
  for (const Inst& inst : p.code) {
    switch (inst.op) {
      case Op::kStore:
        if (p.roots[inst.aux].kind == RootKind::kDescriptorBuffer) return true;
        break;
      case Op::kAtomic:
      case Op::kImageAtomic:
      case Op::kImageWrite:
      case Op::kStoreIndexed:
      case Op::kAtomicIndexed:
      case Op::kStoreAddress:
      case Op::kStoreNarrow:  // (buffers only: push constants are read-only)
      case Op::kAtomicAddress: return true;
      default: break;
    }
  }
  return false;
}

}  // namespace

bool TranslateStage(const std::vector<uint32_t>& words, const char* entry_name, ShaderStage stage, Program* program,
                    std::string* error, uint32_t subgroup_size) {
  if (subgroup_size < kMinSubgroupSize || subgroup_size > kWaveWidth || (subgroup_size & (subgroup_size - 1)) != 0) {
    *error = "subgroup size " + std::to_string(subgroup_size) + " is not one the interpreter runs";
    return false;
  }
  SpirvModule module;
  if (!ParseSpirvModule(words, &module, error)) return false;
  const spv::ExecutionModel model = ExecutionModelOf(stage);
  for (const SpirvEntryPoint& entry : module.entry_points) {
    if (entry.name != entry_name || entry.model != model) continue;
    program->serial = NewProgramSerial();
    program->stage = stage;
    program->subgroup_size = subgroup_size;
    program->early_fragment_tests = entry.early_fragment_tests;
    program->post_depth_coverage = entry.post_depth_coverage;
    program->transform_feedback = entry.transform_feedback;
    if (stage == ShaderStage::kGeometry) {
      GeometryModes& g = program->geometry;
      if (entry.input_vertices == 0 || entry.output_primitive == spv::ExecutionMode{}) {
        *error = "geometry shader without an input or output primitive mode";
        return false;
      }
      g.input_vertices = entry.input_vertices;
      g.output_vertices = entry.output_vertices;
      g.invocations = std::max(entry.invocations, 1u);
      g.output = entry.output_primitive == spv::ExecutionMode::OutputPoints      ? GeometryModes::Output::kPoints
                 : entry.output_primitive == spv::ExecutionMode::OutputLineStrip ? GeometryModes::Output::kLineStrip
                                                                                 : GeometryModes::Output::kTriangleStrip;
      if (g.invocations > limits::kMaxGeometryShaderInvocations ||
          g.output_vertices > limits::kMaxGeometryOutputVertices) {
        *error = "geometry shader invocations or output vertices over the device's limits";
        return false;
      }
    }
    if (stage == ShaderStage::kTessControl || stage == ShaderStage::kTessEvaluation) {
      program->tessellation = TessellationModesOf(entry);
      if (program->tessellation.output_vertices > limits::kMaxTessellationPatchSize) {
        *error = "tessellation OutputVertices over maxTessellationPatchSize";
        return false;
      }
    }
    Compiler compiler(module, program);
    if (!compiler.Compile(entry, error) || !DistancesWithinLimits(*program, error)) return false;
    program->writes_memory = WritesMemory(*program);
    return true;
  }
  *error = std::string("no entry point named ") + entry_name + " for the stage";
  return false;
}

bool CompileStage(const std::vector<uint32_t>& words, const char* entry_name, ShaderStage stage, Program* program,
                  std::string* error, uint32_t subgroup_size) {
  if (!TranslateStage(words, entry_name, stage, program, error, subgroup_size)) return false;
  PrepareExecution(program);
  return true;
}

uint64_t NewProgramSerial() {
  static std::atomic<uint64_t> compilations{0};
  return ++compilations;
}

TessellationModes MergeTessellationModes(const TessellationModes& a, const TessellationModes& b) {
  TessellationModes m = a;
  if (m.domain == TessellationModes::Domain::kNone) m.domain = b.domain;
  if (m.spacing == TessellationModes::Spacing::kNone) m.spacing = b.spacing;
  if (m.order == TessellationModes::Order::kNone) m.order = b.order;
  if (m.order == TessellationModes::Order::kNone) m.order = TessellationModes::Order::kCcw;
  m.point_mode = a.point_mode || b.point_mode;
  m.output_vertices = std::max(a.output_vertices, b.output_vertices);
  return m;
}

}  // namespace duet::spirv_exec

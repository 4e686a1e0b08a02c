// Preparing a program for the interpreter, after the compiler: fewer
// register copies, then each instruction's lane kernel, chosen with what a
// uniformity analysis knows about its registers.
//
// Copies. A move from a register written once (or never: a constant, an
// input) into a register nothing else writes goes away, its readers reading
// the source (PropagateCopies); an image sample reads its coordinates where
// a vector's components were moved from (CollapseVectorCopies), and the
// instruction computing a value moved into an output writes the output
// itself (SinkOutputMoves). A loop's phi, written on the back edge from
// the value S, takes S's place in the instruction defining S when that
// makes no difference to any lane (CoalescePhis): one move less per
// iteration and per phi. Control flow: an if/else with a few lane kernels
// per arm becomes straight code and Selects (ConvertSmallIfs), and a block
// that only its predecessor enters runs on from it (MergeBlockChains).
//
// Uniformity. A register is *uniform* when every lane that reads it holds
// the same value, so a kernel may read its lane 0 instead of the whole
// register, and an instruction whose operands are all uniform computes its
// result once and writes it to every lane, active or not. Writing inactive
// lanes is what makes the result readable from lane 0 wherever it is read;
// it is safe when no lane still needs the register's old value, which the
// rules below guarantee (the compiler's registers are SSA values, apart
// from phis and a few temporaries written more than once):
//
//  - Constants are uniform (broadcast by ResetWave), and so are the compute
//    built-ins the same for a whole workgroup (compute_dispatch fills every
//    lane). Other registers nobody writes (inputs, undefined values) vary.
//  - A register written by one instruction is uniform when that
//    instruction can run once (a lane kernel, a move, a load from a buffer,
//    push constants or workgroup memory) with uniform operands, unless its
//    value changes from one iteration to the next of a loop that lanes may
//    leave at different iterations: the lanes that left early must keep
//    the value they left with. Such a loop is one with a branch on a
//    varying condition, a return or a kill anywhere in it; a value computed
//    there only from registers the loop does not change is the same in
//    every iteration, so it may stay uniform. (A lane that skips the
//    instruction in an if never reads the register: SSA uses are dominated
//    by their definition.)
//  - A loop header's phi, written before the loop and once in it (the back
//    edge's move, or the instruction CoalescePhis made write it), is
//    uniform under the same conditions for both writes when lanes leave the
//    loop together; any other register written more than once varies, and
//    so do the stage's outputs (a lane that returned early has its outputs
//    read after the wave).
//
// Every pass needs to know which registers each instruction reads and
// writes; a program with an instruction they do not know is left as it is
// (no copies removed, no uniform registers).
#include "spirv_exec/ir_prepare.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "spirv_exec/lane_kernels.h"

namespace duet::spirv_exec {
namespace {

// Registers [first, first + count) written by an instruction.
struct Writes {
  uint32_t first = 0, count = 0;
};

// The registers `in` writes; false for an instruction this file does not know.
bool WritesOf(const Inst& in, const LaneKernels& kernels, Writes* writes) {
  uint32_t operands = 0;
  if (kernels.VariantsFor(in, &operands) != nullptr) {
    *writes = {in.dst, 1};
    return true;
  }
  switch (in.op) {
    case Op::kStore:
    case Op::kStoreIndexed:
    case Op::kStoreAddress:
    case Op::kStoreNarrow:
    case Op::kImageWrite:
    case Op::kImageArray:  // the image instruction after it writes
    case Op::kBlockBegin:
    case Op::kBranch:
    case Op::kBranchCond:
    case Op::kSwitch:
    case Op::kLoopBack:
    case Op::kReturn:
    case Op::kKill:
    case Op::kBarrier:
    case Op::kEmit:
    case Op::kDemote:
    case Op::kFloatMode:
    case Op::kPrint:
      *writes = {};
      return true;
    case Op::kGlslUnpack: *writes = {in.dst, in.b}; return true;
    case Op::kMatrixInverse: *writes = {in.dst, in.b * in.b}; return true;
    case Op::kAddressAdd:
    case Op::kRootAddress:
    case Op::kReadClock: *writes = {in.dst, 2}; return true;
    case Op::kWide: *writes = {in.dst, WideResultRegisters(static_cast<WideOp>(in.aux))}; return true;
    case Op::kDouble: *writes = {in.dst, DoubleShapeOf(static_cast<DoubleOp>(in.aux), in.ext).result}; return true;
    case Op::kImageRead:
    case Op::kImageSample:
    case Op::kImageQuerySize: *writes = {in.dst, 4}; return true;  // at most
    case Op::kEdgeMove:
    case Op::kMove:
    case Op::kSelect:
    case Op::kBitFieldInsert:
    case Op::kGlslUnary:
    case Op::kGlslBinary:
    case Op::kGlslTernary:
    case Op::kGlslPack:
    case Op::kDeterminant:
    case Op::kLoad:
    case Op::kImageAtomic:
    case Op::kArrayLength:
    case Op::kArrayLengthIndexed:
    case Op::kLoadIndexed:
    case Op::kLoadAddress:
    case Op::kLoadNarrow:
    case Op::kImageQueryLevels:
    case Op::kImageQuerySamples:
    case Op::kDerivX:
    case Op::kDerivY:
    case Op::kIsHelper:
    case Op::kElect:
      *writes = {in.dst, 1};
      return true;
    case Op::kAtomic:
    case Op::kAtomicIndexed:
    case Op::kAtomicAddress: *writes = {in.dst, (in.ext & kAtomicWide) != 0 ? 2u : 1u}; return true;
    case Op::kGroup:
      *writes = {in.dst, GroupValueRegisters(in)};
      return true;
    default:
      return false;
  }
}

// A superset of the registers `in` reads, added to *reads; false for an
// instruction this file does not know.
bool ReadsOf(const Program& p, const Inst& in, const LaneKernels& kernels, std::vector<uint32_t>* reads) {
  auto add = [reads](uint32_t reg, uint32_t count = 1) {
    if (reg == kNoOperand) return;
    for (uint32_t r = reg; r < reg + count; ++r) reads->push_back(r);
  };
  uint32_t operands = 0;
  if (kernels.VariantsFor(in, &operands) != nullptr) {
    const uint32_t regs[3] = {in.a, in.b, in.c};
    for (uint32_t o = 0; o < operands; ++o) add(regs[o]);
    return true;
  }
  switch (in.op) {
    case Op::kEmit:  // the stage reads the outputs at each emit
      for (const InterfaceSlot& s : p.outputs) add(s.reg, s.count);
      for (const BuiltinSlot& s : p.builtin_outputs) add(s.reg, s.count);
      return true;
    case Op::kBlockBegin:
    case Op::kBranch:
    case Op::kLoopBack:
    case Op::kReturn:
    case Op::kKill:
    case Op::kBarrier:
    case Op::kFloatMode:
    case Op::kDemote:
    case Op::kIsHelper:
    case Op::kElect:
    case Op::kReadClock:
    case Op::kArrayLength:
    case Op::kImageQueryLevels:
    case Op::kImageQuerySamples:
      return true;
    case Op::kMove:
    case Op::kEdgeMove:
    case Op::kGlslUnary:
    case Op::kGlslUnpack:
    case Op::kLoad:
    case Op::kBranchCond:
    case Op::kSwitch:
    case Op::kDerivX:
    case Op::kDerivY:
      add(in.a);
      return true;
    case Op::kGlslBinary: add(in.a); add(in.b); return true;
    case Op::kSelect:
    case Op::kGlslTernary: add(in.a); add(in.b); add(in.c); return true;
    case Op::kBitFieldInsert: add(in.a); add(in.b); add(in.c); add(in.ext); return true;
    case Op::kGlslPack: add(in.a, in.b); return true;
    case Op::kDeterminant:
    case Op::kMatrixInverse: add(in.a, in.b * in.b); return true;
    case Op::kStore: add(in.a); add(in.c); return true;
    case Op::kAtomic: add(in.a); add(in.c, (in.ext & kAtomicWide) != 0 ? 4 : 2); return true;
    case Op::kLoadIndexed: add(in.a); add(in.ext); return true;
    case Op::kStoreIndexed: add(in.a); add(in.c); add(in.ext); return true;
    case Op::kAtomicIndexed: add(in.a); add(in.c, (in.ext & kAtomicWide) != 0 ? 5 : 3); return true;
    case Op::kArrayLengthIndexed: add(in.c); return true;
    case Op::kAddressAdd: add(in.a, 2); add(in.b); return true;
    case Op::kRootAddress: add(in.a); add(in.c); return true;
    case Op::kPrint:
      if (in.aux >= p.prints.size()) return false;
      for (const PrintArgument& arg : p.prints[in.aux].arguments)
        add(arg.reg, arg.components * (arg.kind == PrintArgument::Kind::kDouble || arg.kind == PrintArgument::Kind::kUint64 ||
                                               arg.kind == PrintArgument::Kind::kInt64
                                           ? 2
                                           : 1));
      return true;
    case Op::kLoadAddress: add(in.a, 2); return true;
    case Op::kStoreAddress: add(in.a, 2); add(in.c); return true;
    case Op::kAtomicAddress: add(in.a, 2); add(in.c, (in.ext & kAtomicWide) != 0 ? 4 : 2); return true;
    case Op::kImageArray: add(in.a); add(in.b); return true;
    case Op::kLoadNarrow:
    case Op::kStoreNarrow: {
      const uint32_t access = in.op == Op::kLoadNarrow ? in.c : in.dst;
      const NarrowAddressing addressing = NarrowAccessAddressing(access);
      add(in.a, addressing == NarrowAddressing::kAddress ? 2 : 1);
      if (addressing == NarrowAddressing::kIndexed) add(in.ext);
      if (in.op == Op::kStoreNarrow) add(in.c);
      return true;
    }
    case Op::kDouble: {
      const DoubleShape shape = DoubleShapeOf(static_cast<DoubleOp>(in.aux), in.ext);
      add(in.a, shape.a);
      if (shape.b != 0) add(in.b, shape.b);
      if (shape.c != 0) add(in.c, shape.c);
      return true;
    }
    case Op::kWide: {
      const auto op = static_cast<WideOp>(in.aux);
      add(in.a, WideSourceRegisters(op));
      if (op >= WideOp::kShiftLeft && op <= WideOp::kShiftRightArithmetic) {
        add(in.b);
      } else if (op == WideOp::kBitFieldUExtract || op == WideOp::kBitFieldSExtract) {
        add(in.b);
        add(in.c);
      } else if (op == WideOp::kBitFieldInsert) {
        add(in.b, 2);
        add(in.c);
        add(in.ext);
      } else if (WideBinary(op)) {
        add(in.b, 2);
      }
      return true;
    }
    case Op::kGroup:
      switch (static_cast<GroupKind>(in.aux)) {
        case GroupKind::kLaneIndex:
        case GroupKind::kLaneMask: return true;
        case GroupKind::kInverseBallot:
        case GroupKind::kBallotBitExtract:
        case GroupKind::kBallotBitCount:
        case GroupKind::kBallotFindLsb:
        case GroupKind::kBallotFindMsb: add(in.a, 2); add(in.b); return true;
        default:
          add(in.a, GroupValueRegisters(in));
          add(in.b);
          return true;
      }
    case Op::kImageRead: add(in.a, in.b); add(in.c); add(in.ext); return true;
    case Op::kImageWrite: add(in.a, in.b); add(in.c, 4); add(in.ext); return true;
    case Op::kImageAtomic: add(in.a, 4); add(in.c, 2); return true;
    case Op::kImageQuerySize: add(in.a); return true;
    case Op::kImageSample: {
      if (in.b >= p.sample_operands.size()) return false;
      const SampleOperands& s = p.sample_operands[in.b];
      add(in.a, s.coordinate_count);  // (a projective divisor among them)
      for (uint32_t reg : {s.lod, s.bias, s.dref, s.min_lod}) add(reg);
      for (uint32_t reg : {s.grad_x, s.grad_y, s.offset}) add(reg, 3);
      return true;
    }
    default:
      return false;
  }
}

// Drops the instructions marked in `removed`; blocks keep their indices.
void Remove(Program& p, const std::vector<uint8_t>& removed) {
  const size_t n = p.code.size();
  std::vector<uint32_t> new_index(n + 1, 0);
  uint32_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    new_index[i] = kept;
    if (!removed[i]) p.code[kept++] = p.code[i];
  }
  new_index[n] = kept;
  p.code.resize(kept);
  for (uint32_t& start : p.block_start) start = start <= n ? new_index[start] : start;
}

// Whether `reg` is one of the stage's outputs: written by stores, not an
// SSA value (a copy of one is not the same as reading it later).
// The registers of a slot: of every vertex, for per-vertex inputs.
template <typename Slot>
uint32_t SlotSpan(const Program&, const Slot& s) {
  return s.vertex_stride == 0 ? s.count : (std::max(s.vertex_count, 1u) - 1) * s.vertex_stride + s.count;
}
bool InSlots(const Program& p, const std::vector<InterfaceSlot>& slots, const std::vector<BuiltinSlot>& builtins,
             uint32_t reg) {
  auto in = [reg](uint32_t first, uint32_t count) { return reg >= first && reg < first + count; };
  for (const InterfaceSlot& s : slots)
    if (in(s.reg, SlotSpan(p, s))) return true;
  for (const BuiltinSlot& s : builtins)
    if (in(s.reg, SlotSpan(p, s))) return true;
  return false;
}
bool IsOutput(const Program& p, uint32_t reg) { return InSlots(p, p.outputs, p.builtin_outputs, reg); }

// Copy propagation: a move into a register nothing else writes, from a
// register written at most once (or never: a constant, an input), is
// removed and its readers read the source instead. The readers must be
// lane kernels or phi moves (whose operands this knows exactly); a stage's
// inputs and outputs stay, and so do copies of outputs (stores may change
// an output after it was copied). Valid in SSA: a reader is dominated by the
// move, the move by the source's definition, which does not run again in
// between.
void PropagateCopies(Program& p, const LaneKernels& kernels) {
  const uint32_t registers = p.register_count;
  const size_t n = p.code.size();
  if (p.block_start.empty()) return;
  std::vector<uint32_t> writer_count(registers, 0);
  std::vector<uint8_t> pinned(registers, 0);  // read by other instructions, or the stage's interface
  std::vector<uint32_t> reads;
  for (size_t i = 0; i < n; ++i) {
    const Inst& in = p.code[i];
    Writes w;
    reads.clear();
    if (!WritesOf(in, kernels, &w) || !ReadsOf(p, in, kernels, &reads)) return;
    for (uint32_t r = w.first; r < w.first + w.count && r < registers; ++r) ++writer_count[r];
    uint32_t operands = 0;
    const bool rewritable = kernels.VariantsFor(in, &operands) != nullptr || in.op == Op::kEdgeMove;
    if (!rewritable)
      for (uint32_t r : reads)
        if (r < registers) pinned[r] = 1;
  }
  auto pin = [&](uint32_t reg, uint32_t count) {
    for (uint32_t r = reg; r < reg + count && r < registers; ++r) pinned[r] = 1;
  };
  for (const InterfaceSlot& s : p.outputs) pin(s.reg, s.count);
  for (const BuiltinSlot& s : p.builtin_outputs) pin(s.reg, s.count);
  for (const InterfaceSlot& s : p.inputs) pin(s.reg, SlotSpan(p, s));
  for (const BuiltinSlot& s : p.builtin_inputs) pin(s.reg, SlotSpan(p, s));

  // replacement[r]: the register r's readers read instead.
  std::vector<uint32_t> replacement(registers);
  for (uint32_t r = 0; r < registers; ++r) replacement[r] = r;
  std::vector<uint8_t> removed(n, 0);
  for (size_t i = 0; i < n; ++i) {
    Inst& in = p.code[i];
    uint32_t operands = 0;
    const bool kernel = kernels.VariantsFor(in, &operands) != nullptr;
    if (in.op == Op::kEdgeMove) operands = 1;
    if (kernel || in.op == Op::kEdgeMove) {
      uint32_t* regs[3] = {&in.a, &in.b, &in.c};
      for (uint32_t o = 0; o < operands; ++o)
        if (*regs[o] < registers) *regs[o] = replacement[*regs[o]];
    }
    if (in.op != Op::kMove || !kernel) continue;
    if (i > 0 && p.code[i - 1].op == Op::kImageArray) continue;
    const uint32_t d = in.dst, s = in.a;
    if (d >= registers || s >= registers || d == s || pinned[d] || writer_count[d] != 1 || writer_count[s] > 1 ||
        IsOutput(p, s))  // (a store may change the output after the copy)
      continue;
    replacement[d] = s;
    removed[i] = 1;
  }

  Remove(p, removed);
}

// Who writes and who reads each register, by instruction index; false for
// a program with an instruction this file does not know.
struct RegisterUses {
  std::vector<std::vector<uint32_t>> writers, readers;
  std::vector<uint32_t> block_of;  // per instruction
  std::vector<uint8_t> in_loop;    // per block: between a loop's header and its back edge
  bool loops = false;              // the program has a back edge

  bool Collect(const Program& p, const LaneKernels& kernels) {
    const size_t n = p.code.size();
    writers.assign(p.register_count, {});
    readers.assign(p.register_count, {});
    block_of.assign(n, 0);
    for (size_t b = 0; b + 1 < p.block_start.size(); ++b)
      for (uint32_t i = p.block_start[b]; i < p.block_start[b + 1] && i < n; ++i) block_of[i] = uint32_t(b);
    std::vector<uint32_t> reads;
    for (size_t i = 0; i < n; ++i) {
      Writes w;
      reads.clear();
      if (!WritesOf(p.code[i], kernels, &w) || !ReadsOf(p, p.code[i], kernels, &reads)) return false;
      for (uint32_t r = w.first; r < w.first + w.count && r < p.register_count; ++r) writers[r].push_back(uint32_t(i));
      for (uint32_t r : reads)
        if (r < p.register_count) readers[r].push_back(uint32_t(i));
      loops |= p.code[i].op == Op::kLoopBack;
    }
    in_loop.assign(p.block_start.size(), 0);
    for (size_t i = 0; i < n; ++i)
      if (p.code[i].op == Op::kLoopBack)
        for (uint32_t b = p.code[i].a; b <= block_of[i] && b < in_loop.size(); ++b) in_loop[b] = 1;
    return true;
  }

  // The last instruction before `i` that writes `reg` (kNoOperand: none).
  uint32_t LastWriterBefore(uint32_t reg, uint32_t i) const {
    uint32_t last = kNoOperand;
    for (uint32_t x : writers[reg])
      if (x < i && (last == kNoOperand || x > last)) last = x;
    return last;
  }
};

// The value of each constant register nothing writes (-1 for the other registers).
std::vector<int64_t> ConstantValues(const Program& p, const RegisterUses& uses) {
  std::vector<int64_t> constant(p.register_count, -1);
  for (const auto& [reg, value] : p.constants)
    if (reg < p.register_count && uses.writers[reg].empty()) constant[reg] = value;
  return constant;
}

// fn(reg) for each register of the stage's outputs.
template <class Fn>
void ForEachOutputRegister(const Program& p, Fn fn) {
  for (const InterfaceSlot& s : p.outputs)
    for (uint32_t r = s.reg; r < s.reg + s.count && r < p.register_count; ++r) fn(r);
  for (const BuiltinSlot& s : p.builtin_outputs)
    for (uint32_t r = s.reg; r < s.reg + s.count && r < p.register_count; ++r) fn(r);
}

// Whether `reg` is one of the stage's inputs or outputs.
bool IsInterface(const Program& p, uint32_t reg) {
  return IsOutput(p, reg) || InSlots(p, p.inputs, p.builtin_inputs, reg);
}

// How many branches lead into each block; a switch's targets count as
// many (no rewrite here touches them).
std::vector<uint32_t> BlockEntries(const Program& p) {
  std::vector<uint32_t> entries(p.block_start.size(), 0);
  auto enter = [&](uint32_t b, uint32_t k) {
    if (b < entries.size()) entries[b] += k;
  };
  for (const Inst& in : p.code) {
    if (in.op == Op::kBranch || in.op == Op::kLoopBack) enter(in.a, 1);
    if (in.op == Op::kBranchCond) enter(in.b, 1), enter(in.c, 1);
    if (in.op == Op::kSwitch && in.b < p.switches.size()) {
      enter(p.switches[in.b].default_block, 100);
      for (const auto& [value, target] : p.switches[in.b].cases) enter(target, 100);
    }
  }
  return entries;
}

// If-conversion: an if/else whose two arms are a few lane kernels each
// (results read only inside their arm) and whose merge block has no other
// entry runs as straight code: both arms for every lane, then one Select
// per phi of the merge block instead of the arms' moves. A 64-lane wave
// usually has lanes on both sides, so both arms ran anyway; what goes is
// the branch (its lane masks), two blocks and the phi moves. The arms'
// blocks stay as empty ones (their indices do not change).
struct SmallArm {
  std::vector<Inst> ops;
  std::vector<std::pair<uint32_t, uint32_t>> moves;  // phi register, source
  Inst branch;
};

bool ReadSmallArm(const Program& p, const RegisterUses& uses, const LaneKernels& kernels, uint32_t block,
                  uint32_t merge, SmallArm* arm) {
  constexpr size_t kMaxOps = 4;
  const uint32_t start = p.block_start[block], end = p.block_start[block + 1];
  if (start >= end || p.code[start].op != Op::kBlockBegin) return false;
  uint32_t i = start + 1;
  for (; i < end && p.code[i].op != Op::kBranch; ++i) {
    const Inst& in = p.code[i];
    uint32_t operands = 0;
    if (kernels.VariantsFor(in, &operands) == nullptr || arm->ops.size() == kMaxOps) return false;
    if (in.dst >= p.register_count || IsInterface(p, in.dst) || uses.writers[in.dst].size() != 1) return false;
    for (uint32_t r : uses.readers[in.dst])
      if (r < start || r >= end) return false;
    arm->ops.push_back(in);
  }
  if (i >= end || p.code[i].a != merge) return false;
  arm->branch = p.code[i];
  for (++i; i < end; ++i) {
    const Inst& move = p.code[i];
    if (move.op != Op::kEdgeMove || move.aux != 0 || move.dst >= p.register_count) return false;
    arm->moves.push_back({move.dst, move.a});
  }
  return true;
}

void ConvertSmallIfs(Program& p, const LaneKernels& kernels) {
  RegisterUses uses;
  if (!uses.Collect(p, kernels) || p.block_start.size() < 2) return;
  const size_t n = p.code.size();
  const uint32_t blocks = uint32_t(p.block_start.size() - 1);
  const std::vector<uint32_t> entries = BlockEntries(p);
  struct Conversion {
    SmallArm taken, other;
    uint32_t condition, merge;
  };
  std::vector<std::pair<uint32_t, Conversion>> conversions;  // by the BranchCond's index
  for (uint32_t h = 0; h < n; ++h) {
    const Inst& branch = p.code[h];
    if (branch.op != Op::kBranchCond) continue;
    const uint32_t t = branch.b, f = branch.c, merge = f + 1;
    if (t != uses.block_of[h] + 1 || f != t + 1 || merge >= blocks || h + 1 != p.block_start[t]) continue;
    if (entries[t] != 1 || entries[f] != 1 || entries[merge] != 2) continue;
    Conversion c{{}, {}, branch.a, merge};
    if (!ReadSmallArm(p, uses, kernels, t, merge, &c.taken) || !ReadSmallArm(p, uses, kernels, f, merge, &c.other))
      continue;
    // The same phis on both edges; no move reads a phi (the selects run one after another).
    bool matched = c.taken.moves.size() == c.other.moves.size();
    for (const auto& [phi, source] : c.taken.moves) {
      bool found = false;
      for (const auto& [other_phi, other_source] : c.other.moves) found |= other_phi == phi;
      matched &= found && phi != c.condition;
      for (const auto& [any_phi, unused] : c.taken.moves) matched &= source != any_phi;
      for (const auto& [unused, other_source] : c.other.moves) matched &= other_source != phi;
    }
    if (matched) conversions.push_back({h, std::move(c)});
  }
  if (conversions.empty()) return;
  std::vector<Inst> code;
  code.reserve(n);
  std::vector<uint32_t> new_index(n + 1, 0);
  size_t next = 0;
  for (uint32_t i = 0; i < n;) {
    if (next < conversions.size() && conversions[next].first == i) {
      const Conversion& c = conversions[next++].second;
      new_index[i] = uint32_t(code.size());
      code.insert(code.end(), c.taken.ops.begin(), c.taken.ops.end());
      code.insert(code.end(), c.other.ops.begin(), c.other.ops.end());
      for (const auto& [phi, source] : c.taken.moves)
        for (const auto& [other_phi, other_source] : c.other.moves)
          if (other_phi == phi) code.push_back(Inst{Op::kSelect, 0, phi, c.condition, source, other_source, 0});
      code.push_back(c.taken.branch);
      // The arms' instructions (their blocks, now empty) map to the merge block's start.
      const uint32_t merge_start = p.block_start[c.merge];
      for (uint32_t j = i + 1; j < merge_start; ++j) new_index[j] = uint32_t(code.size());
      i = merge_start;
      continue;
    }
    new_index[i] = uint32_t(code.size());
    code.push_back(p.code[i++]);
  }
  new_index[n] = uint32_t(code.size());
  p.code = std::move(code);
  for (uint32_t& start : p.block_start) start = start <= n ? new_index[start] : start;
}

// Straight chains: a block that ends by branching, with no phi moves, to
// the next block, which nothing else enters, runs on into it (the branch
// and the next block's entry go; its index stays, as an empty block).
void MergeBlockChains(Program& p) {
  if (p.block_start.size() < 2) return;
  const size_t n = p.code.size();
  const uint32_t blocks = uint32_t(p.block_start.size() - 1);
  const std::vector<uint32_t> entries = BlockEntries(p);
  std::vector<uint8_t> removed(n, 0), merged(blocks, 0);
  bool any = false;
  for (uint32_t c = 1; c < blocks; ++c) {
    const uint32_t start = p.block_start[c];
    if (entries[c] != 1 || start == 0 || start >= n || p.code[start].op != Op::kBlockBegin) continue;
    // (The instruction before is the end of the last non-empty block before c.)
    const Inst& branch = p.code[start - 1];
    if (branch.op != Op::kBranch || branch.a != c) continue;
    removed[start - 1] = removed[start] = 1;
    merged[c] = 1;
    any = true;
  }
  if (!any) return;
  Remove(p, removed);
  for (uint32_t c = blocks; c-- > 1;)
    if (merged[c]) p.block_start[c] = p.block_start[c + 1];
}

// Phi coalescing: a loop's phi P, written on the back edge from S, takes
// S's place when the instruction W defining S can write P directly: S is
// read by that move only, nothing reads P after W in the loop (its old
// value is dead), and every exit from the loop (the header's, breaks,
// returns) comes before W, so every lane that runs W takes the back edge
// (a lane leaving after W would see the new value in P). The back edge's
// move goes away.
void CoalescePhis(Program& p, const LaneKernels& kernels) {
  const uint32_t registers = p.register_count;
  const size_t n = p.code.size();
  if (p.block_start.size() < 2) return;
  RegisterUses uses;
  if (!uses.Collect(p, kernels)) return;
  const std::vector<uint32_t>& block_of = uses.block_of;
  std::vector<std::vector<uint32_t>>& writers = uses.writers;
  std::vector<std::vector<uint32_t>>& readers = uses.readers;
  // Loops as block ranges [header, latch]: W must not be inside a loop
  // nested in the phi's (it would write P while that loop reads it again).
  std::vector<std::pair<uint32_t, uint32_t>> loops;
  for (size_t i = 0; i < n; ++i)
    if (p.code[i].op == Op::kLoopBack && p.code[i].a <= block_of[i]) loops.push_back({p.code[i].a, block_of[i]});
  auto in_inner_loop = [&loops](uint32_t block, uint32_t header, uint32_t latch) {
    for (const auto& [h, l] : loops)
      if (block >= h && block <= l && h >= header && l <= latch && !(h == header && l == latch)) return true;
    return false;
  };
  std::vector<uint8_t> removed(n, 0);
  for (size_t back = 0; back < n; ++back) {
    const Inst& loop_back = p.code[back];
    if (loop_back.op != Op::kLoopBack || loop_back.a > block_of[back]) continue;
    const uint32_t header = loop_back.a, latch = block_of[back];
    const uint32_t first = p.block_start[header], end = p.block_start[latch + 1];
    // The last way out after the header's own (a break, a return, a kill;
    // a switch counts as one): W must come after it. Branches only go
    // forward but for back edges, and W is in no inner loop, so a lane
    // that ran W reaches no earlier exit before the back edge.
    uint32_t after_exits = first;
    for (uint32_t i = p.block_start[header + 1]; i < end; ++i) {
      const Inst& in = p.code[i];
      bool exits = in.op == Op::kReturn || in.op == Op::kKill || in.op == Op::kSwitch;
      exits |= in.op == Op::kBranch && (in.a < header || in.a > latch);
      exits |= in.op == Op::kBranchCond && (in.b < header || in.b > latch || in.c < header || in.c > latch);
      if (exits) after_exits = i + 1;
    }
    for (uint32_t e = p.block_start[latch]; e < end; ++e) {
      const Inst& move = p.code[e];
      if (move.op != Op::kEdgeMove || move.dst >= registers || move.a >= registers) continue;
      const uint32_t phi = move.dst, source = move.a;
      if (writers[phi].size() != 2 || writers[source].size() != 1) continue;
      const uint32_t entry = writers[phi][0] == e ? writers[phi][1] : writers[phi][0];
      const uint32_t def = writers[source][0];
      uint32_t operands = 0;
      if (block_of[entry] >= header || block_of[def] <= header || def < after_exits || def >= e || removed[def] ||
          in_inner_loop(block_of[def], header, latch))
        continue;
      if (kernels.VariantsFor(p.code[def], &operands) == nullptr && p.code[def].op != Op::kLoad) continue;
      bool read_after = false;
      for (uint32_t r : readers[phi]) read_after |= r > def && r < end && r != e;
      // S's other readers (after W: it dominates them) will read P, equal
      // to S from W on; they must be instructions whose operands this knows.
      bool renamable = true;
      for (uint32_t r : readers[source]) {
        uint32_t reader_operands = 0;
        renamable &= r == e || r > def;
        renamable &= r == e || kernels.VariantsFor(p.code[r], &reader_operands) != nullptr ||
                     p.code[r].op == Op::kEdgeMove;
      }
      if (read_after || !renamable) continue;
      for (uint32_t r : readers[source]) {
        if (r == e) continue;
        Inst& reader = p.code[r];
        for (uint32_t* operand : {&reader.a, &reader.b, &reader.c})
          if (*operand == source) *operand = phi;
        readers[phi].push_back(r);
      }
      p.code[def].dst = phi;
      removed[e] = 1;
      writers[phi] = {entry, def};
    }
  }
  Remove(p, removed);
}

// Vector copies: an image sample whose coordinates were moved, one register
// each, from consecutive registers (a vector built from an input's
// components, say) reads them where they are, and the moves go away. Each
// move must be its register's only writer and this sample its only reader,
// from a source written at most once (PropagateCopies' conditions).
void CollapseVectorCopies(Program& p, const LaneKernels& kernels) {
  RegisterUses uses;
  if (!uses.Collect(p, kernels)) return;
  std::vector<uint8_t> removed(p.code.size(), 0);
  bool any = false;
  for (size_t i = 0; i < p.code.size(); ++i) {
    Inst& in = p.code[i];
    if (in.op != Op::kImageSample || in.b >= p.sample_operands.size()) continue;
    const uint32_t count = p.sample_operands[in.b].coordinate_count;
    if (count == 0 || in.a + count > p.register_count) continue;
    uint32_t source = kNoOperand;
    std::vector<uint32_t> moves;
    for (uint32_t k = 0; k < count; ++k) {
      const uint32_t reg = in.a + k;
      if (uses.writers[reg].size() != 1 || IsInterface(p, reg)) break;
      const uint32_t m = uses.writers[reg][0];
      const Inst& move = p.code[m];
      if (move.op != Op::kMove || move.a >= p.register_count || uses.writers[move.a].size() > 1 ||
          IsOutput(p, move.a))
        break;
      if (k == 0) source = move.a;
      if (move.a != source + k) break;
      // Read by this sample alone.
      bool only_here = true;
      for (uint32_t r : uses.readers[reg]) only_here &= r == i;
      if (!only_here) break;
      moves.push_back(m);
    }
    if (moves.size() != count) continue;
    in.a = source;
    for (uint32_t m : moves) removed[m] = 1;
    any = true;
  }
  if (any) Remove(p, removed);
}

// The instruction W of op `op` whose result T the instruction at i reads,
// when it can fold into i: W in i's block, for i alone. W's operands must
// keep their values up to i, and no other instruction may read the value W
// leaves in T: none up to T's next write in the block, or, without one,
// none after W (nor before it, in a loop). kNoOperand otherwise.
uint32_t FoldableProducer(const Program& p, const RegisterUses& uses, const std::vector<uint8_t>& removed, Op op,
                          uint32_t t, uint32_t i) {
  if (t >= p.register_count || IsInterface(p, t)) return kNoOperand;
  const uint32_t w = uses.LastWriterBefore(t, i);
  if (w == kNoOperand || removed[w] || p.code[w].op != op || uses.block_of[w] != uses.block_of[i]) return kNoOperand;
  uint32_t next = UINT32_MAX;  // T's next writer in W's block (runs whenever W does)
  for (uint32_t x : uses.writers[t])
    if (x > w && uses.block_of[x] == uses.block_of[w]) next = std::min(next, x);
  const bool looping = uses.in_loop[uses.block_of[w]] != 0;
  for (uint32_t r : uses.readers[t]) {
    if (r == i) continue;
    if (r > w && r <= next) return kNoOperand;                        // reads W's value
    if (next == UINT32_MAX && (r > w || looping)) return kNoOperand;  // may read it
  }
  auto written_between = [&](uint32_t reg) {
    if (reg >= p.register_count) return false;
    for (uint32_t x : uses.writers[reg])
      if (x > w && x < i) return true;
    return false;
  };
  const Inst& in = p.code[w];
  if (written_between(in.a) || written_between(in.b)) return kNoOperand;
  return w;
}

// FoldableProducer of `in`'s operand a, else of b; *other is set to the
// operand that is not the producer's result.
uint32_t FoldableOperand(const Program& p, const RegisterUses& uses, const std::vector<uint8_t>& removed, Op op,
                         const Inst& in, uint32_t i, uint32_t* other) {
  *other = in.b;
  const uint32_t w = FoldableProducer(p, uses, removed, op, in.a, i);
  if (w != kNoOperand) return w;
  *other = in.a;
  return FoldableProducer(p, uses, removed, op, in.b, i);
}

// One instruction reading a value that another computed for it alone
// (FoldableProducer): `consumer` X with an operand from `producer` Y
// becomes `fused` (Y.a, Y.b, X's other operand), and Y goes away. (X
// reading the value twice, as scalar reflect's T + T does, stays.)
struct Fusion {
  Op consumer, producer, fused;
};

void FuseProducers(Program& p, const LaneKernels& kernels, std::initializer_list<Fusion> fusions) {
  RegisterUses uses;
  if (!uses.Collect(p, kernels)) return;
  std::vector<uint8_t> removed(p.code.size(), 0);
  bool any = false;
  for (uint32_t i = 0; i < p.code.size(); ++i) {
    Inst& in = p.code[i];
    if (in.a == in.b) continue;
    for (const Fusion& f : fusions) {
      if (in.op != f.consumer) continue;
      uint32_t other = 0;
      const uint32_t w = FoldableOperand(p, uses, removed, f.producer, in, i, &other);
      if (w == kNoOperand) continue;
      in = Inst{f.fused, 0, in.dst, p.code[w].a, p.code[w].b, other, 0};
      removed[w] = 1;
      any = true;
      break;
    }
  }
  if (any) Remove(p, removed);
}

// Multiply-adds: an FAdd of a product becomes one FMulAdd of the FMul's
// operands (the same two roundings; one instruction instead of two); an
// IAdd of an IMul the same way (IMulAdd: index and address arithmetic, the
// high word of a 64-bit product).
void FuseMultiplyAdds(Program& p, const LaneKernels& kernels) {
  FuseProducers(p, kernels, {{Op::kFAdd, Op::kFMul, Op::kFMulAdd}, {Op::kIAdd, Op::kIMul, Op::kIMulAdd}});
}

// Xor-shifts, the step of most integer hashes and xorshift generators:
// x ^ (x >> k) or x ^ (x << k), the shift computed for the xor alone
// (FoldableProducer), becomes one XorShiftRight / XorShiftLeft: one pass
// over the lanes instead of two, and no temporary. The low word of a
// 64-bit one, lo ^ FunnelShiftRight(lo, hi, k), becomes one
// XorFunnelShiftRight. Rotates by a constant, (x << k) | (x >> (32 - k)),
// become one FunnelShiftRight(x, x, 32 - k).
void FuseShifts(Program& p, const LaneKernels& kernels) {
  RegisterUses uses;
  if (!uses.Collect(p, kernels)) return;
  std::vector<uint8_t> removed(p.code.size(), 0);
  bool any = false;
  const std::vector<int64_t> constant = ConstantValues(p, uses);
  for (uint32_t i = 0; i < p.code.size(); ++i) {
    Inst& in = p.code[i];
    if (in.op == Op::kBitOr && in.a != in.b) {
      // A rotate, (x << k) | (x >> (32 - k)) for a constant k in 1..31: FunnelShiftRight(x, x, 32 - k).
      for (const auto& [left_reg, right_reg] : {std::pair{in.a, in.b}, std::pair{in.b, in.a}}) {
        const uint32_t l = FoldableProducer(p, uses, removed, Op::kShiftLeft, left_reg, i);
        const uint32_t r = FoldableProducer(p, uses, removed, Op::kShiftRightLogical, right_reg, i);
        if (l == kNoOperand || r == kNoOperand || p.code[l].a != p.code[r].a) continue;
        const uint32_t k = p.code[l].b, j = p.code[r].b;
        if (k >= p.register_count || j >= p.register_count || constant[k] < 1 || constant[k] > 31 ||
            constant[k] + constant[j] != 32)
          continue;
        in = Inst{Op::kFunnelShiftRight, 0, in.dst, p.code[r].a, p.code[r].a, j, 0};
        removed[l] = removed[r] = 1;
        any = true;
        break;
      }
      continue;
    }
    if (in.op != Op::kBitXor || in.a == in.b) continue;
    for (const auto& [shift, fused] : {std::pair{Op::kShiftRightLogical, Op::kXorShiftRight},
                                       std::pair{Op::kShiftLeft, Op::kXorShiftLeft}}) {
      uint32_t w = FoldableProducer(p, uses, removed, shift, in.b, i);
      uint32_t x = in.a;
      if (w == kNoOperand || p.code[w].a != x) {
        w = FoldableProducer(p, uses, removed, shift, in.a, i);
        x = in.b;
      }
      if (w == kNoOperand || p.code[w].a != x) continue;
      in = Inst{fused, 0, in.dst, x, p.code[w].b, 0, 0};
      removed[w] = 1;
      any = true;
      break;
    }
    if (in.op != Op::kBitXor) continue;
    // The low word of a 64-bit x ^ (x >> k): lo ^ FunnelShiftRight(lo, hi, k).
    for (const auto& [funnel_reg, x] : {std::pair{in.b, in.a}, std::pair{in.a, in.b}}) {
      const uint32_t w = FoldableProducer(p, uses, removed, Op::kFunnelShiftRight, funnel_reg, i);
      if (w == kNoOperand || p.code[w].a != x) continue;
      const Inst& funnel = p.code[w];
      bool count_rewritten = false;  // (FoldableProducer checks a and b)
      if (funnel.c < p.register_count)
        for (uint32_t writer : uses.writers[funnel.c]) count_rewritten |= writer > w && writer < i;
      if (count_rewritten) continue;
      in = Inst{Op::kXorFunnelShiftRight, 0, in.dst, x, funnel.b, funnel.c, 0};
      removed[w] = 1;
      any = true;
      break;
    }
  }
  if (any) Remove(p, removed);
}

// Tests against zero: a condition computed as x != 0 (or x == 0) for one
// Select or BranchCond alone, which test a word for non-zero themselves,
// becomes x (the Select's operands or the branch's targets swapped for
// x == 0).
void FoldZeroTests(Program& p, const LaneKernels& kernels) {
  RegisterUses uses;
  if (!uses.Collect(p, kernels)) return;
  const std::vector<int64_t> constant = ConstantValues(p, uses);
  std::vector<uint8_t> removed(p.code.size(), 0);
  bool any = false;
  for (uint32_t i = 0; i < p.code.size(); ++i) {
    Inst& in = p.code[i];
    if ((in.op != Op::kSelect && in.op != Op::kBranchCond) || in.a >= p.register_count) continue;
    if (in.op == Op::kSelect && (in.b == in.a || in.c == in.a)) continue;
    for (const Op test : {Op::kINotEqual, Op::kIEqual}) {
      const uint32_t w = FoldableProducer(p, uses, removed, test, in.a, i);
      if (w == kNoOperand) continue;
      const Inst& compare = p.code[w];
      const bool zero_b = compare.b < p.register_count && constant[compare.b] == 0;
      const bool zero_a = compare.a < p.register_count && constant[compare.a] == 0;
      if (!zero_a && !zero_b) continue;
      // (A branch with phi moves keeps an == 0: its moves name the true edge.)
      const bool moves = i + 1 < p.code.size() && p.code[i + 1].op == Op::kEdgeMove;
      if (test == Op::kIEqual && in.op == Op::kBranchCond && moves) continue;
      in.a = zero_b ? compare.a : compare.b;
      if (test == Op::kIEqual) std::swap(in.b, in.c);
      removed[w] = 1;
      any = true;
      break;
    }
  }
  if (any) Remove(p, removed);
}

// Hash steps: an xor of a product becomes one IMulXor ((a * b) ^ c: x * C1
// ^ y * C2), and a product of an xor-shift one XorShiftRightMul
// ((h ^ (h >> k)) * C, the finalizer step of murmur-style hashes). After
// FuseShifts, which makes the XorShiftRights.
void FuseHashSteps(Program& p, const LaneKernels& kernels) {
  FuseProducers(p, kernels,
                {{Op::kBitXor, Op::kIMul, Op::kIMulXor}, {Op::kIMul, Op::kXorShiftRight, Op::kXorShiftRightMul}});
}

// Half rounding: a 16-bit float result is a float rounded to a half value
// in place (RoundToF16 r, r) after the float operation that wrote r; when
// that is an FAdd, FSub, FMul, FDiv or Fma in the same block and nothing
// reads r in between, the operation rounds its own result (one pass over
// the lanes instead of two); after a move (a conversion), the rounding
// reads the move's source.
void FuseHalfRounding(Program& p, const LaneKernels& kernels) {
  RegisterUses uses;
  if (!uses.Collect(p, kernels)) return;
  std::vector<uint8_t> removed(p.code.size(), 0);
  bool any = false;
  for (uint32_t j = 0; j < p.code.size(); ++j) {
    const Inst& round = p.code[j];
    const uint32_t r = round.dst;
    if (round.op != Op::kRoundToF16 || round.a != r || r >= p.register_count || IsInterface(p, r)) continue;
    const uint32_t i = uses.LastWriterBefore(r, j);
    if (i == kNoOperand || removed[i] || uses.block_of[i] != uses.block_of[j]) continue;
    Inst& op = p.code[i];
    Op fused;
    switch (op.op) {
      case Op::kFAdd: fused = Op::kFAddToF16; break;
      case Op::kFSub: fused = Op::kFSubToF16; break;
      case Op::kFMul: fused = Op::kFMulToF16; break;
      case Op::kFDiv: fused = Op::kFDivToF16; break;
      case Op::kMove: fused = Op::kRoundToF16; break;  // a conversion to half: rounds the source
      case Op::kGlslTernary:
        if (op.aux != GLSLstd450Fma) continue;
        fused = Op::kFmaToF16;
        break;
      default: continue;
    }
    bool read_between = false;
    for (uint32_t reader : uses.readers[r]) read_between |= reader > i && reader < j;
    if (read_between) continue;
    op.op = fused;
    op.aux = 0;
    removed[j] = 1;
    any = true;
  }
  if (any) Remove(p, removed);
}

// Output moves: an instruction W computing a temporary T that is then moved
// into an output O (the move M being O's only writer, in W's block) writes
// O itself, and M goes away, when nothing else reads T and nothing between
// W and M touches O. T may be a temporary the compiler reuses in a program
// without loops, where every lane runs the instructions in order: then W
// must be T's last writer before M and nothing after W but M reads it. W
// is a lane kernel, or an image sample whose four results all move to four
// consecutive output registers.
void SinkOutputMoves(Program& p, const LaneKernels& kernels) {
  RegisterUses uses;
  if (!uses.Collect(p, kernels)) return;
  std::vector<uint8_t> removed(p.code.size(), 0);
  bool any = false;
  // The move into output o when it can go, W being T's writer; else kNoOperand.
  auto sinkable = [&](uint32_t o, uint32_t* writer) -> uint32_t {
    if (o >= p.register_count || !IsOutput(p, o) || uses.writers[o].size() != 1) return kNoOperand;
    const uint32_t m = uses.writers[o][0];
    const Inst& move = p.code[m];
    const uint32_t t = move.a;
    if (move.op != Op::kMove || removed[m] || t >= p.register_count || IsInterface(p, t)) return kNoOperand;
    const uint32_t w = uses.LastWriterBefore(t, m);
    if (w == kNoOperand || uses.block_of[w] != uses.block_of[m] || removed[w]) return kNoOperand;
    if (uses.loops && (uses.writers[t].size() != 1 || uses.readers[t].size() != 1)) return kNoOperand;
    for (uint32_t r : uses.readers[t])
      if (r != m && r > w) return kNoOperand;  // (W itself may read T's old value)
    for (uint32_t r : uses.readers[o])
      if (r >= w && r <= m) return kNoOperand;
    *writer = w;
    return m;
  };
  ForEachOutputRegister(p, [&](uint32_t o) {
    uint32_t w = kNoOperand;
    const uint32_t m = sinkable(o, &w);
    if (m == kNoOperand) return;
    Inst& writer = p.code[w];
    uint32_t operands = 0;
    if (kernels.VariantsFor(writer, &operands) != nullptr) {
      writer.dst = o;
      removed[m] = 1;
      any = true;
      return;
    }
    // A sample's four results into o and the next three outputs.
    if (writer.op != Op::kImageSample || p.code[m].a != writer.dst) return;
    uint32_t moves[4] = {m};
    bool all = true;
    for (uint32_t k = 1; k < 4 && all; ++k) {
      uint32_t wk = kNoOperand;
      moves[k] = sinkable(o + k, &wk);
      all = moves[k] != kNoOperand && wk == w && p.code[moves[k]].a == writer.dst + k;
    }
    if (!all) return;
    writer.dst = o;
    for (uint32_t k = 0; k < 4; ++k) removed[moves[k]] = 1;
    any = true;
  });
  if (any) Remove(p, removed);
}

// Program::constant_outputs: outputs whose one writer is a move of a
// constant in the entry block, which every launched lane runs.
void FindConstantOutputs(Program& p, const RegisterUses& uses) {
  p.constant_outputs.clear();
  const std::vector<int64_t> constant = ConstantValues(p, uses);
  ForEachOutputRegister(p, [&](uint32_t o) {
    if (uses.writers[o].size() != 1) return;
    const Inst& move = p.code[uses.writers[o][0]];
    if (move.op != Op::kMove || uses.block_of[uses.writers[o][0]] != 0 || move.a >= p.register_count ||
        constant[move.a] < 0)
      return;
    p.constant_outputs.push_back({o, uint32_t(constant[move.a])});
  });
}

// An image sample's results nobody reads (no instruction, not an output):
// their bits go to Inst::c (bit k: result dst + k), so sampling may skip
// them. A shader that uses `texture(...).rgb` needs no alpha filtered.
void MarkUnusedSampleResults(Program& p, const RegisterUses& uses) {
  for (Inst& in : p.code) {
    if (in.op != Op::kImageSample) continue;
    uint32_t unused = 0;
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t reg = in.dst + k;
      if (reg < p.register_count && uses.readers[reg].empty() && !IsOutput(p, reg)) unused |= 1u << k;
    }
    in.c = unused;
  }
}

struct Loop {
  uint32_t header, back_edge;  // block indices: the loop is the blocks in between
  bool divergent = false;      // lanes may leave it at different iterations
};

class UniformityAnalysis {
 public:
  UniformityAnalysis(const Program& p, const LaneKernels& k) : p_(p), kernels_(k) {}

  // uniform[r] for every register; false when the program has an unknown instruction.
  bool Run(std::vector<uint8_t>* uniform);

 private:
  const Loop* PhiLoop(const std::vector<uint32_t>& writers) const;
  bool ChangesInDivergentLoop(uint32_t writer);
  bool InvariantIn(uint32_t reg, size_t loop, int depth);
  bool Capable(const Inst& in, uint32_t* operands) const;  // can run once, reading `operands` of a, b, c

  const Program& p_;
  const LaneKernels& kernels_;
  std::vector<uint32_t> block_of_;  // per instruction
  std::vector<Loop> loops_;
  std::vector<std::vector<uint32_t>> writers_;      // per register
  std::vector<std::vector<uint8_t>> invariant_;     // per loop and register: 0 unknown, 1 yes, 2 no
  std::vector<uint8_t> varying_;
};

bool UniformityAnalysis::Capable(const Inst& in, uint32_t* operands) const {
  if (kernels_.VariantsFor(in, operands) != nullptr) return true;
  switch (in.op) {
    case Op::kEdgeMove:
      *operands = 1;
      return true;
    case Op::kLoad:  // a buffer, push constants or workgroup memory: the same word for every lane
      *operands = 1;
      return in.aux < p_.roots.size() && p_.roots[in.aux].kind != RootKind::kPrivate &&
             (p_.roots[in.aux].kind == RootKind::kDescriptorBuffer ||
              p_.roots[in.aux].kind == RootKind::kPushConstants || p_.roots[in.aux].kind == RootKind::kWorkgroup);
    default:
      return false;
  }
}

// The loop whose header's phi is written by `writers`: before the loop (its
// entry edge) and in it (its back edge's move, or the instruction
// CoalescePhis made write it); null for another register.
const Loop* UniformityAnalysis::PhiLoop(const std::vector<uint32_t>& writers) const {
  if (writers.size() != 2) return nullptr;
  for (const Loop& loop : loops_) {
    for (int first = 0; first < 2; ++first) {
      const uint32_t entry = block_of_[writers[first]], back = block_of_[writers[1 - first]];
      if (entry < loop.header && back >= loop.header && back <= loop.back_edge) return &loop;
    }
  }
  return nullptr;
}

// Whether `reg` holds the same value in every iteration of loop `loop`:
// nothing in the loop writes it, or one instruction does from registers
// that are themselves invariant (a phi of the loop never is).
bool UniformityAnalysis::InvariantIn(uint32_t reg, size_t loop, int depth) {
  uint8_t& known = invariant_[loop][reg];
  if (known != 0) return known == 1;
  const Loop& l = loops_[loop];
  std::vector<uint32_t> inside;
  for (uint32_t w : writers_[reg])
    if (block_of_[w] >= l.header && block_of_[w] <= l.back_edge) inside.push_back(w);
  bool invariant = inside.empty();
  uint32_t operands = 0;
  if (inside.size() == 1 && writers_[reg].size() == 1 && depth < 64 && Capable(p_.code[inside[0]], &operands)) {
    const Inst& in = p_.code[inside[0]];
    const uint32_t reads[3] = {in.a, in.b, in.c};
    invariant = true;
    for (uint32_t o = 0; o < operands && invariant; ++o)
      invariant = reads[o] < p_.register_count && InvariantIn(reads[o], loop, depth + 1);
  }
  known = invariant ? 1 : 2;
  return invariant;
}

// Whether what `writer` computes may differ between the iterations of a
// loop around it that lanes leave at different iterations (a value the
// same in every iteration is what a lane that left early holds too).
bool UniformityAnalysis::ChangesInDivergentLoop(uint32_t writer) {
  const uint32_t block = block_of_[writer];
  const Inst& in = p_.code[writer];
  uint32_t operands = 0;
  if (!Capable(in, &operands)) return true;
  const uint32_t reads[3] = {in.a, in.b, in.c};
  for (size_t loop = 0; loop < loops_.size(); ++loop) {
    if (!loops_[loop].divergent || block < loops_[loop].header || block > loops_[loop].back_edge) continue;
    for (uint32_t o = 0; o < operands; ++o)
      if (reads[o] >= p_.register_count || !InvariantIn(reads[o], loop, 0)) return true;
  }
  return false;
}

bool UniformityAnalysis::Run(std::vector<uint8_t>* uniform) {
  // The analysis only saves work at run time: a program too large for it,
  // or whose fixed point takes many rounds, runs with every register
  // varying (pipeline creation must not take quadratic time on any input).
  constexpr uint32_t kMaxRegisters = 1u << 16;
  constexpr size_t kMaxLoopCells = size_t{1} << 22;  // loops x registers of `invariant_`
  constexpr int kMaxRounds = 64;
  const uint32_t registers = p_.register_count;
  const size_t n = p_.code.size();
  uniform->assign(registers, 0);
  if (p_.block_start.empty() || registers > kMaxRegisters) return false;

  // Blocks and loops.
  block_of_.assign(n, 0);
  for (size_t b = 0; b + 1 < p_.block_start.size(); ++b)
    for (uint32_t i = p_.block_start[b]; i < p_.block_start[b + 1] && i < n; ++i) block_of_[i] = uint32_t(b);
  for (size_t i = 0; i < n; ++i)
    if (p_.code[i].op == Op::kLoopBack && p_.code[i].a <= block_of_[i]) loops_.push_back({p_.code[i].a, block_of_[i]});

  // Who writes each register.
  writers_.assign(registers, {});
  std::vector<std::vector<uint32_t>>& writers = writers_;
  for (size_t i = 0; i < n; ++i) {
    Writes w;
    if (!WritesOf(p_.code[i], kernels_, &w)) return false;
    for (uint32_t r = w.first; r < w.first + w.count && r < registers; ++r) writers[r].push_back(uint32_t(i));
  }

  // What is uniform without being written: constants and the workgroup's built-ins.
  std::vector<uint8_t> given(registers, 0);
  for (const auto& [reg, value] : p_.constants)
    if (reg < registers) given[reg] = 1;
  const BuiltinRegisters& b = p_.builtins;
  for (uint32_t c = 0; c < 3; ++c) {
    if (b.workgroup_id != UINT32_MAX && b.workgroup_id + c < registers) given[b.workgroup_id + c] = 1;
    if (b.num_workgroups != UINT32_MAX && b.num_workgroups + c < registers) given[b.num_workgroups + c] = 1;
  }
  if (b.num_subgroups < registers) given[b.num_subgroups] = 1;
  if (b.subgroup_id < registers && p_.subgroup_size == kWaveWidth) given[b.subgroup_id] = 1;  // a wave per subgroup

  if (loops_.size() * size_t{registers} > kMaxLoopCells) return false;
  invariant_.assign(loops_.size(), std::vector<uint8_t>(registers, 0));
  varying_.assign(registers, 0);
  for (uint32_t r = 0; r < registers; ++r)
    if (writers[r].empty() && !given[r]) varying_[r] = 1;
  auto force = [&](uint32_t reg, uint32_t count) {
    for (uint32_t r = reg; r < reg + count && r < registers; ++r) varying_[r] = 1;
  };
  for (const InterfaceSlot& s : p_.outputs) force(s.reg, s.count);
  for (const BuiltinSlot& s : p_.builtin_outputs) force(s.reg, s.count);
  for (const InterfaceSlot& s : p_.inputs) force(s.reg, SlotSpan(p_, s));
  for (const BuiltinSlot& s : p_.builtin_inputs)
    if (!given[s.reg]) force(s.reg, SlotSpan(p_, s));

  // Varying only grows, so this ends.
  int rounds = 0;
  for (bool changed = true; changed;) {
    if (++rounds > kMaxRounds) return false;
    changed = false;
    for (Loop& loop : loops_) {
      if (loop.divergent) continue;
      for (size_t i = p_.block_start[loop.header]; i < p_.block_start[loop.back_edge + 1] && i < n; ++i) {
        const Inst& in = p_.code[i];
        if (in.op == Op::kReturn || in.op == Op::kKill ||
            ((in.op == Op::kBranchCond || in.op == Op::kSwitch) && (in.a >= registers || varying_[in.a]))) {
          loop.divergent = true;
          changed = true;
          break;
        }
      }
    }
    for (uint32_t r = 0; r < registers; ++r) {
      if (varying_[r] || writers[r].empty()) continue;
      // A phi of a loop lanes leave at different iterations holds values of
      // different iterations, whatever it is computed from.
      const Loop* phi_loop = writers[r].size() == 2 ? PhiLoop(writers[r]) : nullptr;
      bool varies = writers[r].size() > 2 || (writers[r].size() == 2 && (phi_loop == nullptr || phi_loop->divergent));
      for (uint32_t w : writers[r]) {
        if (varies) break;
        const Inst& in = p_.code[w];
        uint32_t operands = 0;
        if (!Capable(in, &operands) || ChangesInDivergentLoop(w)) {
          varies = true;
          break;
        }
        const uint32_t reads[3] = {in.a, in.b, in.c};
        for (uint32_t o = 0; o < operands; ++o)
          if (reads[o] >= registers || varying_[reads[o]]) varies = true;
      }
      if (varies) {
        varying_[r] = 1;
        changed = true;
      }
    }
  }
  for (uint32_t r = 0; r < registers; ++r) (*uniform)[r] = !varying_[r];
  return true;
}

}  // namespace

void PrepareExecution(Program* program) {
  Program& p = *program;
  const LaneKernels& kernels = SelectedLaneKernels();
  // DUET_IR_PREPARE=plain: the program as compiled, every register varying
  // (to rule this file out when a shader misbehaves).
  const char* mode = std::getenv("DUET_IR_PREPARE");
  // Very large programs skip the rewrites too: they index per register.
  const bool plain = (mode != nullptr && std::strcmp(mode, "plain") == 0) || p.register_count > (1u << 16);
  if (!plain) {
    CollapseVectorCopies(p, kernels);
    PropagateCopies(p, kernels);
    FuseHalfRounding(p, kernels);
    ConvertSmallIfs(p, kernels);
    MergeBlockChains(p);
    CoalescePhis(p, kernels);
    FuseMultiplyAdds(p, kernels);
    FuseShifts(p, kernels);
    FuseHashSteps(p, kernels);
    FoldZeroTests(p, kernels);
    SinkOutputMoves(p, kernels);
    // Two findings that change no register's readers or writers: one table for both.
    RegisterUses uses;
    if (uses.Collect(p, kernels)) {
      FindConstantOutputs(p, uses);
      MarkUnusedSampleResults(p, uses);
    }
  }
  std::vector<uint8_t> uniform;
  if (plain || !UniformityAnalysis(p, kernels).Run(&uniform)) uniform.assign(p.register_count, 0);
  auto is_uniform = [&](uint32_t reg) { return reg < p.register_count && uniform[reg] != 0; };

  p.steps.assign(p.code.size() + 1, ExecStep{});
  // Operands a kernel does not read may hold anything; they point at register 0.
  auto offset = [&p](uint32_t reg) { return reg < p.register_count ? reg * kWaveWidth : 0u; };
  Op terminator = Op::kReturn;  // the last branch before the current instruction
  for (size_t i = 0; i < p.code.size(); ++i) {
    const Inst& in = p.code[i];
    ExecStep& step = p.steps[i];
    if (in.op != Op::kEdgeMove && in.op != Op::kMove) terminator = in.op;
    uint32_t operands = 0;
    const LaneKernel* variants = kernels.VariantsFor(in, &operands);
    // A phi's move: when the phi is uniform, a broadcast (see above); on the
    // edge of an unconditional branch, a move under the active lanes, which
    // are that edge's.
    if (in.op == Op::kEdgeMove && (is_uniform(in.dst) || (in.aux == 0 && terminator == Op::kBranch))) {
      variants = kernels.op[uint16_t(Op::kMove)];
      operands = 1;
    }
    switch (in.op) {
      case Op::kLoad:
        step.uniform = is_uniform(in.dst);
        break;
      case Op::kBranchCond:
      case Op::kSwitch:
        step.uniform = is_uniform(in.a);
        break;
      default:
        break;
    }
    if (in.op == Op::kDouble && in.aux < kLaneKernelDoubleOps && kernels.double_op[in.aux] != nullptr &&
        in.dst < p.register_count) {
      // Operands the operation does not read point at register 0, as above.
      const DoubleShape shape = DoubleShapeOf(static_cast<DoubleOp>(in.aux), in.ext);
      step.kernel = kernels.double_op[in.aux];
      step.dst = offset(in.dst);
      step.a = shape.a != 0 ? offset(in.a) : 0;
      step.b = shape.b != 0 ? offset(in.b) : 0;
      step.c = shape.c != 0 ? offset(in.c) : 0;
      continue;
    }
    if (variants == nullptr || in.dst >= p.register_count) continue;
    const uint32_t reads[3] = {in.a, in.b, in.c};
    uint32_t variant = 0;
    for (uint32_t o = 0; o < operands; ++o)
      if (is_uniform(reads[o])) variant |= 1u << o;
    const uint32_t all = (1u << operands) - 1;
    // Uniform operands but a result that must stay per lane: the last
    // operand is read as a register, which a uniform one also is.
    if (variant == all && !is_uniform(in.dst)) variant &= ~(1u << (operands - 1));
    step.kernel = variants[variant];
    step.dst = offset(in.dst);
    step.a = offset(in.a);
    step.b = offset(in.b);
    step.c = offset(in.c);
    step.uniform = variant == all;
  }
}

}  // namespace duet::spirv_exec

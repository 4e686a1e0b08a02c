// The wave interpreter: one loop over lanes per instruction. Results are
// written only to active lanes (a lane that left a loop keeps the values it
// left with). Arithmetic, comparisons, conversions and the component-wise
// GLSL.std.450 functions are lane kernels (lane_kernels.h), vectorized for
// the CPU; the switch runs control flow, memory and the rest. Rare, heavy
// operations (images, packing, matrices) live in their own files and are
// called.
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "spirv_exec/debug_printf.h"
#include "spirv_exec/glsl_std450.h"
#include "spirv_exec/atomic_operation.h"
#include "spirv_exec/interpreter_group.h"
#include "spirv_exec/interpreter_double.h"
#include "spirv_exec/interpreter_wide.h"
#include "spirv_exec/interpreter_image.h"
#include "spirv_exec/interpreter_indirect.h"
#include "spirv_exec/interpreter_lanes.h"
#include "spirv_exec/lane_kernels.h"
#include "spirv_exec/invocation_trace.h"
#include "spirv_exec/shader_watchdog.h"
#include "spirv_exec/wave.h"
#include "texel/float_formats.h"
#include "util/thread_pool.h"

namespace duet::spirv_exec {
namespace {

using namespace lanes;  // NOLINT: the lane helpers are this file's vocabulary

// Derivatives: differences within each quad (lanes 4q..4q+3 are its
// top-left, top-right, bottom-left, bottom-right pixels). Fine: along the
// lane's own row (x) or column (y); coarse: along the top row or left
// column. Only active lanes are written.
void QuadDifferences(bool x, bool fine, const uint32_t* a, LaneMask active, uint32_t* dst) {
#if defined(__SSE2__)
  // Shuffles of the quad's four values into minuends and subtrahends (no
  // round trip through memory: a wide load of narrow stores stalls).
  const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
  for (uint32_t q = 0; q < kWaveWidth; q += 4) {
    const uint32_t quad_active = uint32_t(active >> q) & 0xF;
    if (quad_active == 0) continue;
    const __m128 v = _mm_loadu_ps(reinterpret_cast<const float*>(a + q));
    __m128 d;
    if (x) {
      d = fine ? _mm_sub_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 3, 1, 1)), _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 0, 0)))
               : _mm_sub_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 1, 1, 1)), _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 0, 0, 0)));
    } else {
      d = fine ? _mm_sub_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 2, 3, 2)), _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 1, 0)))
               : _mm_sub_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 2, 2)), _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 0, 0, 0)));
    }
    __m128i result = _mm_castps_si128(d);
    if (quad_active != 0xF) {
      const __m128i keep = _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(int(quad_active)), bit), bit);
      const __m128i old = _mm_loadu_si128(reinterpret_cast<const __m128i*>(dst + q));
      result = _mm_or_si128(_mm_and_si128(keep, result), _mm_andnot_si128(keep, old));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + q), result);
  }
#else
  for (uint32_t l = 0; l < kWaveWidth; ++l) {
    if (((active >> l) & 1) == 0) continue;
    const uint32_t q = l & ~3u, i = l & 3u;
    uint32_t from, to;
    if (x) {
      from = fine ? q + (i & 2) : q;  // fine: this row; coarse: the top row
    } else {
      from = fine ? q + (i & 1) : q;  // fine: this column; coarse: the left column
    }
    to = from + (x ? 1 : 2);
    dst[l] = std::bit_cast<uint32_t>(std::bit_cast<float>(a[to]) - std::bit_cast<float>(a[from]));
  }
#endif
}

// The address of a 32-bit access for one lane, or nullptr when it falls
// outside the root: buffers by their bound range (robust buffer access),
// per-lane memory by the lane's share (indexing a local array out of range
// is undefined, but must not reach another lane or beyond the wave).
inline std::byte* Address(const Program& p, const RootMemory* roots, WaveState& w, uint16_t root, uint32_t offset,
                          uint32_t lane, uint32_t bytes = 4) {
  const MemoryRoot& r = p.roots[root];
  if (r.kind == RootKind::kPrivate) {
    if (uint64_t(r.offset) + offset + bytes > p.private_memory_size) return nullptr;
    return w.private_memory.data() + size_t(lane) * p.private_memory_size + r.offset + offset;
  }
  const RootMemory& m = roots[root];
  if (uint64_t(offset) + bytes > m.range) return nullptr;
  return m.base + offset;
}

// Where the lanes' accesses to a root go (the lane kernels' load and store).
struct LaneMemory {
  std::byte* base;
  uint32_t range;
  uint32_t lane_stride;
};

inline LaneMemory MemoryOf(const Program& p, const RootMemory* roots, WaveState& w, uint16_t root) {
  const MemoryRoot& r = p.roots[root];
  if (r.kind == RootKind::kPrivate) {
    const uint32_t size = p.private_memory_size;
    return {w.private_memory.data() + r.offset, r.offset < size ? size - r.offset : 0, size};
  }
  return {roots[root].base, roots[root].range, 0};
}


// Lanes whose stores and atomics reach memory: helper invocations' must not.
inline LaneMask Writers(const WaveState& w) { return w.active & ~(w.helpers | w.demoted); }

// Every kWatchdogCheckInterval back edges: whether the wave must stop. A
// wave without a watchdog of its own (draws' vertex and fragment waves)
// asks the one of the work its thread does.
bool WatchdogStops(WaveState& w) {
  w.back_edges_until_check = kWatchdogCheckInterval;
  const ShaderWatchdog* watchdog = w.watchdog != nullptr ? w.watchdog : CurrentWorkContext().watchdog;
  return watchdog != nullptr && watchdog->Check(w);
}

// The instructions both of Run's paths execute.

// kLoad; a uniform one (ir_prepare.cpp) loads once and writes every lane.
inline void Load(const Program& p, const RootMemory* roots, const LaneKernels& kernels, WaveState& w, const Inst& in,
                 bool uniform) {
  const LaneMemory m = MemoryOf(p, roots, w, in.aux);
  uint32_t* dst = w.Register(in.dst);
  if (!uniform) {
    kernels.load(dst, w.Register(in.a), in.b, m.base, m.range, m.lane_stride, w.active);
    return;
  }
  const uint32_t at = w.Register(in.a)[0] + in.b;
  uint32_t v = 0;
  if (m.base != nullptr && m.range >= 4 && at <= m.range - 4) std::memcpy(&v, m.base + at, 4);
  kernels.op[uint16_t(Op::kMove)][1](dst, &v, &v, &v, kAllLanes);
}

// kBlockBegin: the block's lanes become the active ones; returns where to
// go on (the next block when it has none).
inline uint32_t EnterBlock(const Program& p, WaveState& w, const Inst& in, uint32_t next) {
  const LaneMask m = w.block_masks[in.a];
  w.block_masks[in.a] = 0;
  w.active = m;
  return m == 0 ? p.block_start[in.a + 1] : next;
}

inline void Branch(WaveState& w, const Inst& in) {
  w.block_masks[in.a] |= w.active;
  w.edges[0] = w.active;
}

// kBranchCond: the active lanes whose condition is true take edge 0 (a
// uniform condition is read in one lane).
inline void BranchOn(const LaneKernels& kernels, WaveState& w, const Inst& in, bool uniform) {
  const uint32_t* condition = w.Register(in.a);
  const LaneMask t = uniform ? (condition[0] != 0 ? w.active : 0) : kernels.nonzero(condition) & w.active;
  w.edges[0] = t;
  w.edges[1] = w.active & ~t;
  w.block_masks[in.b] |= w.edges[0];
  w.block_masks[in.c] |= w.edges[1];
}

template <bool kTrace>
WaveStatus Run(const Program& p, const RootMemory* roots, const ImageBinding* images,
               const texel::SampledImageState* sampled, WaveState& w) {
  const Inst* code = p.code.data();
  const uint32_t end = static_cast<uint32_t>(p.code.size());
  const LaneKernels& kernels = SelectedLaneKernels();
  uint32_t* const registers = w.registers.data();
  // Programs from CompileStage have their steps prepared (one per
  // instruction and an empty one after the last).
  const ExecStep* steps = p.steps.size() == p.code.size() + 1 ? p.steps.data() : nullptr;
  while (w.pc < end) {
    if (!kTrace && steps != nullptr) {
      // Runs of lane kernels and the plain control flow between them (as
      // the switch below does it); anything else goes to the switch.
      uint32_t at = w.pc;
      for (;;) {
        const ExecStep& s = steps[at];
        if (s.kernel != nullptr) {
          s.kernel(registers + s.dst, registers + s.a, registers + s.b, registers + s.c, w.active);
          ++at;
          continue;
        }
        if (at >= end) break;
        const Inst& in = code[at];
        if (in.op == Op::kBlockBegin) {
          at = EnterBlock(p, w, in, at + 1);
        } else if (in.op == Op::kBranch) {
          Branch(w, in);
          ++at;
        } else if (in.op == Op::kBranchCond) {
          BranchOn(kernels, w, in, s.uniform);
          ++at;
        } else if (in.op == Op::kLoad) {
          Load(p, roots, kernels, w, in, s.uniform);
          ++at;
        } else if (in.op == Op::kLoopBack && w.back_edges_until_check > 1) {  // not yet the watchdog's turn
          if (w.block_masks[in.a] != 0) {
            at = p.block_start[in.a];
            --w.back_edges_until_check;
          } else {
            ++at;
          }
        } else {
          break;
        }
      }
      w.pc = at;
      if (at >= end) break;
    }
    const uint32_t pc = w.pc++;
    const Inst& in = code[pc];
    [[maybe_unused]] const LaneMask active_before = w.active;
    if (const LaneKernel kernel = steps != nullptr ? steps[pc].kernel : kernels.For(in)) {
      kernel(registers + size_t(in.dst) * W, registers + size_t(in.a) * W, registers + size_t(in.b) * W,
             registers + size_t(in.c) * W, w.active);
      if constexpr (kTrace) TraceInstruction(p, pc, w, active_before);
      continue;
    }
    switch (in.op) {
      case Op::kEdgeMove:
        kernels.op[uint16_t(Op::kMove)][0](w.Register(in.dst), w.Register(in.a), w.Register(in.a), w.Register(in.a),
                                           w.edges[in.aux]);
        break;
      case Op::kBitFieldInsert:
        kernels.bitfield_insert(w.Register(in.dst), w.Register(in.a), w.Register(in.b), w.Register(in.c),
                                w.Register(in.ext), w.active);
        break;
      case Op::kGlslPack: ExecuteGlslPack(in.aux, w.Register(in.dst), w.Register(in.a), w.active); break;
      case Op::kGlslUnpack: ExecuteGlslUnpack(in.aux, w.Register(in.dst), w.Register(in.a), w.active); break;
      case Op::kDeterminant: ExecuteDeterminant(in.b, w.Register(in.dst), w.Register(in.a), w.active); break;
      case Op::kMatrixInverse: ExecuteMatrixInverse(in.b, w.Register(in.dst), w.Register(in.a), w.active); break;

      case Op::kLoad:
        Load(p, roots, kernels, w, in, steps != nullptr && steps[pc].uniform);
        break;
      case Op::kStore: {
        const LaneMemory m = MemoryOf(p, roots, w, in.aux);
        // A lane's own variables are stored by helpers too (their values
        // feed the quad's derivatives); memory others see is not.
        const LaneMask writers = p.roots[in.aux].kind == RootKind::kPrivate ? w.active : Writers(w);
        kernels.store(w.Register(in.c), w.Register(in.a), in.b, m.base, m.range, m.lane_stride, writers);
        break;
      }
      case Op::kAtomic:
      case Op::kAtomicIndexed:
      case Op::kAtomicAddress: {
        const bool wide = (in.ext & kAtomicWide) != 0, half = (in.ext & kAtomicHalf) != 0;
        const bool half_in_word = (in.ext & kAtomicHalfInWord) != 0;
        const uint32_t opcode = in.ext & ~kAtomicFlags;
        const uint32_t* offset = w.Register(in.a);
        const uint32_t* value = w.Register(in.c);
        const uint32_t* comparator = w.Register(in.c + (wide ? 2 : 1));
        uint32_t* dst = w.Register(in.dst);
        const LaneMask writers = Writers(w);
        std::byte* indirect[W];
        if (in.op != Op::kAtomic) IndirectAddresses(in, roots, w, w.active, indirect, wide ? 8 : half ? 2 : 4);
        for (uint32_t l = 0; l < W; ++l) {
          if (((w.active >> l) & 1) == 0) continue;
          std::byte* at = indirect[l];
          if (in.op == Op::kAtomic) at = Address(p, roots, w, in.aux, offset[l] + in.b, l, wide ? 8 : half ? 2 : 4);
          // Helpers' atomics have no effect; their results are undefined (0 here).
          const bool writes = ((writers >> l) & 1) != 0;
          if (half) {
            if (at != nullptr && reinterpret_cast<uintptr_t>(at) % 2 != 0) at = nullptr;
            dst[l] = at != nullptr && writes ? AtomicHalfOperation<uint16_t>(opcode, at, value[l]) : 0;
            continue;
          }
          if (half_in_word) {
            dst[l] = at != nullptr && writes ? AtomicHalfOperation<uint32_t>(opcode, at, value[l]) : 0;
            continue;
          }
          if (!wide) {
            dst[l] = at != nullptr && writes ? AtomicOperation(opcode, at, value[l], comparator[l]) : 0;
            continue;
          }
          // A misaligned 8-byte atomic (a hostile address) would be a split
          // lock, which some kernels turn into SIGBUS: it does nothing instead.
          if (at != nullptr && reinterpret_cast<uintptr_t>(at) % 8 != 0) at = nullptr;
          const uint64_t v = uint64_t{value[l]} | uint64_t{w.Register(in.c + 1)[l]} << 32;
          const uint64_t c = uint64_t{comparator[l]} | uint64_t{w.Register(in.c + 3)[l]} << 32;
          const uint64_t old = at != nullptr && writes ? AtomicOperationOn<uint64_t>(opcode, at, v, c) : 0;
          dst[l] = uint32_t(old);
          w.Register(in.dst + 1)[l] = uint32_t(old >> 32);
        }
        break;
      }
      case Op::kLoadIndexed:
      case Op::kStoreIndexed:
      case Op::kArrayLengthIndexed:
      case Op::kAddressAdd:
      case Op::kLoadAddress:
      case Op::kStoreAddress:
      case Op::kLoadNarrow:
      case Op::kStoreNarrow:
        ExecuteIndirectMemory(in, roots, w);
        break;
      case Op::kImageArray:  // runs the image instruction after it
        ExecuteImageArray(p, in, code[w.pc++], roots, w);
        break;
      case Op::kArrayLength: {
        const uint32_t range = roots[in.aux].range;
        const uint32_t length = range > in.a ? (range - in.a) / in.b : 0;
        ForActive(w.active, w.Register(in.dst), [&](uint32_t) { return length; });
        break;
      }

      case Op::kBlockBegin:
        w.pc = EnterBlock(p, w, in, w.pc);
        break;
      case Op::kBranch:
        Branch(w, in);
        break;
      case Op::kBranchCond:
        BranchOn(kernels, w, in, steps != nullptr && steps[pc].uniform);
        break;
      case Op::kSwitch: {
        const SwitchTable& table = p.switches[in.b];
        const uint32_t* selector = w.Register(in.a);
        LaneMask rest = w.active;
        for (size_t i = 0; i < table.cases.size(); ++i) {
          const LaneMask hit = (steps != nullptr && steps[pc].uniform
                                    ? (selector[0] == table.cases[i].first ? kAllLanes : 0)
                                    : kernels.equal(selector, table.cases[i].first)) &
                               rest;
          rest &= ~hit;
          w.edges[i] = hit;
          w.block_masks[table.cases[i].second] |= hit;
        }
        w.edges[table.cases.size()] = rest;
        w.block_masks[table.default_block] |= rest;
        break;
      }
      case Op::kLoopBack:
        if (w.block_masks[in.a] != 0) {
          w.pc = p.block_start[in.a];
          // A decrement per iteration; the watchdog itself is asked rarely.
          if (--w.back_edges_until_check == 0 && WatchdogStops(w)) {
            w.aborted = true;
            w.active = 0;
            w.pc = end;
            return WaveStatus::kFinished;
          }
        }
        break;
      case Op::kReturn:
        w.active = 0;
        break;
      case Op::kKill:
        w.killed |= w.active;
        w.active = 0;
        break;
      case Op::kDemote:
        w.demoted |= w.active;
        break;
      case Op::kIsHelper: {
        const LaneMask helpers = w.helpers | w.demoted;
        ForActive(w.active, w.Register(in.dst), [&](uint32_t l) { return (helpers >> l) & 1u; });
        break;
      }
      case Op::kElect: {
        LaneMask first = 0;  // the lowest active lane of each subgroup
        for (uint32_t base = 0; base < W; base += w.subgroup_size) {
          const LaneMask active = w.active & SubgroupLanes(w.subgroup_size, base);
          first |= active & (0u - active);
        }
        ForActive(w.active, w.Register(in.dst), [&](uint32_t l) { return (first >> l) & 1u; });
        break;
      }
      case Op::kGroup:
        ExecuteGroupInstruction(in, w);
        break;
      case Op::kWide:
        ExecuteWideInstruction(in, w);
        break;
      case Op::kDouble:
        ExecuteDoubleInstruction(in, w);
        break;
      case Op::kReadClock: {
        const uint64_t now = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
        ForActive(w.active, w.Register(in.dst), [&](uint32_t) { return uint32_t(now); });
        ForActive(w.active, w.Register(in.dst + 1), [&](uint32_t) { return uint32_t(now >> 32); });
        break;
      }
      case Op::kBarrier:
        if constexpr (kTrace) TraceInstruction(p, pc, w, active_before);
        return WaveStatus::kAtBarrier;
      case Op::kPrint:
        ExecutePrint(p, in, w);
        break;
      case Op::kFloatMode:
        if (in.c != 0) {
          w.saved_mxcsr = _mm_getcsr();
          _mm_setcsr(in.c);
        } else {
          _mm_setcsr(w.saved_mxcsr);
        }
        break;
      case Op::kRootAddress: {
        if (p.roots[in.aux].kind == RootKind::kDescriptorArray) {
          ExecuteIndirectMemory(in, roots, w);
          break;
        }
        const uint64_t base = uint64_t(reinterpret_cast<uintptr_t>(roots[in.aux].base));
        const uint32_t* offset = in.a != kNoOperand ? w.Register(in.a) : nullptr;
        uint32_t* low = w.Register(in.dst);
        uint32_t* high = w.Register(in.dst + 1);
        for (LaneMask m = w.active; m != 0; m &= m - 1) {
          const uint32_t l = uint32_t(std::countr_zero(m));
          const uint64_t address = base == 0 ? 0 : base + (offset != nullptr ? offset[l] : 0) + in.b;
          low[l] = uint32_t(address);
          high[l] = uint32_t(address >> 32);
        }
        break;
      }
      case Op::kEmit:
        if constexpr (kTrace) TraceInstruction(p, pc, w, active_before);
        return WaveStatus::kEmit;

      case Op::kImageWrite:
      case Op::kImageAtomic: {
        // Helpers write nothing (and their atomics' results are undefined).
        const LaneMask active = w.active;
        w.active = Writers(w);
        ExecuteImageInstruction(p, in, images, sampled, w);
        w.active = active;
        break;
      }
      case Op::kImageRead:
      case Op::kImageQuerySize:
      case Op::kImageQueryLevels:
      case Op::kImageQuerySamples:
      case Op::kImageSample:
        ExecuteImageInstruction(p, in, images, sampled, w);
        break;

      case Op::kDerivX:
      case Op::kDerivY: QuadDifferences(in.op == Op::kDerivX, in.aux != 0, w.Register(in.a), w.active, w.Register(in.dst)); break;
      default:  // the lane kernels' ops, run above
        break;
    }
    if constexpr (kTrace) TraceInstruction(p, pc, w, active_before);
  }
  return WaveStatus::kFinished;
}

}  // namespace

void ResetWave(const Program& program, LaneMask launched, WaveState* wave) {
  // Registers are SSA values, written before they are read in every lane
  // that reads them, so a wave running the same program again keeps its
  // registers (and the broadcast constants, which nothing overwrites).
  if (program.serial == 0 || wave->registers_of != program.serial ||
      wave->registers.size() != size_t(program.register_count) * W) {
    wave->registers.assign(size_t(program.register_count) * W, 0);
    for (const auto& [reg, value] : program.constants) {
      uint32_t* r = wave->Register(reg);
      for (uint32_t l = 0; l < W; ++l) r[l] = value;
    }
    wave->registers_of = program.serial;
  }
  const size_t blocks = program.block_start.empty() ? 0 : program.block_start.size() - 1;
  wave->block_masks.assign(blocks, 0);
  size_t edges = 2;
  for (const SwitchTable& s : program.switches) edges = std::max(edges, s.cases.size() + 1);
  wave->edges.assign(edges, 0);
  wave->private_memory.assign(size_t(W) * program.private_memory_size, std::byte{0});
  if (blocks > 0) wave->block_masks[0] = launched;
  wave->launched = launched;
  wave->active = 0;
  wave->killed = 0;
  wave->helpers = 0;
  wave->demoted = 0;
  wave->pc = 0;
  wave->subgroup_size = program.subgroup_size;
  wave->back_edges_until_check = kWatchdogCheckInterval;
  wave->watch_started_ns = 0;
  wave->aborted = false;
}

WaveStatus RunWave(const Program& p, const RootMemory* roots, const ImageBinding* images,
                   const texel::SampledImageState* sampled, WaveState* wave) {
  if (wave->trace != nullptr) return Run<true>(p, roots, images, sampled, *wave);
  return Run<false>(p, roots, images, sampled, *wave);
}

}  // namespace duet::spirv_exec

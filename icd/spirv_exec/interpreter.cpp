// The wave interpreter: one switch per instruction, one loop over lanes per
// case. Results are written only to active lanes (a lane that left a loop
// keeps the values it left with); when every lane is active the loops are
// unconditional and vectorize.
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

#include "spirv_exec/glsl_std450.h"
#include "spirv_exec/interpreter_image.h"
#include "spirv_exec/wave.h"

namespace duet::spirv_exec {
namespace {

constexpr uint32_t W = kWaveWidth;

inline float F(uint32_t u) { return std::bit_cast<float>(u); }
inline uint32_t U(float f) { return std::bit_cast<uint32_t>(f); }

// dst[l] = f(l) for the active lanes.
template <typename Fn>
inline void ForActive(LaneMask active, uint32_t* dst, Fn f) {
  if (active == kAllLanes) {
    for (uint32_t l = 0; l < W; ++l) dst[l] = f(l);
  } else {
    for (uint32_t l = 0; l < W; ++l)
      if ((active >> l) & 1) dst[l] = f(l);
  }
}

template <typename Fn>
inline void Binary(WaveState& w, const Inst& in, Fn f) {
  const uint32_t* a = w.Register(in.a);
  const uint32_t* b = w.Register(in.b);
  ForActive(w.active, w.Register(in.dst), [&](uint32_t l) { return f(a[l], b[l]); });
}

template <typename Fn>
inline void Unary(WaveState& w, const Inst& in, Fn f) {
  const uint32_t* a = w.Register(in.a);
  ForActive(w.active, w.Register(in.dst), [&](uint32_t l) { return f(a[l]); });
}

template <typename Fn>
inline void FloatBinary(WaveState& w, const Inst& in, Fn f) {
  Binary(w, in, [&](uint32_t a, uint32_t b) { return U(f(F(a), F(b))); });
}

template <typename Fn>
inline void FloatCompare(WaveState& w, const Inst& in, Fn f) {
  Binary(w, in, [&](uint32_t a, uint32_t b) { return uint32_t(f(F(a), F(b))); });
}

inline bool Unordered(float a, float b) { return std::isnan(a) || std::isnan(b); }

// Float to integer conversions saturate and map NaN to 0: the spec leaves
// out-of-range results undefined, and C++ would make them undefined behaviour.
inline int32_t FloatToInt(float f) {
  if (!(f == f)) return 0;
  if (f <= -2147483648.0f) return INT32_MIN;
  if (f >= 2147483648.0f) return INT32_MAX;
  return int32_t(f);
}

inline uint32_t FloatToUint(float f) {
  if (!(f > 0.0f)) return 0;
  if (f >= 4294967296.0f) return UINT32_MAX;
  return uint32_t(f);
}

// The address of a 32-bit access for one lane, or nullptr when it falls outside the root.
inline std::byte* Address(const Program& p, const RootMemory* roots, WaveState& w, uint16_t root, uint32_t offset,
                          uint32_t lane) {
  const MemoryRoot& r = p.roots[root];
  if (r.kind == RootKind::kPrivate)
    return w.private_memory.data() + size_t(lane) * p.private_memory_size + r.offset + offset;
  const RootMemory& m = roots[root];
  if (uint64_t(offset) + 4 > m.range) return nullptr;
  return m.base + offset;
}

uint32_t AtomicOperation(uint32_t opcode, std::byte* address, uint32_t value, uint32_t comparator) {
  std::atomic_ref<uint32_t> word(*reinterpret_cast<uint32_t*>(address));
  switch (static_cast<spv::Op>(opcode)) {
    case spv::Op::OpAtomicLoad: return word.load();
    case spv::Op::OpAtomicStore: word.store(value); return 0;
    case spv::Op::OpAtomicExchange: return word.exchange(value);
    case spv::Op::OpAtomicCompareExchange: {
      uint32_t expected = comparator;
      word.compare_exchange_strong(expected, value);
      return expected;
    }
    case spv::Op::OpAtomicIIncrement:
    case spv::Op::OpAtomicIAdd: return word.fetch_add(value);
    case spv::Op::OpAtomicIDecrement:
    case spv::Op::OpAtomicISub: return word.fetch_sub(value);
    case spv::Op::OpAtomicAnd: return word.fetch_and(value);
    case spv::Op::OpAtomicOr: return word.fetch_or(value);
    case spv::Op::OpAtomicXor: return word.fetch_xor(value);
    default: break;
  }
  // Min/max: a compare-exchange loop.
  uint32_t old = word.load();
  for (;;) {
    uint32_t desired = old;
    switch (static_cast<spv::Op>(opcode)) {
      case spv::Op::OpAtomicSMin: desired = uint32_t(std::min(int32_t(old), int32_t(value))); break;
      case spv::Op::OpAtomicSMax: desired = uint32_t(std::max(int32_t(old), int32_t(value))); break;
      case spv::Op::OpAtomicUMin: desired = std::min(old, value); break;
      case spv::Op::OpAtomicUMax: desired = std::max(old, value); break;
      default: return old;
    }
    if (desired == old || word.compare_exchange_weak(old, desired)) return old;
  }
}

}  // namespace

void ResetWave(const Program& program, LaneMask launched, WaveState* wave) {
  wave->registers.assign(size_t(program.register_count) * W, 0);
  for (const auto& [reg, value] : program.constants) {
    uint32_t* r = wave->Register(reg);
    for (uint32_t l = 0; l < W; ++l) r[l] = value;
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
  wave->pc = 0;
}

WaveStatus RunWave(const Program& p, const RootMemory* roots, const ImageBinding* images, WaveState* wave) {
  WaveState& w = *wave;
  const Inst* code = p.code.data();
  const uint32_t end = static_cast<uint32_t>(p.code.size());
  while (w.pc < end) {
    const Inst& in = code[w.pc++];
    switch (in.op) {
      case Op::kMove: Unary(w, in, [](uint32_t a) { return a; }); break;
      case Op::kEdgeMove: {
        const uint32_t* a = w.Register(in.a);
        ForActive(w.edges[in.aux], w.Register(in.dst), [&](uint32_t l) { return a[l]; });
        break;
      }
      case Op::kSelect: {
        const uint32_t* c = w.Register(in.a);
        const uint32_t* t = w.Register(in.b);
        const uint32_t* f = w.Register(in.c);
        ForActive(w.active, w.Register(in.dst), [&](uint32_t l) { return c[l] ? t[l] : f[l]; });
        break;
      }

      case Op::kIAdd: Binary(w, in, [](uint32_t a, uint32_t b) { return a + b; }); break;
      case Op::kISub: Binary(w, in, [](uint32_t a, uint32_t b) { return a - b; }); break;
      case Op::kIMul: Binary(w, in, [](uint32_t a, uint32_t b) { return a * b; }); break;
      // Division by zero (and INT_MIN / -1) is undefined in SPIR-V; give 0 rather than trap.
      case Op::kUDiv: Binary(w, in, [](uint32_t a, uint32_t b) { return b ? a / b : 0u; }); break;
      case Op::kUMod: Binary(w, in, [](uint32_t a, uint32_t b) { return b ? a % b : 0u; }); break;
      case Op::kSDiv:
        Binary(w, in, [](uint32_t a, uint32_t b) {
          const int32_t x = int32_t(a), y = int32_t(b);
          return (y == 0 || (x == INT32_MIN && y == -1)) ? 0u : uint32_t(x / y);
        });
        break;
      case Op::kSRem:
        Binary(w, in, [](uint32_t a, uint32_t b) {
          const int32_t x = int32_t(a), y = int32_t(b);
          return (y == 0 || y == -1) ? 0u : uint32_t(x % y);
        });
        break;
      case Op::kSMod:  // sign of the divisor
        Binary(w, in, [](uint32_t a, uint32_t b) {
          const int32_t x = int32_t(a), y = int32_t(b);
          if (y == 0 || y == -1) return 0u;
          int32_t r = x % y;
          if (r != 0 && ((r < 0) != (y < 0))) r += y;
          return uint32_t(r);
        });
        break;
      case Op::kSNegate: Unary(w, in, [](uint32_t a) { return 0u - a; }); break;
      case Op::kShiftLeft: Binary(w, in, [](uint32_t a, uint32_t b) { return a << (b & 31); }); break;
      case Op::kShiftRightLogical: Binary(w, in, [](uint32_t a, uint32_t b) { return a >> (b & 31); }); break;
      case Op::kShiftRightArithmetic:
        Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(int32_t(a) >> (b & 31)); });
        break;
      case Op::kBitAnd: Binary(w, in, [](uint32_t a, uint32_t b) { return a & b; }); break;
      case Op::kBitOr: Binary(w, in, [](uint32_t a, uint32_t b) { return a | b; }); break;
      case Op::kBitXor: Binary(w, in, [](uint32_t a, uint32_t b) { return a ^ b; }); break;
      case Op::kBitNot: Unary(w, in, [](uint32_t a) { return ~a; }); break;
      case Op::kBitCount: Unary(w, in, [](uint32_t a) { return uint32_t(std::popcount(a)); }); break;
      case Op::kBitReverse:
        Unary(w, in, [](uint32_t a) {
          uint32_t r = 0;
          for (int i = 0; i < 32; ++i) r |= ((a >> i) & 1u) << (31 - i);
          return r;
        });
        break;

      case Op::kFAdd: FloatBinary(w, in, [](float a, float b) { return a + b; }); break;
      case Op::kFSub: FloatBinary(w, in, [](float a, float b) { return a - b; }); break;
      case Op::kFMul: FloatBinary(w, in, [](float a, float b) { return a * b; }); break;
      case Op::kFDiv: FloatBinary(w, in, [](float a, float b) { return a / b; }); break;
      case Op::kFRem: FloatBinary(w, in, [](float a, float b) { return std::fmod(a, b); }); break;
      case Op::kFMod: FloatBinary(w, in, [](float a, float b) { return a - b * std::floor(a / b); }); break;
      case Op::kFNegate: Unary(w, in, [](uint32_t a) { return a ^ 0x80000000u; }); break;

      case Op::kIEqual: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(a == b); }); break;
      case Op::kINotEqual: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(a != b); }); break;
      case Op::kSLess: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(int32_t(a) < int32_t(b)); }); break;
      case Op::kSLessEqual:
        Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(int32_t(a) <= int32_t(b)); });
        break;
      case Op::kSGreater:
        Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(int32_t(a) > int32_t(b)); });
        break;
      case Op::kSGreaterEqual:
        Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(int32_t(a) >= int32_t(b)); });
        break;
      case Op::kULess: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(a < b); }); break;
      case Op::kULessEqual: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(a <= b); }); break;
      case Op::kUGreater: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(a > b); }); break;
      case Op::kUGreaterEqual: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(a >= b); }); break;
      case Op::kFOrdEqual: FloatCompare(w, in, [](float a, float b) { return a == b; }); break;
      case Op::kFOrdNotEqual: FloatCompare(w, in, [](float a, float b) { return !Unordered(a, b) && a != b; }); break;
      case Op::kFOrdLess: FloatCompare(w, in, [](float a, float b) { return a < b; }); break;
      case Op::kFOrdLessEqual: FloatCompare(w, in, [](float a, float b) { return a <= b; }); break;
      case Op::kFOrdGreater: FloatCompare(w, in, [](float a, float b) { return a > b; }); break;
      case Op::kFOrdGreaterEqual: FloatCompare(w, in, [](float a, float b) { return a >= b; }); break;
      case Op::kFUnordEqual: FloatCompare(w, in, [](float a, float b) { return Unordered(a, b) || a == b; }); break;
      case Op::kFUnordNotEqual: FloatCompare(w, in, [](float a, float b) { return a != b; }); break;
      case Op::kFUnordLess: FloatCompare(w, in, [](float a, float b) { return !(a >= b); }); break;
      case Op::kFUnordLessEqual: FloatCompare(w, in, [](float a, float b) { return !(a > b); }); break;
      case Op::kFUnordGreater: FloatCompare(w, in, [](float a, float b) { return !(a <= b); }); break;
      case Op::kFUnordGreaterEqual: FloatCompare(w, in, [](float a, float b) { return !(a < b); }); break;
      case Op::kIsNan: Unary(w, in, [](uint32_t a) { return uint32_t(std::isnan(F(a))); }); break;
      case Op::kIsInf: Unary(w, in, [](uint32_t a) { return uint32_t(std::isinf(F(a))); }); break;
      case Op::kLogicalNot: Unary(w, in, [](uint32_t a) { return uint32_t(a == 0); }); break;

      case Op::kConvertFToS: Unary(w, in, [](uint32_t a) { return uint32_t(FloatToInt(F(a))); }); break;
      case Op::kConvertFToU: Unary(w, in, [](uint32_t a) { return FloatToUint(F(a)); }); break;
      case Op::kConvertSToF: Unary(w, in, [](uint32_t a) { return U(float(int32_t(a))); }); break;
      case Op::kConvertUToF: Unary(w, in, [](uint32_t a) { return U(float(a)); }); break;

      case Op::kGlslUnary:
        ExecuteGlslUnary(in.aux, w.Register(in.dst), w.Register(in.a), w.active);
        break;
      case Op::kGlslBinary:
        ExecuteGlslBinary(in.aux, w.Register(in.dst), w.Register(in.a), w.Register(in.b), w.active);
        break;
      case Op::kGlslTernary:
        ExecuteGlslTernary(in.aux, w.Register(in.dst), w.Register(in.a), w.Register(in.b), w.Register(in.c),
                           w.active);
        break;

      case Op::kLoad: {
        const uint32_t* offset = w.Register(in.a);
        ForActive(w.active, w.Register(in.dst), [&](uint32_t l) {
          const std::byte* at = Address(p, roots, w, in.aux, offset[l] + in.b, l);
          uint32_t v = 0;
          if (at != nullptr) std::memcpy(&v, at, 4);
          return v;
        });
        break;
      }
      case Op::kStore: {
        const uint32_t* offset = w.Register(in.a);
        const uint32_t* value = w.Register(in.c);
        for (uint32_t l = 0; l < W; ++l) {
          if (((w.active >> l) & 1) == 0) continue;
          std::byte* at = Address(p, roots, w, in.aux, offset[l] + in.b, l);
          if (at != nullptr) std::memcpy(at, &value[l], 4);
        }
        break;
      }
      case Op::kAtomic: {
        const uint32_t* offset = w.Register(in.a);
        const uint32_t* value = w.Register(in.c);
        const uint32_t* comparator = w.Register(in.c + 1);
        uint32_t* dst = w.Register(in.dst);
        for (uint32_t l = 0; l < W; ++l) {
          if (((w.active >> l) & 1) == 0) continue;
          std::byte* at = Address(p, roots, w, in.aux, offset[l] + in.b, l);
          dst[l] = at != nullptr ? AtomicOperation(in.ext, at, value[l], comparator[l]) : 0;
        }
        break;
      }
      case Op::kArrayLength: {
        const uint32_t range = roots[in.aux].range;
        const uint32_t length = range > in.a ? (range - in.a) / in.b : 0;
        ForActive(w.active, w.Register(in.dst), [&](uint32_t) { return length; });
        break;
      }

      case Op::kBlockBegin: {
        const LaneMask m = w.block_masks[in.a];
        w.block_masks[in.a] = 0;
        if (m == 0) w.pc = p.block_start[in.a + 1];
        w.active = m;
        break;
      }
      case Op::kBranch:
        w.block_masks[in.a] |= w.active;
        w.edges[0] = w.active;
        break;
      case Op::kBranchCond: {
        const uint32_t* c = w.Register(in.a);
        LaneMask t = 0;
        for (uint32_t l = 0; l < W; ++l) t |= LaneMask(c[l] != 0) << l;
        t &= w.active;
        w.edges[0] = t;
        w.edges[1] = w.active & ~t;
        w.block_masks[in.b] |= w.edges[0];
        w.block_masks[in.c] |= w.edges[1];
        break;
      }
      case Op::kSwitch: {
        const SwitchTable& table = p.switches[in.b];
        const uint32_t* selector = w.Register(in.a);
        LaneMask rest = w.active;
        for (size_t i = 0; i < table.cases.size(); ++i) {
          LaneMask hit = 0;
          for (uint32_t l = 0; l < W; ++l) hit |= LaneMask(selector[l] == table.cases[i].first) << l;
          hit &= rest;
          rest &= ~hit;
          w.edges[i] = hit;
          w.block_masks[table.cases[i].second] |= hit;
        }
        w.edges[table.cases.size()] = rest;
        w.block_masks[table.default_block] |= rest;
        break;
      }
      case Op::kLoopBack:
        if (w.block_masks[in.a] != 0) w.pc = p.block_start[in.a];
        break;
      case Op::kReturn:
        w.active = 0;
        break;
      case Op::kKill:
        w.killed |= w.active;
        w.active = 0;
        break;
      case Op::kBarrier:
        return WaveStatus::kAtBarrier;

      case Op::kImageRead:
      case Op::kImageWrite:
      case Op::kImageQuerySize:
      case Op::kImageQueryLevels:
      case Op::kImageQuerySamples:
      case Op::kImageSample:
        ExecuteImageInstruction(p, in, images, w);
        break;

      case Op::kDerivX: {
        const uint32_t* a = w.Register(in.a);
        const bool fine = in.aux != 0;
        ForActive(w.active, w.Register(in.dst), [&](uint32_t l) {
          const uint32_t row = fine ? (l & ~1u) : (l & ~3u);  // fine: this row; coarse: the top row
          return U(F(a[row | 1]) - F(a[row]));
        });
        break;
      }
      case Op::kDerivY: {
        const uint32_t* a = w.Register(in.a);
        const bool fine = in.aux != 0;
        ForActive(w.active, w.Register(in.dst), [&](uint32_t l) {
          const uint32_t column = fine ? (l & ~2u) : (l & ~3u);  // fine: this column; coarse: the left column
          return U(F(a[column | 2]) - F(a[column]));
        });
        break;
      }

      default:
        // Ops compiled only for later stages (bit-field, carry, ...) are not
        // emitted by the compute compiler yet.
        break;
    }
  }
  return WaveStatus::kFinished;
}

}  // namespace duet::spirv_exec

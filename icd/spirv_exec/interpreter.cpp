// The wave interpreter: one switch per instruction, one loop over lanes per
// case. Results are written only to active lanes (a lane that left a loop
// keeps the values it left with); when every lane is active the loops are
// unconditional and vectorize. Rare, heavy operations (GLSL.std.450,
// images, packing, matrices) live in their own files and are called.
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

#include "spirv_exec/glsl_std450.h"
#include "spirv_exec/interpreter_image.h"
#include "spirv_exec/interpreter_lanes.h"
#include "spirv_exec/invocation_trace.h"
#include "spirv_exec/shader_watchdog.h"
#include "spirv_exec/wave.h"
#include "texel/float_formats.h"

namespace duet::spirv_exec {
namespace {

using namespace lanes;  // NOLINT: the lane helpers are this file's vocabulary

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

// Bit fields: count 0 gives 0 (extract) or the base (insert); offset + count
// beyond 32 is undefined in SPIR-V, and here never undefined in C++.
inline uint32_t FieldMask(uint32_t count) { return count >= 32 ? ~0u : (1u << count) - 1u; }

inline uint32_t BitFieldInsert(uint32_t base, uint32_t insert, uint32_t offset, uint32_t count) {
  if (offset >= 32) return base;
  const uint32_t mask = FieldMask(count) << offset;
  return (base & ~mask) | ((insert << offset) & mask);
}

inline uint32_t BitFieldUExtract(uint32_t value, uint32_t offset, uint32_t count) {
  if (offset >= 32) return 0;
  return (value >> offset) & FieldMask(count);
}

inline uint32_t BitFieldSExtract(uint32_t value, uint32_t offset, uint32_t count) {
  if (count == 0 || offset >= 32) return 0;
  const uint32_t field = (value >> offset) & FieldMask(count);
  const bool negative = count < 32 && ((field >> (count - 1)) & 1u) != 0;
  return negative ? field | ~FieldMask(count) : field;
}

// OpQuantizeToF16: round to half precision (to nearest even); values too
// large become infinities and values below the smallest normal half become
// zero, as the instruction requires.
inline uint32_t QuantizeToF16(uint32_t bits) {
  const float quantized = texel::HalfToFloat(texel::FloatToHalf(F(bits)));
  if (std::fabs(quantized) < 6.103515625e-05f) return bits & 0x80000000u;  // 2^-14, the smallest normal half
  return U(quantized);
}

// The address of a 32-bit access for one lane, or nullptr when it falls
// outside the root: buffers by their bound range (robust buffer access),
// per-lane memory by the lane's share (indexing a local array out of range
// is undefined, but must not reach another lane or beyond the wave).
inline std::byte* Address(const Program& p, const RootMemory* roots, WaveState& w, uint16_t root, uint32_t offset,
                          uint32_t lane) {
  const MemoryRoot& r = p.roots[root];
  if (r.kind == RootKind::kPrivate) {
    if (uint64_t(r.offset) + offset + 4 > p.private_memory_size) return nullptr;
    return w.private_memory.data() + size_t(lane) * p.private_memory_size + r.offset + offset;
  }
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

// Lanes whose stores and atomics reach memory: helper invocations' must not.
inline LaneMask Writers(const WaveState& w) { return w.active & ~(w.helpers | w.demoted); }

// Every kWatchdogCheckInterval back edges: whether the wave must stop.
bool WatchdogStops(WaveState& w) {
  w.back_edges_until_check = kWatchdogCheckInterval;
  return w.watchdog != nullptr && w.watchdog->Check(w);
}

template <bool kTrace>
WaveStatus Run(const Program& p, const RootMemory* roots, const ImageBinding* images,
               const texel::SampledImageState* sampled, WaveState& w) {
  const Inst* code = p.code.data();
  const uint32_t end = static_cast<uint32_t>(p.code.size());
  while (w.pc < end) {
    const uint32_t pc = w.pc++;
    const Inst& in = code[pc];
    [[maybe_unused]] const LaneMask active_before = w.active;
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
      case Op::kBitFieldInsert: {
        const uint32_t* base = w.Register(in.a);
        const uint32_t* insert = w.Register(in.b);
        const uint32_t* offset = w.Register(in.c);
        const uint32_t* count = w.Register(in.ext);
        ForActive(w.active, w.Register(in.dst),
                  [&](uint32_t l) { return BitFieldInsert(base[l], insert[l], offset[l], count[l]); });
        break;
      }
      case Op::kBitFieldSExtract:
      case Op::kBitFieldUExtract: {
        const uint32_t* value = w.Register(in.a);
        const uint32_t* offset = w.Register(in.b);
        const uint32_t* count = w.Register(in.c);
        if (in.op == Op::kBitFieldSExtract)
          ForActive(w.active, w.Register(in.dst),
                    [&](uint32_t l) { return BitFieldSExtract(value[l], offset[l], count[l]); });
        else
          ForActive(w.active, w.Register(in.dst),
                    [&](uint32_t l) { return BitFieldUExtract(value[l], offset[l], count[l]); });
        break;
      }
      case Op::kIMulHighU:
        Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) * b) >> 32); });
        break;
      case Op::kIMulHighS:
        Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(uint64_t(int64_t(S(a)) * S(b)) >> 32); });
        break;
      case Op::kIAddCarry: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(a + b < a); }); break;
      case Op::kISubBorrow: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(a < b); }); break;
      case Op::kIAddSatU:
        Binary(w, in, [](uint32_t a, uint32_t b) { return a + b < a ? UINT32_MAX : a + b; });
        break;
      case Op::kIAddSatS:
        Binary(w, in, [](uint32_t a, uint32_t b) {
          const int64_t sum = int64_t(S(a)) + S(b);
          return uint32_t(int32_t(std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX)));
        });
        break;

      case Op::kFAdd: FloatBinary(w, in, [](float a, float b) { return a + b; }); break;
      case Op::kFSub: FloatBinary(w, in, [](float a, float b) { return a - b; }); break;
      case Op::kFMul: FloatBinary(w, in, [](float a, float b) { return a * b; }); break;
      case Op::kFDiv: FloatBinary(w, in, [](float a, float b) { return a / b; }); break;
      case Op::kFRem: FloatBinary(w, in, [](float a, float b) { return std::fmod(a, b); }); break;
      case Op::kFMod: FloatBinary(w, in, [](float a, float b) { return a - b * std::floor(a / b); }); break;
      case Op::kFNegate: Unary(w, in, [](uint32_t a) { return a ^ 0x80000000u; }); break;
      case Op::kQuantizeToF16: Unary(w, in, [](uint32_t a) { return QuantizeToF16(a); }); break;

      case Op::kIEqual: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(a == b); }); break;
      case Op::kINotEqual: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(a != b); }); break;
      case Op::kSLess: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(S(a) < S(b)); }); break;
      case Op::kSLessEqual: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(S(a) <= S(b)); }); break;
      case Op::kSGreater: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(S(a) > S(b)); }); break;
      case Op::kSGreaterEqual: Binary(w, in, [](uint32_t a, uint32_t b) { return uint32_t(S(a) >= S(b)); }); break;
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
      case Op::kFrexpExponent:
        Unary(w, in, [](uint32_t a) {
          int exponent = 0;
          std::frexp(F(a), &exponent);
          return uint32_t(exponent);
        });
        break;
      case Op::kGlslPack: ExecuteGlslPack(in.aux, w.Register(in.dst), w.Register(in.a), w.active); break;
      case Op::kGlslUnpack: ExecuteGlslUnpack(in.aux, w.Register(in.dst), w.Register(in.a), w.active); break;
      case Op::kDeterminant: ExecuteDeterminant(in.b, w.Register(in.dst), w.Register(in.a), w.active); break;
      case Op::kMatrixInverse: ExecuteMatrixInverse(in.b, w.Register(in.dst), w.Register(in.a), w.active); break;

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
        const LaneMask writers = Writers(w);
        for (uint32_t l = 0; l < W; ++l) {
          if (((writers >> l) & 1) == 0) continue;
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
        const LaneMask writers = Writers(w);
        for (uint32_t l = 0; l < W; ++l) {
          if (((w.active >> l) & 1) == 0) continue;
          std::byte* at = Address(p, roots, w, in.aux, offset[l] + in.b, l);
          // Helpers' atomics have no effect; their results are undefined (0 here).
          const bool writes = ((writers >> l) & 1) != 0;
          dst[l] = at != nullptr && writes ? AtomicOperation(in.ext, at, value[l], comparator[l]) : 0;
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
        const LaneMask first = w.active & (0u - w.active);  // the lowest set bit
        ForActive(w.active, w.Register(in.dst), [&](uint32_t l) { return (first >> l) & 1u; });
        break;
      }
      case Op::kBarrier:
        if constexpr (kTrace) TraceInstruction(p, pc, w, active_before);
        return WaveStatus::kAtBarrier;

      case Op::kImageWrite: {
        // Helpers write nothing.
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
    }
    if constexpr (kTrace) TraceInstruction(p, pc, w, active_before);
  }
  return WaveStatus::kFinished;
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
  wave->helpers = 0;
  wave->demoted = 0;
  wave->pc = 0;
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

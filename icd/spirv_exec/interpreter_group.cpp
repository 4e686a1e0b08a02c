#include "spirv_exec/interpreter_group.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "spirv_exec/interpreter_lanes.h"

namespace duet::spirv_exec {
namespace {

using lanes::F;
using lanes::S;
using lanes::U;
using lanes::W;

uint32_t Identity(GroupKind kind) {
  switch (kind) {
    case GroupKind::kIMul: return 1;
    case GroupKind::kFMul: return U(1.0f);
    case GroupKind::kSMin: return uint32_t(std::numeric_limits<int32_t>::max());
    case GroupKind::kUMin: return UINT32_MAX;
    case GroupKind::kFMin: return U(std::numeric_limits<float>::infinity());
    case GroupKind::kSMax: return uint32_t(std::numeric_limits<int32_t>::min());
    case GroupKind::kFMax: return U(-std::numeric_limits<float>::infinity());
    case GroupKind::kBitAnd: return UINT32_MAX;
    case GroupKind::kLogicalAnd: return 1;
    default: return 0;  // add, max of unsigned, or, xor
  }
}

// 64-bit values (kGroupWide): integers, and doubles for the float kinds.
uint64_t Identity64(GroupKind kind) {
  switch (kind) {
    case GroupKind::kIMul: return 1;
    case GroupKind::kFMul: return std::bit_cast<uint64_t>(1.0);
    case GroupKind::kFMin: return std::bit_cast<uint64_t>(std::numeric_limits<double>::infinity());
    case GroupKind::kFMax: return std::bit_cast<uint64_t>(-std::numeric_limits<double>::infinity());
    case GroupKind::kSMin: return uint64_t(std::numeric_limits<int64_t>::max());
    case GroupKind::kUMin: return UINT64_MAX;
    case GroupKind::kSMax: return uint64_t(std::numeric_limits<int64_t>::min());
    case GroupKind::kBitAnd: return UINT64_MAX;
    default: return 0;
  }
}

uint64_t Combine64(GroupKind kind, uint64_t x, uint64_t y) {
  const double dx = std::bit_cast<double>(x), dy = std::bit_cast<double>(y);
  switch (kind) {
    case GroupKind::kFAdd: return std::bit_cast<uint64_t>(dx + dy);
    case GroupKind::kFMul: return std::bit_cast<uint64_t>(dx * dy);
    case GroupKind::kFMin: return std::bit_cast<uint64_t>(std::fmin(dx, dy));
    case GroupKind::kFMax: return std::bit_cast<uint64_t>(std::fmax(dx, dy));
    case GroupKind::kIAdd: return x + y;
    case GroupKind::kIMul: return x * y;
    case GroupKind::kSMin: return uint64_t(std::min(int64_t(x), int64_t(y)));
    case GroupKind::kUMin: return std::min(x, y);
    case GroupKind::kSMax: return uint64_t(std::max(int64_t(x), int64_t(y)));
    case GroupKind::kUMax: return std::max(x, y);
    case GroupKind::kBitAnd: return x & y;
    case GroupKind::kBitOr: return x | y;
    default: return x ^ y;
  }
}

uint32_t Combine(GroupKind kind, uint32_t x, uint32_t y) {
  switch (kind) {
    case GroupKind::kIAdd: return x + y;
    case GroupKind::kFAdd: return U(F(x) + F(y));
    case GroupKind::kIMul: return x * y;
    case GroupKind::kFMul: return U(F(x) * F(y));
    case GroupKind::kSMin: return uint32_t(std::min(S(x), S(y)));
    case GroupKind::kUMin: return std::min(x, y);
    case GroupKind::kFMin: return U(std::fmin(F(x), F(y)));  // a NaN operand gives the other
    case GroupKind::kSMax: return uint32_t(std::max(S(x), S(y)));
    case GroupKind::kUMax: return std::max(x, y);
    case GroupKind::kFMax: return U(std::fmax(F(x), F(y)));
    case GroupKind::kBitAnd:
    case GroupKind::kLogicalAnd: return x & y;
    case GroupKind::kBitOr:
    case GroupKind::kLogicalOr: return x | y;
    default: return x ^ y;  // kBitXor, kLogicalXor (booleans are 0 or 1)
  }
}

// Reductions and scans over the lanes of `group`, in lane order, of
// 32-bit values (Value = uint32_t) or 64-bit integers (uint64_t), within
// each subgroup of `size` lanes.
template <typename Value>
void Arithmetic(GroupKind kind, GroupOperation operation, uint32_t cluster, uint32_t size, const Value* a,
                LaneMask group, Value* out) {
  auto Combine = [kind](Value x, Value y) -> Value {
    if constexpr (sizeof(Value) == 8)
      return Combine64(kind, x, y);
    else
      return duet::spirv_exec::Combine(kind, x, y);
  };
  Value identity;
  if constexpr (sizeof(Value) == 8)
    identity = Identity64(kind);
  else
    identity = Identity(kind);
  if (operation == GroupOperation::kInclusiveScan || operation == GroupOperation::kExclusiveScan) {
    Value running = identity;
    for (uint32_t l = 0; l < W; ++l) {
      if (l % size == 0) running = identity;
      if (!((group >> l) & 1)) continue;
      if (operation == GroupOperation::kExclusiveScan) out[l] = running;
      running = Combine(running, a[l]);
      if (operation == GroupOperation::kInclusiveScan) out[l] = running;
    }
    return;
  }
  // A reduction is one cluster of the whole subgroup.
  if (operation != GroupOperation::kClusteredReduce || cluster == 0 || cluster > size) cluster = size;
  for (uint32_t first = 0; first < W; first += cluster) {
    Value total = identity;
    for (uint32_t l = first; l < first + cluster; ++l)
      if ((group >> l) & 1) total = Combine(total, a[l]);
    for (uint32_t l = first; l < first + cluster; ++l) out[l] = total;
  }
}

// The bits of lane `l`'s subgroup mask (l counted within its subgroup of
// `size` lanes; no bits at or above `size`).
uint64_t LaneRelationMask(LaneMaskRelation relation, uint32_t l, uint32_t size) {
  const uint64_t bit = uint64_t{1} << l;
  const uint64_t lanes = SubgroupLanes(size, 0);
  switch (relation) {
    case LaneMaskRelation::kEq: return bit;
    case LaneMaskRelation::kGe: return (~uint64_t{0} << l) & lanes;
    case LaneMaskRelation::kGt: return (~uint64_t{0} << l) & ~bit & lanes;
    case LaneMaskRelation::kLe: return bit | (bit - 1);
    default: return bit - 1;  // kLt
  }
}

uint32_t MaskWord(uint64_t mask, uint32_t word) {
  return word == 0 ? uint32_t(mask) : word == 1 ? uint32_t(mask >> 32) : 0;
}

// The bits of a ballot value (uvec4 from register a) that lane l's
// subgroup of `size` lanes has: those below `size`.
uint64_t BallotOf(const uint32_t* low, const uint32_t* high, uint32_t l, uint32_t size) {
  return (uint64_t{low[l]} | (uint64_t{high[l]} << 32)) & SubgroupLanes(size, 0);
}

// The lane (within its subgroup of `size`) a shuffle of `kind` reads for
// lane l (also counted within it) with operand b; `size` when none.
uint32_t SourceLane(GroupKind kind, uint32_t l, uint32_t b, uint32_t size) {
  switch (kind) {
    case GroupKind::kShuffle: return b < size ? b : size;
    case GroupKind::kShuffleXor: return b < size ? l ^ b : size;
    case GroupKind::kShuffleUp: return b <= l ? l - b : size;
    case GroupKind::kShuffleDown: return b < size - l ? l + b : size;
    case GroupKind::kQuadBroadcast: return (l & ~3u) | (b & 3u);
    default: return l ^ (b == 0 ? 1u : b == 1 ? 2u : 3u);  // kQuadSwap: horizontal, vertical, diagonal
  }
}

}  // namespace

void ExecuteGroupInstruction(const Inst& in, WaveState& w) {
  const GroupKind kind = static_cast<GroupKind>(in.aux);
  const uint32_t size = w.subgroup_size;
  const uint32_t index_mask = size - 1;  // lane l is l & index_mask within its subgroup
  uint32_t* dst = w.Register(in.dst);
  if (kind == GroupKind::kLaneIndex) {
    for (uint32_t l = 0; l < W; ++l) dst[l] = l & index_mask;
    return;
  }
  if (kind == GroupKind::kLaneMask) {
    const auto relation = static_cast<LaneMaskRelation>(in.ext);
    for (uint32_t l = 0; l < W; ++l) dst[l] = MaskWord(LaneRelationMask(relation, l & index_mask, size), in.c);
    return;
  }
  // Helper lanes run along for derivatives; they take part in quad
  // operations only, so that no helper's value reaches another lane's result.
  const bool quad = kind == GroupKind::kQuadBroadcast || kind == GroupKind::kQuadSwap;
  const LaneMask group = quad ? w.active : w.active & ~(w.helpers | w.demoted);
  const LaneMask writes = w.active;
  if (writes == 0) return;
  const uint32_t* a = w.Register(in.a);
  const uint32_t* b = in.b != kNoOperand ? w.Register(in.b) : nullptr;
  uint32_t out[W] = {};  // the result for every lane before any is written: dst may be an operand
  switch (kind) {
    case GroupKind::kAll:
    case GroupKind::kAny:
    case GroupKind::kAllEqual:
    case GroupKind::kBroadcast:
    case GroupKind::kBroadcastFirst:
    case GroupKind::kBallot:
      // One value per subgroup, from its lanes in `group`.
      for (uint32_t base = 0; base < W; base += size) {
        const LaneMask lanes = group & SubgroupLanes(size, base);
        if (lanes == 0) continue;
        const uint32_t first = uint32_t(std::countr_zero(lanes));
        uint32_t value = 0;
        if (kind == GroupKind::kBroadcast || kind == GroupKind::kBroadcastFirst) {
          const uint32_t lane = kind == GroupKind::kBroadcastFirst ? first - base : b[first];
          value = lane < size ? a[base + lane] : 0u;
        } else if (kind == GroupKind::kBallot) {
          uint64_t mask = 0;
          for (uint32_t l = base; l < base + size; ++l)
            if (((lanes >> l) & 1) && a[l] != 0) mask |= uint64_t{1} << (l - base);
          value = MaskWord(mask, in.c);
        } else {
          bool all = true, any = false, equal = true;
          for (uint32_t l = base; l < base + size; ++l) {
            if (!((lanes >> l) & 1)) continue;
            all = all && a[l] != 0;
            any = any || a[l] != 0;
            equal = equal && a[l] == a[first];
          }
          value = uint32_t(kind == GroupKind::kAll ? all : kind == GroupKind::kAny ? any : equal);
        }
        std::fill(out + base, out + base + size, value);
      }
      break;
    case GroupKind::kInverseBallot:
    case GroupKind::kBallotBitExtract:
    case GroupKind::kBallotBitCount:
    case GroupKind::kBallotFindLsb:
    case GroupKind::kBallotFindMsb: {
      const uint32_t* high = w.Register(in.a + 1);
      for (uint32_t l = 0; l < W; ++l) {
        const uint64_t ballot = BallotOf(a, high, l, size);
        const uint32_t index = l & index_mask;
        switch (kind) {
          case GroupKind::kInverseBallot: out[l] = uint32_t(ballot >> index) & 1u; break;
          case GroupKind::kBallotBitExtract: out[l] = b[l] < size ? uint32_t(ballot >> b[l]) & 1u : 0u; break;
          case GroupKind::kBallotBitCount: {
            const auto operation = static_cast<GroupOperation>(in.c);
            const LaneMask below = (uint64_t{1} << index) - 1, upto = below | (uint64_t{1} << index);
            const uint64_t counted = operation == GroupOperation::kInclusiveScan   ? ballot & upto
                                     : operation == GroupOperation::kExclusiveScan ? ballot & below
                                                                                  : ballot;
            out[l] = uint32_t(std::popcount(counted));
            break;
          }
          case GroupKind::kBallotFindLsb: out[l] = ballot != 0 ? uint32_t(std::countr_zero(ballot)) : UINT32_MAX; break;
          default: out[l] = ballot != 0 ? 63u - uint32_t(std::countl_zero(ballot)) : UINT32_MAX; break;
        }
      }
      break;
    }
    case GroupKind::kShuffle:
    case GroupKind::kShuffleXor:
    case GroupKind::kShuffleUp:
    case GroupKind::kShuffleDown:
    case GroupKind::kQuadBroadcast:
    case GroupKind::kQuadSwap:
      for (uint32_t l = 0; l < W; ++l) {
        const uint32_t source = SourceLane(kind, l & index_mask, b != nullptr ? b[l] : in.c, size);
        out[l] = source < size ? a[(l & ~index_mask) + source] : 0u;
      }
      break;
    default:
      if (in.ext & kGroupWide) {
        const uint32_t* high = w.Register(in.a + 1);
        uint64_t values[W], results[W] = {};
        for (uint32_t l = 0; l < W; ++l) values[l] = uint64_t{a[l]} | uint64_t{high[l]} << 32;
        Arithmetic<uint64_t>(kind, static_cast<GroupOperation>(in.c), in.ext & ~kGroupWide, size, values, group,
                             results);
        lanes::ForActive(writes, dst, [&](uint32_t l) { return uint32_t(results[l]); });
        lanes::ForActive(writes, w.Register(in.dst + 1), [&](uint32_t l) { return uint32_t(results[l] >> 32); });
        return;
      }
      Arithmetic<uint32_t>(kind, static_cast<GroupOperation>(in.c), in.ext, size, a, group, out);
      break;
  }
  lanes::ForActive(writes, dst, [&](uint32_t l) { return out[l]; });
}

}  // namespace duet::spirv_exec

#include "spirv_exec/invocation_trace.h"

#include <bit>
#include <cstdlib>
#include <cstring>

namespace duet::spirv_exec {
namespace {

// Registers an op writes from dst: most write one.
uint32_t ResultRegisters(const Inst& in) {
  switch (in.op) {
    case Op::kImageRead:
    case Op::kImageSample:
    case Op::kImageQuerySize: return 4;
    case Op::kGlslUnpack: return in.b;
    case Op::kAddressAdd: return 2;
    case Op::kMatrixInverse: return in.b * in.b;
    default: return OpWritesDst(in.op) ? 1 : 0;
  }
}

void PrintValue(std::FILE* out, uint32_t reg, uint32_t value) {
  std::fprintf(out, " r%u = %d (0x%08x, %gf)", reg, static_cast<int32_t>(value), value,
               static_cast<double>(std::bit_cast<float>(value)));
}

}  // namespace

bool TraceTargetFromEnvironment(uint32_t invocation[3]) {
  const char* text = std::getenv("DUET_TRACE_INVOCATION");
  if (text == nullptr || *text == '\0') return false;
  uint32_t values[3] = {0, 0, 0};
  const char* at = text;
  for (int i = 0; i < 3; ++i) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(at, &end, 10);
    if (end == at) return false;
    values[i] = static_cast<uint32_t>(v);
    if (*end == '\0') break;
    if (*end != ',' || i == 2) return false;
    at = end + 1;
  }
  std::memcpy(invocation, values, sizeof values);
  return true;
}

void TraceInstruction(const Program& p, uint32_t pc, WaveState& w, LaneMask active_before) {
  const InvocationTrace& t = *w.trace;
  const Inst& in = p.code[pc];
  const LaneMask lane = LaneMask{1} << t.lane;
  // A block entry is traced when the lane enters it; anything else when the
  // lane took part (a phi move: when the lane came along that edge).
  LaneMask took_part = active_before;
  if (in.op == Op::kBlockBegin) took_part = w.active;
  if (in.op == Op::kEdgeMove) took_part = w.edges[in.aux];
  if ((took_part & lane) == 0) return;

  std::FILE* out = t.out;
  std::fprintf(out, "duet-trace (%u,%u,%u) pc %u %s", t.invocation[0], t.invocation[1], t.invocation[2], pc,
               OpName(in.op));
  const auto value = [&](uint32_t reg) { return w.Register(reg)[t.lane]; };
  switch (in.op) {
    case Op::kBlockBegin: std::fprintf(out, " block %u", in.a); break;
    case Op::kBranch: std::fprintf(out, " -> block %u", in.a); break;
    case Op::kBranchCond:
      std::fprintf(out, " r%u = %u -> block %u", in.a, value(in.a), value(in.a) != 0 ? in.b : in.c);
      break;
    case Op::kSwitch: std::fprintf(out, " r%u = %d", in.a, static_cast<int32_t>(value(in.a))); break;
    case Op::kLoopBack: std::fprintf(out, " to block %u", in.a); break;
    case Op::kStore:
      std::fprintf(out, " root %u offset %u <-", in.aux, value(in.a) + in.b);
      PrintValue(out, in.c, value(in.c));
      break;
    case Op::kImageWrite:
      std::fprintf(out, " image %u <-", in.aux);
      for (uint32_t i = 0; i < 4; ++i) PrintValue(out, in.c + i, value(in.c + i));
      break;
    default: {
      const uint32_t results = ResultRegisters(in);
      constexpr uint32_t kMaxPrinted = 4;
      for (uint32_t i = 0; i < results && i < kMaxPrinted; ++i) {
        // (A sample's results nobody reads may not have been written.)
        if (in.op == Op::kImageSample && ((in.c >> i) & 1) != 0) {
          std::fprintf(out, " r%u unused", in.dst + i);
          continue;
        }
        PrintValue(out, in.dst + i, value(in.dst + i));
      }
      if (results > kMaxPrinted) std::fprintf(out, " ...");
      if (in.op == Op::kLoad || in.op == Op::kAtomic)
        std::fprintf(out, " (root %u offset %u)", in.aux, value(in.a) + in.b);
      break;
    }
  }
  std::fputc('\n', out);
}

}  // namespace duet::spirv_exec

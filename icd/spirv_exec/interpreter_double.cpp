// 64-bit floats (shaderFloat64): the lane kernels run most operations
// (lane_kernels_impl.h; the interpreter reaches them here only when a
// program has no prepared steps); the matrix operations and the
// conversions whose rounding is an operand run here, lane by lane, with
// the same per-lane arithmetic (double_lanes.h).
#include "spirv_exec/interpreter_double.h"

#include <cstdint>

#include "spirv_exec/double_lanes.h"
#include "spirv_exec/glsl_std450.h"
#include "spirv_exec/interpreter_lanes.h"
#include "spirv_exec/lane_kernels.h"

namespace duet::spirv_exec {
namespace {

using lanes::W;

// Lane l of operand `reg` that has `registers` registers (0: unused).
uint64_t OperandAt(WaveState& w, uint32_t reg, uint32_t registers, uint32_t l) {
  if (registers == 0) return 0;
  const uint64_t low = w.Register(reg)[l];
  return registers == 2 ? low | uint64_t{w.Register(reg + 1)[l]} << 32 : low;
}

}  // namespace

void ExecuteDoubleInstruction(const Inst& in, WaveState& w) {
  const auto op = static_cast<DoubleOp>(in.aux);
  const LaneMask active = w.active;
  if (active == 0) return;
  if (op == DoubleOp::kDeterminant)
    return ExecuteDoubleDeterminant(in.ext, w.Register(in.dst), w.Register(in.a), active);
  if (op == DoubleOp::kMatrixInverse)
    return ExecuteDoubleMatrixInverse(in.ext, w.Register(in.dst), w.Register(in.a), active);
  const DoubleShape shape = DoubleShapeOf(op, in.ext);
  auto operand = [&](uint32_t reg, uint32_t registers) { return w.Register(registers != 0 ? reg : 0); };
  if (in.aux < kLaneKernelDoubleOps) {
    if (const LaneKernel kernel = SelectedLaneKernels().double_op[in.aux]) {
      return kernel(w.Register(in.dst), operand(in.a, shape.a), operand(in.b, shape.b), operand(in.c, shape.c), active);
    }
  }
  // Results go to a scratch copy first: dst may overlap an operand.
  const bool toward_zero = in.ext == 1;
  alignas(64) uint64_t out[W];
  for (uint32_t l = 0; l < W; ++l) {
    out[l] = ((active >> l) & 1) != 0
                 ? double_lanes::Lane(op, toward_zero, OperandAt(w, in.a, shape.a, l), OperandAt(w, in.b, shape.b, l),
                                      OperandAt(w, in.c, shape.c, l))
                 : 0;
  }
  lanes::ForActive(active, w.Register(in.dst), [&](uint32_t l) { return uint32_t(out[l]); });
  if (shape.result == 2)
    lanes::ForActive(active, w.Register(in.dst + 1), [&](uint32_t l) { return uint32_t(out[l] >> 32); });
}

}  // namespace duet::spirv_exec

// Lane kernels: the arithmetic of the interpreter's ALU instructions, one
// small function per operation (and per combination of uniform operands,
// see ir_prepare.cpp), each a loop over the kWaveWidth lanes of a register
// that the compiler vectorizes; and the loads, stores and lane masks the
// interpreter needs, written the same way.
//
// The kernels are compiled once per instruction set (lane_kernels_impl.h,
// included by lane_kernels.cpp for the baseline and by
// lane_kernels_avx2.cpp / lane_kernels_avx512.cpp with wider vectors and
// FMA) and the interpreter uses the best set the CPU runs. Every set gives
// bit-identical results: no contraction into FMA where the IR asks for a
// multiply and an add, the same polynomials everywhere.
#pragma once

#include <cstddef>
#include <cstdint>

#include "spirv_exec/ir.h"

namespace duet::spirv_exec {

// dst[l] = f(a[l], b[l], c[l]) for the lanes of `active` (other lanes keep
// their value). dst may be any of a, b, c: every kernel reads lane l of its
// operands only to write lane l of dst.
using LaneKernel = void (*)(uint32_t* dst, const uint32_t* a, const uint32_t* b, const uint32_t* c,
                            LaneMask active);

// 32-bit loads and stores at byte offsets[l] + constant from `base`, for
// each lane of `lanes`: lane l's memory starts lane_stride * l bytes after
// base (per-lane memory; 0 for buffers, which every lane shares). Accesses
// that do not fit in `range` bytes read 0 and write nothing (robust buffer
// access); lanes store in order, so the last of several to one word wins.
using LoadKernel = void (*)(uint32_t* dst, const uint32_t* offsets, uint32_t constant, const std::byte* base,
                            uint32_t range, uint32_t lane_stride, LaneMask lanes);
using StoreKernel = void (*)(const uint32_t* values, const uint32_t* offsets, uint32_t constant, std::byte* base,
                             uint32_t range, uint32_t lane_stride, LaneMask lanes);

inline constexpr uint32_t kLaneKernelOps = 256;   // Op values covered by LaneKernels::op
inline constexpr uint32_t kLaneKernelGlsl = 96;   // GLSL.std.450 opcodes covered by LaneKernels::glsl
inline constexpr uint32_t kLaneKernelDoubleOps = 64;  // DoubleOp values covered by LaneKernels::double_op
static_assert(uint32_t(DoubleOp::kMatrixInverse) < kLaneKernelDoubleOps);

struct LaneKernels {
  const char* isa = "";
  // By IR op (uint16_t(Op)) and variant; null for the ops the interpreter
  // runs itself. Variant v: bit i set when operand i (a, b, c) is uniform,
  // so that the kernel reads lane 0 of it only; with every operand of the
  // op uniform, the result is computed once and written to every lane,
  // active or not. Variant 0 is the plain one.
  LaneKernel op[kLaneKernelOps][8] = {};
  uint8_t op_operands[kLaneKernelOps] = {};  // 1 to 3: the registers of a, b, c read
  // kGlslUnary / kGlslBinary / kGlslTernary by GLSL.std.450 opcode (aux).
  LaneKernel glsl[kLaneKernelGlsl][8] = {};
  uint8_t glsl_operands[kLaneKernelGlsl] = {};
  // kDouble by DoubleOp (aux), operands and result as DoubleShapeOf says:
  // a pair is passed as its first register, the second is W words on. Null
  // for the matrix operations and the conversions whose rounding is in ext
  // (interpreter_double.cpp runs those). A double's result is never
  // uniform, so there is one variant, the plain one; these stay out of
  // VariantsFor, whose users know one-register operations only.
  LaneKernel double_op[kLaneKernelDoubleOps] = {};
  LoadKernel load = nullptr;
  StoreKernel store = nullptr;
  // The lanes whose word is not 0 (branch conditions) / equals `value` (switch cases).
  LaneMask (*nonzero)(const uint32_t* words) = nullptr;
  LaneMask (*equal)(const uint32_t* words, uint32_t value) = nullptr;
  // kBitFieldInsert, the one kernel of four operands: dst = base with
  // `count` bits of `insert` at `offset` (count 0, or offset 32 and up: base).
  void (*bitfield_insert)(uint32_t* dst, const uint32_t* base, const uint32_t* insert, const uint32_t* offset,
                          const uint32_t* count, LaneMask active) = nullptr;

  // The kernels of `in` (its variants), or null when the interpreter runs
  // it itself; *operands is set to how many registers it reads.
  const LaneKernel* VariantsFor(const Inst& in, uint32_t* operands) const {
    const uint32_t o = static_cast<uint16_t>(in.op);
    if (o == uint32_t(Op::kGlslUnary) || o == uint32_t(Op::kGlslBinary) || o == uint32_t(Op::kGlslTernary)) {
      if (in.aux >= kLaneKernelGlsl || glsl[in.aux][0] == nullptr) return nullptr;
      *operands = glsl_operands[in.aux];
      return glsl[in.aux];
    }
    if (o >= kLaneKernelOps || op[o][0] == nullptr) return nullptr;
    *operands = op_operands[o];
    return op[o];
  }
  // The plain kernel of `in`, or null.
  LaneKernel For(const Inst& in) const {
    uint32_t operands = 0;
    const LaneKernel* variants = VariantsFor(in, &operands);
    return variants != nullptr ? variants[0] : nullptr;
  }
};

// The kernels for this CPU (chosen once; DUET_LANE_ISA=baseline|avx2|avx512
// asks for a set, when the CPU has it).
const LaneKernels& SelectedLaneKernels();

// Every set this CPU can run, baseline first (for tests that compare them).
// Returns how many were written to `sets` (at most 3).
uint32_t AvailableLaneKernels(const LaneKernels* sets[3]);

}  // namespace duet::spirv_exec

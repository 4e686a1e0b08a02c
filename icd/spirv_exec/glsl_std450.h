// GLSL.std.450 instructions that are not component-wise lane kernels
// (those are in lane_kernels_impl.h), applied over the active lanes of a wave.
#pragma once

#include <cstdint>

#include "spirv_exec/ir.h"

namespace duet::spirv_exec {

// Packing (glsl_packing.cpp). Vectors are consecutive registers: component
// c of lane l at [c * kWaveWidth + l]. Pack reads 2 or 4 components of `src`
// into one register; unpack writes 2 or 4 components from one register.
void ExecuteGlslPack(uint16_t op, uint32_t* dst, const uint32_t* src, LaneMask active);
void ExecuteGlslUnpack(uint16_t op, uint32_t* dst, const uint32_t* src, LaneMask active);

// Determinant and MatrixInverse of n x n column-major matrices (n = 2..4) in
// consecutive registers (glsl_matrix.cpp): element (column c, row r) is
// register c * n + r.
void ExecuteDeterminant(uint32_t n, uint32_t* dst, const uint32_t* src, LaneMask active);
void ExecuteMatrixInverse(uint32_t n, uint32_t* dst, const uint32_t* src, LaneMask active);
// The same of double matrices, each element a register pair (kDouble).
void ExecuteDoubleDeterminant(uint32_t n, uint32_t* dst, const uint32_t* src, LaneMask active);
void ExecuteDoubleMatrixInverse(uint32_t n, uint32_t* dst, const uint32_t* src, LaneMask active);

}  // namespace duet::spirv_exec

// GLSL.std.450 functions applied over the active lanes of a wave. Precision
// follows the C++ library's float functions, which are at least as precise
// as the Vulkan spec's precision table requires.
#pragma once

#include <cstdint>

#include "spirv_exec/ir.h"

namespace duet::spirv_exec {

// Component-wise functions; `op` is the GLSL.std.450 opcode (Modf gives the
// fractional part and Frexp the significand; their other result comes from
// Trunc and the IR's kFrexpExponent).
void ExecuteGlslUnary(uint16_t op, uint32_t* dst, const uint32_t* a, LaneMask active);
void ExecuteGlslBinary(uint16_t op, uint32_t* dst, const uint32_t* a, const uint32_t* b, LaneMask active);
void ExecuteGlslTernary(uint16_t op, uint32_t* dst, const uint32_t* a, const uint32_t* b, const uint32_t* c,
                        LaneMask active);

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

}  // namespace duet::spirv_exec

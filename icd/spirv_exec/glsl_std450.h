// GLSL.std.450 functions applied over the active lanes of a wave. Precision
// follows the C++ library's float functions, which are at least as precise
// as the Vulkan spec's precision table requires.
#pragma once

#include <cstdint>

#include "spirv_exec/ir.h"

namespace duet::spirv_exec {

void ExecuteGlslUnary(uint16_t op, uint32_t* dst, const uint32_t* a, LaneMask active);
void ExecuteGlslBinary(uint16_t op, uint32_t* dst, const uint32_t* a, const uint32_t* b, LaneMask active);
void ExecuteGlslTernary(uint16_t op, uint32_t* dst, const uint32_t* a, const uint32_t* b, const uint32_t* c,
                        LaneMask active);

}  // namespace duet::spirv_exec

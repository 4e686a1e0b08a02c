// The smallest compute module: "main", local size 1, returns at once. For
// tests of pipeline creation itself (allocations, lifetimes), not execution.
#pragma once

#include <cstdint>

namespace duet_test {

// clang-format off
inline constexpr uint32_t kEmptyComputeModule[] = {
    0x07230203, 0x00010000, 0, 6, 0,  // header: SPIR-V 1.0, bound 6
    0x00020011, 1,                    // OpCapability Shader
    0x0003000E, 0, 1,                 // OpMemoryModel Logical GLSL450
    0x0005000F, 5, 1, 0x6E69616D, 0,  // OpEntryPoint GLCompute %1 "main"
    0x00060010, 1, 17, 1, 1, 1,       // OpExecutionMode %1 LocalSize 1 1 1
    0x00020013, 2,                    // %2 = OpTypeVoid
    0x00030021, 3, 2,                 // %3 = OpTypeFunction %2
    0x00050036, 2, 1, 0, 3,           // %1 = OpFunction %2 None %3
    0x000200F8, 4,                    // OpLabel
    0x000100FD, 0x00010038};          // OpReturn, OpFunctionEnd
// clang-format on

}  // namespace duet_test

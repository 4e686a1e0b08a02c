// DUET_TRACE_INVOCATION=x,y,z: a shader trace without a debugger. For that
// compute invocation (global id), RunWave prints each IR instruction the
// invocation executes, one line each, with the value it produced:
//
//   duet-trace (5,0,0) pc 17 IAdd r9 = 12 (0x0000000c, 1.68156e-44f)
//
// Only the wave holding the invocation runs the tracing loop, so tracing
// costs nothing elsewhere, and one getenv per dispatch when off.
#pragma once

#include <cstdint>
#include <cstdio>

#include "spirv_exec/wave.h"

namespace duet::spirv_exec {

struct InvocationTrace {
  uint32_t lane = 0;                  // the traced lane of the wave
  uint32_t invocation[3] = {0, 0, 0};  // its global invocation id, printed on every line
  std::FILE* out = stderr;
};

// Reads DUET_TRACE_INVOCATION ("x,y,z"; "x" and "x,y" leave the rest 0).
// False when it is unset or malformed.
bool TraceTargetFromEnvironment(uint32_t invocation[3]);

// Prints instruction `pc` as the traced lane executed it. `active_before`
// is the wave's active mask before the instruction ran.
void TraceInstruction(const Program& program, uint32_t pc, WaveState& wave, LaneMask active_before);

}  // namespace duet::spirv_exec

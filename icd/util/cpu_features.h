// What the CPU the driver runs on can execute, for code that picks an
// instruction set at run time (read once; false off x86-64).
#pragma once

namespace duet {

bool CpuHasAvx2();
// FMA3 (every AVX2 CPU so far has it, but it is its own CPUID bit).
bool CpuHasFma();
// AVX-512 F, DQ, BW and VL: what the driver's AVX-512 paths are built for.
bool CpuHasAvx512();

}  // namespace duet

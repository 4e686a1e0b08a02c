// The baseline lane kernels (whatever the build targets) and the choice of
// the set the interpreter uses.
#include "spirv_exec/lane_kernels.h"

#include <cstdlib>
#include <cstring>

#include "spirv_exec/lane_kernels_prelude.h"

namespace duet::spirv_exec {

namespace lane_kernels_baseline {
#define DUET_LANE_ISA_NAME "baseline"
#include "spirv_exec/lane_kernels_impl.h"
#undef DUET_LANE_ISA_NAME
}  // namespace lane_kernels_baseline

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
namespace lane_kernels_avx2 {
const LaneKernels& Kernels();
}
namespace lane_kernels_avx512 {
const LaneKernels& Kernels();
}
#endif

namespace {

// The sets this CPU runs, baseline first.
uint32_t Available(const LaneKernels* sets[3]) {
  uint32_t n = 0;
  sets[n++] = &lane_kernels_baseline::Kernels();
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                    __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
                    __builtin_cpu_supports("popcnt");
  if (avx2) sets[n++] = &lane_kernels_avx2::Kernels();
  if (avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512cd"))
    sets[n++] = &lane_kernels_avx512::Kernels();
#endif
  return n;
}

const LaneKernels& Select() {
  const LaneKernels* sets[3];
  const uint32_t n = Available(sets);
  const char* wanted = std::getenv("DUET_LANE_ISA");
  if (wanted != nullptr)
    for (uint32_t i = 0; i < n; ++i)
      if (std::strcmp(sets[i]->isa, wanted) == 0) return *sets[i];
  return *sets[n - 1];
}

}  // namespace

const LaneKernels& SelectedLaneKernels() {
  static const LaneKernels& selected = Select();
  return selected;
}

uint32_t AvailableLaneKernels(const LaneKernels* sets[3]) { return Available(sets); }

}  // namespace duet::spirv_exec

// The lane kernels for x86-64 CPUs with AVX2 and FMA (x86-64-v3).
#include "spirv_exec/lane_kernels_prelude.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c")
#endif

namespace duet::spirv_exec::lane_kernels_avx2 {
#define DUET_LANE_ISA_NAME "avx2"
#define DUET_LANE_AVX2 1
#include "spirv_exec/lane_kernels_impl.h"
#undef DUET_LANE_AVX2
#undef DUET_LANE_ISA_NAME
}  // namespace duet::spirv_exec::lane_kernels_avx2

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

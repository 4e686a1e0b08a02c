// The lane kernels for x86-64 CPUs with AVX-512 (F, VL, BW, DQ, CD: x86-64-v4).
#include "spirv_exec/lane_kernels_prelude.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx512cd,avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx512bw,avx512dq,avx512cd,avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c")
#endif

namespace duet::spirv_exec::lane_kernels_avx512 {
#define DUET_LANE_ISA_NAME "avx512"
#define DUET_LANE_AVX512 1
#include "spirv_exec/lane_kernels_impl.h"
#undef DUET_LANE_AVX512
#undef DUET_LANE_ISA_NAME
}  // namespace duet::spirv_exec::lane_kernels_avx512

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

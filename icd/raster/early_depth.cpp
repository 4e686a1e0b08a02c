#include "raster/early_depth.h"

#include <spirv/unified1/spirv.hpp11>

#include <cstring>
#include <utility>

#include "util/cpu_features.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace duet::raster {
namespace {

// Whether the program may end a fragment (discard, demote to a helper) or
// change its coverage or depth: then tests before shading cannot write.
bool MayDropFragments(const spirv_exec::Program& p) {
  if (p.BuiltinOutput(uint32_t(spv::BuiltIn::FragDepth)) != UINT32_MAX ||
      p.BuiltinOutput(uint32_t(spv::BuiltIn::SampleMask)) != UINT32_MAX ||
      p.BuiltinOutput(uint32_t(spv::BuiltIn::FragStencilRefEXT)) != UINT32_MAX)
    return true;
  for (const spirv_exec::Inst& inst : p.code)
    if (inst.op == spirv_exec::Op::kKill || inst.op == spirv_exec::Op::kDemote) return true;
  return false;
}

bool MonotoneCompare(VkCompareOp op) {
  return op == VK_COMPARE_OP_LESS || op == VK_COMPARE_OP_LESS_OR_EQUAL || op == VK_COMPARE_OP_GREATER ||
         op == VK_COMPARE_OP_GREATER_OR_EQUAL || op == VK_COMPARE_OP_NEVER;
}

// Early depth tests of one quad, one sample per pixel: `at` is the depth
// texel of its top-left pixel, `depth` the four pixels' depths, `coverage`
// bit i pixel i. D16 compares its codes (their order is the order of the
// values); passing depths are written when kWrite. Returns the passing
// pixels.
#if defined(__SSE2__)
// The compare op on four lanes: all ones where it passes.
template <VkCompareOp kOp>
__m128i CompareLanes(__m128 reference, __m128 stored) {
  switch (kOp) {
    case VK_COMPARE_OP_NEVER: return _mm_setzero_si128();
    case VK_COMPARE_OP_LESS: return _mm_castps_si128(_mm_cmplt_ps(reference, stored));
    case VK_COMPARE_OP_EQUAL: return _mm_castps_si128(_mm_cmpeq_ps(reference, stored));
    case VK_COMPARE_OP_LESS_OR_EQUAL: return _mm_castps_si128(_mm_cmple_ps(reference, stored));
    case VK_COMPARE_OP_GREATER: return _mm_castps_si128(_mm_cmpgt_ps(reference, stored));
    case VK_COMPARE_OP_NOT_EQUAL: return _mm_castps_si128(_mm_cmpneq_ps(reference, stored));
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return _mm_castps_si128(_mm_cmpge_ps(reference, stored));
    default: return _mm_set1_epi32(-1);
  }
}
template <VkCompareOp kOp>
__m128i CompareLanes(__m128i reference, __m128i stored) {  // integers below 2^31
  switch (kOp) {
    case VK_COMPARE_OP_NEVER: return _mm_setzero_si128();
    case VK_COMPARE_OP_LESS: return _mm_cmplt_epi32(reference, stored);
    case VK_COMPARE_OP_EQUAL: return _mm_cmpeq_epi32(reference, stored);
    case VK_COMPARE_OP_LESS_OR_EQUAL: return _mm_xor_si128(_mm_cmpgt_epi32(reference, stored), _mm_set1_epi32(-1));
    case VK_COMPARE_OP_GREATER: return _mm_cmpgt_epi32(reference, stored);
    case VK_COMPARE_OP_NOT_EQUAL: return _mm_xor_si128(_mm_cmpeq_epi32(reference, stored), _mm_set1_epi32(-1));
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return _mm_xor_si128(_mm_cmplt_epi32(reference, stored), _mm_set1_epi32(-1));
    default: return _mm_set1_epi32(-1);
  }
}
#endif

template <DepthPlane kPlane, VkCompareOp kOp, bool kWrite>
[[gnu::always_inline]] inline uint32_t EarlyQuadDepth(std::byte* at, size_t pitch, const float* depth, uint32_t coverage) {
#if defined(__SSE2__)
  // The quad's four pixels as four lanes: top row, then bottom row.
  const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
  const __m128i covered = _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(int(coverage)), bit), bit);
  // Clamped to [0, 1] (max first: NaN becomes 0), as ClampFloat and FloatToUnorm do.
  const __m128 clamped = _mm_min_ps(_mm_max_ps(_mm_loadu_ps(depth), _mm_setzero_ps()), _mm_set1_ps(1.0f));
  std::byte* below = at + pitch;
  if constexpr (kPlane == DepthPlane::kUnorm16) {
    // FloatToUnorm(depth, 16): scaled in double, rounded half up.
    const __m128d scale = _mm_set1_pd(65535.0), half = _mm_set1_pd(0.5);
    const __m128d lo = _mm_add_pd(_mm_mul_pd(_mm_cvtps_pd(clamped), scale), half);
    const __m128d hi = _mm_add_pd(_mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(clamped, clamped)), scale), half);
    const __m128i reference = _mm_unpacklo_epi64(_mm_cvttpd_epi32(lo), _mm_cvttpd_epi32(hi));
    uint32_t top, bottom;
    std::memcpy(&top, at, 4);
    std::memcpy(&bottom, below, 4);
    const __m128i stored = _mm_unpacklo_epi16(
        _mm_unpacklo_epi32(_mm_cvtsi32_si128(int(top)), _mm_cvtsi32_si128(int(bottom))), _mm_setzero_si128());
    const __m128i pass = _mm_and_si128(CompareLanes<kOp>(reference, stored), covered);
    if constexpr (kWrite) {
      __m128i written = _mm_or_si128(_mm_and_si128(pass, reference), _mm_andnot_si128(pass, stored));
      // To 16 bits: packs saturates signed, so shift the range first.
      written = _mm_xor_si128(_mm_packs_epi32(_mm_sub_epi32(written, _mm_set1_epi32(32768)), _mm_setzero_si128()),
                              _mm_set1_epi16(-32768));
      top = uint32_t(_mm_cvtsi128_si32(written));
      bottom = uint32_t(_mm_cvtsi128_si32(_mm_srli_si128(written, 4)));
      std::memcpy(at, &top, 4);
      std::memcpy(below, &bottom, 4);
    }
    return uint32_t(_mm_movemask_ps(_mm_castsi128_ps(pass)));
  } else {
    // 64-bit loads and stores of __m128i (a type that may alias anything).
    const __m128 stored =
        _mm_castsi128_ps(_mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(at)),
                                            _mm_loadl_epi64(reinterpret_cast<const __m128i*>(below))));
    const __m128i pass = _mm_and_si128(CompareLanes<kOp>(clamped, stored), covered);
    if constexpr (kWrite) {
      const __m128 mask = _mm_castsi128_ps(pass);
      const __m128i written = _mm_castps_si128(_mm_or_ps(_mm_and_ps(mask, clamped), _mm_andnot_ps(mask, stored)));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(at), written);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(below), _mm_srli_si128(written, 8));
    }
    return uint32_t(_mm_movemask_ps(_mm_castsi128_ps(pass)));
  }
#else
  // Without branches: whether a fragment passes is data the predictor
  // cannot learn where surfaces overlap.
  constexpr size_t kTexel = kPlane == DepthPlane::kUnorm16 ? 2 : 4;
  uint32_t pass = 0;
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    std::byte* texel = at + (i >> 1) * pitch + (i & 1) * kTexel;
    const bool covered = ((coverage >> i) & 1) != 0;
    bool passes;
    if constexpr (kPlane == DepthPlane::kUnorm16) {
      // FloatToUnorm(depth, 16): clamped (NaN to 0), scaled in double, rounded half up.
      float clamped = depth[i] > 0.0f ? depth[i] : 0.0f;
      clamped = clamped < 1.0f ? clamped : 1.0f;
      const uint16_t reference = uint16_t(int32_t(double(clamped) * 65535.0 + 0.5));
      uint16_t stored;
      std::memcpy(&stored, texel, 2);
      passes = covered & CompareValues(kOp, reference, stored);
      if constexpr (kWrite) {
        const uint16_t written = passes ? reference : stored;
        std::memcpy(texel, &written, 2);
      }
    } else {
      const float reference = DepthTarget::ClampFloat(depth[i]);
      float stored;
      std::memcpy(&stored, texel, 4);
      passes = covered & CompareValues(kOp, reference, stored);
      if constexpr (kWrite) {
        const float written = passes ? reference : stored;
        std::memcpy(texel, &written, 4);
      }
    }
    pass |= uint32_t(passes) << i;
  }
  return pass;
#endif
}

// The 16 quads of an 8x8 block, every pixel covered: one call, the quad
// tests inlined.
template <DepthPlane kPlane, VkCompareOp kOp, bool kWrite>
uint64_t EarlyBlockDepth(std::byte* at, size_t pitch, const float* depth) {
  constexpr size_t kTexel = kPlane == DepthPlane::kUnorm16 ? 2 : 4;
  uint64_t pass = 0;
#pragma GCC unroll 16
  for (uint32_t q = 0; q < 16; ++q)
    pass |= uint64_t(EarlyQuadDepth<kPlane, kOp, kWrite>(at + (q >> 2) * 2 * pitch + (q & 3) * 2 * kTexel, pitch,
                                                          depth + 4 * q, 0xF))
            << (4 * q);
  return pass;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DUET_EARLY_DEPTH_AVX2 1
// EarlyBlockDepth on D32 with AVX2: a row of four quads (two pixel rows)
// at a time, the quads' lanes formed by interleaving the rows' pixel pairs
// (quads 0 and 2 in one register, 1 and 3 in the other); the same compares
// and writes as EarlyQuadDepth's.
template <VkCompareOp kOp>
__attribute__((target("avx2"))) __m256 CompareLanes8(__m256 reference, __m256 stored) {
  switch (kOp) {
    case VK_COMPARE_OP_NEVER: return _mm256_setzero_ps();
    case VK_COMPARE_OP_LESS: return _mm256_cmp_ps(reference, stored, _CMP_LT_OS);
    case VK_COMPARE_OP_EQUAL: return _mm256_cmp_ps(reference, stored, _CMP_EQ_OQ);
    case VK_COMPARE_OP_LESS_OR_EQUAL: return _mm256_cmp_ps(reference, stored, _CMP_LE_OS);
    case VK_COMPARE_OP_GREATER: return _mm256_cmp_ps(reference, stored, _CMP_GT_OS);
    case VK_COMPARE_OP_NOT_EQUAL: return _mm256_cmp_ps(reference, stored, _CMP_NEQ_UQ);
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return _mm256_cmp_ps(reference, stored, _CMP_GE_OS);
    default: return _mm256_castsi256_ps(_mm256_set1_epi32(-1));
  }
}

// Clamped to [0, 1] (max first: NaN becomes 0), as EarlyQuadDepth does.
__attribute__((target("avx2"))) inline __m256 ClampDepths8(__m256 depth) {
  return _mm256_min_ps(_mm256_max_ps(depth, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
}

template <VkCompareOp kOp, bool kWrite>
__attribute__((target("avx2"))) uint64_t EarlyBlockDepthFloat32Avx2(std::byte* at, size_t pitch, const float* depth) {
  uint64_t pass = 0;
  for (uint32_t row = 0; row < 4; ++row) {
    std::byte* top = at + 2 * row * pitch;
    std::byte* bottom = top + pitch;
    const __m256d upper = _mm256_loadu_pd(reinterpret_cast<const double*>(top));  // four pixel pairs
    const __m256d lower = _mm256_loadu_pd(reinterpret_cast<const double*>(bottom));
    const __m256 stored02 = _mm256_castpd_ps(_mm256_unpacklo_pd(upper, lower));
    const __m256 stored13 = _mm256_castpd_ps(_mm256_unpackhi_pd(upper, lower));
    const __m256 depth01 = _mm256_loadu_ps(depth + 16 * row), depth23 = _mm256_loadu_ps(depth + 16 * row + 8);
    const __m256 reference02 = ClampDepths8(_mm256_permute2f128_ps(depth01, depth23, 0x20));
    const __m256 reference13 = ClampDepths8(_mm256_permute2f128_ps(depth01, depth23, 0x31));
    const __m256 pass02 = CompareLanes8<kOp>(reference02, stored02);
    const __m256 pass13 = CompareLanes8<kOp>(reference13, stored13);
    if constexpr (kWrite) {
      const __m256d written02 = _mm256_castps_pd(_mm256_blendv_ps(stored02, reference02, pass02));
      const __m256d written13 = _mm256_castps_pd(_mm256_blendv_ps(stored13, reference13, pass13));
      _mm256_storeu_pd(reinterpret_cast<double*>(top), _mm256_unpacklo_pd(written02, written13));
      _mm256_storeu_pd(reinterpret_cast<double*>(bottom), _mm256_unpackhi_pd(written02, written13));
    }
    const uint64_t bits02 = uint32_t(_mm256_movemask_ps(pass02)), bits13 = uint32_t(_mm256_movemask_ps(pass13));
    pass |= ((bits02 & 0xF) | (bits13 & 0xF) << 4 | (bits02 >> 4) << 8 | (bits13 >> 4) << 12) << (16 * row);
  }
  return pass;
}
#endif

template <DepthPlane kPlane, bool kWrite, size_t... kOps>
EarlyDepthTests PickEarlyDepthTests(VkCompareOp op, std::index_sequence<kOps...>) {
  constexpr EarlyQuadDepthFn kQuadByOp[] = {&EarlyQuadDepth<kPlane, VkCompareOp(kOps), kWrite>...};
  constexpr EarlyBlockDepthFn kBlockByOp[] = {&EarlyBlockDepth<kPlane, VkCompareOp(kOps), kWrite>...};
  if (uint32_t(op) >= sizeof...(kOps)) return {};
  EarlyDepthTests tests{kQuadByOp[op], kBlockByOp[op]};
#if defined(DUET_EARLY_DEPTH_AVX2)
  if constexpr (kPlane == DepthPlane::kFloat32) {
    constexpr EarlyBlockDepthFn kAvx2ByOp[] = {&EarlyBlockDepthFloat32Avx2<VkCompareOp(kOps), kWrite>...};
    if (CpuHasAvx2()) tests.block = kAvx2ByOp[op];
  }
#endif
  return tests;
}

}  // namespace

EarlyDepth ChooseEarlyDepth(const spirv_exec::Program* program, const OutputTargets& t) {
  if (program == nullptr) return EarlyDepth::kNone;
  if (program->early_fragment_tests) return EarlyDepth::kFull;
  const DepthStencilState& ds = t.depth_stencil;
  if (!t.has_depth || !ds.depth_test || !MonotoneCompare(ds.depth_compare)) return EarlyDepth::kNone;
  if (ds.stencil_test && t.has_stencil) return EarlyDepth::kNone;  // depth-fail stencil ops run in order
  if (program->BuiltinOutput(uint32_t(spv::BuiltIn::FragDepth)) != UINT32_MAX ||
      program->BuiltinOutput(uint32_t(spv::BuiltIn::FragStencilRefEXT)) != UINT32_MAX)
    return EarlyDepth::kNone;
  // Side effects must happen for every fragment the late tests would see.
  if (program->writes_memory) return EarlyDepth::kNone;
  // A fragment that passes now is written whatever the shader computes: the
  // tests and depth writes can all run before shading, in primitive order.
  if (!MayDropFragments(*program) && !t.alpha_to_coverage) return EarlyDepth::kFull;
  return EarlyDepth::kReject;
}

EarlyDepthTests ChooseEarlyDepthTests(DepthPlane plane, VkCompareOp op, bool write) {
  constexpr auto kOps = std::make_index_sequence<8>();
  if (plane == DepthPlane::kUnorm16)
    return write ? PickEarlyDepthTests<DepthPlane::kUnorm16, true>(op, kOps)
                 : PickEarlyDepthTests<DepthPlane::kUnorm16, false>(op, kOps);
  if (plane == DepthPlane::kFloat32)
    return write ? PickEarlyDepthTests<DepthPlane::kFloat32, true>(op, kOps)
                 : PickEarlyDepthTests<DepthPlane::kFloat32, false>(op, kOps);
  return {};
}

}  // namespace duet::raster

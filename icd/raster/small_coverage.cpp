#include "raster/small_coverage.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace duet::raster {
namespace {

#if defined(__SSE2__)
// OutsideRows for the first 4 * kGroups columns.
template <int kGroups>
void OutsideRowsOf(const int32_t origin[3], const int32_t step_x[3], const int32_t step_y[3], uint32_t rows,
                   uint16_t* outside) {
  __m128i edge[3][kGroups], down[3];
  for (int e = 0; e < 3; ++e) {
    const int32_t o = origin[e], x = step_x[e];
    edge[e][0] = _mm_setr_epi32(o, o + x, o + 2 * x, o + 3 * x);
    const __m128i right = _mm_set1_epi32(4 * x);  // four columns on
    for (int k = 1; k < kGroups; ++k) edge[e][k] = _mm_add_epi32(edge[e][k - 1], right);
    down[e] = _mm_set1_epi32(step_y[e]);
  }
  for (uint32_t r = 0; r < rows; ++r) {
    uint32_t mask = 0;
    for (int k = 0; k < kGroups; ++k) {
      const __m128i any = _mm_or_si128(_mm_or_si128(edge[0][k], edge[1][k]), edge[2][k]);  // sign: outside
      mask |= uint32_t(_mm_movemask_ps(_mm_castsi128_ps(any))) << (4 * k);
      for (int e = 0; e < 3; ++e) edge[e][k] = _mm_add_epi32(edge[e][k], down[e]);
    }
    outside[r] = uint16_t(mask);
  }
}
#endif

}  // namespace

void OutsideRows(const int32_t origin[3], const int32_t step_x[3], const int32_t step_y[3], uint32_t columns,
                 uint32_t rows, uint16_t* outside) {
#if defined(__SSE2__)
  switch ((columns + 3) / 4) {
    case 1: return OutsideRowsOf<1>(origin, step_x, step_y, rows, outside);
    case 2: return OutsideRowsOf<2>(origin, step_x, step_y, rows, outside);
    case 3: return OutsideRowsOf<3>(origin, step_x, step_y, rows, outside);
    default: return OutsideRowsOf<4>(origin, step_x, step_y, rows, outside);
  }
#else
  for (uint32_t r = 0; r < rows; ++r) {
    uint32_t mask = 0;
    for (uint32_t c = 0; c < columns && c < 16; ++c) {  // (the values past them may not fit)
      int32_t any = 0;
      for (int e = 0; e < 3; ++e) any |= origin[e] + int32_t(c) * step_x[e] + int32_t(r) * step_y[e];
      mask |= uint32_t(any < 0) << c;
    }
    outside[r] = uint16_t(mask);
  }
#endif
}

}  // namespace duet::raster

// GLSL.std.450 Determinant and MatrixInverse for 2x2, 3x3 and 4x4 float
// and double matrices: cofactor expansion, lane by lane. Each lane gathers its matrix
// from the registers (a contiguous stream per element), so the loops stay
// simple; these functions are rare enough that nothing more is needed.
#include <bit>

#include "spirv_exec/glsl_std450.h"
#include "spirv_exec/interpreter_lanes.h"

namespace duet::spirv_exec {
namespace {

using lanes::F;
using lanes::U;
using lanes::W;

constexpr uint32_t kMaxN = 4;

// An n x n matrix, a[column][row].
template <typename T>
struct Matrix {
  uint32_t n;
  T a[kMaxN][kMaxN];
};

template <typename T>
T Determinant(const Matrix<T>& m);

// The (n-1) x (n-1) matrix without `row` and `column`.
template <typename T>
Matrix<T> Minor(const Matrix<T>& m, uint32_t column, uint32_t row) {
  Matrix<T> out{m.n - 1, {}};
  for (uint32_t c = 0, oc = 0; c < m.n; ++c) {
    if (c == column) continue;
    for (uint32_t r = 0, orow = 0; r < m.n; ++r) {
      if (r == row) continue;
      out.a[oc][orow++] = m.a[c][r];
    }
    ++oc;
  }
  return out;
}

template <typename T>
T Cofactor(const Matrix<T>& m, uint32_t column, uint32_t row) {
  const T minor = Determinant(Minor(m, column, row));
  return ((column + row) & 1) != 0 ? -minor : minor;
}

template <typename T>
T Determinant(const Matrix<T>& m) {
  if (m.n == 1) return m.a[0][0];
  if (m.n == 2) return m.a[0][0] * m.a[1][1] - m.a[1][0] * m.a[0][1];
  T det = 0;
  for (uint32_t c = 0; c < m.n; ++c) det += m.a[c][0] * Cofactor(m, c, 0);  // along the first row
  return det;
}

Matrix<float> Gather(uint32_t n, const uint32_t* src, uint32_t lane) {
  Matrix<float> m{n, {}};
  for (uint32_t c = 0; c < n; ++c)
    for (uint32_t r = 0; r < n; ++r) m.a[c][r] = F(src[(c * n + r) * W + lane]);
  return m;
}

// Doubles: each element a register pair, low word first.
double DoubleAt(const uint32_t* src, uint32_t element, uint32_t lane) {
  return std::bit_cast<double>(uint64_t{src[2 * element * W + lane]} | uint64_t{src[(2 * element + 1) * W + lane]} << 32);
}

void PutDouble(uint32_t* dst, uint32_t element, uint32_t lane, double value) {
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  dst[2 * element * W + lane] = uint32_t(bits);
  dst[(2 * element + 1) * W + lane] = uint32_t(bits >> 32);
}

Matrix<double> GatherDoubles(uint32_t n, const uint32_t* src, uint32_t lane) {
  Matrix<double> m{n, {}};
  for (uint32_t c = 0; c < n; ++c)
    for (uint32_t r = 0; r < n; ++r) m.a[c][r] = DoubleAt(src, c * n + r, lane);
  return m;
}

}  // namespace

void ExecuteDeterminant(uint32_t n, uint32_t* dst, const uint32_t* src, LaneMask active) {
  if (n < 2 || n > kMaxN) return;
  lanes::ForActive(active, dst, [&](uint32_t l) { return U(Determinant(Gather(n, src, l))); });
}

// inverse = adjugate / determinant: element (column c, row r) of the
// inverse is the cofactor of (column r, row c) over the determinant.
void ExecuteMatrixInverse(uint32_t n, uint32_t* dst, const uint32_t* src, LaneMask active) {
  if (n < 2 || n > kMaxN) return;
  for (uint32_t l = 0; l < W; ++l) {
    if (((active >> l) & 1) == 0) continue;
    const Matrix<float> m = Gather(n, src, l);
    const float inverse_det = 1.0f / Determinant(m);
    for (uint32_t c = 0; c < n; ++c)
      for (uint32_t r = 0; r < n; ++r) dst[(c * n + r) * W + l] = U(Cofactor(m, r, c) * inverse_det);
  }
}

void ExecuteDoubleDeterminant(uint32_t n, uint32_t* dst, const uint32_t* src, LaneMask active) {
  if (n < 2 || n > kMaxN) return;
  for (uint32_t l = 0; l < W; ++l)
    if (((active >> l) & 1) != 0) PutDouble(dst, 0, l, Determinant(GatherDoubles(n, src, l)));
}

void ExecuteDoubleMatrixInverse(uint32_t n, uint32_t* dst, const uint32_t* src, LaneMask active) {
  if (n < 2 || n > kMaxN) return;
  for (uint32_t l = 0; l < W; ++l) {
    if (((active >> l) & 1) == 0) continue;
    const Matrix<double> m = GatherDoubles(n, src, l);
    const double inverse_det = 1.0 / Determinant(m);
    for (uint32_t c = 0; c < n; ++c)
      for (uint32_t r = 0; r < n; ++r) PutDouble(dst, c * n + r, l, Cofactor(m, r, c) * inverse_det);
  }
}

}  // namespace duet::spirv_exec

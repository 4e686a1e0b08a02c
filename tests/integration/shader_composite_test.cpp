// Matrix functions (determinant, inverse, transpose, products), geometric
// functions, packing and unpacking, swizzles and dynamic component access
// in a compute shader, against double-precision C++ references. Matrices
// are diagonally dominant, so their inverses are well conditioned and the
// tolerances can stay tight.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "compute_fixture.h"
#include "float_reference.h"
#include "shaders/composite_functions.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kFloats = 96, kPacked = 8;  // as composite_functions.comp writes them

using Vec = std::array<double, 4>;
// Column-major: m[c][r].
using Mat = std::array<std::array<double, 4>, 4>;

double Det(const Mat& m, int n) {
  if (n == 1) return m[0][0];
  double det = 0;
  for (int c = 0; c < n; ++c) {
    Mat minor{};
    for (int cc = 0, oc = 0; cc < n; ++cc) {
      if (cc == c) continue;
      for (int r = 1; r < n; ++r) minor[oc][r - 1] = m[cc][r];
      ++oc;
    }
    det += (c % 2 ? -1 : 1) * m[c][0] * Det(minor, n - 1);
  }
  return det;
}

// Gauss-Jordan in double.
Mat Inverse(Mat m, int n) {
  Mat inv{};
  for (int i = 0; i < n; ++i) inv[i][i] = 1;
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int r = col + 1; r < n; ++r)
      if (std::fabs(m[col][r]) > std::fabs(m[col][pivot])) pivot = r;
    for (int c = 0; c < n; ++c) {
      std::swap(m[c][col], m[c][pivot]);
      std::swap(inv[c][col], inv[c][pivot]);
    }
    const double d = m[col][col];
    for (int c = 0; c < n; ++c) {
      m[c][col] /= d;
      inv[c][col] /= d;
    }
    for (int r = 0; r < n; ++r) {
      if (r == col) continue;
      const double f = m[col][r];
      for (int c = 0; c < n; ++c) {
        m[c][r] -= f * m[c][col];
        inv[c][r] -= f * inv[c][col];
      }
    }
  }
  return inv;
}

double Dot(const Vec& a, const Vec& b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

Vec Normalize(const Vec& v, int n) {
  const double l = std::sqrt(Dot(v, v, n));
  Vec r{};
  for (int i = 0; i < n; ++i) r[i] = v[i] / l;
  return r;
}

// round(clamp(x, lo, 1) * scale), the GLSL formula: evaluated in float or
// in double, either is right (they differ when the float product rounds
// across a half).
bool PackedFieldMatches(uint32_t field, float x, float lo, float scale, uint32_t mask) {
  const float in_float = std::round(std::clamp(x, lo, 1.0f) * scale);
  const double in_double = std::round(std::clamp(double(x), double(lo), 1.0) * scale);
  return field == (uint32_t(int32_t(in_float)) & mask) || field == (uint32_t(int32_t(in_double)) & mask);
}

// Every `bits`-wide field of `packed` matches its value.
bool PackedMatches(uint32_t packed, const float* values, int count, int bits, float lo, float scale) {
  const uint32_t mask = (1u << bits) - 1;
  for (int c = 0; c < count; ++c)
    if (!PackedFieldMatches((packed >> (c * bits)) & mask, values[c], lo, scale, mask)) return false;
  return true;
}

// Float to half bits, rounding to nearest even (finite inputs).
uint32_t HalfBits(float f) {
  const uint32_t sign = (Bits(f) >> 16) & 0x8000u;
  const double a = std::fabs(double(f));
  if (a >= 65520.0) return sign | 0x7C00u;
  int e = 0;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  const int quantum = std::max(e - 1, -14) - 10;
  const double v = std::ldexp(std::nearbyint(std::ldexp(a, -quantum)), quantum);
  if (v == 0) return sign;
  std::frexp(v, &e);
  const int exponent = e - 1;
  if (exponent < -14) return sign | uint32_t(std::ldexp(v, 24));
  return sign | uint32_t(exponent + 15) << 10 | (uint32_t(std::ldexp(v, -exponent) * 1024) - 1024);
}

double HalfValue(uint32_t h) {
  const double sign = (h & 0x8000u) ? -1 : 1;
  const uint32_t exponent = (h >> 10) & 31, mantissa = h & 1023;
  if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, int(exponent) - 25);
}

int32_t SignedField(uint32_t v, int bits) {
  const uint32_t sign = 1u << (bits - 1);
  return int32_t(((v & ((1u << bits) - 1)) ^ sign) - sign);
}

class ShaderCompositeTest : public ComputeFixture {};

TEST_F(ShaderCompositeTest, MatchesReference) {
  constexpr uint32_t n = 512;
  std::mt19937 rng(5);
  auto uniform = [&](double lo, double hi) { return float(std::uniform_real_distribution<double>(lo, hi)(rng)); };
  HostBuffer in = StorageBuffer(n * 128), out = StorageBuffer(n * kFloats * 4), packed = StorageBuffer(n * kPacked * 4);
  float* f = in.as<float>();
  for (uint32_t i = 0; i < n; ++i) {
    float* m = f + i * 32;
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) m[c * 4 + r] = uniform(-1, 1) + (c == r ? (i % 2 ? 3.0f : -3.0f) : 0.0f);
    for (int k = 16; k < 28; ++k) m[k] = uniform(-2, 2);  // p, q, s.xyz
    m[27] = FromBits(uint32_t(rng()));                     // s.w: bits to unpack
    m[28] = i % 3 == 0 ? uniform(1.05, 1.5) : uniform(0.5, 1.0);  // t.x: refraction index (some total reflection)
    for (int k = 29; k < 32; ++k) m[k] = i % 16 == 5 ? uniform(-70000, 70000) : uniform(-1.5, 1.5);
  }
  Kernel k = MakeKernel(kCompositeFunctionsComp, {in.buffer, out.buffer, packed.buffer}, 4);
  Run(k, n / 32, 1, 1, &n, 4);

  uint32_t failures = 0;
  auto check = [&](uint32_t i, uint32_t slot, double expected, double tolerance, const char* what) {
    const float got = out.as<float>()[i * kFloats + slot];
    if (WithinTolerance(got, expected, tolerance)) return;
    if (++failures <= 20)
      ADD_FAILURE() << what << " (invocation " << i << ", slot " << slot << "): got " << got << ", expected "
                    << expected;
  };
  for (uint32_t i = 0; i < n; ++i) {
    const float* in_f = f + i * 32;
    Mat a{};
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) a[c][r] = in_f[c * 4 + r];
    Vec p, q, s, t;
    for (int k = 0; k < 4; ++k) {
      p[k] = in_f[16 + k];
      q[k] = in_f[20 + k];
      s[k] = in_f[24 + k];
      t[k] = in_f[28 + k];
    }
    constexpr double kTol = 2e-5;
    for (int dim = 2; dim <= 4; ++dim) {
      const double det = Det(a, dim);
      check(i, uint32_t(dim - 2), det, kTol * std::fabs(det) * dim, "determinant");
      const Mat inv = Inverse(a, dim);
      const uint32_t base = dim == 2 ? 3 : dim == 3 ? 7 : 16;
      for (int c = 0; c < dim; ++c)
        for (int r = 0; r < dim; ++r) check(i, base + c * dim + r, inv[c][r], kTol, "inverse");
    }
    for (int r = 0; r < 4; ++r) {  // transpose(a) * p: row r is column r of a
      double sum = 0;
      for (int c = 0; c < 4; ++c) sum += a[r][c] * p[c];
      check(i, 32 + r, sum, kTol * 16, "transpose * vector");
    }
    for (int c = 0; c < 2; ++c)
      for (int r = 0; r < 3; ++r) check(i, 36 + c * 3 + r, q[r] * s[c], kTol * 4, "outerProduct");
    for (int c = 0; c < 2; ++c)  // mat3x2(a0.xy, a1.xy, a2.xy) * mat2x3(a3.xyz, p.xyz)
      for (int r = 0; r < 2; ++r) {
        double sum = 0;
        for (int kk = 0; kk < 3; ++kk) sum += a[kk][r] * (c == 0 ? a[3][kk] : p[kk]);
        check(i, 42 + c * 2 + r, sum, kTol * 16, "matrix * matrix");
      }
    for (int c = 0; c < 3; ++c) {  // p.xyz * mat3(a): dot with column c
      double sum = 0;
      for (int r = 0; r < 3; ++r) sum += p[r] * a[c][r];
      check(i, 46 + c, sum, kTol * 16, "vector * matrix");
    }
    check(i, 49, std::sqrt(Dot(q, q, 3)), kTol, "length");
    Vec d{};
    for (int kk = 0; kk < 4; ++kk) d[kk] = p[kk] - q[kk];
    check(i, 50, std::sqrt(Dot(d, d, 4)), kTol, "distance");
    check(i, 51, Dot(p, q, 4), kTol * 8, "dot");
    const double cross[3] = {p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]};
    const Vec nq = Normalize(q, 4);
    const bool facing = Dot(s, q, 3) < 0;
    const Vec ns = Normalize(s, 3), np = Normalize(p, 3);
    const double dpn = Dot(ns, p, 3);
    const double eta = t[0], dni = Dot(ns, np, 3);
    const double kk_refract = 1 - eta * eta * (1 - dni * dni);
    for (int c = 0; c < 3; ++c) {
      check(i, 52 + c, cross[c], kTol * 8, "cross");
      if (std::fabs(Dot(s, q, 3)) > 1e-3) check(i, 59 + c, facing ? p[c] : -p[c], 0, "faceforward");
      check(i, 62 + c, p[c] - 2 * dpn * ns[c], kTol * 8, "reflect");
      const double refracted = kk_refract < 0 ? 0 : eta * np[c] - (eta * dni + std::sqrt(kk_refract)) * ns[c];
      if (std::fabs(kk_refract) > 1e-3) check(i, 65 + c, refracted, kTol * 8, "refract");
    }
    for (int c = 0; c < 4; ++c) check(i, 55 + c, nq[c], kTol, "normalize");
    const double swizzled[4] = {p[3], p[2], p[1], p[0]}, mixed[4] = {q[2], q[3], p[1], p[0]};
    for (int c = 0; c < 4; ++c) {
      check(i, 68 + c, swizzled[c], 0, "swizzle");
      check(i, 72 + c, mixed[c], 0, "shuffle");
    }
    for (int c = 0; c < 3; ++c) check(i, 76 + c, s[1], 0, "splat");
    const int index = int(i % 4);
    check(i, 79, t[index], 0, "dynamic extract");
    for (int c = 0; c < 4; ++c) check(i, 80 + c, c == index ? -7.5 : t[c], 0, "dynamic insert");
    const uint32_t bits = Bits(in_f[27]);
    for (int c = 0; c < 4; ++c) {
      check(i, 84 + c, double((bits >> (8 * c)) & 255) / 255.0, FloatUlp(1), "unpackUnorm4x8");
      check(i, 88 + c, std::max(SignedField(bits >> (8 * c), 8) / 127.0, -1.0), FloatUlp(1), "unpackSnorm4x8");
    }
    check(i, 92, double(bits & 0xFFFF) / 65535.0, FloatUlp(1), "unpackUnorm2x16.x");
    check(i, 93, double(bits >> 16) / 65535.0, FloatUlp(1), "unpackUnorm2x16.y");
    check(i, 94,
          std::max(SignedField(bits, 16) / 32767.0, -1.0) + 4 * std::max(SignedField(bits >> 16, 16) / 32767.0, -1.0),
          FloatUlp(8), "unpackSnorm2x16");
    const double hx = HalfValue(bits & 0xFFFF), hy = HalfValue(bits >> 16);
    if (std::isfinite(hx) && std::isfinite(hy)) check(i, 95, hx + hy, FloatUlp(hx + hy), "unpackHalf2x16");

    const uint32_t* u = packed.as<uint32_t>() + i * kPacked;
    const float tf[4] = {float(t[0]), float(t[1]), float(t[2]), float(t[3])};
    EXPECT_TRUE(PackedMatches(u[0], tf, 4, 8, 0, 255)) << "packUnorm4x8 " << i << std::hex << ": 0x" << u[0];
    EXPECT_TRUE(PackedMatches(u[1], tf, 4, 8, -1, 127)) << "packSnorm4x8 " << i << std::hex << ": 0x" << u[1];
    EXPECT_TRUE(PackedMatches(u[2], tf, 2, 16, 0, 65535)) << "packUnorm2x16 " << i << std::hex << ": 0x" << u[2];
    EXPECT_TRUE(PackedMatches(u[3], tf + 2, 2, 16, -1, 32767)) << "packSnorm2x16 " << i << std::hex << ": 0x" << u[3];
    EXPECT_EQ(u[4], HalfBits(float(t[0])) | HalfBits(float(t[1])) << 16) << "packHalf2x16 " << i;
    EXPECT_EQ(u[5], HalfBits(float(t[2])) | HalfBits(float(t[3])) << 16) << "packHalf2x16 " << i;
    if (std::isfinite(hx)) EXPECT_EQ(double(FromBits(u[6])), hx) << "unpackHalf2x16.x " << i;
    if (std::isfinite(hy)) EXPECT_EQ(double(FromBits(u[7])), hy) << "unpackHalf2x16.y " << i;
  }
}

}  // namespace
}  // namespace duet_test

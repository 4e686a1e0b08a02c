#include "spirv_exec/glsl_std450.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <bit>
#include <cmath>

namespace duet::spirv_exec {
namespace {

constexpr uint32_t W = kWaveWidth;

inline float F(uint32_t u) { return std::bit_cast<float>(u); }
inline uint32_t U(float f) { return std::bit_cast<uint32_t>(f); }
inline int32_t S(uint32_t u) { return int32_t(u); }

template <typename Fn>
inline void Lanes(LaneMask active, uint32_t* dst, Fn f) {
  if (active == kAllLanes) {
    for (uint32_t l = 0; l < W; ++l) dst[l] = f(l);
  } else {
    for (uint32_t l = 0; l < W; ++l)
      if ((active >> l) & 1) dst[l] = f(l);
  }
}

template <typename Fn>
inline void FloatLanes(LaneMask active, uint32_t* dst, const uint32_t* a, Fn f) {
  Lanes(active, dst, [&](uint32_t l) { return U(f(F(a[l]))); });
}

// IEEE minNum/maxNum: a NaN operand yields the other operand. NMin/NMax
// require it; FMin/FMax leave NaN operands undefined, so they share it.
inline float NMin(float x, float y) { return std::isnan(x) ? y : std::isnan(y) ? x : std::min(x, y); }
inline float NMax(float x, float y) { return std::isnan(x) ? y : std::isnan(y) ? x : std::max(x, y); }

}  // namespace

void ExecuteGlslUnary(uint16_t op, uint32_t* dst, const uint32_t* a, LaneMask active) {
  switch (op) {
    case GLSLstd450Round: FloatLanes(active, dst, a, [](float x) { return std::round(x); }); break;
    case GLSLstd450RoundEven: FloatLanes(active, dst, a, [](float x) { return std::nearbyint(x); }); break;
    case GLSLstd450Trunc: FloatLanes(active, dst, a, [](float x) { return std::trunc(x); }); break;
    case GLSLstd450FAbs: Lanes(active, dst, [&](uint32_t l) { return a[l] & 0x7FFFFFFFu; }); break;
    case GLSLstd450SAbs: Lanes(active, dst, [&](uint32_t l) { return S(a[l]) < 0 ? 0u - a[l] : a[l]; }); break;
    case GLSLstd450FSign:
      FloatLanes(active, dst, a, [](float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x; });
      break;
    case GLSLstd450SSign:
      Lanes(active, dst, [&](uint32_t l) { return uint32_t(S(a[l]) > 0 ? 1 : S(a[l]) < 0 ? -1 : 0); });
      break;
    case GLSLstd450Floor: FloatLanes(active, dst, a, [](float x) { return std::floor(x); }); break;
    case GLSLstd450Ceil: FloatLanes(active, dst, a, [](float x) { return std::ceil(x); }); break;
    // x - floor(x), as the spec defines it (so fract(-1e-10) rounds to 1.0).
    case GLSLstd450Fract: FloatLanes(active, dst, a, [](float x) { return x - std::floor(x); }); break;
    // The fractional part of modf (the whole part is Trunc); modf(+-Inf) = +-0.
    case GLSLstd450Modf:
    case GLSLstd450ModfStruct:
      FloatLanes(active, dst, a, [](float x) {
        float whole = 0.0f;
        return std::modf(x, &whole);
      });
      break;
    // The significand of frexp, in [0.5, 1) (the exponent is kFrexpExponent).
    case GLSLstd450Frexp:
    case GLSLstd450FrexpStruct:
      FloatLanes(active, dst, a, [](float x) {
        int exponent = 0;
        return std::frexp(x, &exponent);
      });
      break;
    case GLSLstd450Radians: FloatLanes(active, dst, a, [](float x) { return x * 0.017453292519943295f; }); break;
    case GLSLstd450Degrees: FloatLanes(active, dst, a, [](float x) { return x * 57.29577951308232f; }); break;
    case GLSLstd450Sin: FloatLanes(active, dst, a, [](float x) { return std::sin(x); }); break;
    case GLSLstd450Cos: FloatLanes(active, dst, a, [](float x) { return std::cos(x); }); break;
    case GLSLstd450Tan: FloatLanes(active, dst, a, [](float x) { return std::tan(x); }); break;
    case GLSLstd450Asin: FloatLanes(active, dst, a, [](float x) { return std::asin(x); }); break;
    case GLSLstd450Acos: FloatLanes(active, dst, a, [](float x) { return std::acos(x); }); break;
    case GLSLstd450Atan: FloatLanes(active, dst, a, [](float x) { return std::atan(x); }); break;
    case GLSLstd450Sinh: FloatLanes(active, dst, a, [](float x) { return std::sinh(x); }); break;
    case GLSLstd450Cosh: FloatLanes(active, dst, a, [](float x) { return std::cosh(x); }); break;
    case GLSLstd450Tanh: FloatLanes(active, dst, a, [](float x) { return std::tanh(x); }); break;
    case GLSLstd450Asinh: FloatLanes(active, dst, a, [](float x) { return std::asinh(x); }); break;
    case GLSLstd450Acosh: FloatLanes(active, dst, a, [](float x) { return std::acosh(x); }); break;
    case GLSLstd450Atanh: FloatLanes(active, dst, a, [](float x) { return std::atanh(x); }); break;
    case GLSLstd450Exp: FloatLanes(active, dst, a, [](float x) { return std::exp(x); }); break;
    case GLSLstd450Log: FloatLanes(active, dst, a, [](float x) { return std::log(x); }); break;
    case GLSLstd450Exp2: FloatLanes(active, dst, a, [](float x) { return std::exp2(x); }); break;
    case GLSLstd450Log2: FloatLanes(active, dst, a, [](float x) { return std::log2(x); }); break;
    case GLSLstd450Sqrt: FloatLanes(active, dst, a, [](float x) { return std::sqrt(x); }); break;
    case GLSLstd450InverseSqrt: FloatLanes(active, dst, a, [](float x) { return 1.0f / std::sqrt(x); }); break;
    case GLSLstd450FindILsb:
      Lanes(active, dst, [&](uint32_t l) { return a[l] == 0 ? UINT32_MAX : uint32_t(std::countr_zero(a[l])); });
      break;
    case GLSLstd450FindUMsb:
      Lanes(active, dst, [&](uint32_t l) { return a[l] == 0 ? UINT32_MAX : 31u - uint32_t(std::countl_zero(a[l])); });
      break;
    case GLSLstd450FindSMsb:
      Lanes(active, dst, [&](uint32_t l) {
        const uint32_t v = S(a[l]) < 0 ? ~a[l] : a[l];
        return v == 0 ? UINT32_MAX : 31u - uint32_t(std::countl_zero(v));
      });
      break;
    default: break;
  }
}

void ExecuteGlslBinary(uint16_t op, uint32_t* dst, const uint32_t* a, const uint32_t* b, LaneMask active) {
  auto floats = [&](auto f) { Lanes(active, dst, [&](uint32_t l) { return U(f(F(a[l]), F(b[l]))); }); };
  switch (op) {
    case GLSLstd450Atan2: floats([](float y, float x) { return std::atan2(y, x); }); break;
    case GLSLstd450Pow: floats([](float x, float y) { return std::pow(x, y); }); break;
    case GLSLstd450FMin: floats([](float x, float y) { return NMin(x, y); }); break;
    case GLSLstd450FMax: floats([](float x, float y) { return NMax(x, y); }); break;
    case GLSLstd450NMin: floats([](float x, float y) { return NMin(x, y); }); break;
    case GLSLstd450NMax: floats([](float x, float y) { return NMax(x, y); }); break;
    case GLSLstd450Step: floats([](float edge, float x) { return x < edge ? 0.0f : 1.0f; }); break;
    case GLSLstd450Ldexp:
      Lanes(active, dst, [&](uint32_t l) { return U(std::ldexp(F(a[l]), S(b[l]))); });
      break;
    case GLSLstd450UMin: Lanes(active, dst, [&](uint32_t l) { return std::min(a[l], b[l]); }); break;
    case GLSLstd450UMax: Lanes(active, dst, [&](uint32_t l) { return std::max(a[l], b[l]); }); break;
    case GLSLstd450SMin: Lanes(active, dst, [&](uint32_t l) { return uint32_t(std::min(S(a[l]), S(b[l]))); }); break;
    case GLSLstd450SMax: Lanes(active, dst, [&](uint32_t l) { return uint32_t(std::max(S(a[l]), S(b[l]))); }); break;
    default: break;
  }
}

void ExecuteGlslTernary(uint16_t op, uint32_t* dst, const uint32_t* a, const uint32_t* b, const uint32_t* c,
                        LaneMask active) {
  auto floats = [&](auto f) { Lanes(active, dst, [&](uint32_t l) { return U(f(F(a[l]), F(b[l]), F(c[l]))); }); };
  switch (op) {
    case GLSLstd450FClamp: floats([](float x, float lo, float hi) { return NMin(NMax(x, lo), hi); }); break;
    case GLSLstd450NClamp: floats([](float x, float lo, float hi) { return NMin(NMax(x, lo), hi); }); break;
    case GLSLstd450FMix: floats([](float x, float y, float t) { return x * (1.0f - t) + y * t; }); break;
    case GLSLstd450Fma: floats([](float x, float y, float z) { return std::fma(x, y, z); }); break;
    case GLSLstd450SmoothStep:
      floats([](float e0, float e1, float x) {
        const float t = std::clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
        return t * t * (3.0f - 2.0f * t);
      });
      break;
    case GLSLstd450UClamp:
      Lanes(active, dst, [&](uint32_t l) { return std::min(std::max(a[l], b[l]), c[l]); });
      break;
    case GLSLstd450SClamp:
      Lanes(active, dst, [&](uint32_t l) { return uint32_t(std::min(std::max(S(a[l]), S(b[l])), S(c[l]))); });
      break;
    default: break;
  }
}

}  // namespace duet::spirv_exec

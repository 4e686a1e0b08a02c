// GLSL.std.450 float functions (and float arithmetic) in a compute shader,
// checked against double-precision C++ references within the Vulkan spec's
// precision table. Where the table gives a bound (exp, log, sin, cos,
// inversesqrt, atan, division) the test uses it; where it says "inherited
// from" a formula, the bound is what that formula's own error permits.
// Inputs cover each function's domain, integers and half-integers (the
// rounding functions), denormals, and the extremes; Inf and NaN inputs are
// checked only for isnan and isinf (elsewhere their results are undefined
// without SignedZeroInfNanPreserve).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "float_reference.h"
#include "shaders/float_rounding_denormals.comp.h"
#include "shaders/glsl_float_functions.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kSlots = 48;  // as glsl_float_functions.comp writes them
constexpr double kPi = std::numbers::pi;

struct Inputs {
  float x, y, z;
};

// A function's reference, whether (x, y, z) is inside its checked domain,
// and the absolute error allowed there.
struct FloatFunction {
  uint32_t slot;
  const char* name;
  std::function<double(double, double, double)> reference;
  std::function<bool(float, float, float)> in_domain;
  std::function<double(float, float, float, double)> tolerance;
};

bool Finite(float x, float y = 0, float z = 0) { return std::isfinite(x) && std::isfinite(y) && std::isfinite(z); }
double Ulps(double n, double v) { return n * FloatUlp(v); }

// log and log2: absolute 2^-21 inside [0.5, 2], 3 ULP outside.
double LogTolerance(float x, double ref) {
  return (x >= 0.5f && x <= 2.0f) ? std::ldexp(1.0, -21) : Ulps(3, ref);
}

// The error sqrt(v) can inherit from v rounded by one float ULP near 1
// (the asin/acos/acosh formulas take sqrt of a difference that cancels).
double SqrtOfRoundedDifference(double v) {
  v = std::max(v, 0.0);
  return std::sqrt(v + std::ldexp(1.0, -22)) - std::sqrt(v);
}

std::vector<FloatFunction> Functions() {
  const auto any = [](float x, float y, float z) { return Finite(x, y, z); };
  const auto exact = [](float, float, float, double) { return 0.0; };
  const auto rounded = [](float, float, float, double ref) { return 0.5 * FloatUlp(ref); };
  const auto atan_ulps = [](float, float, float, double ref) { return Ulps(4096, ref); };
  const auto sinh_cosh = [](float x, float, float, double ref) {
    return (3 + 2 * std::fabs(x)) * FloatUlp(std::exp(std::fabs(double(x)))) + Ulps(2, ref);
  };
  const auto inverse_hyperbolic = [](float, float, float, double ref) {
    return std::ldexp(1.0, -20) + Ulps(4, ref);
  };
  return {
      {0, "sin", [](double x, double, double) { return std::sin(x); },
       [](float x, float, float) { return std::fabs(x) <= kPi; },
       [](float, float, float, double) { return std::ldexp(1.0, -11); }},
      {1, "cos", [](double x, double, double) { return std::cos(x); },
       [](float x, float, float) { return std::fabs(x) <= kPi; },
       [](float, float, float, double) { return std::ldexp(1.0, -11); }},
      {2, "tan", [](double x, double, double) { return std::tan(x); },
       [](float x, float, float) { return std::fabs(x) <= kPi && std::fabs(std::cos(double(x))) > 1e-3; },
       [](float x, float, float, double ref) {  // inherited from sin / cos
         return std::ldexp(1.0, -11) * (1 + std::fabs(ref)) / std::fabs(std::cos(double(x))) + Ulps(2.5, ref);
       }},
      {3, "asin", [](double x, double, double) { return std::asin(x); },
       [](float x, float, float) { return std::fabs(x) <= 1.0f; },
       [](float x, float, float, double ref) {  // inherited from atan2(x, sqrt(1 - x * x))
         return Ulps(4096, ref) + SqrtOfRoundedDifference(1.0 - double(x) * x);
       }},
      {4, "acos", [](double x, double, double) { return std::acos(x); },
       [](float x, float, float) { return std::fabs(x) <= 1.0f; },
       [](float x, float, float, double ref) {  // inherited from atan2(sqrt(1 - x * x), x)
         return Ulps(4096, ref) + SqrtOfRoundedDifference(1.0 - double(x) * x);
       }},
      {5, "atan", [](double x, double, double) { return std::atan(x); }, any, atan_ulps},
      {6, "atan2", [](double x, double y, double) { return std::atan2(y, x); },
       [](float x, float y, float) { return Finite(x, y) && (x != 0 || y != 0); }, atan_ulps},
      {7, "sinh", [](double x, double, double) { return std::sinh(x); },
       [](float x, float, float) { return std::fabs(x) < 10; }, sinh_cosh},
      {8, "cosh", [](double x, double, double) { return std::cosh(x); },
       [](float x, float, float) { return std::fabs(x) < 10; }, sinh_cosh},
      {9, "tanh", [](double x, double, double) { return std::tanh(x); },
       [](float x, float, float) { return std::fabs(x) < 10; },
       [](float x, float, float, double ref) {  // inherited from sinh / cosh
         const double e = (3 + 2 * std::fabs(x)) * FloatUlp(std::exp(std::fabs(double(x))));
         return 2 * e / std::cosh(double(x)) + Ulps(2.5, ref);
       }},
      {10, "asinh", [](double x, double, double) { return std::asinh(x); },
       [](float x, float, float) { return x >= -0.5f && x < 1e4f; }, inverse_hyperbolic},
      {11, "acosh", [](double x, double, double) { return std::acosh(x); },
       [](float x, float, float) { return x >= 1.0f && x < 1e4f; },
       [](float x, float, float, double ref) {
         return std::ldexp(1.0, -20) + Ulps(4, ref) + SqrtOfRoundedDifference(double(x) * x - 1.0);
       }},
      {12, "atanh", [](double x, double, double) { return std::atanh(x); },
       [](float x, float, float) { return std::fabs(x) < 1.0f; },
       [](float, float, float, double ref) { return std::ldexp(1.0, -20) + Ulps(8, ref); }},
      {13, "exp", [](double x, double, double) { return std::exp(x); },
       [](float x, float, float) { return std::fabs(x) < 87; },
       [](float x, float, float, double ref) { return Ulps(3 + 2 * std::fabs(x), ref); }},
      {14, "log", [](double x, double, double) { return std::log(x); },
       [](float x, float, float) { return std::isfinite(x) && x > 0; },
       [](float x, float, float, double ref) { return LogTolerance(x, ref); }},
      {15, "exp2", [](double x, double, double) { return std::exp2(x); },
       [](float x, float, float) { return std::fabs(x) < 126; },
       [](float x, float, float, double ref) { return Ulps(3 + 2 * std::fabs(x), ref); }},
      {16, "log2", [](double x, double, double) { return std::log2(x); },
       [](float x, float, float) { return std::isfinite(x) && x > 0; },
       [](float x, float, float, double ref) { return LogTolerance(x, ref); }},
      {17, "sqrt", [](double x, double, double) { return std::sqrt(x); },
       [](float x, float, float) { return std::isfinite(x) && x >= 0; },
       [](float, float, float, double ref) { return Ulps(5, ref); }},  // inherited from 1 / inversesqrt
      {18, "inversesqrt", [](double x, double, double) { return 1.0 / std::sqrt(x); },
       [](float x, float, float) { return std::isfinite(x) && x > 0; },
       [](float, float, float, double ref) { return Ulps(2, ref); }},
      {19, "pow", [](double x, double y, double) { return std::pow(x, y); },
       [](float x, float y, float) {
         return Finite(x, y) && x >= FLT_MIN && std::fabs(double(y) * std::log2(double(x))) < 100;
       },
       [](float x, float y, float, double ref) {  // inherited from exp2(y * log2(x))
         const double l = std::log2(double(x));
         const double log_error = (x >= 0.5f && x <= 2.0f) ? std::ldexp(1.0, -21) : Ulps(3, l);
         const double e = double(y) * l;
         const double exponent_error = std::fabs(y) * log_error + FloatUlp(e);
         return std::fabs(ref) * (std::expm1(exponent_error * std::numbers::ln2) +
                                  (3 + 2 * std::fabs(e)) * std::ldexp(1.0, -23));
       }},
      {20, "floor", [](double x, double, double) { return std::floor(x); }, any, exact},
      {21, "ceil", [](double x, double, double) { return std::ceil(x); }, any, exact},
      {22, "fract", [](double x, double, double) { return x - std::floor(x); }, any, rounded},
      // round: halfway cases go either way (the implementation chooses); see below.
      {23, "round", [](double x, double, double) { return std::round(x); }, any, exact},
      {24, "roundEven", [](double x, double, double) { return std::nearbyint(x); }, any, exact},
      {25, "trunc", [](double x, double, double) { return std::trunc(x); }, any, exact},
      {26, "abs", [](double x, double, double) { return std::fabs(x); }, any, exact},
      {27, "sign", [](double x, double, double) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }, any, exact},
      {28, "min", [](double x, double y, double) { return std::min(x, y); }, any, exact},
      {29, "max", [](double x, double y, double) { return std::max(x, y); }, any, exact},
      {30, "clamp",
       [](double x, double y, double z) { return std::clamp(x, std::min(y, z), std::max(y, z)); }, any, exact},
      {31, "mix", [](double x, double y, double a) { return x * (1 - a) + y * a; }, any,
       [](float x, float y, float a, double ref) {  // inherited from x * (1 - a) + y * a
         const double t1 = double(x) * (1 - double(a)), t2 = double(y) * a;
         return 1.5 * FloatUlp(t1) + FloatUlp(t2) + FloatUlp(ref) + std::fabs(x) * FloatUlp(1 - double(a));
       }},
      {32, "step", [](double x, double y, double) { return x < y ? 0.0 : 1.0; }, any, exact},
      {33, "smoothstep",
       [](double x, double y, double z) {
         const double e0 = std::min(y, z), e1 = std::max(y, z);
         const double t = std::clamp((x - e0) / (e1 - e0), 0.0, 1.0);
         return t * t * (3 - 2 * t);
       },
       [](float x, float y, float z) { return Finite(x, y, z) && std::fabs(double(y) - z) > 1e-3; },
       [](float x, float y, float z, double) {  // inherited from the clamp and the polynomial
         const double range = std::fabs(double(y) - z);
         return 1e-6 + 1.5 * 8 * std::ldexp(1.0, -24) * (std::fabs(x) + std::fabs(y) + std::fabs(z)) / range;
       }},
      {34, "fma", [](double x, double y, double z) { return x * y + z; }, any,
       [](float x, float y, float, double ref) { return FloatUlp(double(x) * y) + FloatUlp(ref); }},
      {35, "ldexp", [](double x, double y, double) { return std::ldexp(x, int(y)); },
       [](float x, float y, float) {
         if (!Finite(x, y) || std::fabs(y) > 30) return false;
         const double r = std::fabs(std::ldexp(double(x), int(y)));
         return r == 0 || (r >= FLT_MIN && r <= FLT_MAX);
       },
       exact},
      {36, "frexp.significand",
       [](double x, double, double) {
         int e = 0;
         return std::frexp(x, &e);
       },
       any, exact},
      {37, "frexp.exponent",
       [](double x, double, double) {
         int e = 0;
         std::frexp(x, &e);
         return double(e);
       },
       [](float x, float, float) { return std::isfinite(x) && (x == 0 || std::fabs(x) >= FLT_MIN); }, exact},
      {38, "modf.fraction",
       [](double x, double, double) {
         double whole = 0;
         return std::modf(x, &whole);
       },
       any, exact},
      {39, "modf.whole", [](double x, double, double) { return std::trunc(x); }, any, exact},
      {40, "radians", [](double x, double, double) { return x * kPi / 180; }, any,
       [](float, float, float, double ref) { return Ulps(2, ref); }},
      {41, "degrees", [](double x, double, double) { return x * 180 / kPi; },
       [](float x, float, float) { return std::fabs(x) < 1e36f; },
       [](float, float, float, double ref) { return Ulps(2, ref); }},
      {42, "divide", [](double x, double y, double) { return x / y; },
       [](float x, float y, float) {
         const double q = std::fabs(double(x) / y);
         return Finite(x, y) && std::fabs(y) >= std::ldexp(1.0f, -126) && std::fabs(y) <= std::ldexp(1.0f, 126) &&
                (q == 0 || (q >= FLT_MIN && q <= FLT_MAX));
       },
       [](float, float, float, double ref) { return Ulps(2.5, ref); }},
      {44, "isnan", [](double x, double, double) { return std::isnan(x) ? 1.0 : 0.0; },
       [](float, float, float) { return true; }, exact},
      {45, "isinf", [](double x, double, double) { return std::isinf(x) ? 1.0 : 0.0; },
       [](float, float, float) { return true; }, exact},
  };
}

std::vector<Inputs> MakeInputs(uint32_t n) {
  constexpr float kInf = std::numeric_limits<float>::infinity(), kNan = std::numeric_limits<float>::quiet_NaN();
  constexpr float kDenormMin = std::numeric_limits<float>::denorm_min();
  const float specials[] = {0.0f,       -0.0f,      1.0f,        -1.0f,       0.5f,   -0.5f,  1.5f,       2.5f,
                            -2.5f,      3.5f,       -3.5f,       FLT_MIN,     -FLT_MIN, 1e-40f, -1e-40f,  FLT_MAX,
                            -FLT_MAX,   3.0f,       0.999999f,   -0.999999f,  1.000001f, float(kPi), -float(kPi),
                            4194303.5f, 16777216.f, -4194304.5f, 1e10f,       -1e-10f, kDenormMin, 2.0f,
                            kInf,       -kInf,      kNan,        -kNan};
  static constexpr float kSpecialY[] = {0.0f, 1.0f, -1.0f, 2.0f, 0.5f, -3.0f};
  std::mt19937 rng(1234);
  auto uniform = [&](double lo, double hi) { return float(std::uniform_real_distribution<double>(lo, hi)(rng)); };
  std::vector<Inputs> inputs(n);
  for (uint32_t i = 0; i < n; ++i) {
    float x = 0;
    switch (i % 8) {
      case 0: x = uniform(-kPi, kPi); break;
      case 1: x = uniform(-1, 1); break;
      case 2: x = std::ldexp(uniform(0.5, 1), int(uniform(-30, 30))) * (rng() % 2 ? 1.0f : -1.0f); break;
      case 3: x = uniform(0.5, 2); break;
      case 4: x = uniform(-90, 90); break;
      case 5: x = float(int(rng() % 81) - 40) * 0.5f; break;  // integers and halves
      case 6: x = specials[(i / 8) % std::size(specials)]; break;
      default: x = uniform(1, 1000); break;
    }
    float y = 0;
    switch (i % 3) {
      case 0: y = uniform(-8, 8); break;
      case 1: y = uniform(0.1, 4); break;
      default: y = kSpecialY[(i / 3) % std::size(kSpecialY)]; break;
    }
    const float z = i % 5 == 4 ? uniform(-5, 5) : uniform(0, 1);
    inputs[i] = {x, y, z};
  }
  return inputs;
}

class ShaderGlslFloatTest : public ComputeFixture {};

TEST_F(ShaderGlslFloatTest, FunctionsWithinSpecPrecision) {
  constexpr uint32_t n = 4096;
  const std::vector<Inputs> inputs = MakeInputs(n);
  HostBuffer in = StorageBuffer(n * 16), out = StorageBuffer(n * kSlots * 4);
  for (uint32_t i = 0; i < n; ++i) {
    float* v = in.as<float>() + i * 4;
    v[0] = inputs[i].x;
    v[1] = inputs[i].y;
    v[2] = inputs[i].z;
    v[3] = 0;
  }
  Kernel k = MakeKernel(kGlslFloatFunctionsComp, {in.buffer, out.buffer}, 4);
  Run(k, n / 64, 1, 1, &n, 4);
  const float* r = out.as<float>();

  const std::vector<FloatFunction> functions = Functions();
  for (const FloatFunction& f : functions) {
    uint32_t checked = 0, failures = 0;
    for (uint32_t i = 0; i < n && failures < 5; ++i) {
      const auto [x, y, z] = inputs[i];
      if (!f.in_domain(x, y, z)) continue;
      ++checked;
      const float got = r[i * kSlots + f.slot];
      // Denormal inputs may be flushed to zero first.
      auto accepts = [&](float a, float b, float c) {
        const double ref = f.reference(a, b, c);
        // Beyond the float range the result overflows to an infinity.
        if (std::isfinite(ref) && std::fabs(ref) > FLT_MAX) return std::isinf(got) && (got > 0) == (ref > 0);
        if (WithinTolerance(got, ref, f.tolerance(a, b, c, ref))) return true;
        // round(): a halfway case may round either way.
        return f.slot == 23 && a - std::floor(a) == 0.5f &&
               (double(got) == std::floor(double(a)) || double(got) == std::ceil(double(a)));
      };
      if (accepts(x, y, z) || accepts(FlushDenormal(x), FlushDenormal(y), FlushDenormal(z))) continue;
      ++failures;
      ADD_FAILURE() << f.name << "(" << x << ", " << y << ", " << z << ") = " << got << " (0x" << std::hex
                    << Bits(got) << std::dec << "), expected " << f.reference(x, y, z) << " within "
                    << f.tolerance(x, y, z, f.reference(x, y, z));
    }
    EXPECT_GT(checked, n / 16) << f.name << ": too few inputs in its domain";
  }

  // mod(x, y) = x - y * floor(x / y): floor may land one off when x / y
  // rounds across an integer, which moves the result by y.
  for (uint32_t i = 0; i < n; ++i) {
    const auto [x, y, z] = inputs[i];
    if (!Finite(x, y) || y == 0 || std::fabs(double(x) / y) > 1e6 || std::fabs(y) < FLT_MIN) continue;
    const double q = std::floor(double(x) / y);
    const double ref = double(x) - double(y) * q;
    const double tolerance = 4 * (FloatUlp(x) + FloatUlp(double(y) * q) + FloatUlp(y));
    const float got = r[i * kSlots + 43];
    const bool ok = std::fabs(got - ref) <= tolerance || std::fabs(got - (ref - y)) <= tolerance ||
                    std::fabs(got - (ref + y)) <= tolerance;
    ASSERT_TRUE(ok) << "mod(" << x << ", " << y << ") = " << got << ", expected " << ref;
  }
  // Bit casts: exact, for every input (Inf and NaN included).
  for (uint32_t i = 0; i < n; ++i) {
    const auto [x, y, z] = inputs[i];
    ASSERT_EQ(r[i * kSlots + 46], float(int32_t(Bits(x)) >> 3)) << x;
    ASSERT_EQ(Bits(r[i * kSlots + 47]), Bits(y) ^ 0x80000000u) << y;
  }
}

// The float controls the device reports for 32 bits hold in shaders.
TEST_F(ShaderGlslFloatTest, RoundingToEvenAndDenormalsAsReported) {
  VkPhysicalDeviceFloatControlsProperties controls{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &controls};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  const float inputs[] = {1.0f, std::ldexp(1.0f, -24), std::ldexp(1.0f, -23), std::bit_cast<float>(1u), -0.0f,
                          std::numeric_limits<float>::infinity()};
  HostBuffer in = StorageBuffer(sizeof inputs);
  std::memcpy(in.data, inputs, sizeof inputs);
  HostBuffer out = StorageBuffer(8 * 4);
  Kernel k = MakeKernel(kFloatRoundingDenormalsComp, {in.buffer, out.buffer}, 0);
  Run(k, 1);
  const uint32_t* r = out.as<uint32_t>();
  if (controls.shaderRoundingModeRTEFloat32) {
    EXPECT_EQ(r[0], std::bit_cast<uint32_t>(1.0f));
    EXPECT_EQ(r[1], std::bit_cast<uint32_t>(1.0f + std::ldexp(1.0f, -22)));
  }
  if (controls.shaderDenormPreserveFloat32) {
    EXPECT_EQ(r[2], 3u);
    EXPECT_EQ(r[3], 2u);
    EXPECT_EQ(r[4], 0u);
  }
  if (controls.shaderSignedZeroInfNanPreserveFloat32) {
    EXPECT_EQ(r[5], 0x80000000u);
    EXPECT_EQ(r[6], 0u);
    EXPECT_EQ(r[7], std::bit_cast<uint32_t>(std::numeric_limits<float>::infinity()));
  }
  // Duet reports all three.
  if (std::string(props_.deviceName).find("Duet") != std::string::npos) {
    EXPECT_TRUE(controls.shaderRoundingModeRTEFloat32 && controls.shaderDenormPreserveFloat32 &&
                controls.shaderSignedZeroInfNanPreserveFloat32);
  }
}

}  // namespace
}  // namespace duet_test

// Instructions glslang cannot emit from GLSL, written in SPIR-V assembly
// (tests/shaders/*.spvasm): the integer dot products of
// shaderIntegerDotProduct, OpQuantizeToF16, NMin/NMax/NClamp, OpSRem,
// OpFRem, ModfStruct/FrexpStruct, OpCopyLogical, OpCopyMemory, OpVectorShuffle
// with an undefined component, and the dynamic vector instructions; and
// forms of modules with nothing to run in them (OpUndef, DontInline,
// non-semantic instructions, initialized Private variables); and the
// decorations of HLSL compilers (VK_GOOGLE_hlsl_functionality1,
// VK_GOOGLE_decorate_string).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "compute_fixture.h"
#include "float_reference.h"
#include "shaders/empty_struct.spvasm.h"
#include "shaders/hlsl_decorations.spvasm.h"
#include "shaders/integer_dot_product.spvasm.h"
#include "shaders/spirv_misc_instructions.spvasm.h"
#include "shaders/spirv_module_forms.spvasm.h"

namespace duet_test {
namespace {

class ShaderSpirvAsmTest : public ComputeFixture {};

int64_t S8(uint32_t v, int byte) { return int8_t(uint8_t(v >> (8 * byte))); }
int64_t U8(uint32_t v, int byte) { return uint8_t(v >> (8 * byte)); }
uint32_t SaturateSigned(int64_t v) { return uint32_t(int32_t(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX))); }
uint32_t SaturateUnsigned(uint64_t v) { return uint32_t(std::min<uint64_t>(v, UINT32_MAX)); }

TEST_F(ShaderSpirvAsmTest, IntegerDotProducts) {
  constexpr uint32_t n = 1024;
  std::mt19937 rng(17);
  const uint32_t accumulators[] = {0, 1, 0xFFFFFFF0u, 0x7FFFFFF0u, 0x80000010u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u};
  HostBuffer in = StorageBuffer(n * 32), out = StorageBuffer(n * 12 * 4);
  uint32_t* v = in.as<uint32_t>();
  for (uint32_t i = 0; i < n * 8; ++i) v[i] = rng();
  for (uint32_t i = 0; i < n; ++i) {
    v[i * 8 + 2] = i % 2 ? accumulators[(i / 2) % 8] : rng();  // x.z: packed accumulators
    v[i * 8 + 6] = i % 2 ? rng() : accumulators[(i / 2) % 8];  // y.z: vector accumulators
    if (i % 7 == 0) v[i * 8] = 0x80808080u, v[i * 8 + 4] = 0x80808080u;  // -128 * -128, 128 * 128
    if (i % 7 == 1) v[i * 8] = 0x7F7F7F7Fu, v[i * 8 + 4] = 0xFFFFFFFFu;
  }
  Kernel k = MakeKernel(kIntegerDotProductSpvasm, {in.buffer, out.buffer}, 4);
  Run(k, n / 64, 1, 1, &n, 4);
  const uint32_t* r = out.as<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t* x = v + i * 8;
    const uint32_t* y = v + i * 8 + 4;
    int64_t udot = 0, sdot = 0, sudot = 0;
    for (int b = 0; b < 4; ++b) {
      udot += U8(x[0], b) * U8(y[0], b);
      sdot += S8(x[0], b) * S8(y[0], b);
      sudot += S8(x[0], b) * U8(y[0], b);
    }
    uint32_t wrapped = 0;
    int64_t small_u = 0, small_s = 0, small_su = 0;
    for (int c = 0; c < 4; ++c) {
      wrapped += x[c] * y[c];
      small_u += int64_t(x[c] >> 20) * (y[c] >> 20);
      small_s += int64_t(int32_t(x[c]) >> 20) * (int32_t(y[c]) >> 20);
      small_su += int64_t(int32_t(x[c]) >> 20) * (y[c] >> 20);
    }
    const uint32_t expected[12] = {uint32_t(udot),
                                   uint32_t(sdot),
                                   uint32_t(sudot),
                                   wrapped,
                                   wrapped,
                                   wrapped,
                                   SaturateUnsigned(uint64_t(udot) + x[2]),
                                   SaturateSigned(sdot + int32_t(x[2])),
                                   SaturateSigned(sudot + int32_t(x[2])),
                                   SaturateUnsigned(uint64_t(small_u) + y[2]),
                                   SaturateSigned(small_s + int32_t(y[2])),
                                   SaturateSigned(small_su + int32_t(y[2]))};
    const char* names[12] = {"UDot 4x8",       "SDot 4x8",       "SUDot 4x8",       "UDot",
                             "SDot",           "SUDot",          "UDotAccSat 4x8",  "SDotAccSat 4x8",
                             "SUDotAccSat 4x8", "UDotAccSat",    "SDotAccSat",      "SUDotAccSat"};
    for (int s = 0; s < 12; ++s)
      ASSERT_EQ(r[i * 12 + s], expected[s]) << names[s] << ", invocation " << i << std::hex << " x=" << x[0] << ","
                                            << x[1] << "," << x[2] << "," << x[3] << " y=" << y[0] << "," << y[1]
                                            << "," << y[2] << "," << y[3];
  }
}

// OpQuantizeToF16's result: the nearest half (ties to even), infinity when
// too large, zero below the smallest normal half.
double QuantizedToHalf(float f) {
  const double a = std::fabs(double(f));
  if (std::isnan(f)) return f;
  if (a >= 65520.0) return std::copysign(INFINITY, f);
  // Below the smallest normal half (2^-14): zero, unless it rounds up to it.
  const double smallest_normal = std::ldexp(1.0, -14);
  if (a < smallest_normal)
    return std::copysign(a < smallest_normal - std::ldexp(1.0, -25) ? 0.0 : smallest_normal, f);
  int e = 0;
  std::frexp(a, &e);
  const int quantum = e - 1 - 10;
  return std::copysign(std::ldexp(std::nearbyint(std::ldexp(a, -quantum)), quantum), f);
}

float NMin(float x, float y) { return std::isnan(x) ? y : std::isnan(y) ? x : std::min(x, y); }
float NMax(float x, float y) { return std::isnan(x) ? y : std::isnan(y) ? x : std::max(x, y); }

TEST_F(ShaderSpirvAsmTest, MiscellaneousInstructions) {
  constexpr uint32_t n = 512, kSlots = 24;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const float specials[] = {65519.0f, 65520.0f, 65504.0f, 1e-5f, 6.103515625e-05f, 6.1e-05f, -70000.0f, 0.0f,
                            -0.0f,    1.0f / 3, 1e-30f,   2049.0f, 2051.0f, -2.5f, 100.75f,  nan,       inf, -inf};
  std::mt19937 rng(23);
  auto uniform = [&](double lo, double hi) { return float(std::uniform_real_distribution<double>(lo, hi)(rng)); };
  HostBuffer in = StorageBuffer(n * 32), out = StorageBuffer(n * kSlots * 4);
  for (uint32_t i = 0; i < n; ++i) {
    float* f = in.as<float>() + i * 8;
    f[0] = i % 3 == 0 ? specials[(i / 3) % std::size(specials)] : uniform(-100, 100);
    f[1] = i % 5 == 0 ? nan : uniform(-100, 100);
    f[2] = uniform(-100, 100);
    f[3] = uniform(-1, 1);
    uint32_t* k = in.as<uint32_t>() + i * 8 + 4;
    k[0] = i % 11 == 0 ? 0x80000000u : rng();
    k[1] = i % 4 == 0 ? rng() % 17 + 1 : rng() | 1;  // never 0
    if (i % 13 == 0) k[1] = uint32_t(-7);
    if (k[0] == 0x80000000u && k[1] == 0xFFFFFFFFu) k[1] = 3;  // INT_MIN / -1 is undefined
    k[2] = rng();
    k[3] = rng();
  }
  Kernel kernel = MakeKernel(kSpirvMiscInstructionsSpvasm, {in.buffer, out.buffer}, 4);
  Run(kernel, n / 32, 1, 1, &n, 4);

  for (uint32_t i = 0; i < n; ++i) {
    const float* f = in.as<float>() + i * 8;
    const uint32_t* k = in.as<uint32_t>() + i * 8 + 4;
    const uint32_t* r = out.as<uint32_t>() + i * kSlots;
    const float x = f[0], y = f[1], z = f[2];
    const double q = QuantizedToHalf(x);
    if (std::isnan(q)) EXPECT_TRUE(std::isnan(FromBits(r[0]))) << "QuantizeToF16(NaN)";
    else EXPECT_EQ(double(FromBits(r[0])), q) << "QuantizeToF16(" << x << ")";
    // NMin/NMax: a NaN operand gives the other one.
    EXPECT_EQ(Bits(FromBits(r[1])), Bits(NMin(x, y))) << "NMin(" << x << ", " << y << ")";
    EXPECT_EQ(Bits(FromBits(r[2])), Bits(NMax(x, y))) << "NMax(" << x << ", " << y << ")";
    if (!std::isnan(y)) {
      const float lo = std::min(y, z), hi = std::max(y, z);
      EXPECT_EQ(FromBits(r[3]), NMin(NMax(x, lo), hi)) << "NClamp(" << x << ", " << lo << ", " << hi << ")";
    }
    EXPECT_EQ(r[4], Bits(f[3])) << "shuffle component 0 (f.w)";
    if (!std::isnan(y)) EXPECT_EQ(FromBits(r[5]), 2 * y) << "shuffle component 2 (second vector .y)";
    EXPECT_EQ(r[6], Bits(x)) << "shuffle component 3 (f.x)";
    const int32_t a = int32_t(k[0]), b = int32_t(k[1]);
    const int32_t rem = b == -1 ? 0 : a % b;
    int32_t mod = rem;
    if (mod != 0 && ((mod < 0) != (b < 0))) mod += b;
    EXPECT_EQ(int32_t(r[7]), rem) << "SRem(" << a << ", " << b << ")";
    EXPECT_EQ(int32_t(r[8]), mod) << "SMod(" << a << ", " << b << ")";
    if (std::isfinite(x)) {
      float whole = 0;
      const float fraction = std::modf(x, &whole);
      EXPECT_EQ(FromBits(r[9]), fraction) << "ModfStruct(" << x << ").fraction";
      EXPECT_EQ(FromBits(r[10]), whole) << "ModfStruct(" << x << ").whole";
      int exponent = 0;
      const float significand = std::frexp(x, &exponent);
      EXPECT_EQ(FromBits(r[11]), significand) << "FrexpStruct(" << x << ")";
      EXPECT_EQ(int32_t(r[12]), exponent) << "FrexpStruct(" << x << ")";
      EXPECT_EQ(FromBits(r[17]), std::fmod(x, 1.5f)) << "FRem(" << x << ", 1.5)";
    }
    EXPECT_EQ(r[13], Bits(y)) << "CopyLogical";
    EXPECT_EQ(r[14], k[1]) << "CopyLogical";
    EXPECT_EQ(r[15], k[1]) << "CopyMemory buffer -> function variable";
    EXPECT_EQ(r[16], k[3]) << "CopyMemory function variable -> function variable";
    const uint32_t index = i % 4;
    EXPECT_EQ(r[18], Bits(f[index])) << "VectorExtractDynamic";
    for (uint32_t c = 0; c < 4; ++c)
      EXPECT_EQ(r[19 + c], c == index ? Bits(9.0f) : Bits(f[c])) << "VectorInsertDynamic component " << c;
    EXPECT_EQ(r[23], uint32_t(x < y)) << "FOrdLessThan(" << x << ", " << y << ")";
  }
}

TEST_F(ShaderSpirvAsmTest, UndefDontInlineNonSemanticAndInitializers) {
  constexpr uint32_t n = 64;
  HostBuffer in = StorageBuffer(n * 4), out = StorageBuffer(n * 16);
  for (uint32_t i = 0; i < n; ++i) in.as<uint32_t>()[i] = i * 3 + 100;
  Kernel k = MakeKernel(kSpirvModuleFormsSpvasm, {in.buffer, out.buffer}, 0);
  Run(k, n / 32);
  const uint32_t* r = out.as<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t x = i * 3 + 100;
    EXPECT_EQ(r[4 * i], i % 2 ? 2 * x : 7u) << "phi of OpUndef, invocation " << i;
    EXPECT_EQ(r[4 * i + 1], x + 5) << "composite built on OpUndef, invocation " << i;
    EXPECT_EQ(r[4 * i + 2], x + 10) << "DontInline call, invocation " << i;
    EXPECT_EQ(r[4 * i + 3], 1234 + i) << "initialized Private variable, invocation " << i;
  }
}

// Structs without members (passed to a function, in workgroup memory,
// inside a struct that is built and modified): the pipeline is created
// (SPIRV-Tools' dead-insert elimination crashed on them) and runs.
TEST_F(ShaderSpirvAsmTest, EmptyStructs) {
  constexpr uint32_t n = 64;
  HostBuffer out = StorageBuffer(n * 8);
  Kernel k = MakeKernel(kEmptyStructSpvasm, {out.buffer}, 0);
  Run(k, n / 32);
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(out.as<uint32_t>()[2 * i], i + 7) << i;
    EXPECT_EQ(out.as<uint32_t>()[2 * i + 1], 3 * i) << i;
  }
}

// An HLSL compute shader with a structured and an append buffer: the
// semantic and counter-buffer decorations accepted and ignored
// (with the extensions that allow them enabled).
class HlslDecorationsTest : public ShaderSpirvAsmTest {
 protected:
  HlslDecorationsTest() {
    device_options_.extensions = {VK_GOOGLE_HLSL_FUNCTIONALITY_1_EXTENSION_NAME,
                                  VK_GOOGLE_DECORATE_STRING_EXTENSION_NAME};
  }
};

TEST_F(HlslDecorationsTest, AcceptedAndIgnored) {
  HostBuffer values = StorageBuffer(16), appended = StorageBuffer(16), counter = StorageBuffer(4);
  counter.as<uint32_t>()[0] = 0;
  Kernel k = MakeKernel(kHlslDecorationsSpvasm, {values.buffer, appended.buffer, counter.buffer}, 0);
  Run(k, 1);
  EXPECT_EQ(counter.as<uint32_t>()[0], 4u);
  std::vector<uint32_t> got(appended.as<uint32_t>(), appended.as<uint32_t>() + 4);
  std::sort(got.begin(), got.end());
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(values.as<uint32_t>()[i], i * 3 + 1);
    EXPECT_EQ(got[i], 100 + i);
  }
}

}  // namespace
}  // namespace duet_test

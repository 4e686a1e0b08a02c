// Buffers as shaders see them: robust access (reads past the bound range
// give 0, writes and atomics there are dropped, whatever the index),
// OpArrayLength from bound ranges, and specialization constants including
// the workgroup size (LocalSizeId).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "shaders/scalar_layout.comp.h"
#include "shaders/spec_composite_undef.spvasm.h"
#include "shaders/std430_uniform.comp.h"
#include "float_reference.h"
#include "shaders/robust_access.comp.h"
#include "shaders/spec_quantize.spvasm.h"
#include "shaders/specialization.comp.h"
#include "shaders/workgroup_size_builtin.spvasm.h"

namespace duet_test {
namespace {

class ShaderBuffersTest : public ComputeFixture {};

TEST_F(ShaderBuffersTest, OutOfRangeAccessIsRobust) {
  constexpr uint32_t kSentinel = 0xAAAAAAAAu;
  // Each buffer is larger than its bound range, with sentinels around the
  // range, so a read or write that escaped it would show.
  HostBuffer src = StorageBuffer(1024), dst = StorageBuffer(1024), ubo = StorageBuffer(1024),
             results = StorageBuffer(260 * 4), header = StorageBuffer(1024);
  for (uint32_t i = 0; i < 256; ++i) {
    src.as<uint32_t>()[i] = i < 16 ? 100 + i : 0x5EEEEEEEu;
    dst.as<uint32_t>()[i] = kSentinel;
    ubo.as<uint32_t>()[i] = i < 16 ? i : 0x7777777u;
    header.as<uint32_t>()[i] = kSentinel;
  }
  std::memset(results.data, 0xFF, 260 * 4);
  Kernel k = MakeKernelWithBindings(kRobustAccessComp,
                        {{src.buffer, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, 64},      // src[0..15]
                         {dst.buffer, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 256, 64},    // dst[0..15] at byte 256
                         {ubo.buffer, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 0, 64},      // u[0..3]
                         {results.buffer},
                         {header.buffer, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, 40}},  // header + data[0..7]
                        0);
  Run(k, 2);

  const uint32_t* r = results.as<uint32_t>();
  for (uint32_t i = 0; i < 128; ++i) {
    const uint32_t from_src = i < 16 ? 100 + i : 0;
    const uint32_t from_ubo = (i % 64) < 4 ? (i % 64) * 4 + 1 : 0;  // u[j].y
    EXPECT_EQ(r[i], from_src + from_ubo * 1000) << "read at index " << i;
    EXPECT_EQ(r[128 + i], 0u) << "atomic at " << i + 64 << " is out of range and returns 0";
  }
  const uint32_t* d = dst.as<uint32_t>();
  for (uint32_t i = 0; i < 256; ++i) {
    const bool in_range = i >= 64 && i < 80;
    EXPECT_EQ(d[i], in_range ? i - 64 + 1 : kSentinel) << "dst word " << i;
  }
  EXPECT_EQ(r[256], 16u) << "src.length()";
  EXPECT_EQ(r[257], 16u) << "dst.length()";
  EXPECT_EQ(r[258], 8u) << "data.length() after an 8-byte header in a 40-byte range";
  const uint32_t* h = header.as<uint32_t>();
  for (uint32_t i = 0; i < 256; ++i) {
    const bool written = i >= 2 && i < 10;
    EXPECT_EQ(h[i], written ? 0xD0D0u + (i - 2) : kSentinel) << "header buffer word " << i;
  }
}

struct SpecializationData {
  uint32_t size_x, size_y, scale;
  int32_t offset;
  VkBool32 negate;
  float factor;
};

const VkSpecializationMapEntry kSpecializationEntries[] = {
    {0, offsetof(SpecializationData, size_x), 4}, {1, offsetof(SpecializationData, size_y), 4},
    {2, offsetof(SpecializationData, scale), 4},  {3, offsetof(SpecializationData, offset), 4},
    {4, offsetof(SpecializationData, negate), 4}, {5, offsetof(SpecializationData, factor), 4}};

// What specialization.comp's derived constants come to.
struct SpecializedValues {
  uint32_t size_x, size_y, scale;
  int32_t offset;
  bool negate;
  float factor;
};

// Checks what each invocation of `groups` workgroups of specialization.comp wrote.
void CheckSpecialized(const uint32_t* r, uint32_t groups, const SpecializedValues& s) {
  const uint32_t invocations = groups * s.size_x * s.size_y;
  const uint32_t bits = ((s.scale << 3) | 5u) ^ ((s.scale >> 1) & ~2u);
  const bool big = s.scale > 4 && !s.negate;
  const int32_t signed_value = int32_t(s.scale) / 2 - int32_t(s.scale) % 3 + s.offset * 3;
  const uint32_t from_bool = uint32_t(big) + uint32_t(s.negate || s.scale == 2) * 10;
  for (uint32_t i = 0; i < invocations; ++i) {
    const uint32_t* v = r + i * 8;
    ASSERT_EQ(v[0], s.size_x) << i;
    ASSERT_EQ(v[1], s.size_y) << i;
    ASSERT_EQ(v[2], s.scale * 3 + 1) << i;
    ASSERT_EQ(int32_t(v[3]), s.negate ? -s.offset : s.offset) << i;
    ASSERT_EQ(FromBits(v[4]), s.negate ? -s.factor : s.factor) << i;
    ASSERT_EQ(v[5], s.size_x * s.size_y) << "invocations that reached the barrier in the workgroup of " << i;
    ASSERT_EQ(v[6], bits) << i;
    ASSERT_EQ(v[7], uint32_t(signed_value) + from_bool * 100000) << i;
  }
}

// uniformBufferStandardLayout (enabled by the fixture): a uniform block may
// use std430 offsets and strides, and the shader reads them as laid out.
TEST_F(ShaderBuffersTest, Std430UniformBlock) {
  HostBuffer values = MakeHostBuffer(32, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  HostBuffer out = StorageBuffer(8 * 4);
  ASSERT_NE(values.data, nullptr);
  const float words[8] = {1.5f, 2.5f, 3.5f, 4.5f, 10.0f, 20.0f, 30.0f, 99.0f};
  std::memcpy(values.data, words, sizeof words);
  std::memset(out.data, 0, 8 * 4);
  BufferBinding uniform{values.buffer};
  uniform.type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  Kernel k = MakeKernelWithBindings(kStd430UniformComp, {uniform, {out.buffer}}, 0);
  Run(k, 1);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out.as<float>()[i], words[i]) << "word " << i;
}

// scalarBlockLayout: uniform, storage and push constant blocks with scalar
// offsets and strides (88-byte records of packed floats).
TEST_F(ShaderBuffersTest, ScalarBlockLayout) {
  if (!QueryFeatures13().v12.scalarBlockLayout) GTEST_SKIP() << "scalarBlockLayout is not supported";
  constexpr uint32_t kFloats = 22;  // per record
  HostBuffer in = MakeHostBuffer(4 * kFloats * 4, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  HostBuffer out = StorageBuffer(4 * kFloats * 4);
  ASSERT_NE(in.data, nullptr);
  for (uint32_t f = 0; f < 4 * kFloats; ++f) in.as<float>()[f] = float(f);
  std::memset(out.data, 0, 4 * kFloats * 4);
  BufferBinding uniform{in.buffer};
  uniform.type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  Kernel k = MakeKernelWithBindings(kScalarLayoutComp, {uniform, {out.buffer}}, 16);
  const float push[4] = {-1.0f, 0.0f, 1000.0f, 0.0f};  // offset.y = 1000 at byte 8
  Run(k, 1, 1, 1, push, sizeof push);
  for (uint32_t f = 0; f < 4 * kFloats; ++f) EXPECT_EQ(out.as<float>()[f], float(f) + 1000.0f) << "float " << f;
}

TEST_F(ShaderBuffersTest, SpecializationConstantsAndWorkgroupSize) {
  HostBuffer out = StorageBuffer(4096 * 8 * 4);
  std::memset(out.data, 0xFF, 4096 * 8 * 4);
  const SpecializationData data{8, 5, 7, -9, VK_TRUE, 2.5f};
  const VkSpecializationInfo info{uint32_t(std::size(kSpecializationEntries)), kSpecializationEntries, sizeof data,
                                  &data};
  Kernel k = MakeKernelWithBindings(kSpecializationComp, {{out.buffer}}, 0, &info);
  Run(k, 3);
  CheckSpecialized(out.as<uint32_t>(), 3, {8, 5, 7, -9, true, 2.5f});
  // Past the 3 * 40 invocations nothing was written.
  EXPECT_EQ(out.as<uint32_t>()[3 * 40 * 8], 0xFFFFFFFFu);
}

TEST_F(ShaderBuffersTest, SpecializationDefaultsAndPartialInfo) {
  HostBuffer defaults = StorageBuffer(64 * 8 * 4), partial = StorageBuffer(1024 * 8 * 4);
  Kernel plain = MakeKernel(kSpecializationComp, {defaults.buffer}, 0);
  Run(plain, 4);  // local size 1 x 1
  CheckSpecialized(defaults.as<uint32_t>(), 4, {1, 1, 1, 0, false, 1.0f});
  // Only some constants given; a larger workgroup than a wave.
  const uint32_t values[2] = {100, VK_TRUE};
  const VkSpecializationMapEntry entries[2] = {{0, 0, 4}, {4, 4, 4}};
  const VkSpecializationInfo info{2, entries, sizeof values, values};
  Kernel k = MakeKernelWithBindings(kSpecializationComp, {{partial.buffer}}, 0, &info);
  Run(k, 2);
  CheckSpecialized(partial.as<uint32_t>(), 2, {100, 1, 1, 0, true, 1.0f});
}

// SPIR-V before 1.6 gives a specialized workgroup size as a constant
// decorated BuiltIn WorkgroupSize rather than with LocalSizeId.
TEST_F(ShaderBuffersTest, WorkgroupSizeBuiltInConstant) {
  constexpr uint32_t kGroupsX = 3, kGroupsY = 2;
  for (const uint32_t size_x : {0u, 16u, 40u}) {  // 0: no specialization (the default, 1)
    const uint32_t x = size_x == 0 ? 1 : size_x;
    const uint32_t count = x * kGroupsX * 2 * kGroupsY;
    HostBuffer out = StorageBuffer(count * 4 + 4);
    std::memset(out.data, 0xFF, count * 4 + 4);
    const VkSpecializationMapEntry entry{0, 0, 4};
    const VkSpecializationInfo info{1, &entry, 4, &size_x};
    Kernel k = MakeKernelWithBindings(kWorkgroupSizeBuiltinSpvasm, {{out.buffer}}, 0, size_x == 0 ? nullptr : &info);
    Run(k, kGroupsX, kGroupsY);
    for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(out.as<uint32_t>()[i], x * 100 + 2) << "size " << x << ", " << i;
    EXPECT_EQ(out.as<uint32_t>()[count], 0xFFFFFFFFu) << "size " << x << ": invocations beyond the workgroups";
  }
}

// OpSpecConstantOp QuantizeToF16 of a specialized value: rounded to half
// precision, values below the smallest normal half flushed to zero (of
// their sign), too large ones infinite.
TEST_F(ShaderBuffersTest, SpecializedQuantizeToF16FlushesHalfDenormals) {
  const std::pair<float, uint32_t> cases[] = {
      {0x1p-15f, 0x00000000u},          // a half denormal: +0
      {-0x1p-15f, 0x80000000u},         // -0
      {0x1p-14f, 0x38800000u},          // the smallest normal half: kept
      {1.0f + 0x1p-12f, 0x3F800000u},   // rounded to 1
      {70000.0f, 0x7F800000u},          // beyond 65504: infinity
  };
  for (const auto& [value, expected] : cases) {
    HostBuffer out = StorageBuffer(16);
    std::memset(out.data, 0xFF, 16);
    const VkSpecializationMapEntry entry{0, 0, 4};
    const VkSpecializationInfo info{1, &entry, 4, &value};
    Kernel k = MakeKernelWithBindings(kSpecQuantizeSpvasm, {{out.buffer}}, 0, &info);
    Run(k, 1);
    EXPECT_EQ(out.as<uint32_t>()[0], expected) << value;
  }
}

// A spec constant composite with an OpUndef member (which the optimizer's
// folding leaves as it is) is a constant like any other: specialized, its
// defined member reads back.
TEST_F(ShaderBuffersTest, SpecConstantCompositeWithAnUndefinedMember) {
  for (const int32_t value : {0, 7, -1000}) {
    HostBuffer out = StorageBuffer(16);
    std::memset(out.data, 0xFF, 16);
    const VkSpecializationMapEntry entry{0, 0, 4};
    const VkSpecializationInfo info{1, &entry, 4, &value};
    Kernel k = MakeKernelWithBindings(kSpecCompositeUndefSpvasm, {{out.buffer}}, 0, &info);
    Run(k, 1);
    EXPECT_EQ(out.as<int32_t>()[0], value + 200) << value;
  }
}

}  // namespace
}  // namespace duet_test

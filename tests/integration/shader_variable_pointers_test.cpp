// Variable pointers (VK_KHR_variable_pointers) through the loader. Into
// storage buffers (variablePointersStorageBuffer): OpSelect between
// buffers, a phi of element pointers, OpPtrAccessChain on it, OpPtrEqual,
// and a pointer kept in a Function variable (variable_pointers.spvasm).
// Into workgroup memory and between arrays of buffers (variablePointers):
// variable_pointers_workgroup.spvasm, _descriptor_select.spvasm.
#include <cstdint>
#include <vector>

#include "compute_fixture.h"
#include "shaders/variable_pointers.spvasm.h"
#include "shaders/variable_pointers_descriptor_select.spvasm.h"
#include "shaders/variable_pointers_workgroup.spvasm.h"

namespace duet_test {
namespace {

class ShaderVariablePointersTest : public ComputeFixture {};

TEST_F(ShaderVariablePointersTest, SelectPhiPtrAccessChainAndCompare) {
  ASSERT_EQ(QueryFeatures13().v11.variablePointersStorageBuffer, VK_TRUE);
  constexpr uint32_t n = 64;
  HostBuffer a = StorageBuffer((n + 1) * 4), b = StorageBuffer((n + 1) * 4), out = StorageBuffer(4 * n * 4);
  ASSERT_NE(out.data, nullptr);
  for (uint32_t i = 0; i <= n; ++i) {
    a.as<uint32_t>()[i] = 1000 + i;
    b.as<uint32_t>()[i] = 2000 + i;
  }
  Kernel k = MakeKernel(kVariablePointersSpvasm, {a.buffer, b.buffer, out.buffer}, 0);
  Run(k, 1);
  const uint32_t* o = out.as<uint32_t>();
  for (uint32_t x = 0; x < n; ++x) {
    EXPECT_EQ(o[x], (x % 2 == 0 ? 1000u : 2000u) + x) << x;
    EXPECT_EQ(o[n + x], (x % 3 == 0 ? 1000u : 2000u) + x + 1) << x;
    EXPECT_EQ(o[2 * n + x], x < 32 ? 1u : 0u) << x;
    EXPECT_EQ(o[3 * n + x], (x < 32 ? 1000u : 2000u) + x) << x;
  }
}

TEST_F(ShaderVariablePointersTest, SelectPtrAccessChainCompareAtomicsAndKeptPointersInWorkgroupMemory) {
  ASSERT_EQ(QueryFeatures13().v11.variablePointers, VK_TRUE);
  constexpr uint32_t n = 64, groups = 8;
  HostBuffer out = StorageBuffer(4 * n * 4);
  Kernel k = MakeKernel(kVariablePointersWorkgroupSpvasm, {out.buffer}, 0);
  // Every workgroup writes the same values to Out from its own workgroup
  // memory (workgroups run at once on the worker threads, each with its own).
  Run(k, groups);
  const uint32_t* o = out.as<uint32_t>();
  for (uint32_t x = 0; x < n; ++x) {
    SCOPED_TRACE(testing::Message() << "lane " << x);
    EXPECT_EQ(o[x], (x % 2 == 0 ? 100u : 200u) + x) << "load through the selected pointer";
    EXPECT_EQ(o[n + x], x % 2 == 0 ? 1u : 0u) << "OpPtrEqual";
    EXPECT_EQ(o[2 * n + x], 32u * 1000 + 32) << "atomics through the pointers";
    EXPECT_EQ(o[3 * n + x], (x % 2 == 0 ? 100u : 200u) + x) << "a pointer kept in a Private variable";
  }
}

TEST_F(ShaderVariablePointersTest, SelectBetweenArraysOfStorageBuffers) {
  ASSERT_EQ(QueryFeatures13().v11.variablePointers, VK_TRUE);
  HostBuffer a0 = StorageBuffer(16), a1 = StorageBuffer(16), b0 = StorageBuffer(16), b1 = StorageBuffer(16);
  HostBuffer* blocks[4] = {&a0, &a1, &b0, &b1};
  for (uint32_t b = 0; b < 4; ++b)
    for (uint32_t i = 0; i < 4; ++i) blocks[b]->as<uint32_t>()[i] = (b + 1) * 100 + i;
  HostBuffer out = StorageBuffer(16 * 4);
  BufferBinding a{a0.buffer}, b{b0.buffer};
  a.more_elements = {a1.buffer};
  b.more_elements = {b1.buffer};
  Kernel k = MakeKernelWithBindings(kVariablePointersDescriptorSelectSpvasm, {a, b, {out.buffer}}, 0);
  Run(k, 1);
  const uint32_t* o = out.as<uint32_t>();
  for (uint32_t x = 0; x < 16; ++x) {
    const uint32_t block = (x % 2 == 0 ? 0 : 2) + (x / 2) % 2;  // A0, A1, B0, B1
    EXPECT_EQ(o[x], (block + 1) * 100 + x % 4) << "lane " << x;
  }
}

}  // namespace
}  // namespace duet_test

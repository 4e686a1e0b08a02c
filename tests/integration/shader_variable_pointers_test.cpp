// Variable pointers into storage buffers (variablePointersStorageBuffer,
// VK_KHR_variable_pointers) through the loader: OpSelect between buffers,
// a phi of element pointers, OpPtrAccessChain on it, OpPtrEqual, and a
// pointer kept in a Function variable (variable_pointers.spvasm).
#include <cstdint>
#include <vector>

#include "compute_fixture.h"
#include "shaders/variable_pointers.spvasm.h"

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

}  // namespace
}  // namespace duet_test

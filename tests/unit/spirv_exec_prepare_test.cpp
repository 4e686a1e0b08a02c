// What ir_prepare does to a program (copy propagation, phi coalescing,
// uniform registers and the kernel variants they allow) must not change
// any result: shaders with divergent control flow run as prepared and as
// compiled (DUET_IR_PREPARE=plain) give the same bits, and the uniformity
// shader gives what C++ computes for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "shaders/control_flow.comp.h"
#include "shaders/uniform_control_flow.comp.h"
#include "spirv_exec/ir.h"
#include "spirv_exec/spirv_ingest.h"
#include "spirv_exec/wave.h"

namespace duet::spirv_exec {
namespace {

template <size_t N>
Program Compile(const uint32_t (&code)[N], bool plain) {
  std::vector<uint32_t> words(code, code + N), prepared;
  std::string error;
  EXPECT_TRUE(PrepareModule(words, nullptr, &prepared, &error)) << error;
  if (plain) setenv("DUET_IR_PREPARE", "plain", 1);
  Program program;
  EXPECT_TRUE(CompileStage(prepared, "main", ShaderStage::kCompute, &program, &error)) << error;
  if (plain) unsetenv("DUET_IR_PREPARE");
  return program;
}

// Runs `invocations` invocations of a one-dimensional compute program
// (workgroups of its local size) writing `out_words` words to the buffer at
// binding 0, with `push` as push constants.
std::vector<uint32_t> RunCompute(const Program& p, uint32_t invocations, std::vector<uint32_t> push, size_t out_words) {
  std::vector<uint32_t> out(out_words, 0xDEADBEEFu);
  std::vector<RootMemory> roots(p.roots.size());
  for (size_t i = 0; i < p.roots.size(); ++i) {
    if (p.roots[i].kind == RootKind::kPushConstants)
      roots[i] = {reinterpret_cast<std::byte*>(push.data()), uint32_t(push.size() * 4)};
    if (p.roots[i].kind == RootKind::kDescriptorBuffer)
      roots[i] = {reinterpret_cast<std::byte*>(out.data()), uint32_t(out.size() * 4)};
  }
  const uint32_t group = p.local_size[0];
  for (uint32_t first_group = 0; first_group < invocations; first_group += group) {
    for (uint32_t first = 0; first < group; first += kWaveWidth) {
      const uint32_t lanes = std::min(kWaveWidth, group - first);
      WaveState wave;
      ResetWave(p, lanes == kWaveWidth ? kAllLanes : (LaneMask{1} << lanes) - 1, &wave);
      for (uint32_t c = 0; c < 3; ++c)
        for (uint32_t l = 0; l < kWaveWidth; ++l)
          wave.Register(p.builtins.global_invocation_id + c)[l] = c == 0 ? first_group + first + l : 0;
      EXPECT_EQ(RunWave(p, roots.data(), nullptr, nullptr, &wave), WaveStatus::kFinished);
    }
  }
  return out;
}

void ExpectedUniformControlFlow(int id, int n, int m, int* r) {
  int i = 0, last = -1;
  for (; i < n; ++i) {
    last = i * m;
    if (i == id % 7) break;
  }
  r[0] = i;
  r[1] = last;
  int a = 1, b = 2;
  for (int k = 0; k < n; ++k) {
    const int t = a;
    a = b;
    b = t + k;
  }
  r[2] = a * 1000 + b;
  int s = 0;
  for (int x = 0; x < id % 4; ++x)
    for (int y = 0; y < m; ++y) s += x * y + 1;
  r[3] = s;
  int u = 0, c = 0;
  for (int k = 0; k < n; ++k) {
    u = k * 3 + m;
    if ((id + k) % 3 == 0) continue;
    c += u;
  }
  r[4] = u * 1000 + c;
  int acc = 0;
  for (int j = 0; j < n + (id & 3); ++j) acc += j * m;
  r[5] = acc;
  int sum = 0;
  for (int k = 0; k < n; ++k) {
    sum += k + m;
    if (id % 5 == 0 && k == 2) {
      r[6] = -sum;
      r[7] = -1;
      return;
    }
  }
  r[6] = sum;
  r[7] = n * m;
}

TEST(SpirvExecPrepareTest, UniformValuesInDivergentCode) {
  const Program prepared = Compile(kUniformControlFlowComp, false);
  const Program plain = Compile(kUniformControlFlowComp, true);
  EXPECT_LT(prepared.code.size(), plain.code.size()) << "no copy was removed";
  constexpr uint32_t kInvocations = 96;  // two workgroups of 48: partial waves
  for (const auto& [n, m] : {std::pair{5, 3}, std::pair{0, 4}, std::pair{9, -2}}) {
    const std::vector<uint32_t> push = {uint32_t(n), uint32_t(m)};
    const std::vector<uint32_t> got = RunCompute(prepared, kInvocations, push, kInvocations * 8);
    EXPECT_EQ(got, RunCompute(plain, kInvocations, push, kInvocations * 8)) << "n " << n << ", m " << m;
    for (int id = 0; id < int(kInvocations); ++id) {
      int want[8];
      ExpectedUniformControlFlow(id, n, m, want);
      for (int k = 0; k < 8; ++k)
        ASSERT_EQ(int32_t(got[id * 8 + k]), want[k]) << "invocation " << id << " result " << k << ", n " << n;
    }
  }
}

TEST(SpirvExecPrepareTest, DivergentControlFlowUnchanged) {
  const Program prepared = Compile(kControlFlowComp, false);
  const Program plain = Compile(kControlFlowComp, true);
  constexpr uint32_t kInvocations = 96;
  EXPECT_EQ(RunCompute(prepared, kInvocations, {}, kInvocations), RunCompute(plain, kInvocations, {}, kInvocations));
}

}  // namespace
}  // namespace duet::spirv_exec

// The interpreter driven directly, without a device: fragment waves that
// demote lanes to helpers, the shader watchdog stopping a runaway wave,
// and a module compiled without the optimizer (so the compiler itself
// meets OpCopyMemory, function variables and undefined shuffle components).
#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "shaders/demote_helper.frag.h"
#include "shaders/runaway_loop.comp.h"
#include "shaders/spirv_misc_instructions.spvasm.h"
#include "spirv_exec/ir.h"
#include "spirv_exec/shader_watchdog.h"
#include "spirv_exec/spirv_ingest.h"
#include "spirv_exec/wave.h"

namespace duet::spirv_exec {
namespace {

template <size_t N>
Program Compile(const uint32_t (&code)[N], ShaderStage stage, bool optimize = true) {
  std::vector<uint32_t> words(code, code + N), prepared;
  std::string error;
  Program program;
  if (optimize) {
    EXPECT_TRUE(PrepareModule(words, nullptr, {}, &prepared, &error)) << error;
  } else {
    prepared = words;
  }
  EXPECT_TRUE(CompileStage(prepared, "main", stage, &program, &error)) << error;
  return program;
}

// The memory root of the buffer at (set 0, `binding`), or -1.
int BufferRoot(const Program& p, uint32_t binding) {
  for (size_t i = 0; i < p.roots.size(); ++i)
    if (p.roots[i].kind == RootKind::kDescriptorBuffer && p.roots[i].set == 0 && p.roots[i].binding == binding)
      return int(i);
  return -1;
}

float F(uint32_t u) { return std::bit_cast<float>(u); }
uint32_t U(float f) { return std::bit_cast<uint32_t>(f); }

TEST(SpirvExecWaveTest, DemotedLanesRunOnButStoreNothing) {
  const Program program = Compile(kDemoteHelperFrag, ShaderStage::kFragment);
  ASSERT_EQ(program.inputs.size(), 1u);
  ASSERT_EQ(program.outputs.size(), 1u);
  std::vector<uint32_t> stores(kWaveWidth, 0);
  std::vector<RootMemory> roots(program.roots.size());
  const int root = BufferRoot(program, 0);
  ASSERT_GE(root, 0);
  roots[size_t(root)] = {reinterpret_cast<std::byte*>(stores.data()), uint32_t(stores.size() * 4)};

  WaveState wave;
  ResetWave(program, kAllLanes, &wave);
  const LaneMask rasterizer_helpers = 0x88888888u;  // the last pixel of every quad is uncovered
  wave.helpers = rasterizer_helpers;
  LaneMask demoting = 0;
  const uint32_t color = program.inputs[0].reg;
  for (uint32_t l = 0; l < kWaveWidth; ++l) {
    const bool demote = l % 5 == 0;
    demoting |= LaneMask(demote) << l;
    wave.Register(color)[l] = U(demote ? 1.0f : 0.0f);
    wave.Register(color + 1)[l] = U(float(l));
    wave.Register(color + 2)[l] = U(float(l * 2));
    wave.Register(color + 3)[l] = U(float(l) + 0.5f);
  }
  RunWave(program, roots.data(), nullptr, nullptr, &wave);

  EXPECT_EQ(wave.demoted, demoting);
  EXPECT_EQ(wave.killed, 0u);
  const uint32_t result = program.outputs[0].reg;
  for (uint32_t l = 0; l < kWaveWidth; ++l) {
    const bool helper = ((demoting | rasterizer_helpers) >> l) & 1;
    EXPECT_EQ(stores[l], helper ? 0u : 1u) << "store of lane " << l;
    EXPECT_EQ(F(wave.Register(result)[l]), helper ? 1.0f : 0.0f) << "helperInvocationEXT() in lane " << l;
    EXPECT_EQ(F(wave.Register(result + 1)[l]), 2.0f) << "dFdxFine sees the demoted neighbours, lane " << l;
    EXPECT_EQ(F(wave.Register(result + 2)[l]), float(l) + 0.5f) << "interpolateAtCentroid, lane " << l;
    // color.w grows by 1 along a quad's rows and by 2 down its columns:
    // at offset (0.25, -0.25) it is 0.25 - 0.5 less than at the centre.
    EXPECT_EQ(F(wave.Register(result + 3)[l]), float(l) + 0.25f) << "interpolateAtOffset, lane " << l;
  }
}

class SpirvExecWatchdogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = Compile(kRunawayLoopComp, ShaderStage::kCompute);
    roots_.resize(program_.roots.size());
    const int root = BufferRoot(program_, 0);
    ASSERT_GE(root, 0);
    roots_[size_t(root)] = {reinterpret_cast<std::byte*>(data_.data()), uint32_t(data_.size() * 4)};
    ResetWave(program_, kAllLanes, &wave_);
  }

  Program program_;
  std::vector<uint32_t> data_ = std::vector<uint32_t>(64, 0);
  std::vector<RootMemory> roots_;
  WaveState wave_;
};

TEST_F(SpirvExecWatchdogTest, StopsAWaveThatRunsTooLong) {
  std::atomic<bool> stop{false};
  int expired = 0;
  const ShaderWatchdog watchdog(&stop, 50'000'000, [&] {
    ++expired;
    stop = true;
  });
  wave_.watchdog = &watchdog;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(RunWave(program_, roots_.data(), nullptr, nullptr, &wave_), WaveStatus::kFinished);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(wave_.aborted);
  EXPECT_EQ(expired, 1);
  EXPECT_TRUE(stop);
  EXPECT_GE(elapsed, std::chrono::milliseconds(50));
  EXPECT_LT(elapsed, std::chrono::seconds(10));
  EXPECT_GT(data_[1], kWatchdogCheckInterval) << "the loop ran";
  // A stopped wave stays stopped.
  EXPECT_EQ(RunWave(program_, roots_.data(), nullptr, nullptr, &wave_), WaveStatus::kFinished);
}

TEST_F(SpirvExecWatchdogTest, StopsAtTheNextCheckOnceStopped) {
  std::atomic<bool> stop{true};  // e.g. the device was lost by another wave
  bool expired = false;
  const ShaderWatchdog watchdog(&stop, 0, [&] { expired = true; });
  wave_.watchdog = &watchdog;
  RunWave(program_, roots_.data(), nullptr, nullptr, &wave_);
  EXPECT_TRUE(wave_.aborted);
  EXPECT_FALSE(expired);
  EXPECT_EQ(data_[1], kWatchdogCheckInterval) << "stopped at the first check";
}

TEST(SpirvExecWaveTest, UnoptimizedModule) {
  // The optimizer folds the undefined shuffle component and keeps function
  // variables in registers; without it, the compiler sees them as written.
  const Program program = Compile(kSpirvMiscInstructionsSpvasm, ShaderStage::kCompute, /*optimize=*/false);
  constexpr uint32_t kSlots = 24;
  std::vector<uint32_t> in(kWaveWidth * 8), out(kWaveWidth * kSlots, 0xFFFFFFFFu);
  for (uint32_t l = 0; l < kWaveWidth; ++l) {
    const float f[4] = {float(l) + 0.25f, -float(l), 3.0f, float(l) * 0.5f};
    std::memcpy(&in[l * 8], f, sizeof f);
    in[l * 8 + 4] = l * 1000 + 7;
    in[l * 8 + 5] = l + 1;
    in[l * 8 + 6] = 99;
    in[l * 8 + 7] = l * 3;
  }
  uint32_t n = kWaveWidth;
  std::vector<RootMemory> roots(program.roots.size());
  for (size_t i = 0; i < program.roots.size(); ++i) {
    const MemoryRoot& r = program.roots[i];
    if (r.kind == RootKind::kPushConstants) roots[i] = {reinterpret_cast<std::byte*>(&n), 4};
    if (r.kind == RootKind::kDescriptorBuffer && r.binding == 0)
      roots[i] = {reinterpret_cast<std::byte*>(in.data()), uint32_t(in.size() * 4)};
    if (r.kind == RootKind::kDescriptorBuffer && r.binding == 1)
      roots[i] = {reinterpret_cast<std::byte*>(out.data()), uint32_t(out.size() * 4)};
  }
  WaveState wave;
  ResetWave(program, kAllLanes, &wave);
  ASSERT_NE(program.builtins.global_invocation_id, UINT32_MAX);
  for (uint32_t l = 0; l < kWaveWidth; ++l) wave.Register(program.builtins.global_invocation_id)[l] = l;
  RunWave(program, roots.data(), nullptr, nullptr, &wave);
  for (uint32_t l = 0; l < kWaveWidth; ++l) {
    const uint32_t* r = &out[l * kSlots];
    EXPECT_EQ(F(r[4]), float(l) * 0.5f) << "shuffle component 0 (f.w), lane " << l;
    EXPECT_EQ(F(r[5]), -2.0f * float(l)) << "shuffle component 2 (2f.y), lane " << l;
    EXPECT_EQ(F(r[6]), float(l) + 0.25f) << "shuffle component 3 (f.x), lane " << l;
    EXPECT_EQ(r[13], U(-float(l))) << "CopyLogical, lane " << l;
    EXPECT_EQ(r[14], l + 1) << "CopyLogical, lane " << l;
    EXPECT_EQ(r[15], l + 1) << "CopyMemory, lane " << l;
    EXPECT_EQ(r[16], l * 3) << "CopyMemory between function variables, lane " << l;
    EXPECT_EQ(r[18], in[l * 8 + l % 4]) << "VectorExtractDynamic, lane " << l;
  }
}

}  // namespace
}  // namespace duet::spirv_exec

// The Intel backend without an Intel GPU: batches the planner builds run on
// the command-streamer simulator and must leave the bytes the CPU path
// leaves (fills, copies, rectangles, tiled surfaces, every generation);
// malformed batches stop with a message naming the dword and the field;
// injected hangs, refused submissions and lost devices turn the GPU off and
// the CPU path redoes the command, nothing lost. On a machine with an i915
// GPU the same checks run on it.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "backends/intel_rcs/address_space.h"
#include "backends/intel_rcs/blit_plan.h"
#include "backends/intel_rcs/i915_channel.h"
#include "backends/intel_rcs/packets.h"
#include "backends/intel_rcs/simulated_channel.h"
#include "backends/intel_rcs/simulator.h"
#include "backends/intel_rcs/stats.h"
#include "backends/intel_rcs/transfers.h"
#include "objects/buffer.h"
#include "objects/memory.h"
#include "raster/fill_pattern.h"
#include "raster/transfer_buffer.h"

namespace duet::intel_rcs {
namespace {

// Page-aligned host memory, as vkAllocateMemory makes it.
class Pages {
 public:
  explicit Pages(size_t bytes) : length_((bytes + 4095) / 4096 * 4096) {
    void* p = mmap(nullptr, length_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    base_ = p == MAP_FAILED ? nullptr : static_cast<std::byte*>(p);
  }
  ~Pages() {
    if (base_ != nullptr) munmap(base_, length_);
  }
  std::byte* data() const { return base_; }
  size_t size() const { return length_; }
  HostMemory memory() const { return {base_, length_}; }
  HostPlace At(uint64_t offset) const { return {memory(), offset}; }
  void Randomize(std::mt19937& rng) {
    for (size_t i = 0; i < length_; ++i) base_[i] = std::byte(rng());
  }

 private:
  size_t length_;
  std::byte* base_;
};

std::unique_ptr<IntelTransfers> SimulatedTransfers(Generation gen, SimulatedChannel** channel_out = nullptr) {
  auto channel = std::make_unique<SimulatedChannel>(gen);
  if (channel_out != nullptr) *channel_out = channel.get();
  auto transfers = std::make_unique<IntelTransfers>(std::move(channel), 0);
  EXPECT_TRUE(transfers->SelfTest());
  return transfers;
}

class IntelSimulated : public ::testing::TestWithParam<Generation> {};

TEST_P(IntelSimulated, FillsLeaveTheCpusBytes) {
  std::mt19937 rng(11);
  Pages gpu(1 << 20), cpu(1 << 20);
  auto transfers = SimulatedTransfers(GetParam());
  uint32_t on_gpu = 0;
  for (int i = 0; i < 120; ++i) {
    const uint32_t pattern_size = std::array{1u, 2u, 4u, 8u, 16u}[i % 5];
    std::vector<std::byte> pattern(pattern_size);
    for (auto& b : pattern) b = std::byte(rng());
    if (i % 3 == 0) std::fill(pattern.begin(), pattern.end(),
                              pattern[0]);  // 8/16-byte texels of one byte value
    const uint64_t units = i % 7 == 0 ? (200000 + rng() % 300000) / pattern_size : 1 + rng() % 9000;
    const uint64_t bytes = units * pattern_size;
    const uint64_t offset = (rng() % ((1 << 20) - bytes)) / pattern_size * pattern_size;
    gpu.Randomize(rng);
    std::memcpy(cpu.data(), gpu.data(), gpu.size());
    raster::FillPattern(cpu.data() + offset, bytes, pattern.data(), pattern.size());
    if (transfers->Fill(gpu.At(offset), bytes, pattern)) {
      ++on_gpu;
    } else {
      raster::FillPattern(gpu.data() + offset, bytes, pattern.data(), pattern.size());
      EXPECT_GT(pattern_size, 4u) << "a 1, 2 or 4-byte pattern always has a blit";
    }
    ASSERT_EQ(std::memcmp(gpu.data(), cpu.data(), gpu.size()), 0)
        << "fill " << i << ": " << bytes << " bytes at " << offset << ", pattern " << pattern_size;
  }
  EXPECT_GE(on_gpu, 80u);
  EXPECT_TRUE(transfers->enabled());
}

TEST_P(IntelSimulated, CopiesLeaveTheCpusBytes) {
  std::mt19937 rng(12);
  Pages a(1 << 20), b(1 << 20), expected(1 << 20);
  auto transfers = SimulatedTransfers(GetParam());
  for (int i = 0; i < 120; ++i) {
    const uint64_t bytes = i % 9 == 0 ? 100000 + rng() % 200000 : 1 + rng() % 40000;
    const uint64_t src = rng() % ((1 << 20) - bytes);
    uint64_t dst = rng() % ((1 << 20) - bytes);
    const bool same = i % 2 == 0;  // within one allocation, apart
    if (same && dst < src + bytes && src < dst + bytes) dst = src + bytes < (1u << 20) - bytes ? src + bytes : 0;
    if (same && dst < src + bytes && src < dst + bytes) continue;
    a.Randomize(rng);
    b.Randomize(rng);
    Pages& to = same ? a : b;
    std::memcpy(expected.data(), to.data(), to.size());
    std::memmove(expected.data() + dst, a.data() + src, bytes);
    ASSERT_TRUE(transfers->Copy(to.At(dst), a.At(src), bytes)) << bytes << " bytes " << src << " -> " << dst;
    ASSERT_EQ(std::memcmp(to.data(), expected.data(), to.size()), 0) << "copy " << i;
  }
  EXPECT_TRUE(transfers->enabled());
}

TEST_P(IntelSimulated, RectangleCopiesLeaveTheCpusBytes) {
  std::mt19937 rng(13);
  Pages a(1 << 20), b(1 << 20), expected(1 << 20);
  auto transfers = SimulatedTransfers(GetParam());
  uint32_t on_gpu = 0, aligned = 0;
  for (int i = 0; i < 150; ++i) {
    const uint32_t texel = std::array{1u, 2u, 4u, 8u, 16u}[i % 5];
    const uint32_t width = 1 + rng() % 300, rows = 1 + rng() % 100;
    const uint32_t src_pitch = width * texel + (i % 4 == 0 ? 0 : texel * (rng() % 20));
    const uint32_t dst_pitch = width * texel + (i % 3 == 0 ? 0 : texel * (rng() % 20));
    const uint64_t src = (rng() % (400000)) / texel * texel, dst = (rng() % 400000) / texel * texel;
    a.Randomize(rng);
    b.Randomize(rng);
    std::memcpy(expected.data(), b.data(), b.size());
    for (uint32_t y = 0; y < rows; ++y)
      std::memcpy(expected.data() + dst + uint64_t{y} * dst_pitch, a.data() + src + uint64_t{y} * src_pitch,
                  size_t{width} * texel);
    const bool expressible = src_pitch % 4 == 0 && dst_pitch % 4 == 0 && src_pitch <= 32764 && dst_pitch <= 32764;
    aligned += expressible;
    if (transfers->CopyRect(b.At(dst), dst_pitch, a.At(src), src_pitch, width * texel, rows)) {
      ++on_gpu;
    } else {
      EXPECT_FALSE(expressible) << "pitches " << dst_pitch << ", " << src_pitch << " have a legacy blit";
      for (uint32_t y = 0; y < rows; ++y)
        std::memcpy(b.data() + dst + uint64_t{y} * dst_pitch, a.data() + src + uint64_t{y} * src_pitch,
                    size_t{width} * texel);
    }
    ASSERT_EQ(std::memcmp(b.data(), expected.data(), b.size()), 0) << "rectangle " << i;
  }
  EXPECT_EQ(on_gpu, aligned);
  EXPECT_GE(on_gpu, 40u);
}

INSTANTIATE_TEST_SUITE_P(EachGeneration, IntelSimulated,
                         ::testing::Values(Generation::kGen9, Generation::kGen11, Generation::kGen12),
                         [](const auto& info) { return std::string(GenerationName(info.param)); });

// --- the simulator on hand-made batches ------------------------------------

struct SimMemory {
  SimMemory() : pages(64 * 1024) {}
  Pages pages;
  static constexpr uint64_t kAddress = 0x100000;
  SimulatedObject object() const { return {kAddress, pages.size(), pages.data()}; }
  ExecutionResult Run(const Dwords& batch, Engine engine = Engine::kBlitter, Generation gen = Generation::kGen12) {
    const SimulatedObject objects[] = {object()};
    return CommandStreamerSimulator(gen).Execute(batch, objects, engine);
  }
};

Dwords Ended(Dwords batch) {
  EncodeMiBatchBufferEnd(batch);
  return batch;
}

TEST(IntelSimulator, TiledSurfacesRoundTrip) {
  SimMemory m;
  std::mt19937 rng(5);
  const uint64_t linear = 0, x_tiled = 16384, y_tiled = 32768, back = 49152;
  const uint32_t pitch = 512, width = 128, height = 16;  // 32-bit pixels
  for (uint32_t i = 0; i < pitch * height; ++i) m.pages.data()[linear + i] = std::byte(rng());
  Dwords batch;
  const BlitSurface lin{SimMemory::kAddress + linear, pitch, Tiling::kLinear};
  EncodeXySrcCopyBlt(batch, Generation::kGen9, {SimMemory::kAddress + x_tiled, pitch, Tiling::kX},
                     {0, 0, width, height}, lin, {}, 4);
  EncodeXyFastCopyBlt(batch, Generation::kGen9, {SimMemory::kAddress + y_tiled, pitch, Tiling::kY},
                      {0, 0, width, height}, lin, {}, 4);
  ExecutionResult r = m.Run(Ended(batch), Engine::kBlitter, Generation::kGen9);
  ASSERT_EQ(r.status, ExecutionResult::Status::kCompleted) << r.error;
  const std::byte* px = m.pages.data();
  // Pixel (x=1, y=9): X tile row 1 (9 / 8), in-tile row 1, byte 4. Y: OWord
  // column 0, row 9.
  EXPECT_EQ(std::memcmp(px + x_tiled + 4096 + 512 + 4, px + linear + 9 * pitch + 4, 4), 0);
  EXPECT_EQ(std::memcmp(px + y_tiled + 9 * 16 + 4, px + linear + 9 * pitch + 4, 4), 0);
  // Pixel (x=40, y=3) of the Y surface: byte 160 -> tile 1, OWord column 2,
  // row 3.
  EXPECT_EQ(std::memcmp(px + y_tiled + 4096 + 2 * 512 + 3 * 16, px + linear + 3 * pitch + 160, 4), 0);
  batch.clear();
  EncodeXyFastCopyBlt(batch, Generation::kGen9, {SimMemory::kAddress + back, pitch, Tiling::kLinear},
                      {0, 0, width, height}, {SimMemory::kAddress + y_tiled, pitch, Tiling::kY}, {}, 4);
  r = m.Run(Ended(batch), Engine::kBlitter, Generation::kGen9);
  ASSERT_EQ(r.status, ExecutionResult::Status::kCompleted) << r.error;
  EXPECT_EQ(std::memcmp(px + back, px + linear, pitch * height), 0);
}

TEST(IntelSimulator, MalformedBatchesNameTheDwordAndTheField) {
  SimMemory m;
  const uint64_t base = SimMemory::kAddress;
  auto error_of = [&](const Dwords& batch, Engine engine = Engine::kBlitter, Generation gen = Generation::kGen12) {
    ExecutionResult r = m.Run(batch, engine, gen);
    EXPECT_EQ(r.status, ExecutionResult::Status::kFaulted);
    return r.error;
  };
  Dwords batch;
  EncodeMiNoop(batch);
  EXPECT_EQ(error_of(batch), "dword 1: the batch ends without MI_BATCH_BUFFER_END");

  batch.clear();
  EncodeMiNoop(batch);
  EncodeXyColorBlt(batch, Generation::kGen12, {base, 256, Tiling::kLinear}, {0, 0, 4, 4}, 4, 0);
  batch[1] = (batch[1] & ~0xFFu) | 4;  // a DWord Length one short
  EXPECT_EQ(error_of(Ended(batch)), "dword 1: XY_COLOR_BLT (at dword 1) DWord Length: 4, expected 5");

  batch.clear();
  EncodeMiNoop(batch);
  EncodeXyColorBlt(batch, Generation::kGen12, {base, 258, Tiling::kLinear}, {0, 0, 4, 4}, 4, 0);
  EXPECT_EQ(error_of(Ended(batch)),
            "dword 2: XY_COLOR_BLT (at dword 1) Destination Pitch: 258 bytes: "
            "a linear surface's pitch is a "
            "multiple of 4 from 4 to 32767");

  batch.clear();
  EncodeXyColorBlt(batch, Generation::kGen12, {base + 63 * 1024, 1024, Tiling::kLinear}, {0, 0, 256, 2}, 4, 0);
  EXPECT_NE(error_of(Ended(batch))
                .find("dword 4: XY_COLOR_BLT (at dword 0) Destination Base "
                      "Address: bytes 0x10fc00.."),
            std::string::npos);

  batch.clear();
  EncodeXyColorBlt(batch, Generation::kGen12, {base, 256, Tiling::kLinear}, {0, 0, 4, 4}, 4, 0);
  EXPECT_EQ(error_of(Ended(batch), Engine::kRender),
            "dword 0: XY_COLOR_BLT (at dword 0) header: runs on the blitter "
            "engine only");

  batch.clear();
  EncodePipeControl(batch, Generation::kGen12, base, 1);
  EXPECT_EQ(error_of(Ended(batch)),
            "dword 0: PIPE_CONTROL (at dword 0) "
            "header: runs on the render engine only");

  batch.clear();
  EncodeMiStoreDwordImm(batch, Generation::kGen12, base, 1);
  batch[0] |= 1u << 22;
  EXPECT_EQ(error_of(Ended(batch)),
            "dword 0: MI_STORE_DATA_IMM (at dword 0) Use Global GTT: set in an "
            "unprivileged batch");

  batch.clear();
  EncodeMiFlushDw(batch, Generation::kGen12, base + 32, 1);
  EXPECT_EQ(error_of(Ended(batch)),
            "dword 1: MI_FLUSH_DW (at dword 0) "
            "Address: qword aligned with bit 5 clear");

  batch.clear();
  const BlitSurface lin{base, 256, Tiling::kLinear};
  EncodeXyFastCopyBlt(batch, Generation::kGen11, {base + 4096, 256, Tiling::kLinear}, {0, 0, 4, 3}, lin, {}, 4);
  EXPECT_EQ(error_of(Ended(batch), Engine::kBlitter, Generation::kGen11),
            "dword 3: XY_FAST_COPY_BLT (at dword 0) Destination Y2: "
            "Wa_1209644611: no fast copy 3 or 7 rows high on "
            "Gen11");

  batch.clear();
  EncodeXySrcCopyBlt(batch, Generation::kGen12, {base + 64, 256, Tiling::kLinear}, {0, 0, 32, 2}, lin, {}, 4);
  EXPECT_NE(error_of(Ended(batch)).find("source and destination overlap"), std::string::npos);

  batch.clear();
  EncodeXySrcCopyBlt(batch, Generation::kGen12, {base, 512, Tiling::kX}, {0, 0, 256, 8},
                     {base + 16384, 4096, Tiling::kLinear}, {}, 4);
  EXPECT_EQ(error_of(Ended(batch)),
            "dword 3: XY_SRC_COPY_BLT (at dword 0) Destination X2: a tiled surface's rows end at its pitch");

  batch = {0x15 << 23};
  EXPECT_EQ(error_of(Ended(batch)), "dword 0: unknown MI opcode 0x15");

  // Side by side in one surface (rows interleave, bytes do not meet): fine.
  batch.clear();
  EncodeXySrcCopyBlt(batch, Generation::kGen12, lin, {32, 0, 64, 8}, lin, {0, 0}, 4);
  ExecutionResult ok = m.Run(Ended(batch));
  EXPECT_EQ(ok.status, ExecutionResult::Status::kCompleted) << ok.error;
  EXPECT_EQ(ok.bytes_written, 32u * 4 * 8);
}

// --- faults: the CPU redoes the command -------------------------------------

struct FaultCase {
  const char* name;
  void (*inject)(SimulatedChannel&);
};

class IntelFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(IntelFaults, TurnTheGpuOffAndLoseNothing) {
  SimulatedChannel* channel = nullptr;
  auto transfers = SimulatedTransfers(Generation::kGen12, &channel);
  Pages pages(256 * 1024);
  std::mt19937 rng(3);
  pages.Randomize(rng);
  DeviceMemory memory;
  memory.data = pages.data();
  memory.size = memory.mapped_length = pages.size();
  Buffer buffer;
  buffer.memory = &memory;
  buffer.size = pages.size();

  // One fill spanning several packets, so a hang can come half-way.
  const VkDeviceSize offset = 100, size = 100000;
  std::vector<std::byte> expected(pages.data(), pages.data() + pages.size());
  const uint32_t value = 0x5A5AC3C3;
  raster::FillPattern(expected.data() + offset, size, reinterpret_cast<const std::byte*>(&value), 4);
  const uint64_t fallbacks = CurrentCounts().fallbacks;
  const size_t submitted = channel->Results().size();
  GetParam().inject(*channel);
  raster::FillBuffer(&buffer, offset, size, value, transfers.get());
  EXPECT_EQ(std::memcmp(pages.data(), expected.data(), pages.size()), 0);
  EXPECT_FALSE(transfers->enabled());
  EXPECT_EQ(CurrentCounts().fallbacks, fallbacks + 1);

  // Off for good: the next command does not reach the GPU.
  const size_t after = channel->Results().size();
  const VkBufferCopy copy{0, 200000, 50000};
  std::memmove(expected.data() + 200000, expected.data(), 50000);
  raster::CopyBuffer(&buffer, &buffer, &copy, 1, transfers.get());
  EXPECT_EQ(std::memcmp(pages.data(), expected.data(), pages.size()), 0);
  EXPECT_EQ(channel->Results().size(), after);
  EXPECT_LE(after, submitted + 1);
}

INSTANTIATE_TEST_SUITE_P(
    Injected, IntelFaults,
    ::testing::Values(FaultCase{"HangAtTheFirstPacket", [](SimulatedChannel& c) { c.HangAtPacket(0); }},
                      FaultCase{"HangHalfWay", [](SimulatedChannel& c) { c.HangAtPacket(1); }},
                      FaultCase{"RefusedSubmission", [](SimulatedChannel& c) { c.RefuseSubmits(1); }},
                      FaultCase{"LostDevice", [](SimulatedChannel& c) { c.Lose(); }}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(IntelTransfers, SelfTestFailsOnALostDevice) {
  auto channel = std::make_unique<SimulatedChannel>(Generation::kGen9);
  channel->Lose();
  IntelTransfers transfers(std::move(channel), 0);
  EXPECT_FALSE(transfers.SelfTest());
  EXPECT_FALSE(transfers.enabled());
}

TEST(IntelTransfers, ForgottenMemoryIsUnwrapped) {
  SimulatedChannel* channel = nullptr;
  auto transfers = SimulatedTransfers(Generation::kGen12, &channel);
  const size_t objects = channel->LiveObjects();
  Pages pages(64 * 1024);
  const std::byte pattern[4] = {std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}};
  ASSERT_TRUE(transfers->Fill(pages.At(0), 4096, pattern));
  EXPECT_EQ(channel->LiveObjects(), objects + 1);
  transfers->Forget(pages.data());
  EXPECT_EQ(channel->LiveObjects(), objects);
}

TEST(IntelTransfers, OnlyTheWindowsAMoveTouchesAreWrapped) {
  SimulatedChannel* channel = nullptr;
  auto transfers = SimulatedTransfers(Generation::kGen12, &channel);
  const size_t objects = channel->LiveObjects();
  constexpr size_t kLength = size_t{64} << 20, kWindow = size_t{8} << 20;
  void* mapping = mmap(nullptr, kLength, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(mapping, MAP_FAILED);
  auto* base = static_cast<std::byte*>(mapping);
  const HostMemory memory{base, kLength};
  const std::byte pattern[4] = {std::byte{7}, std::byte{6}, std::byte{5}, std::byte{4}};
  ASSERT_TRUE(transfers->Fill({memory, 30 << 20}, 1 << 20, pattern));
  EXPECT_EQ(channel->LiveObjects(), objects + 1);  // one 8 MiB window, not 64 MiB
  // A copy from across one window boundary to across another: four more
  // windows; each side is one contiguous range for the GPU.
  for (size_t i = 0; i < 5000; ++i) base[kWindow - 2500 + i] = std::byte(i * 31);
  ASSERT_TRUE(transfers->Copy({memory, 5 * kWindow - 2000}, {memory, kWindow - 2500}, 5000));
  EXPECT_EQ(channel->LiveObjects(), objects + 5);
  EXPECT_EQ(std::memcmp(base + 5 * kWindow - 2000, base + kWindow - 2500, 5000), 0);
  for (size_t i = 0; i < (1 << 20); i += 4) ASSERT_EQ(std::memcmp(base + (30 << 20) + i, pattern, 4), 0);
  transfers->Forget(base);
  EXPECT_EQ(channel->LiveObjects(), objects);
  munmap(mapping, kLength);
}

TEST(IntelAddressSpace, FreedRangesMergeAndAreReused) {
  AddressSpace space;
  const uint64_t a = *space.Allocate(1 << 20), b = *space.Allocate(2 << 20), c = *space.Allocate(3 << 20);
  EXPECT_EQ(a, AddressSpace::kFirst);
  EXPECT_GT(b, a);
  EXPECT_GT(c, b);
  space.Free(a);
  space.Free(b);
  // a and b (with their guard pages) merged: 3 MiB fits where they were.
  EXPECT_EQ(*space.Allocate(3 << 20), a);
  // A space that ends early (a 36-bit GTT) runs out.
  AddressSpace small(AddressSpace::kFirst + 8 * AddressSpace::kPage);
  EXPECT_TRUE(small.Allocate(7 * AddressSpace::kPage).has_value());
  EXPECT_FALSE(small.Allocate(1).has_value());
}

TEST(IntelI915, SelfTestFillAndCopyOnARealGpu) {
  std::string why_not;
  std::unique_ptr<Channel> channel = OpenI915Channel(&why_not);
  if (!channel) GTEST_SKIP() << "no usable i915 GPU here: " << why_not;
  IntelTransfers transfers(std::move(channel), 0);
  ASSERT_TRUE(transfers.SelfTest());
  Pages pages(1 << 20);
  std::mt19937 rng(9);
  pages.Randomize(rng);
  std::vector<std::byte> expected(pages.data(), pages.data() + pages.size());
  const std::byte pattern[4] = {std::byte{9}, std::byte{8}, std::byte{7}, std::byte{6}};
  raster::FillPattern(expected.data() + 4096, 300000, pattern, 4);
  std::memmove(expected.data() + 600001, expected.data() + 4099, 200000);
  ASSERT_TRUE(transfers.Fill(pages.At(4096), 300000, pattern));
  ASSERT_TRUE(transfers.Copy(pages.At(600001), pages.At(4099), 200000));
  EXPECT_EQ(std::memcmp(pages.data(), expected.data(), pages.size()), 0);
}

}  // namespace
}  // namespace duet::intel_rcs

// The present engine's copy of a presented image into the frame it shows,
// done by the Intel GPU's blitter (here its simulator): the first frame and
// declared damage go to the GPU, the content diff stays on the CPU, and the
// backend sees the application's pixels either way.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstring>
#include <vector>

#include "backends/intel_rcs/simulated_channel.h"
#include "backends/intel_rcs/transfers.h"
#include "wsi/present_engine.h"

namespace duet::wsi {
namespace {

// Keeps a copy of every frame it is given.
class RecordingOutput : public framebuffer::Output {
 public:
  explicit RecordingOutput(std::vector<std::vector<std::byte>>* frames) : frames_(frames) {}
  framebuffer::Status Present(const framebuffer::Frame& frame, std::span<const framebuffer::Rect>) override {
    frames_->emplace_back(frame.pixels, frame.pixels + frame.stride * frame.height);
    return framebuffer::Status::kOk;
  }

 private:
  std::vector<std::vector<std::byte>>* frames_;
};

TEST(WsiPresentGpuCopy, FirstFrameAndDeclaredDamageAreCopiedByTheBlitter) {
  constexpr uint32_t kWidth = 320, kHeight = 200;
  constexpr size_t kPitch = kWidth * 4, kBytes = kPitch * kHeight;
  const size_t length = (kBytes + 4095) / 4096 * 4096;
  void* mapping = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapping, MAP_FAILED);
  auto* pixels = static_cast<std::byte*>(mapping);

  auto channel = std::make_unique<intel_rcs::SimulatedChannel>(intel_rcs::Generation::kGen12);
  intel_rcs::SimulatedChannel* sim = channel.get();
  intel_rcs::IntelTransfers gpu(std::move(channel), 0);
  ASSERT_TRUE(gpu.SelfTest());

  std::vector<std::vector<std::byte>> frames;
  {
    EngineConfig config;
    config.mode = VK_PRESENT_MODE_FIFO_KHR;
    config.extent = {kWidth, kHeight};
    config.gpu = &gpu;
    std::vector<EngineImage> images{{pixels, kPitch, intel_rcs::HostPlace{{pixels, length}, 0}}};
    PresentEngine engine(config, images, std::make_unique<RecordingOutput>(&frames));
    uint64_t present_id = 0;
    auto present = [&](uint8_t seed, std::vector<framebuffer::Rect> declared, bool has_declared) {
      uint32_t index = 99;
      ASSERT_EQ(engine.Acquire(UINT64_MAX, &index), VK_SUCCESS);
      for (size_t i = 0; i < kBytes; ++i) pixels[i] = std::byte(uint8_t(i * 13 + seed));
      engine.Queue(index, VK_PRESENT_MODE_FIFO_KHR, std::move(declared), has_declared, {}, ++present_id);
      engine.Ready(index, false);
      // Reached once the backend has shown it (the image is free before that).
      ASSERT_EQ(engine.WaitPresented(present_id, 10'000'000'000ull), VK_SUCCESS);
    };
    const size_t batches = sim->Results().size();
    present(1, {}, false);  // the first frame: all of it on the GPU
    ASSERT_EQ(frames.size(), 1u);
    EXPECT_EQ(std::memcmp(frames[0].data(), pixels, kBytes), 0);
    EXPECT_EQ(sim->Results().size(), batches + 1);

    present(2, {{10, 20, 100, 50}}, true);  // declared damage: that rectangle on the GPU
    ASSERT_EQ(frames.size(), 2u);
    for (uint32_t y = 0; y < kHeight; ++y) {
      const bool inside_rows = y >= 20 && y < 70;
      const size_t row = y * kPitch;
      if (inside_rows) {
        ASSERT_EQ(std::memcmp(frames[1].data() + row + 40, pixels + row + 40, 400), 0) << "row " << y;
        ASSERT_EQ(std::memcmp(frames[1].data() + row, frames[0].data() + row, 40), 0) << "row " << y;
      } else {
        ASSERT_EQ(std::memcmp(frames[1].data() + row, frames[0].data() + row, kPitch), 0) << "row " << y;
      }
    }
    EXPECT_EQ(sim->Results().size(), batches + 2);

    present(3, {}, false);  // undeclared: the content diff, on the CPU
    ASSERT_EQ(frames.size(), 3u);
    EXPECT_EQ(std::memcmp(frames[2].data(), pixels, kBytes), 0);
    EXPECT_EQ(sim->Results().size(), batches + 2);
  }
  EXPECT_TRUE(gpu.enabled());
  munmap(mapping, length);
}

}  // namespace
}  // namespace duet::wsi

// The virtio-gpu backend over a device model (tests/support): displays from
// GET_DISPLAY_INFO and EDID, frames as transfers of what changed and flips
// between two resources, fences before pages are rewritten, mode-set
// failure, unplug, and a swapchain's last frame staying up after it goes.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "backends/virtio_gpu/displays.h"
#include "backends/virtio_gpu/queue_channel.h"
#include "backends/virtio_gpu/scanout_output.h"
#include "backends/virtio_gpu/stats.h"
#include "backends/virtio_gpu/transfer_plan.h"
#include "support/virtio_gpu_device_model.h"
#include "wsi/damage.h"
#include "wsi/present_engine.h"

namespace duet::virtio_gpu {
namespace {

using framebuffer::Extent;
using framebuffer::Frame;
using framebuffer::Status;
using testing::DeviceModel;

struct Picture {
  uint32_t width, height;
  std::vector<std::byte> pixels;
  Picture(uint32_t w, uint32_t h) : width(w), height(h), pixels(size_t{w} * h * 4) {}
  void Fill(const Rect& r, uint32_t bgra) {
    for (uint32_t y = r.y; y < r.y + r.height; ++y)
      for (uint32_t x = r.x; x < r.x + r.width; ++x)
        for (int c = 0; c < 4; ++c) pixels[(size_t{y} * width + x) * 4 + c] = std::byte(bgra >> (8 * c));
  }
  Frame AsFrame() const { return {pixels.data(), width, height, size_t{width} * 4, framebuffer::PixelFormat::kBgra8888}; }
  // What a B8G8R8X8 scanout of it shows (the alpha byte is not defined there).
  std::vector<uint8_t> Shown() const {
    std::vector<uint8_t> out(pixels.size());
    for (size_t i = 0; i < pixels.size(); ++i) out[i] = std::to_integer<uint8_t>(pixels[i]);
    return out;
  }
};

std::vector<uint8_t> WithoutAlpha(std::vector<uint8_t> v) {
  for (size_t i = 3; i < v.size(); i += 4) v[i] = 0;
  return v;
}

class VirtioGpuOutput : public ::testing::Test {
 protected:
  VirtioGpuOutput() {
    model_.scanouts[0] = {true, {0, 0, 64, 48}, 0, {}};
    gpu_ = std::make_shared<VirtioGpu>(std::make_unique<QueueChannel>(&model_));
  }

  std::unique_ptr<ScanoutOutput> MakeOutput(Extent extent, uint32_t scanout = 0) {
    auto output = std::make_unique<ScanoutOutput>(gpu_, scanout, extent);
    EXPECT_TRUE(output->Start());
    return output;
  }

  void ExpectOnScreen(const Picture& p, uint32_t scanout = 0) {
    EXPECT_EQ(WithoutAlpha(model_.Screen(scanout)), WithoutAlpha(p.Shown()));
  }

  DeviceModel model_;
  std::shared_ptr<VirtioGpu> gpu_;
};

TEST_F(VirtioGpuOutput, FirstFrameFillsBothResourcesThenOnlyChangesTravel) {
  auto output = MakeOutput({64, 48});
  EXPECT_EQ(model_.Count(VIRTIO_GPU_CMD_RESOURCE_CREATE_2D), 2u);
  EXPECT_EQ(model_.Count(VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING), 2u);
  Picture p(64, 48);
  p.Fill({0, 0, 64, 48}, 0xff204060);
  const Rect all{0, 0, 64, 48};
  ASSERT_EQ(output->Present(p.AsFrame(), std::span(&all, 1)), Status::kOk);
  std::vector<Command> transfers = model_.Since(0, VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D);
  ASSERT_EQ(transfers.size(), 2u);  // the whole frame into each resource
  EXPECT_NE(transfers[0].resource_id, transfers[1].resource_id);
  for (const Command& t : transfers) EXPECT_EQ(t.rect, all);
  ExpectOnScreen(p);
  EXPECT_EQ(model_.pending(), 0u);

  // Second frame: one small rectangle changed -> one transfer of exactly it,
  // into the resource not on screen, then a flip to it and a flush of it.
  const uint32_t first_resource = model_.scanouts[0].resource;
  size_t mark = model_.commands.size();
  const Rect small{10, 8, 5, 4};
  p.Fill(small, 0xffff0000);
  ASSERT_EQ(output->Present(p.AsFrame(), std::span(&small, 1)), Status::kOk);
  transfers = model_.Since(mark, VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D);
  ASSERT_EQ(transfers.size(), 1u);
  EXPECT_EQ(transfers[0].rect, small);
  EXPECT_EQ(transfers[0].offset, 8u * 64 * 4 + 10 * 4);
  EXPECT_NE(transfers[0].resource_id, first_resource);
  EXPECT_EQ(model_.scanouts[0].resource, transfers[0].resource_id);
  const std::vector<Command> flushes = model_.Since(mark, VIRTIO_GPU_CMD_RESOURCE_FLUSH);
  ASSERT_EQ(flushes.size(), 1u);
  EXPECT_EQ(flushes[0].rect, small);
  EXPECT_TRUE(flushes[0].header.flags & VIRTIO_GPU_FLAG_FENCE);
  ExpectOnScreen(p);

  // Third frame identical: nothing at all goes to the device but the unplug check.
  mark = model_.commands.size();
  ASSERT_EQ(output->Present(p.AsFrame(), {}), Status::kOk);
  EXPECT_EQ(model_.Since(mark, VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D).size(), 0u);
  EXPECT_EQ(model_.Since(mark, VIRTIO_GPU_CMD_RESOURCE_FLUSH).size(), 0u);
  EXPECT_EQ(model_.Since(mark, VIRTIO_GPU_CMD_SET_SCANOUT).size(), 0u);

  // Fourth: the first resource catches up with frames two and four.
  mark = model_.commands.size();
  const Rect other{40, 30, 8, 8};
  p.Fill(other, 0xff00ff00);
  ASSERT_EQ(output->Present(p.AsFrame(), std::span(&other, 1)), Status::kOk);
  transfers = model_.Since(mark, VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D);
  ASSERT_EQ(transfers.size(), 2u);
  EXPECT_EQ(transfers[0].resource_id, first_resource);
  EXPECT_EQ(transfers[0].rect, small);
  EXPECT_EQ(transfers[1].rect, other);
  ExpectOnScreen(p);
  EXPECT_EQ(model_.torn_reads, 0);
  EXPECT_EQ(model_.errors, 0);
  EXPECT_EQ(model_.malformed, 0);
}

TEST_F(VirtioGpuOutput, RandomDamageAlwaysShowsTheFrameWithoutTornReads) {
  auto output = MakeOutput({64, 48});
  std::mt19937 random(11);
  Picture p(64, 48);
  const Rect all{0, 0, 64, 48};
  ASSERT_EQ(output->Present(p.AsFrame(), std::span(&all, 1)), Status::kOk);
  const Counts before = CurrentCounts();
  uint64_t damaged_bytes = 0;
  for (int frame = 0; frame < 60; ++frame) {
    std::vector<Rect> damage;
    for (uint32_t n = random() % 4; n > 0; --n) {
      Rect r{uint32_t(random() % 60), uint32_t(random() % 44), 1 + uint32_t(random() % 20), 1 + uint32_t(random() % 20)};
      r = framebuffer::ClipRect(r, {64, 48});
      p.Fill(r, static_cast<uint32_t>(random()));
      damage.push_back(r);
    }
    const std::vector<Rect> merged = MergeRects(damage, {64, 48});
    for (const Rect& r : merged) damaged_bytes += r.Area() * 4;
    ASSERT_EQ(output->Present(p.AsFrame(), merged), Status::kOk);
    ExpectOnScreen(p);
    ASSERT_EQ(model_.pending(), 0u) << "a present returned before the host read its pages";
  }
  EXPECT_EQ(model_.torn_reads, 0);
  const Counts after = CurrentCounts();
  // Each resource catches up with two frames of damage: at most twice the damage travels.
  EXPECT_LE(after.bytes - before.bytes, 2 * damaged_bytes);
  EXPECT_GT(after.fence_waits, before.fence_waits);
}

TEST_F(VirtioGpuOutput, TheModelCatchesPagesRewrittenBeforeTheHostReadThem) {
  // The check the tests above rely on: writing pages under a pending
  // transfer is seen.
  QueueChannel channel(&model_);
  Backing backing;
  const uint32_t resource = channel.CreateResource(8, 8, &backing);
  ASSERT_NE(resource, 0u);
  ASSERT_TRUE(channel.TransferToHost2D(resource, {0, 0, 8, 8}, 0));
  backing.pixels[5] = std::byte{1};
  uint64_t fence = 0;
  ASSERT_TRUE(channel.Flush(resource, {0, 0, 8, 8}, &fence));
  ASSERT_TRUE(channel.WaitFence(fence));
  EXPECT_EQ(model_.torn_reads, 1);
}

TEST_F(VirtioGpuOutput, RefusedModeSetKeepsTheOldFrameAndIsOutOfDate) {
  auto first = MakeOutput({64, 48});
  Picture p(64, 48);
  p.Fill({0, 0, 64, 48}, 0xff123456);
  const Rect all{0, 0, 64, 48};
  ASSERT_EQ(first->Present(p.AsFrame(), std::span(&all, 1)), Status::kOk);
  const uint32_t shown = model_.scanouts[0].resource;

  model_.refuse_scanout = [](const Command& c) { return c.rect.width == 32; };
  auto second = MakeOutput({32, 32});
  Picture q(32, 32);
  const Rect all_q{0, 0, 32, 32};
  EXPECT_EQ(second->Present(q.AsFrame(), std::span(&all_q, 1)), Status::kOutOfDate);
  EXPECT_EQ(model_.scanouts[0].resource, shown);
  // The old swapchain goes, as an application does after OUT_OF_DATE: its frame stays up.
  first.reset();
  second.reset();
  EXPECT_EQ(model_.scanouts[0].resource, shown);
  ExpectOnScreen(p);
  EXPECT_EQ(model_.resources.size(), 1u);  // only the resource on screen is left
}

TEST_F(VirtioGpuOutput, ANewSwapchainReplacesTheOldOnesLastFrame) {
  auto first = MakeOutput({64, 48});
  Picture p(64, 48);
  const Rect all{0, 0, 64, 48};
  ASSERT_EQ(first->Present(p.AsFrame(), std::span(&all, 1)), Status::kOk);
  first.reset();
  EXPECT_EQ(model_.resources.size(), 1u);
  EXPECT_EQ(model_.Count(VIRTIO_GPU_CMD_RESOURCE_UNREF), 1u);

  auto second = MakeOutput({64, 48});
  p.Fill({0, 0, 64, 48}, 0xff00ffff);
  ASSERT_EQ(second->Present(p.AsFrame(), std::span(&all, 1)), Status::kOk);
  ExpectOnScreen(p);
  EXPECT_EQ(model_.resources.size(), 2u);  // the old one went once it left the screen
  EXPECT_EQ(model_.Count(VIRTIO_GPU_CMD_RESOURCE_UNREF), 2u);
}

TEST_F(VirtioGpuOutput, UnpluggedScanoutIsLost) {
  ScanoutTarget target(gpu_, 0, {64, 48, 60000, true});
  std::optional<Extent> extent;
  EXPECT_EQ(target.CurrentExtent(&extent), Status::kOk);
  EXPECT_EQ(extent, (Extent{64, 48}));
  EXPECT_EQ(target.RefreshInterval(), 16'666'666u);
  auto output = target.CreateOutput({64, 48}, framebuffer::PixelFormat::kBgra8888);
  ASSERT_NE(output, nullptr);
  model_.scanouts[0].enabled = false;
  Picture p(64, 48);
  const Rect all{0, 0, 64, 48};
  EXPECT_EQ(output->Present(p.AsFrame(), std::span(&all, 1)), Status::kLost);
  EXPECT_EQ(target.CurrentExtent(&extent), Status::kLost);
}

TEST_F(VirtioGpuOutput, ResourceCreationFailureFailsTheOutput) {
  model_.scanouts[0].enabled = true;
  ScanoutOutput output(gpu_, 0, {0, 48});  // the device refuses an empty resource
  EXPECT_FALSE(output.Start());
}

TEST(VirtioGpuDisplays, EveryEnabledScanoutIsADisplayNamedByItsEdid) {
  DeviceModel model;
  model.scanouts[0] = {true, {0, 0, 1280, 800}, 0, {}};
  model.scanouts[1] = {false, {}, 0, {}};
  model.scanouts[2] = {true, {0, 0, 800, 600}, 0, {}};
  // scanout 0 gets an EDID with a 1024x768 timing and a name.
  std::vector<uint8_t> edid(128);
  const uint8_t header[8] = {0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0};
  std::copy(std::begin(header), std::end(header), edid.begin());
  edid[21] = 30;
  edid[22] = 20;
  uint8_t* d = &edid[54];
  d[0] = 6500 & 0xff;
  d[1] = 6500 >> 8;
  d[2] = 0;
  d[3] = 64;
  d[4] = 4 << 4 | 1;  // 1024 active, 320 blank
  d[5] = 0;
  d[6] = 38;
  d[7] = 3 << 4;  // 768 active
  uint8_t* n = &edid[72];
  n[3] = 0xfc;
  const char name[] = "Model\n";
  for (size_t i = 0; i < 13; ++i) n[5 + i] = i < sizeof name - 1 ? static_cast<uint8_t>(name[i]) : ' ';
  unsigned sum = 0;
  for (size_t i = 0; i < 127; ++i) sum += edid[i];
  edid[127] = static_cast<uint8_t>(256 - sum % 256);
  model.scanouts[0].edid = edid;

  VirtioGpu gpu(std::make_unique<QueueChannel>(&model));
  const std::vector<Display> displays = EnumerateDisplays(gpu);
  ASSERT_EQ(displays.size(), 2u);
  EXPECT_EQ(displays[0].scanout, 0u);
  EXPECT_EQ(displays[0].name, "Model (virtio-gpu scanout 0)");
  EXPECT_EQ(displays[0].width_mm, 300u);
  ASSERT_EQ(displays[0].modes.size(), 2u);
  EXPECT_EQ(displays[0].modes[0], (Mode{1280, 800, 60000, true}));  // the host's size first
  EXPECT_EQ(displays[0].modes[1].width, 1024u);
  EXPECT_FALSE(displays[0].modes[1].preferred);
  EXPECT_EQ(displays[1].scanout, 2u);
  EXPECT_EQ(displays[1].name, "virtio-gpu (virtio-gpu scanout 2)");
  ASSERT_EQ(displays[1].modes.size(), 1u);
  EXPECT_EQ(displays[1].modes[0], (Mode{800, 600, 60000, true}));
}

TEST(VirtioGpuDisplays, TwoScanoutsShowTheirOwnFrames) {
  DeviceModel model;
  model.scanouts[0] = {true, {0, 0, 32, 32}, 0, {}};
  model.scanouts[1] = {true, {0, 0, 16, 16}, 0, {}};
  auto gpu = std::make_shared<VirtioGpu>(std::make_unique<QueueChannel>(&model));
  ScanoutOutput a(gpu, 0, {32, 32}), b(gpu, 1, {16, 16});
  ASSERT_TRUE(a.Start());
  ASSERT_TRUE(b.Start());
  Picture pa(32, 32), pb(16, 16);
  pa.Fill({0, 0, 32, 32}, 0xff0000ff);
  pb.Fill({0, 0, 16, 16}, 0xffff0000);
  const Rect ra{0, 0, 32, 32}, rb{0, 0, 16, 16};
  ASSERT_EQ(a.Present(pa.AsFrame(), std::span(&ra, 1)), Status::kOk);
  ASSERT_EQ(b.Present(pb.AsFrame(), std::span(&rb, 1)), Status::kOk);
  EXPECT_EQ(WithoutAlpha(model.Screen(0)), WithoutAlpha(pa.Shown()));
  EXPECT_EQ(WithoutAlpha(model.Screen(1)), WithoutAlpha(pb.Shown()));
}

// The WSI side: a refused mode set reaches the swapchain as out of date.
TEST_F(VirtioGpuOutput, PresentEngineReportsARefusedModeSetAsOutOfDate) {
  model_.refuse_scanout = [](const Command&) { return true; };
  auto output = MakeOutput({64, 48});
  Picture image(64, 48);
  wsi::EngineConfig config;
  config.mode = VK_PRESENT_MODE_IMMEDIATE_KHR;
  config.extent = {64, 48};
  wsi::PresentEngine engine(config, {{image.pixels.data(), size_t{64} * 4}, {image.pixels.data(), size_t{64} * 4}},
                            std::move(output));
  uint32_t index = 0;
  ASSERT_EQ(engine.Acquire(UINT64_MAX, &index), VK_SUCCESS);
  engine.Queue(index, VK_PRESENT_MODE_IMMEDIATE_KHR, {}, false, nullptr);
  engine.Ready(index, false);
  // The image is free before the backend has it: wait for the engine's verdict.
  for (int i = 0; i < 500 && !engine.out_of_date(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(engine.out_of_date());
  EXPECT_FALSE(engine.lost());
}

}  // namespace
}  // namespace duet::virtio_gpu

// The virtio-gpu 2D protocol encoding (backends/virtio_gpu/protocol), the
// damage-to-transfer plan (transfer_plan) and the EDID reader (edid).
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "backends/virtio_gpu/edid.h"
#include "backends/virtio_gpu/protocol.h"
#include "backends/virtio_gpu/transfer_plan.h"

namespace duet::virtio_gpu {
namespace {

uint32_t Le32(const std::vector<std::byte>& b, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::to_integer<uint32_t>(b[at + i]) << (8 * i);
  return v;
}
uint64_t Le64(const std::vector<std::byte>& b, size_t at) { return Le32(b, at) | uint64_t{Le32(b, at + 4)} << 32; }

TEST(VirtioGpuProtocol, TransferToHost2DHasTheSpecificationsLayout) {
  Command c;
  c.header.type = VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D;
  c.header.flags = VIRTIO_GPU_FLAG_FENCE;
  c.header.fence_id = 0x1122334455667788ull;
  c.rect = {10, 20, 30, 40};
  c.offset = 0xAABBCCDD01ull;
  c.resource_id = 7;
  const std::vector<std::byte> b = EncodeCommand(c);
  ASSERT_EQ(b.size(), 56u);  // struct virtio_gpu_transfer_to_host_2d
  EXPECT_EQ(Le32(b, 0), 0x0105u);
  EXPECT_EQ(Le32(b, 4), 1u);
  EXPECT_EQ(Le64(b, 8), 0x1122334455667788ull);
  EXPECT_EQ(Le32(b, 16), 0u);  // ctx_id
  EXPECT_EQ(Le32(b, 20), 0u);  // ring_idx + padding
  EXPECT_EQ(Le32(b, 24), 10u);
  EXPECT_EQ(Le32(b, 28), 20u);
  EXPECT_EQ(Le32(b, 32), 30u);
  EXPECT_EQ(Le32(b, 36), 40u);
  EXPECT_EQ(Le64(b, 40), 0xAABBCCDD01ull);
  EXPECT_EQ(Le32(b, 48), 7u);
  EXPECT_EQ(Le32(b, 52), 0u);
}

TEST(VirtioGpuProtocol, SetScanoutAndAttachBackingLayouts) {
  Command s;
  s.header.type = VIRTIO_GPU_CMD_SET_SCANOUT;
  s.rect = {0, 0, 640, 480};
  s.scanout_id = 1;
  s.resource_id = 9;
  std::vector<std::byte> b = EncodeCommand(s);
  ASSERT_EQ(b.size(), 48u);
  EXPECT_EQ(Le32(b, 32), 640u);
  EXPECT_EQ(Le32(b, 40), 1u);  // scanout_id before resource_id
  EXPECT_EQ(Le32(b, 44), 9u);

  Command a;
  a.header.type = VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING;
  a.resource_id = 3;
  a.entries = {{0x1000, 4096}, {0x9000, 8192}};
  b = EncodeCommand(a);
  ASSERT_EQ(b.size(), 32u + 2 * 16u);
  EXPECT_EQ(Le32(b, 24), 3u);
  EXPECT_EQ(Le32(b, 28), 2u);
  EXPECT_EQ(Le64(b, 48), 0x9000u);
  EXPECT_EQ(Le32(b, 56), 8192u);
}

TEST(VirtioGpuProtocol, EveryCommandDecodesToWhatWasEncoded) {
  const uint32_t types[] = {VIRTIO_GPU_CMD_GET_DISPLAY_INFO,        VIRTIO_GPU_CMD_RESOURCE_CREATE_2D,
                            VIRTIO_GPU_CMD_RESOURCE_UNREF,           VIRTIO_GPU_CMD_SET_SCANOUT,
                            VIRTIO_GPU_CMD_RESOURCE_FLUSH,           VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D,
                            VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING, VIRTIO_GPU_CMD_RESOURCE_DETACH_BACKING,
                            VIRTIO_GPU_CMD_GET_EDID};
  for (uint32_t type : types) {
    Command c;
    c.header = {type, 1, 42, 0, 0};
    c.rect = {1, 2, 3, 4};
    c.resource_id = 5;
    c.scanout_id = 6;
    c.format = 2;
    c.width = 7;
    c.height = 8;
    c.offset = 9;
    c.entries = {{10, 11}};
    const std::vector<std::byte> bytes = EncodeCommand(c);
    const std::optional<Command> d = DecodeCommand(bytes);
    ASSERT_TRUE(d.has_value()) << TypeName(type);
    EXPECT_EQ(d->header.type, type);
    EXPECT_EQ(d->header.fence_id, 42u);
    EXPECT_EQ(EncodeCommand(*d), bytes) << TypeName(type);
    // One byte short of its struct is not a command.
    EXPECT_FALSE(DecodeCommand(std::span(bytes).first(bytes.size() - 1)).has_value()) << TypeName(type);
  }
  EXPECT_TRUE(EncodeCommand(Command{}).empty());
}

TEST(VirtioGpuProtocol, DisplayInfoAndEdidResponsesRoundTrip) {
  Response r;
  r.header.type = VIRTIO_GPU_RESP_OK_DISPLAY_INFO;
  r.displays[0] = {{0, 0, 1024, 768}, true, 0};
  r.displays[3] = {{0, 0, 800, 600}, true, 0};
  std::vector<std::byte> b = EncodeResponse(r);
  ASSERT_EQ(b.size(), 24u + 16 * 24);
  EXPECT_EQ(Le32(b, 24 + 3 * 24 + 8), 800u);
  EXPECT_EQ(Le32(b, 24 + 3 * 24 + 16), 1u);  // enabled
  std::optional<Response> d = DecodeResponse(b);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->displays[3].enabled);
  EXPECT_FALSE(d->displays[2].enabled);
  EXPECT_EQ(d->displays[0].rect, (Rect{0, 0, 1024, 768}));

  Response e;
  e.header.type = VIRTIO_GPU_RESP_OK_EDID;
  e.edid = {1, 2, 3};
  b = EncodeResponse(e);
  ASSERT_EQ(b.size(), 32u + 1024);
  EXPECT_EQ(Le32(b, 24), 3u);
  d = DecodeResponse(b);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->edid, (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_FALSE(DecodeResponse(std::span(b).first(100)).has_value());
}

// Every pixel of the union covered exactly once by MergeRects' output.
void ExpectExactUnion(const std::vector<Rect>& in, Extent extent) {
  const std::vector<Rect> out = MergeRects(in, extent);
  std::vector<int> want(size_t{extent.width} * extent.height), got(want.size());
  for (const Rect& r : in)
    for (uint32_t y = r.y; y < std::min(r.y + r.height, extent.height); ++y)
      for (uint32_t x = r.x; x < std::min(r.x + r.width, extent.width); ++x) want[size_t{y} * extent.width + x] = 1;
  for (const Rect& r : out) {
    ASSERT_LE(r.x + r.width, extent.width);
    ASSERT_LE(r.y + r.height, extent.height);
    ASSERT_GT(r.Area(), 0u);
    for (uint32_t y = r.y; y < r.y + r.height; ++y)
      for (uint32_t x = r.x; x < r.x + r.width; ++x) ++got[size_t{y} * extent.width + x];
  }
  EXPECT_EQ(got, want);
}

TEST(VirtioGpuTransferPlan, MergedRectanglesCoverTheUnionOnce) {
  const Extent extent{64, 48};
  ExpectExactUnion({{0, 0, 10, 10}, {5, 5, 10, 10}}, extent);
  ExpectExactUnion({{60, 40, 10, 10}, {0, 0, 0, 5}}, extent);  // clipped, empty
  std::mt19937 random(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<Rect> rects(1 + random() % 6);
    for (Rect& r : rects) r = {uint32_t(random() % 64), uint32_t(random() % 48), uint32_t(random() % 30), uint32_t(random() % 30)};
    ExpectExactUnion(rects, extent);
  }
}

TEST(VirtioGpuTransferPlan, BandsWithTheSameColumnsJoin) {
  // Two rectangles stacked with the same columns, and one inside another: one each.
  EXPECT_EQ(MergeRects(std::vector<Rect>{{8, 0, 16, 16}, {8, 16, 16, 16}}, {64, 64}),
            (std::vector<Rect>{{8, 0, 16, 32}}));
  EXPECT_EQ(MergeRects(std::vector<Rect>{{0, 0, 64, 64}, {5, 5, 2, 2}}, {64, 64}), (std::vector<Rect>{{0, 0, 64, 64}}));
  // Apart on one row: two rectangles, not their bounds.
  EXPECT_EQ(MergeRects(std::vector<Rect>{{0, 0, 4, 4}, {40, 0, 4, 4}}, {64, 64}).size(), 2u);
  EXPECT_EQ(Bounds(std::vector<Rect>{{0, 0, 4, 4}, {40, 10, 4, 4}}), (Rect{0, 0, 44, 14}));
}

TEST(VirtioGpuTransferPlan, CoalescedBandsOfADiscAreOneBox) {
  // The bands a changed disc leaves: widths growing then shrinking.
  std::vector<Rect> bands;
  const uint32_t widths[] = {40, 52, 60, 64, 64, 60, 52, 40};
  for (uint32_t i = 0; i < 8; ++i) bands.push_back({100 - widths[i] / 2, 16 * i, widths[i], 16});
  const std::vector<Rect> merged = MergeRects(bands, {200, 200});
  ASSERT_EQ(merged.size(), 7u);  // the two equal middle bands are one already
  const std::vector<Rect> boxes = CoalesceRects(merged);
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_EQ(boxes[0], (Rect{68, 0, 64, 128}));
}

TEST(VirtioGpuTransferPlan, CoalescingKeepsFarApartChangesApartAndNeverOverlaps) {
  // A short line on the left above a column on the right: their bounds are mostly unchanged pixels.
  EXPECT_EQ(CoalesceRects(std::vector<Rect>{{0, 0, 4, 1}, {60, 1, 4, 64}}).size(), 2u);
  std::mt19937 random(3);
  for (int round = 0; round < 300; ++round) {
    std::vector<Rect> rects(1 + random() % 8);
    for (Rect& r : rects) r = {uint32_t(random() % 64), uint32_t(random() % 48), 1 + uint32_t(random() % 16), 1 + uint32_t(random() % 16)};
    const std::vector<Rect> merged = MergeRects(rects, {64, 48});
    const std::vector<Rect> boxes = CoalesceRects(merged);
    std::vector<int> covered(64 * 48);
    for (const Rect& b : boxes)
      for (uint32_t y = b.y; y < b.y + b.height; ++y)
        for (uint32_t x = b.x; x < b.x + b.width; ++x) ASSERT_EQ(++covered[y * 64 + x], 1) << "boxes overlap";
    for (const Rect& m : merged)
      for (uint32_t y = m.y; y < m.y + m.height; ++y)
        for (uint32_t x = m.x; x < m.x + m.width; ++x) ASSERT_EQ(covered[y * 64 + x], 1) << "a change is left out";
    EXPECT_LE(boxes.size(), merged.size());
  }
}

TEST(VirtioGpuTransferPlan, BoxOffsetIsRowTimesStridePlusColumn) {
  const TransferBox box = BoxFor({100, 80, 40, 30}, 640 * 4);
  EXPECT_EQ(box.offset, 80u * 640 * 4 + 100 * 4);
  EXPECT_EQ(box.box, (Rect{100, 80, 40, 30}));
}

// A base EDID block: 47 x 30 cm, one detailed timing (1024x768, 65 MHz,
// 1344x806 total: 60.004 Hz) and a monitor name descriptor.
std::vector<uint8_t> TestEdid(const char* name) {
  std::vector<uint8_t> e(128);
  const uint8_t header[8] = {0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0};
  std::copy(std::begin(header), std::end(header), e.begin());
  e[18] = 1;
  e[19] = 4;
  e[21] = 47;
  e[22] = 30;
  uint8_t* d = &e[54];
  d[0] = 6500 & 0xff;  // pixel clock / 10 kHz
  d[1] = 6500 >> 8;
  d[2] = 1024 & 0xff;
  d[3] = 320 & 0xff;  // h blank
  d[4] = (1024 >> 8) << 4 | (320 >> 8);
  d[5] = 768 & 0xff;
  d[6] = 38;  // v blank
  d[7] = (768 >> 8) << 4;
  uint8_t* n = &e[72];
  n[3] = 0xfc;
  size_t i = 0;
  for (; name[i] != 0 && i < 13; ++i) n[5 + i] = static_cast<uint8_t>(name[i]);
  if (i < 13) n[5 + i++] = 0x0a;
  for (; i < 13; ++i) n[5 + i] = ' ';
  e[90 + 3] = 0x10;  // dummy descriptors
  e[108 + 3] = 0x10;
  e[127] = static_cast<uint8_t>(256 - std::accumulate(e.begin(), e.end() - 1, 0u) % 256);
  return e;
}

TEST(VirtioGpuEdid, NameSizeAndDetailedTiming) {
  const std::optional<EdidInfo> info = ParseEdid(TestEdid("QEMU Monitor"));
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->monitor_name, "QEMU Monitor");
  EXPECT_EQ(info->width_mm, 470u);
  EXPECT_EQ(info->height_mm, 300u);
  ASSERT_EQ(info->modes.size(), 1u);
  EXPECT_EQ(info->modes[0].width, 1024u);
  EXPECT_EQ(info->modes[0].height, 768u);
  EXPECT_EQ(info->modes[0].refresh_millihertz, 60003u);  // 65 MHz / (1344 * 806), truncated
  EXPECT_TRUE(info->modes[0].preferred);
}

TEST(VirtioGpuEdid, RejectsBadChecksumHeaderAndShortBlocks) {
  std::vector<uint8_t> e = TestEdid("X");
  e[127] ^= 1;
  EXPECT_FALSE(ParseEdid(e).has_value());
  e = TestEdid("X");
  e[0] = 1;
  EXPECT_FALSE(ParseEdid(e).has_value());
  e = TestEdid("X");
  EXPECT_FALSE(ParseEdid(std::span(e).first(127)).has_value());
}

}  // namespace
}  // namespace duet::virtio_gpu

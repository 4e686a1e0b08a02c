// A load-op clear leaves alone the tiles its image is known to hold the
// clear's texel in since the last one (raster/known_clear.h), and forgets
// what it knew when anything else may have written the image. Sentinel
// texels the clears cannot know of show which tiles they write.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "objects/image.h"
#include "raster/deferred_clear.h"
#include "raster/known_clear.h"
#include "raster/tile_raster.h"

namespace duet::raster {
namespace {

constexpr uint32_t kSize = 2 * kTileSize;  // 2x2 tiles
constexpr uint32_t kSentinel = 0x12345678u;

class KnownClearTest : public ::testing::Test {
 protected:
  void SetUp() override {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = VK_FORMAT_R8G8B8A8_UNORM;
    info.extent = {kSize, kSize, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    ASSERT_TRUE(texel::ComputeImageLayout(info, &image_.layout));
    bytes_.assign(image_.layout.size, std::byte{0});
    memory_.size = bytes_.size();
    memory_.data = bytes_.data();
    memory_.bound_resources = 1;
    image_.format = info.format;
    image_.extent = info.extent;
    image_.memory = &memory_;
    view_.image = &image_;
    view_.format = info.format;
    view_.range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  }

  uint32_t& Texel(uint32_t x, uint32_t y) {
    return *reinterpret_cast<uint32_t*>(bytes_.data() + (size_t(y) * kSize + x) * 4);
  }
  // Puts a sentinel in the middle of every tile.
  void MarkTiles() {
    for (uint32_t ty = 0; ty < 2; ++ty)
      for (uint32_t tx = 0; tx < 2; ++tx) Texel(tx * kTileSize + 9, ty * kTileSize + 9) = kSentinel;
  }
  bool Marked(uint32_t tx, uint32_t ty) { return Texel(tx * kTileSize + 9, ty * kTileSize + 9) == kSentinel; }

  // One render pass instance clearing the whole image to `color` (stored),
  // drawing in the tiles of `drawn` (x, y), with samples passing in those of
  // `wrote`.
  void Render(const VkClearColorValue& color, std::vector<std::pair<int32_t, int32_t>> drawn = {},
              std::vector<std::pair<int32_t, int32_t>> wrote = {}) {
    DeferredClears clears(&image_writes_);
    VkClearValue value;
    value.color = color;
    clears.Add(view_, VK_IMAGE_ASPECT_COLOR_BIT, value, {{0, 0}, {kSize, kSize}}, LayerSet{0, 0, 1});
    clears.UseTiles(kTileSize);
    for (auto [tx, ty] : drawn) clears.ClearTile(tx * kTileSize, ty * kTileSize, true);
    for (auto [tx, ty] : wrote) clears.DrawWrote(tx * kTileSize, ty * kTileSize);
    clears.End();
  }

  std::vector<std::byte> bytes_;
  DeviceMemory memory_;
  Image image_;
  ImageView view_;
  std::atomic<uint64_t> image_writes_{0};
};

constexpr VkClearColorValue kRed{{1.0f, 0.0f, 0.0f, 1.0f}};
constexpr VkClearColorValue kBlue{{0.0f, 0.0f, 1.0f, 1.0f}};
constexpr uint32_t kRedTexel = 0xFF0000FFu;

TEST_F(KnownClearTest, TilesHoldingTheClearAreNotWrittenAgain) {
  MarkTiles();
  Render(kRed);
  for (uint32_t t = 0; t < 4; ++t) EXPECT_FALSE(Marked(t % 2, t / 2)) << "nothing is known yet: tile " << t;
  EXPECT_EQ(Texel(0, 0), kRedTexel);
  EXPECT_EQ(Texel(kSize - 1, kSize - 1), kRedTexel);
  // Every tile holds red now. The next instance draws in tiles (0, 0) and
  // (1, 0), and writes in (0, 0) only (in (1, 0) no sample passed).
  MarkTiles();
  Render(kRed, {{0, 0}, {1, 0}}, {{0, 0}});
  for (uint32_t t = 0; t < 4; ++t) EXPECT_TRUE(Marked(t % 2, t / 2)) << "known to hold red: tile " << t;
  // Now all but (0, 0) are known.
  Texel(0, 0) = 0;
  MarkTiles();
  Render(kRed);
  EXPECT_FALSE(Marked(0, 0)) << "a draw wrote in this tile";
  EXPECT_EQ(Texel(0, 0), kRedTexel);
  EXPECT_TRUE(Marked(1, 0)) << "nothing wrote in this tile since it was cleared";
  EXPECT_TRUE(Marked(0, 1));
  EXPECT_TRUE(Marked(1, 1));
}

TEST_F(KnownClearTest, AnotherValueClearsEveryTile) {
  Render(kRed);
  Render(kRed);
  MarkTiles();
  Render(kBlue);
  for (uint32_t t = 0; t < 4; ++t) EXPECT_FALSE(Marked(t % 2, t / 2)) << "tile " << t;
  EXPECT_EQ(Texel(1, 1), 0xFFFF0000u);
}

TEST_F(KnownClearTest, CountedImageWritesForgetWhatIsKnown) {
  Render(kRed);
  Render(kRed);
  MarkTiles();
  ++image_writes_;  // a copy, a blit, a dispatch... replayed in between
  Render(kRed);
  for (uint32_t t = 0; t < 4; ++t) EXPECT_FALSE(Marked(t % 2, t / 2)) << "tile " << t;
}

TEST_F(KnownClearTest, OtherWritersForgetWhatIsKnown) {
  Render(kRed);
  Render(kRed);
  MarkTiles();
  ForgetKnownClear(image_);  // a render pass instance writing the image otherwise
  Render(kRed);
  for (uint32_t t = 0; t < 4; ++t) EXPECT_FALSE(Marked(t % 2, t / 2)) << "tile " << t;
}

TEST_F(KnownClearTest, AFlushedClearLeavesNothingKnown) {
  Render(kRed);
  {
    // vkCmdClearAttachments (or the next subpass) writes the pending clear
    // early; whatever follows is not followed.
    DeferredClears clears(&image_writes_);
    VkClearValue value;
    value.color = kRed;
    clears.Add(view_, VK_IMAGE_ASPECT_COLOR_BIT, value, {{0, 0}, {kSize, kSize}}, LayerSet{0, 0, 1});
    clears.Flush();
  }
  MarkTiles();
  Render(kRed);
  for (uint32_t t = 0; t < 4; ++t) EXPECT_FALSE(Marked(t % 2, t / 2)) << "tile " << t;
}

TEST_F(KnownClearTest, OnlyWholeUnsharedUnmappedStoredClearsAreFollowed) {
  const VkRect2D whole{{0, 0}, {kSize, kSize}};
  const LayerSet one{0, 0, 1};
  EXPECT_TRUE(FollowsClear(view_, VK_IMAGE_ASPECT_COLOR_BIT, whole, one, true));
  EXPECT_FALSE(FollowsClear(view_, VK_IMAGE_ASPECT_COLOR_BIT, whole, one, false)) << "not stored";
  EXPECT_FALSE(FollowsClear(view_, VK_IMAGE_ASPECT_COLOR_BIT, {{0, 0}, {kSize, kSize - 1}}, one, true));
  EXPECT_FALSE(FollowsClear(view_, VK_IMAGE_ASPECT_COLOR_BIT, whole, LayerSet{1, 0, 0}, true)) << "multiview";
  memory_.bound_resources = 2;
  EXPECT_FALSE(FollowsClear(view_, VK_IMAGE_ASPECT_COLOR_BIT, whole, one, true)) << "shared memory";
  memory_.bound_resources = 1;
  memory_.ever_mapped = true;
  EXPECT_FALSE(FollowsClear(view_, VK_IMAGE_ASPECT_COLOR_BIT, whole, one, true)) << "the host may write it";
}

}  // namespace
}  // namespace duet::raster

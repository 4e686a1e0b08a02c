// The content diff behind damage-aware present (icd/wsi/damage).
#include "wsi/damage.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace duet::wsi {
namespace {

struct Frames {
  uint32_t width, height;
  std::vector<std::byte> frame, previous;
  Frames(uint32_t w, uint32_t h) : width(w), height(h), frame(size_t{w} * h * 4), previous(size_t{w} * h * 4) {}
  void Set(uint32_t x, uint32_t y, uint8_t value) { frame[(size_t{y} * width + x) * 4 + 1] = std::byte{value}; }
  DamageResult Diff() {
    return DiffAndUpdate(frame.data(), size_t{width} * 4, previous.data(), size_t{width} * 4, width, height);
  }
};

TEST(WsiDamage, IdenticalFramesHaveNoDamage) {
  Frames f(100, 50);
  const DamageResult d = f.Diff();
  EXPECT_TRUE(d.rects.empty());
  EXPECT_EQ(d.pixels, 0u);
  EXPECT_EQ(d.bands, 0u);
}

TEST(WsiDamage, OnePixelIsOneExactRectangle) {
  Frames f(100, 50);
  f.Set(37, 21, 9);
  const DamageResult d = f.Diff();
  ASSERT_EQ(d.rects.size(), 1u);
  EXPECT_EQ(d.rects[0], (Rect{37, 21, 1, 1}));
  EXPECT_EQ(d.pixels, 1u);
  EXPECT_EQ(d.bands, 1u);
  EXPECT_EQ(f.frame, f.previous);
  EXPECT_TRUE(f.Diff().rects.empty());  // previous now matches
}

TEST(WsiDamage, FarApartChangesInOneBandStaySeparate) {
  Frames f(300, 16);
  f.Set(2, 3, 1);
  f.Set(290, 12, 1);
  const DamageResult d = f.Diff();
  ASSERT_EQ(d.rects.size(), 2u);
  EXPECT_EQ(d.rects[0], (Rect{2, 3, 1, 1}));
  EXPECT_EQ(d.rects[1], (Rect{290, 12, 1, 1}));
}

TEST(WsiDamage, NearbyChangesJoin) {
  Frames f(300, 16);
  f.Set(10, 3, 1);
  f.Set(20, 5, 1);
  const DamageResult d = f.Diff();
  ASSERT_EQ(d.rects.size(), 1u);
  EXPECT_EQ(d.rects[0], (Rect{10, 3, 11, 3}));
}

TEST(WsiDamage, FullChangeIsOneRectangle) {
  Frames f(77, 53);
  for (uint32_t y = 0; y < f.height; ++y)
    for (uint32_t x = 0; x < f.width; ++x) f.Set(x, y, 200);
  const DamageResult d = f.Diff();
  ASSERT_EQ(d.rects.size(), 1u);
  EXPECT_EQ(d.rects[0], (Rect{0, 0, 77, 53}));
  EXPECT_EQ(d.pixels, 77u * 53u);
  EXPECT_EQ(d.bands, 4u);
  EXPECT_EQ(f.frame, f.previous);
}

TEST(WsiDamage, ChangesInSeveralBandsCoverEveryChangedPixel) {
  Frames f(128, 128);
  // A diagonal line: every band changes, at different columns.
  for (uint32_t i = 0; i < 128; ++i) f.Set(i, i, 7);
  const DamageResult d = f.Diff();
  EXPECT_EQ(d.bands, 8u);
  uint64_t covered = 0;
  for (uint32_t i = 0; i < 128; ++i)
    for (const Rect& r : d.rects)
      if (i >= r.x && i < r.x + r.width && i >= r.y && i < r.y + r.height) {
        ++covered;
        break;
      }
  EXPECT_EQ(covered, 128u);
  // Rectangles do not overlap.
  for (size_t a = 0; a < d.rects.size(); ++a)
    for (size_t b = a + 1; b < d.rects.size(); ++b) {
      const Rect& p = d.rects[a];
      const Rect& q = d.rects[b];
      const bool overlap = p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;
      EXPECT_FALSE(overlap) << a << " and " << b;
    }
  EXPECT_EQ(f.frame, f.previous);
}

TEST(WsiDamage, DeclaredRectanglesAreClippedAndCopied) {
  Frames f(20, 20);
  for (uint32_t x = 0; x < 20; ++x) f.Set(x, 0, 5);
  const Rect declared[] = {{18, 0, 10, 1}};
  const DamageResult d = CopyDeclared(declared, f.frame.data(), 80, f.previous.data(), 80, 20, 20);
  ASSERT_EQ(d.rects.size(), 1u);
  EXPECT_EQ(d.rects[0], (Rect{18, 0, 2, 1}));
  EXPECT_EQ(f.previous[(18 * 4) + 1], std::byte{5});
  EXPECT_EQ(f.previous[(17 * 4) + 1], std::byte{0});  // not declared: not copied
}

}  // namespace
}  // namespace duet::wsi

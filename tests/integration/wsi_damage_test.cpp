// Damage-aware present, observed through DUET_STATS=1: each test re-runs
// itself in a child process (the counters print when the driver unloads)
// and checks the child's "duet stats: present" line.
#include "wsi_fixture.h"

namespace duet_test {
namespace {

constexpr Rgba kGrey{128, 128, 128, 255};
constexpr Rgba kWhite{255, 255, 255, 255};

class WsiDamage : public WsiTest {
 protected:
  // In the child: present each frame (a full clear plus dots) in order on a
  // 256x256 headless swapchain. In the parent: run the child, return its stats.
  std::map<std::string, uint64_t> PresentInChild(const std::vector<std::vector<Dot>>& frames,
                                                 const std::vector<std::string>& env = {}) {
    if (InWsiChild()) {
      VkSurfaceKHR surface = MakeHeadlessSurface();
      SwapchainOptions options;
      options.extent = {256, 256};
      VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
      EXPECT_NE(swapchain, VK_NULL_HANDLE);
      for (const std::vector<Dot>& dots : frames) {
        PresentFrame(swapchain, options, kGrey, dots);
        if (HasFatalFailure()) break;
      }
      return {};
    }
    std::vector<std::string> child_env = env;
    child_env.push_back("DUET_STATS=1");
    const ChildResult child = RunThisTestInChild(child_env);
    EXPECT_EQ(child.exit_code, 0) << child.output;
    std::map<std::string, uint64_t> stats = ParsePresentStats(child.output);
    EXPECT_FALSE(stats.empty()) << "no stats line in:\n" << child.output;
    return stats;
  }
};

TEST_F(WsiDamage, IdenticalFrameIsCleanAndTransfersNothing) {
  const auto stats = PresentInChild({{}, {}, {}});
  if (InWsiChild()) return;
  EXPECT_EQ(stats.at("frames"), 3u);
  EXPECT_EQ(stats.at("full"), 1u);  // the first frame
  EXPECT_EQ(stats.at("clean"), 2u);
  EXPECT_EQ(stats.at("partial"), 0u);
  EXPECT_EQ(stats.at("dirty_pixels"), 256u * 256u);
  EXPECT_EQ(stats.at("rects"), 1u);
}

TEST_F(WsiDamage, OnePixelChangeTransfersOneSmallRectangle) {
  const auto stats = PresentInChild({{}, {{100, 37, kWhite}}});
  if (InWsiChild()) return;
  EXPECT_EQ(stats.at("frames"), 2u);
  EXPECT_EQ(stats.at("partial"), 1u);
  EXPECT_EQ(stats.at("dirty_pixels"), 256u * 256u + 1u);
  EXPECT_EQ(stats.at("rects"), 2u);
  EXPECT_EQ(stats.at("bands"), 256u / 16u + 1u);
}

TEST_F(WsiDamage, FarApartChangesStaySeparateRectangles) {
  // Same band, far apart in x; and another band far below.
  const auto stats = PresentInChild({{}, {{3, 5, kWhite}, {250, 7, kWhite}, {128, 200, kWhite}}});
  if (InWsiChild()) return;
  EXPECT_EQ(stats.at("partial"), 1u);
  // Three 1x1 rectangles, not one spanning the two in the same band.
  EXPECT_EQ(stats.at("rects"), 1u + 3u);
  EXPECT_EQ(stats.at("dirty_pixels"), 256u * 256u + 3u);
  EXPECT_EQ(stats.at("bands"), 16u + 2u);
}

TEST_F(WsiDamage, ChangingBackAndForthIsPartialEachTime) {
  const auto stats = PresentInChild({{}, {{10, 10, kWhite}}, {}, {{10, 10, kWhite}}});
  if (InWsiChild()) return;
  EXPECT_EQ(stats.at("frames"), 4u);
  EXPECT_EQ(stats.at("partial"), 3u);
  EXPECT_EQ(stats.at("dirty_pixels"), 256u * 256u + 3u);
}

}  // namespace
}  // namespace duet_test

// The early depth tests of a whole 8x8 block (one call, vector code where
// the CPU has it) give the passes and writes of its sixteen quads tested
// one at a time, for every compare op, with and without depth writes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "raster/early_depth.h"

namespace duet::raster {
namespace {

constexpr size_t kPitch = 40 * 4;  // a 40-texel row: the block starts inside it

TEST(RasterEarlyDepth, BlockTestsEqualTheirQuads) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> unit(-0.25f, 1.25f);
  const float specials[] = {0.0f, 1.0f, 0.5f, -0.0f, std::numeric_limits<float>::quiet_NaN()};
  for (const DepthPlane plane : {DepthPlane::kFloat32, DepthPlane::kUnorm16}) {
    const size_t texel = plane == DepthPlane::kFloat32 ? 4 : 2;
    for (uint32_t op = 0; op < 8; ++op) {
      for (const bool write : {false, true}) {
        const EarlyDepthTests tests = ChooseEarlyDepthTests(plane, VkCompareOp(op), write);
        ASSERT_NE(tests.quad, nullptr);
        ASSERT_NE(tests.block, nullptr);
        for (int round = 0; round < 20; ++round) {
          // Stored depths, and the block's depths in wave lane order; some
          // equal to what is stored, some special.
          std::vector<std::byte> stored(kPitch * 10);
          std::vector<float> depth(64);
          for (size_t y = 0; y < 10; ++y)
            for (size_t x = 0; x < 40; ++x) {
              std::byte* at = stored.data() + y * kPitch + x * texel;
              if (texel == 4) {
                const float v = random() % 8 == 0 ? specials[random() % 4] : unit(random);
                std::memcpy(at, &v, 4);
              } else {
                const uint16_t v = uint16_t(random());
                std::memcpy(at, &v, 2);
              }
            }
          for (uint32_t l = 0; l < 64; ++l) {
            const uint32_t q = l / 4, x = 2 * (q % 4) + (l & 1), y = 2 * (q / 4) + ((l >> 1) & 1);
            const std::byte* at = stored.data() + (y + 1) * kPitch + (x + 3) * texel;
            float same = 0.0f;
            if (texel == 4) std::memcpy(&same, at, 4);
            const uint32_t kind = random() % 4;
            depth[l] = kind == 0 ? same : kind == 1 ? specials[random() % 5] : unit(random);
          }
          std::vector<std::byte> by_quads = stored, by_block = stored;
          uint64_t expected = 0;
          for (uint32_t q = 0; q < 16; ++q) {
            std::byte* at = by_quads.data() + (2 * (q / 4) + 1) * kPitch + (2 * (q % 4) + 3) * texel;
            expected |= uint64_t(tests.quad(at, kPitch, &depth[4 * q], 0xF)) << (4 * q);
          }
          const uint64_t got = tests.block(by_block.data() + kPitch + 3 * texel, kPitch, depth.data());
          EXPECT_EQ(got, expected) << "plane " << int(plane) << " op " << op << " write " << write;
          EXPECT_EQ(by_block, by_quads) << "plane " << int(plane) << " op " << op << " write " << write;
        }
      }
    }
  }
}

}  // namespace
}  // namespace duet::raster

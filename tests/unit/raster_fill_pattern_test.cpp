// FillPattern against the plain definition dst[i] = pattern[i % size]: every
// path (memset, wide register stores, streaming stores, block copies) for
// pattern sizes that tile 32 bytes and ones that do not, at every alignment
// of the destination, with the bytes around the range left alone.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "raster/fill_pattern.h"

namespace duet::raster {
namespace {

constexpr std::byte kGuard{0xA5};

std::vector<std::byte> Pattern(size_t size, uint32_t seed) {
  std::vector<std::byte> pattern(size);
  for (size_t i = 0; i < size; ++i) pattern[i] = std::byte((i * 37 + seed * 11 + 1) & 0xFF);
  return pattern;
}

// Fills [offset, offset + bytes) of a guarded buffer and checks every byte.
::testing::AssertionResult FillsExactly(size_t offset, size_t bytes, const std::vector<std::byte>& pattern) {
  constexpr size_t kSlack = 64;
  std::vector<std::byte> buffer(offset + bytes + kSlack, kGuard);
  FillPattern(buffer.data() + offset, bytes, pattern.data(), pattern.size());
  for (size_t i = 0; i < buffer.size(); ++i) {
    const bool inside = i >= offset && i < offset + bytes;
    const std::byte expected = inside ? pattern[(i - offset) % pattern.size()] : kGuard;
    if (buffer[i] != expected) {
      return ::testing::AssertionFailure()
             << "byte " << i << " (offset " << offset << ", " << bytes << " bytes, pattern of " << pattern.size()
             << ") is " << int(buffer[i]) << ", expected " << int(expected);
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(FillPattern, EveryPatternSizeAlignmentAndLength) {
  for (size_t size : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}) {
    const std::vector<std::byte> pattern = Pattern(size, uint32_t(size));
    for (size_t offset = 0; offset < 33; ++offset)
      for (size_t bytes : {size_t{0}, size_t{1}, size_t{5}, size_t{31}, size_t{32}, size_t{33}, size_t{100},
                           size_t{127}, size_t{128}, size_t{129}, size_t{4096 + 17}, size_t{3 * 4096 + 100}})
        ASSERT_TRUE(FillsExactly(offset, bytes, pattern));
  }
}

TEST(FillPattern, RepeatedBytePatternsAreMemsets) {
  const std::vector<std::byte> zeros(4, std::byte{0}), sevens(16, std::byte{7});
  EXPECT_TRUE(FillsExactly(3, 1000, zeros));
  EXPECT_TRUE(FillsExactly(0, 4096, sevens));
}

TEST(FillPattern, LargeFillsStreamPastTheCaches) {
  // Past the streaming threshold (16 MiB), at an unaligned start and with a
  // tail that is not a whole line.
  const size_t bytes = (size_t{17} << 20) + 45;
  for (size_t size : {4, 8, 16, 12}) EXPECT_TRUE(FillsExactly(7, bytes, Pattern(size, 3))) << "pattern of " << size;
}

TEST(FillPattern, HugePatternsAreCopiedWhole) {
  const std::vector<std::byte> pattern = Pattern(5000, 9);
  EXPECT_TRUE(FillsExactly(1, 12345, pattern));
}

}  // namespace
}  // namespace duet::raster

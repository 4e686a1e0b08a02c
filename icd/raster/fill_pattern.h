// Fills memory with a repeating pattern at memset speed: the pattern is
// repeated into a small block that stays in L1, and the block is copied
// over the destination, so every byte is written once and read from cache.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace duet::raster {

inline void FillPattern(std::byte* dst, size_t bytes, const std::byte* pattern, size_t pattern_size) {
  if (bytes == 0 || pattern_size == 0) return;
  // A pattern of one repeated byte (zero, most often) is a memset.
  if (std::all_of(pattern, pattern + pattern_size, [&](std::byte b) { return b == pattern[0]; })) {
    std::memset(dst, static_cast<int>(pattern[0]), bytes);
    return;
  }
  constexpr size_t kBlockTarget = 4096;
  alignas(64) std::byte block[kBlockTarget + 64];
  const size_t repeats = std::max<size_t>(1, kBlockTarget / pattern_size);
  const size_t block_size = std::min(repeats * pattern_size, sizeof block);
  if (pattern_size > sizeof block) {
    // Huge patterns (never in practice): copy them whole.
    for (size_t done = 0; done < bytes; done += pattern_size)
      std::memcpy(dst + done, pattern, std::min(pattern_size, bytes - done));
    return;
  }
  for (size_t at = 0; at + pattern_size <= block_size; at += pattern_size) std::memcpy(block + at, pattern, pattern_size);
  for (size_t done = 0; done < bytes; done += block_size) std::memcpy(dst + done, block, std::min(block_size, bytes - done));
}

}  // namespace duet::raster

// Fills memory with a repeating pattern at memcpy speed: write the pattern
// once, then keep doubling the filled span with memcpy.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace duet::raster {

inline void FillPattern(std::byte* dst, size_t bytes, const std::byte* pattern, size_t pattern_size) {
  if (bytes == 0) return;
  // A pattern of one repeated byte (zero, most often) is a memset, which
  // libc does with streaming stores.
  if (std::all_of(pattern, pattern + pattern_size, [&](std::byte b) { return b == pattern[0]; })) {
    std::memset(dst, static_cast<int>(pattern[0]), bytes);
    return;
  }
  size_t done = std::min(bytes, pattern_size);
  std::memcpy(dst, pattern, done);
  while (done < bytes) {
    const size_t n = std::min(done, bytes - done);
    std::memcpy(dst + done, dst, n);
    done += n;
  }
}

}  // namespace duet::raster

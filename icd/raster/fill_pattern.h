// Fills memory with a repeating pattern at memset speed: the pattern is
// repeated into a small block that stays in L1, and the block is copied
// over the destination, so every byte is written once and read from cache.
#pragma once

#include <emmintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace duet::raster {

inline void FillPattern(std::byte* dst, size_t bytes, const std::byte* pattern, size_t pattern_size) {
  if (bytes == 0 || pattern_size == 0) return;
  // A pattern of one repeated byte (zero, most often) is a memset.
  if (std::all_of(pattern, pattern + pattern_size, [&](std::byte b) { return b == pattern[0]; })) {
    std::memset(dst, static_cast<int>(pattern[0]), bytes);
    return;
  }
  // Large fills with a pattern that tiles 16 bytes: streaming stores, as
  // memset does, so the destination is not read into the cache first.
  constexpr size_t kStreamingThreshold = size_t{16} << 20;  // past the caches, as glibc decides
  if (bytes >= kStreamingThreshold && 16 % pattern_size == 0) {
    const size_t head = (16 - reinterpret_cast<uintptr_t>(dst) % 16) % 16;
    alignas(16) std::byte line[16];
    for (size_t i = 0; i < 16; ++i) line[i] = pattern[(head + i) % pattern_size];
    for (size_t i = 0; i < head; ++i) dst[i] = pattern[i % pattern_size];
    const __m128i value = _mm_load_si128(reinterpret_cast<const __m128i*>(line));
    std::byte* at = dst + head;
    const size_t lines = (bytes - head) / 16;
    for (size_t i = 0; i < lines; ++i) _mm_stream_si128(reinterpret_cast<__m128i*>(at + i * 16), value);
    _mm_sfence();
    for (size_t i = head + lines * 16; i < bytes; ++i) dst[i] = pattern[i % pattern_size];
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

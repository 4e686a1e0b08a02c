#include "raster/fill_pattern.h"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "util/cpu_features.h"

namespace duet::raster {
namespace {

// Past the caches (as glibc decides for memset): streaming stores, so the
// destination is not read into the cache first and does not evict it.
constexpr size_t kStreamingThreshold = size_t{16} << 20;

// The unit of the vector paths: one AVX2 register, two SSE2 ones.
constexpr size_t kLine = 32;

// One aligned store of a register: streaming (past the caches) or not.
template <bool kStream>
__attribute__((target("avx2"), always_inline)) inline void Store(__m256i* at, __m256i v) {
  if constexpr (kStream) {
    _mm256_stream_si256(at, v);
  } else {
    _mm256_store_si256(at, v);
  }
}

template <bool kStream>
inline void Store(__m128i* at, __m128i v) {
  if constexpr (kStream) {
    _mm_stream_si128(at, v);
  } else {
    _mm_store_si128(at, v);
  }
}

// `lines` aligned 32-byte lines at `dst`, each a copy of `line` (aligned).
// The loops store registers only: nothing for the compiler to turn back
// into a library call.
template <bool kStream>
__attribute__((target("avx2"))) void StoreLinesAvx2(std::byte* dst, size_t lines, const std::byte* line) {
  const __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i*>(line));
  auto* at = reinterpret_cast<__m256i*>(dst);
  size_t i = 0;
  for (; i + 4 <= lines; i += 4) {
    Store<kStream>(at + i, v);
    Store<kStream>(at + i + 1, v);
    Store<kStream>(at + i + 2, v);
    Store<kStream>(at + i + 3, v);
  }
  for (; i < lines; ++i) Store<kStream>(at + i, v);
  if constexpr (kStream) _mm_sfence();
  _mm256_zeroupper();
}

template <bool kStream>
void StoreLinesSse2(std::byte* dst, size_t lines, const std::byte* line) {
  const __m128i lo = _mm_load_si128(reinterpret_cast<const __m128i*>(line));
  const __m128i hi = _mm_load_si128(reinterpret_cast<const __m128i*>(line + 16));
  auto* at = reinterpret_cast<__m128i*>(dst);
  for (size_t i = 0; i < lines; ++i) {
    Store<kStream>(at + 2 * i, lo);
    Store<kStream>(at + 2 * i + 1, hi);
  }
  if constexpr (kStream) _mm_sfence();
}

// A pattern whose size divides kLine: unaligned head and tail bytes from a
// line in the pattern's phase, aligned whole lines in between.
void FillWithLines(std::byte* dst, size_t bytes, const std::byte* pattern, size_t pattern_size) {
  const size_t head = std::min(bytes, (kLine - reinterpret_cast<uintptr_t>(dst) % kLine) % kLine);
  // The line as the first aligned address sees it: it starts `head` bytes into the pattern.
  alignas(kLine) std::byte line[kLine];
  for (size_t i = 0; i < kLine; ++i) line[i] = pattern[(head + i) % pattern_size];
  for (size_t i = 0; i < head; ++i) dst[i] = pattern[i % pattern_size];
  const size_t lines = (bytes - head) / kLine;
  const bool stream = bytes >= kStreamingThreshold;
  if (CpuHasAvx2()) {
    (stream ? StoreLinesAvx2<true> : StoreLinesAvx2<false>)(dst + head, lines, line);
  } else {
    (stream ? StoreLinesSse2<true> : StoreLinesSse2<false>)(dst + head, lines, line);
  }
  // Whole lines keep the phase, so the tail starts at the line's beginning.
  const size_t done = head + lines * kLine;
  std::memcpy(dst + done, line, bytes - done);
}

// Any other pattern: copies of a ~4 KiB block of whole patterns.
void FillWithBlocks(std::byte* dst, size_t bytes, const std::byte* pattern, size_t pattern_size) {
  constexpr size_t kBlockTarget = 4096;
  alignas(64) std::byte block[kBlockTarget + 64];
  if (pattern_size > sizeof block) {
    // Huge patterns (never in practice): copy them whole.
    for (size_t done = 0; done < bytes; done += pattern_size)
      std::memcpy(dst + done, pattern, std::min(pattern_size, bytes - done));
    return;
  }
  const size_t repeats = std::max<size_t>(1, kBlockTarget / pattern_size);
  const size_t block_size = std::min(repeats * pattern_size, sizeof block);
  for (size_t at = 0; at + pattern_size <= block_size; at += pattern_size)
    std::memcpy(block + at, pattern, pattern_size);
  for (size_t done = 0; done < bytes; done += block_size)
    std::memcpy(dst + done, block, std::min(block_size, bytes - done));
}

}  // namespace

void FillPattern(std::byte* dst, size_t bytes, const std::byte* pattern, size_t pattern_size) {
  if (bytes == 0 || pattern_size == 0) return;
  // A pattern of one repeated byte (zero, most often) is a memset.
  if (std::all_of(pattern, pattern + pattern_size, [&](std::byte b) { return b == pattern[0]; })) {
    std::memset(dst, static_cast<int>(pattern[0]), bytes);
    return;
  }
  if (kLine % pattern_size == 0) {
    FillWithLines(dst, bytes, pattern, pattern_size);
  } else {
    FillWithBlocks(dst, bytes, pattern, pattern_size);
  }
}

}  // namespace duet::raster

// Fills memory with a repeating pattern at memset speed. A pattern of one
// repeated byte is a memset; a pattern whose size divides 32 bytes (every
// power-of-two texel up to 32 bytes, so every clear colour of those formats)
// is held in a vector register and stored in a plain loop of wide aligned
// stores (AVX2 where the CPU has it, SSE2 otherwise), streaming past the
// caches for large fills as memset does; any other pattern is repeated into
// a block that stays in L1 and the block is copied over the destination.
// Every byte of the destination is written once; the result is
// dst[i] = pattern[i % pattern_size].
#pragma once

#include <cstddef>

namespace duet::raster {

void FillPattern(std::byte* dst, size_t bytes, const std::byte* pattern, size_t pattern_size);

}  // namespace duet::raster

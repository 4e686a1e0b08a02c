// The hash of a pixel position and a seed that test fragment shaders use to
// make per-pixel patterns (Hash in logic_op_pattern.frag, input_write.frag),
// for the tests to compute the same values.
#pragma once

#include <cstdint>

namespace duet_test {

inline uint32_t PixelHash(uint32_t x, uint32_t y, uint32_t seed) {
  uint32_t h = (x * 0x9E3779B1u) ^ (y * 0x85EBCA77u) ^ (seed * 0xC2B2AE3Du);
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 13;
  return h;
}

}  // namespace duet_test

// Depth tests before shading: when a draw may run them (EarlyDepth), and
// the tests of one quad with one sample per pixel against a D16/D32
// attachment, specialised per depth plane and compare op.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

#include "raster/depth_plane.h"
#include "raster/fragment_output.h"
#include "spirv_exec/ir.h"

namespace duet::raster {

// How fragments may be tested against depth before shading.
enum class EarlyDepth : uint8_t {
  kNone,
  // The compare op only lets depth move one way and nothing else depends on
  // a failing fragment: a fragment that fails against the depth buffer now
  // fails later too, so it is dropped before shading (the late tests still run).
  kReject,
  // The shader declares EarlyFragmentTests, or it cannot drop a fragment or
  // change its depth (and kReject applies otherwise): all tests and writes
  // run before shading, colour writes after.
  kFull,
};

// The early depth tests `program` allows against `targets`.
EarlyDepth ChooseEarlyDepth(const spirv_exec::Program* program, const OutputTargets& targets);

// Tests (and with `write`, stores passing depths of) one quad: `at` is the
// depth texel of its top-left pixel, `pitch` the row pitch, `depth` the four
// pixels' depths (top row first), `coverage` bit i pixel i. Returns the
// passing pixels. D16 compares its codes (their order is the order of the
// values); no branch depends on the outcome. All four texels are read and,
// with `write`, written back: the quad must lie inside the attachment.
using EarlyQuadDepthFn = uint32_t (*)(std::byte* at, size_t pitch, const float* depth, uint32_t coverage);

// The same tests of the 16 quads of an 8x8 block at `at`, every pixel
// covered, `depth` in wave lane order (quads row by row, four pixels each
// as above). Returns the passing pixels, bit 4 * quad + pixel. The block
// must lie inside the attachment.
using EarlyBlockDepthFn = uint64_t (*)(std::byte* at, size_t pitch, const float* depth);

struct EarlyDepthTests {
  EarlyQuadDepthFn quad = nullptr;
  EarlyBlockDepthFn block = nullptr;
};

// The functions for a plane and compare op; nullptr for other planes.
EarlyDepthTests ChooseEarlyDepthTests(DepthPlane plane, VkCompareOp op, bool write);

}  // namespace duet::raster

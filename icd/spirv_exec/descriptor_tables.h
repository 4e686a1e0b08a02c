// What the kDescriptorArray and kImageArray roots of a program point to for
// one dispatch or draw (RootMemory::base holds a pointer to one of these):
// the descriptor records of whole bindings, which the interpreter reads per
// lane as the shader indexes them. Nothing a record points to is touched
// before a lane uses it, so partially bound arrays may hold descriptors of
// destroyed objects in the elements the shader does not use.
#pragma once

#include <cstdint>
#include <vector>

namespace duet {
struct Descriptor;
}

namespace duet::spirv_exec {

// Elements of one binding of a bound set (count 0: unbound).
struct DescriptorRange {
  const Descriptor* records = nullptr;
  uint32_t count = 0;
  const uint32_t* dynamic_offsets = nullptr;  // dynamic buffers: element i's offset
};

// A kImageArray use resolved: element i of `images` with element j of
// `samplers` (for a combined image sampler, j = i in the same records).
// A constant element is a range of one taken at element 0.
struct ImageArrayTable {
  DescriptorRange images;
  DescriptorRange samplers;
  bool combined = false;
  uint64_t serial = 0;  // unique per resolution: keys the interpreter's cache of sampled-image states
};

struct DescriptorTables {
  std::vector<DescriptorRange> buffers;  // kDescriptorArray roots
  std::vector<ImageArrayTable> images;   // kImageArray roots
};

}  // namespace duet::spirv_exec

#include <vector>

#include "spirv_exec/ir.h"

namespace duet::spirv_exec {
namespace {

template <typename T>
size_t Bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

}  // namespace

size_t ProgramHostBytes(const Program& p) {
  size_t bytes = Bytes(p.inputs) + Bytes(p.outputs) + Bytes(p.builtin_inputs) + Bytes(p.builtin_outputs) +
                 Bytes(p.code) + Bytes(p.steps) + Bytes(p.block_start) + Bytes(p.constants) +
                 Bytes(p.constant_outputs) + Bytes(p.roots) + Bytes(p.images) + Bytes(p.sampled_images) +
                 Bytes(p.sample_operands) + Bytes(p.switches) + Bytes(p.image_arrays) + Bytes(p.patch_fields) +
                 Bytes(p.xfb_outputs) + Bytes(p.prints);
  for (const SwitchTable& s : p.switches) bytes += Bytes(s.cases);
  for (const PrintCall& c : p.prints) bytes += c.format.capacity() + Bytes(c.arguments);
  return bytes;
}

}  // namespace duet::spirv_exec

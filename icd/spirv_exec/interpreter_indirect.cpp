#include "spirv_exec/interpreter_indirect.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "objects/descriptor_set.h"
#include "objects/memory.h"
#include "objects/sampler.h"
#include "spirv_exec/descriptor_tables.h"
#include "spirv_exec/interpreter_image.h"
#include "spirv_exec/interpreter_lanes.h"

namespace duet::spirv_exec {
namespace {

using lanes::ForActive;
using lanes::W;

// The table a kDescriptorArray / kImageArray root points to (resource_roots.cpp).
template <typename Table>
const Table* TableOf(const RootMemory& root) {
  return reinterpret_cast<const Table*>(root.base);
}

// Lanes whose stores reach memory: helper invocations' must not.
inline LaneMask Writers(const WaveState& w) { return w.active & ~(w.helpers | w.demoted); }

// The 64-bit address in registers a (low word) and a + 1 (high word).
inline uint64_t AddressAt(const uint32_t* low, const uint32_t* high, uint32_t lane) {
  return uint64_t(high[lane]) << 32 | low[lane];
}

// Byte `offset` of element `element` of a buffer binding, with room for
// `bytes`, or nullptr (robust buffer access).
std::byte* ElementAddress(const DescriptorRange* range, uint32_t element, uint32_t offset, uint32_t bytes) {
  if (range == nullptr || element >= range->count) return nullptr;
  const Descriptor& d = range->records[element];
  if (d.data == nullptr || uint64_t(offset) + bytes > std::min<uint64_t>(d.range, UINT32_MAX)) return nullptr;
  return d.data + (range->dynamic_offsets != nullptr ? range->dynamic_offsets[element] : 0) + offset;
}

// Sampled-image states of kImageArray elements, resolved on first use:
// resolving is costly, and every wave of a draw tends to sample the same few.
struct CachedSampledImage {
  uint64_t serial = 0;  // ImageArrayTable::serial; 0: empty
  uint32_t image = 0, sampler = 0;
  texel::SampledImageState state;
};

const texel::SampledImageState& SampledState(const ImageArrayTable& t, uint32_t image, uint32_t sampler) {
  static const texel::SampledImageState kUnbound{};
  if (image >= t.images.count || t.images.records[image].image_view == nullptr) return kUnbound;
  thread_local CachedSampledImage cache[4];
  CachedSampledImage& c = cache[(image * 7 + sampler) & 3];
  if (c.serial != t.serial || c.image != image || c.sampler != sampler) {
    const Sampler* s = sampler < t.samplers.count ? t.samplers.records[sampler].sampler : nullptr;
    texel::ResolveSampledImage(*t.images.records[image].image_view, s != nullptr ? &s->sampling : nullptr, &c.state);
    c.serial = t.serial;
    c.image = image;
    c.sampler = sampler;
  }
  return c.state;
}

}  // namespace

void IndirectAddresses(const Inst& in, const RootMemory* roots, WaveState& w, LaneMask lanes, std::byte** at,
                       uint32_t bytes) {
  const uint32_t* offset_or_low = w.Register(in.a);
  switch (in.op) {
    case Op::kLoadIndexed:
    case Op::kStoreIndexed:
    case Op::kAtomicIndexed: {
      const DescriptorRange* range = TableOf<DescriptorRange>(roots[in.aux]);
      const uint32_t element_register =
          in.op != Op::kAtomicIndexed ? in.ext : in.c + ((in.ext & kAtomicWide) != 0 ? 4 : 2);
      const uint32_t* element = w.Register(element_register);
      for (LaneMask m = lanes; m != 0; m &= m - 1) {
        const uint32_t l = uint32_t(std::countr_zero(m));
        at[l] = ElementAddress(range, element[l], offset_or_low[l] + in.b, bytes);
      }
      return;
    }
    default: {  // kLoadAddress, kStoreAddress, kAtomicAddress
      const uint32_t* high = w.Register(in.a + 1);
      const int64_t offset = int32_t(in.b);
      DeviceMemoryLookup memory;
      // Variable pointers into workgroup memory are addresses in it.
      const uint64_t workgroup = uint64_t(reinterpret_cast<uintptr_t>(w.workgroup_memory));
      for (LaneMask m = lanes; m != 0; m &= m - 1) {
        const uint32_t l = uint32_t(std::countr_zero(m));
        const uint64_t address = AddressAt(offset_or_low, high, l) + uint64_t(offset);
        const bool in_workgroup = address >= workgroup && address - workgroup < w.workgroup_memory_size &&
                                  w.workgroup_memory_size - (address - workgroup) >= bytes;
        at[l] = in_workgroup ? reinterpret_cast<std::byte*>(static_cast<uintptr_t>(address)) : memory.Host(address, bytes);
      }
      return;
    }
  }
}

// Where each lane's kLoadNarrow / kStoreNarrow goes, or nullptr.
void NarrowAddresses(const Inst& in, uint32_t access, const RootMemory* roots, WaveState& w, LaneMask lanes,
                     std::byte** at) {
  const uint32_t bytes = NarrowAccessBytes(access);
  const NarrowAddressing addressing = NarrowAccessAddressing(access);
  if (addressing != NarrowAddressing::kRoot) {
    Inst as = in;
    as.op = addressing == NarrowAddressing::kIndexed ? Op::kLoadIndexed : Op::kLoadAddress;
    IndirectAddresses(as, roots, w, lanes, at, bytes);
    return;
  }
  const RootMemory& m = roots[in.aux];
  const uint32_t* offset = w.Register(in.a);
  for (LaneMask left = lanes; left != 0; left &= left - 1) {
    const uint32_t l = uint32_t(std::countr_zero(left));
    const uint32_t o = offset[l] + in.b;
    at[l] = m.base != nullptr && uint64_t(o) + bytes <= m.range ? m.base + o : nullptr;
  }
}

void ExecuteIndirectMemory(const Inst& in, const RootMemory* roots, WaveState& w) {
  std::byte* at[W];
  switch (in.op) {
    case Op::kRootAddress: {  // into an element of a descriptor array
      const DescriptorRange* range = TableOf<DescriptorRange>(roots[in.aux]);
      const uint32_t* offset = in.a != kNoOperand ? w.Register(in.a) : nullptr;
      const uint32_t* element = w.Register(in.c);
      uint32_t* low = w.Register(in.dst);
      uint32_t* high = w.Register(in.dst + 1);
      for (LaneMask m = w.active; m != 0; m &= m - 1) {
        const uint32_t l = uint32_t(std::countr_zero(m));
        const std::byte* byte = ElementAddress(range, element[l], (offset != nullptr ? offset[l] : 0) + in.b, 1);
        const uint64_t address = uint64_t(reinterpret_cast<uintptr_t>(byte));
        low[l] = uint32_t(address);
        high[l] = uint32_t(address >> 32);
      }
      return;
    }
    case Op::kLoadNarrow: {
      const uint32_t bytes = NarrowAccessBytes(in.c);
      NarrowAddresses(in, in.c, roots, w, w.active, at);
      ForActive(w.active, w.Register(in.dst), [&](uint32_t l) {
        uint32_t v = 0;  // little-endian: the low bytes
        if (at[l] != nullptr) std::memcpy(&v, at[l], bytes);
        return v;
      });
      return;
    }
    case Op::kStoreNarrow: {
      const uint32_t bytes = NarrowAccessBytes(in.dst);
      const LaneMask writers = Writers(w);
      const uint32_t* value = w.Register(in.c);
      NarrowAddresses(in, in.dst, roots, w, writers, at);
      for (LaneMask m = writers; m != 0; m &= m - 1) {
        const uint32_t l = uint32_t(std::countr_zero(m));
        if (at[l] != nullptr) std::memcpy(at[l], &value[l], bytes);
      }
      return;
    }
    case Op::kAddressAdd: {
      const uint32_t* low = w.Register(in.a);
      const uint32_t* high = w.Register(in.a + 1);
      const uint32_t* offset = in.b != kNoOperand ? w.Register(in.b) : nullptr;
      uint32_t* dst_low = w.Register(in.dst);
      uint32_t* dst_high = w.Register(in.dst + 1);
      for (uint32_t l = 0; l < W; ++l) {
        if (((w.active >> l) & 1) == 0) continue;
        const int64_t add = int64_t(int32_t(in.c)) + (offset != nullptr ? int32_t(offset[l]) : 0);
        const uint64_t address = AddressAt(low, high, l) + uint64_t(add);
        dst_low[l] = uint32_t(address);
        dst_high[l] = uint32_t(address >> 32);
      }
      return;
    }
    case Op::kLoadIndexed:
    case Op::kLoadAddress:
      IndirectAddresses(in, roots, w, w.active, at);
      ForActive(w.active, w.Register(in.dst), [&](uint32_t l) {
        uint32_t v = 0;
        if (at[l] != nullptr) std::memcpy(&v, at[l], 4);
        return v;
      });
      return;
    case Op::kStoreIndexed:
    case Op::kStoreAddress: {
      const LaneMask writers = Writers(w);
      const uint32_t* value = w.Register(in.c);
      IndirectAddresses(in, roots, w, writers, at);
      for (LaneMask m = writers; m != 0; m &= m - 1) {
        const uint32_t l = uint32_t(std::countr_zero(m));
        if (at[l] != nullptr) std::memcpy(at[l], &value[l], 4);
      }
      return;
    }
    case Op::kArrayLengthIndexed: {
      const DescriptorRange* range = TableOf<DescriptorRange>(roots[in.aux]);
      const uint32_t* element = w.Register(in.c);
      ForActive(w.active, w.Register(in.dst), [&](uint32_t l) {
        if (range == nullptr || element[l] >= range->count) return 0u;
        const Descriptor& d = range->records[element[l]];
        const uint64_t bytes = d.data != nullptr ? std::min<uint64_t>(d.range, UINT32_MAX) : 0;
        return bytes > in.a ? uint32_t((bytes - in.a) / in.b) : 0u;
      });
      return;
    }
    default:
      return;
  }
}

void ExecuteImageArray(const Program& program, const Inst& prefix, const Inst& image_inst, const RootMemory* roots,
                       WaveState& w) {
  static const ImageArrayTable kUnbound{};
  const ImageArrayTable* found = TableOf<ImageArrayTable>(roots[prefix.aux]);
  const ImageArrayTable& t = found != nullptr ? *found : kUnbound;
  const uint32_t* image_element = prefix.a != kNoOperand ? w.Register(prefix.a) : nullptr;
  const uint32_t* sampler_element = prefix.b != kNoOperand ? w.Register(prefix.b) : nullptr;
  auto image_of = [&](uint32_t l) { return image_element != nullptr ? image_element[l] : 0u; };
  auto sampler_of = [&](uint32_t l) {
    return t.combined ? image_of(l) : sampler_element != nullptr ? sampler_element[l] : 0u;
  };
  const bool sampling = image_inst.op == Op::kImageSample;
  Inst inst = image_inst;
  inst.aux = 0;  // the one binding / sampled state passed below

  const LaneMask active = w.active;
  const bool writes = image_inst.op == Op::kImageWrite || image_inst.op == Op::kImageAtomic;
  LaneMask pending = writes ? Writers(w) : active;
  while (pending != 0) {
    // The lanes that use the same elements as the first pending lane.
    const uint32_t first = uint32_t(std::countr_zero(pending));
    const uint32_t image = image_of(first), sampler = sampler_of(first);
    LaneMask group = 0;
    for (LaneMask m = pending; m != 0; m &= m - 1) {
      const uint32_t l = uint32_t(std::countr_zero(m));
      if (image_of(l) == image && sampler_of(l) == sampler) group |= LaneMask{1} << l;
    }
    pending &= ~group;
    w.active = group;
    ImageBinding binding;
    if (image < t.images.count) {
      const Descriptor& d = t.images.records[image];
      binding = {d.image_view, d.buffer_view, d.sampler};
    }
    const texel::SampledImageState* state = sampling ? &SampledState(t, image, sampler) : nullptr;
    ExecuteImageInstruction(program, inst, &binding, state, w);
  }
  w.active = active;
}

}  // namespace duet::spirv_exec

// Memory and descriptors the interpreter reaches through per-lane values
// (see ir.h): elements of dynamically indexed descriptor arrays
// (k*Indexed, kImageArray) and buffer device addresses (k*Address).
#pragma once

#include <cstddef>

#include "spirv_exec/wave.h"

namespace duet::spirv_exec {

// kLoadIndexed, kStoreIndexed, kArrayLengthIndexed, kAddressAdd,
// kLoadAddress, kStoreAddress, kLoadNarrow and kStoreNarrow.
void ExecuteIndirectMemory(const Inst& inst, const RootMemory* roots, WaveState& wave);

// The 32-bit word each lane of `lanes` reaches with a kLoadIndexed,
// kStoreIndexed, kAtomicIndexed, kLoadAddress, kStoreAddress or
// kAtomicAddress: at[lane], or nullptr out of bounds.
void IndirectAddresses(const Inst& inst, const RootMemory* roots, WaveState& wave, LaneMask lanes, std::byte** at,
                       uint32_t bytes = 4);

// kImageArray: runs `image_inst`, the instruction after it, once per
// distinct element among the active lanes (the writing lanes for a write).
void ExecuteImageArray(const Program& program, const Inst& prefix, const Inst& image_inst, const RootMemory* roots,
                       WaveState& wave);

}  // namespace duet::spirv_exec

// OpBitcast from a vector of 8- or 16-bit components to fewer, wider
// components (f16vec2 -> uint, u8vec4 -> uint, f16vec4 -> uvec2),
// rewritten as per-component conversions, shifts and ors before the
// optimizer runs. SPIRV-Tools 2023.1 (Debian 12) folds such a bitcast of
// constants into a malformed constant holding one word per source
// component, so the packed value loses every component but the first.
#pragma once

#include <cstdint>
#include <vector>

namespace duet::spirv_exec {

// `words` must be a valid module. Returns it unchanged when it has no such
// bitcast.
std::vector<uint32_t> SpellOutNarrowVectorBitcasts(const std::vector<uint32_t>& words);

}  // namespace duet::spirv_exec

#include "pipeline_cache/stage_key.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace duet::pipeline_cache {

std::string StageKey::Hex() const {
  char text[33];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(high),
                static_cast<unsigned long long>(low));
  return text;
}

StageKey KeyOfStage(std::span<const uint32_t> words, const VkSpecializationInfo* specialization,
                    const spirv_exec::ValidationRules& rules, const char* entry, spirv_exec::ShaderStage stage,
                    uint32_t subgroup_size) {
  XXH3_state_t state;
  XXH3_128bits_reset(&state);
  auto add = [&state](const void* data, size_t size) { XXH3_128bits_update(&state, data, size); };
  auto add_u32 = [&add](uint32_t v) { add(&v, sizeof v); };
  add_u32(uint32_t(stage));
  add_u32(subgroup_size);
  add_u32(uint32_t(rules.uniform_buffer_standard_layout) | uint32_t(rules.scalar_block_layout) << 1 |
          uint32_t(rules.workgroup_scalar_block_layout) << 2);
  const size_t entry_length = std::strlen(entry);
  add_u32(uint32_t(entry_length));
  add(entry, entry_length);
  // The specialization by value: each constant's bytes in constant-id
  // order (the map's order and the data's layout do not matter; the last
  // entry for an id counts, as in PrepareModule).
  std::vector<const VkSpecializationMapEntry*> entries;
  if (specialization != nullptr)
    for (uint32_t i = 0; i < specialization->mapEntryCount; ++i) entries.push_back(&specialization->pMapEntries[i]);
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto* a, const auto* b) { return a->constantID < b->constantID; });
  add_u32(uint32_t(entries.size()));
  for (size_t i = 0; i < entries.size(); ++i) {
    const VkSpecializationMapEntry& e = *entries[i];
    if (i + 1 < entries.size() && entries[i + 1]->constantID == e.constantID) continue;
    add_u32(e.constantID);
    const bool inside = specialization->pData != nullptr && e.offset <= specialization->dataSize &&
                        e.size <= specialization->dataSize - e.offset;
    add_u32(inside ? uint32_t(e.size) : UINT32_MAX);
    if (inside) add(static_cast<const uint8_t*>(specialization->pData) + e.offset, e.size);
  }
  add(words.data(), words.size() * sizeof(uint32_t));
  const XXH128_hash_t h = XXH3_128bits_digest(&state);
  return {h.low64, h.high64};
}

}  // namespace duet::pipeline_cache

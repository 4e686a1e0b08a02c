// Small helpers for the shapes every Vulkan entry point shares: the
// two-call array idiom and pNext chains.
#pragma once

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "dispatch/extensions.h"

namespace duet {

// The "count, then fill" idiom: VK_INCOMPLETE when the caller's array is short.
template <typename T>
VkResult FillArray(std::span<const T> items, uint32_t* count, T* out) {
  if (out == nullptr) {
    *count = static_cast<uint32_t>(items.size());
    return VK_SUCCESS;
  }
  uint32_t n = std::min<uint32_t>(*count, static_cast<uint32_t>(items.size()));
  std::copy_n(items.begin(), n, out);
  *count = n;
  return n < items.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

template <typename T, size_t N>
VkResult FillArray(const T (&items)[N], uint32_t* count, T* out) {
  return FillArray(std::span<const T>(items, N), count, out);
}

inline VkResult EnumerateExtensions(std::span<const dispatch::ExtensionInfo> extensions, uint32_t* count,
                                    VkExtensionProperties* out) {
  std::vector<VkExtensionProperties> properties;
  for (const dispatch::ExtensionInfo& e : extensions) properties.push_back(e.properties);
  return FillArray(std::span<const VkExtensionProperties>(properties), count, out);
}

// The structs of one sType in a const pNext chain.
template <typename T>
std::vector<const T*> ChainOf(const void* next, VkStructureType type) {
  std::vector<const T*> found;
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s != nullptr; s = s->pNext)
    if (s->sType == type) found.push_back(reinterpret_cast<const T*>(s));
  return found;
}

// The first struct of one sType in a chain, or nullptr.
template <typename T>
const T* FindInChain(const void* next, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s != nullptr; s = s->pNext)
    if (s->sType == type) return reinterpret_cast<const T*>(s);
  return nullptr;
}

template <typename T>
T* FindInChain(void* next, VkStructureType type) {
  for (auto* s = static_cast<VkBaseOutStructure*>(next); s != nullptr; s = s->pNext)
    if (s->sType == type) return reinterpret_cast<T*>(s);
  return nullptr;
}

}  // namespace duet

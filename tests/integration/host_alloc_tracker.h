// VkAllocationCallbacks that track every allocation: what is live, how
// many were made, frees of pointers they never returned, bad alignments;
// and from a chosen allocation on they fail (return NULL).
#pragma once

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace duet_test {

struct HostAllocTracker {
  std::mutex mu;
  std::map<void*, size_t> live;
  size_t allocations = 0;
  size_t bad_frees = 0;
  size_t bad_alignments = 0;
  size_t fail_from = SIZE_MAX;  // allocations numbered from this one on return NULL
  // pfnInternalAllocation / pfnInternalFree: bytes reported live per type,
  // and frees that did not match a live report.
  std::map<VkInternalAllocationType, size_t> internal_live;
  size_t internal_reports = 0;
  size_t bad_internal_frees = 0;

  static void* Alloc(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
    auto* t = static_cast<HostAllocTracker*>(user);
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
      std::lock_guard<std::mutex> lock(t->mu);
      ++t->bad_alignments;
      return nullptr;
    }
    {
      std::lock_guard<std::mutex> lock(t->mu);
      if (t->allocations >= t->fail_from) {
        ++t->allocations;
        return nullptr;
      }
    }
    const size_t align = alignment < sizeof(void*) ? sizeof(void*) : alignment;
    void* p = std::aligned_alloc(align, (size + align - 1) / align * align);
    if (p == nullptr) return nullptr;
    std::lock_guard<std::mutex> lock(t->mu);
    t->live[p] = size;
    ++t->allocations;
    return p;
  }
  static void Free(void* user, void* mem) {
    if (mem == nullptr) return;
    auto* t = static_cast<HostAllocTracker*>(user);
    {
      std::lock_guard<std::mutex> lock(t->mu);
      auto it = t->live.find(mem);
      if (it == t->live.end()) {
        ++t->bad_frees;
        return;  // not ours: leak it rather than corrupt the heap
      }
      t->live.erase(it);
    }
    std::free(mem);
  }
  static void* Realloc(void* user, void* original, size_t size, size_t alignment, VkSystemAllocationScope scope) {
    auto* t = static_cast<HostAllocTracker*>(user);
    if (original == nullptr) return Alloc(user, size, alignment, scope);
    if (size == 0) {
      Free(user, original);
      return nullptr;
    }
    size_t old_size = 0;
    {
      std::lock_guard<std::mutex> lock(t->mu);
      auto it = t->live.find(original);
      if (it == t->live.end()) {
        ++t->bad_frees;
        return nullptr;
      }
      old_size = it->second;
    }
    void* p = Alloc(user, size, alignment, scope);
    if (p == nullptr) return nullptr;
    std::memcpy(p, original, old_size < size ? old_size : size);
    Free(user, original);
    return p;
  }
  static void InternalAlloc(void* user, size_t size, VkInternalAllocationType type, VkSystemAllocationScope) {
    auto* t = static_cast<HostAllocTracker*>(user);
    std::lock_guard<std::mutex> lock(t->mu);
    t->internal_live[type] += size;
    ++t->internal_reports;
  }
  static void InternalFree(void* user, size_t size, VkInternalAllocationType type, VkSystemAllocationScope) {
    auto* t = static_cast<HostAllocTracker*>(user);
    std::lock_guard<std::mutex> lock(t->mu);
    if (t->internal_live[type] < size) {
      ++t->bad_internal_frees;
      return;
    }
    t->internal_live[type] -= size;
  }
  VkAllocationCallbacks Callbacks() {
    VkAllocationCallbacks cb{};
    cb.pUserData = this;
    cb.pfnAllocation = &Alloc;
    cb.pfnReallocation = &Realloc;
    cb.pfnFree = &Free;
    cb.pfnInternalAllocation = &InternalAlloc;
    cb.pfnInternalFree = &InternalFree;
    return cb;
  }
};

// Runs `attempt` with the tracker's allocations failing from its 1st one
// on, then from its 2nd, and so on until it returns VK_SUCCESS; every other
// result must be VK_ERROR_OUT_OF_HOST_MEMORY. Returns how many tries failed.
template <typename Attempt>
size_t FailEachAllocationInTurn(HostAllocTracker& tracker, Attempt attempt, size_t max_tries = 64) {
  for (size_t n = 0; n < max_tries; ++n) {
    {
      std::lock_guard<std::mutex> lock(tracker.mu);
      tracker.fail_from = tracker.allocations + n;
    }
    const VkResult r = attempt();
    {
      std::lock_guard<std::mutex> lock(tracker.mu);
      tracker.fail_from = SIZE_MAX;
    }
    if (r == VK_SUCCESS) return n;
    EXPECT_EQ(r, VK_ERROR_OUT_OF_HOST_MEMORY) << "try " << n;
  }
  ADD_FAILURE() << "no try succeeded in " << max_tries;
  return max_tries;
}

}  // namespace duet_test

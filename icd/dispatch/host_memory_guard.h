// The entry points the loader calls return VK_ERROR_OUT_OF_HOST_MEMORY when
// the C++ allocator gives out (std::bad_alloc, or a size past what a
// container may hold) inside a command that returns a VkResult, instead of
// letting the exception leave the driver and end the application. The entry
// point table (generated: dispatch/entrypoints.cpp) holds
// HostMemoryGuard<&api::X>::Call for every such command; commands returning
// void are not guarded.
#pragma once

#include <vulkan/vulkan_core.h>

#include <new>
#include <stdexcept>

namespace duet::dispatch {

template <auto kFunction>
struct HostMemoryGuard;

template <typename... Args, VkResult (*kFunction)(Args...)>
struct HostMemoryGuard<kFunction> {
  static VKAPI_ATTR VkResult VKAPI_CALL Call(Args... args) noexcept {
    try {
      return kFunction(args...);
    } catch (const std::bad_alloc&) {
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    } catch (const std::length_error&) {
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
  }
};

}  // namespace duet::dispatch

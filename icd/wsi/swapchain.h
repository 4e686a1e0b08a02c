// VkSwapchainKHR: ordinary Images (objects/image.h) with memory the
// swapchain allocates, and the PresentEngine that shows them.
#pragma once

#include <vulkan/vulkan_core.h>

#include <atomic>
#include <memory>
#include <memory_resource>
#include <vector>

#include "util/host_alloc.h"
#include "util/object.h"
#include "wsi/present_engine.h"

namespace duet {

struct Device;

namespace wsi {

struct Surface;

struct Swapchain : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkSwapchainKHR, VK_OBJECT_TYPE_SWAPCHAIN_KHR);

  explicit Swapchain(const VkAllocationCallbacks* allocator)
      : NonDispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) {}

  HostMemoryResource memory;  // the arrays below
  Device* device = nullptr;
  Surface* surface = nullptr;
  VkExtent2D extent{};
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkPresentModeKHR present_mode = VK_PRESENT_MODE_FIFO_KHR;  // of the latest present
  // The modes presents may switch between (VkSwapchainPresentModesCreateInfoEXT;
  // else just the create info's): all mutually compatible.
  std::pmr::vector<VkPresentModeKHR> present_modes{&memory};
  std::pmr::vector<VkImage> images{&memory};
  std::pmr::vector<VkDeviceMemory> memories{&memory};
  // Shared with presents still queued on a queue thread, which may outlive
  // a swapchain destroyed too early (they then only free their image).
  std::shared_ptr<PresentEngine> engine;
  // Set when a newer swapchain named this one as oldSwapchain.
  std::atomic<bool> retired{false};

  // VK_SUCCESS, VK_SUBOPTIMAL_KHR (the window's size changed; frames are
  // still shown, clipped), VK_ERROR_OUT_OF_DATE_KHR (retired, or the window
  // has no area) or VK_ERROR_SURFACE_LOST_KHR.
  VkResult SurfaceStatus() const;
};

}  // namespace wsi
}  // namespace duet

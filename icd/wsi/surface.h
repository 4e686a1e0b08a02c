// VkSurfaceKHR: the driver creates its own surfaces (loader interface 3+),
// one per window, file or display plane, each wrapping a framebuffer
// backend Target. The platform files (surface_headless, surface_x11,
// surface_wayland, surface_display) create them; surface.cpp answers the
// queries every kind shares.
#pragma once

#include <vulkan/vulkan_core.h>

#include <memory>
#include <span>

#include "backends/framebuffer/framebuffer.h"
#include "util/object.h"

namespace duet {

struct Instance;

namespace wsi {

struct Surface : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkSurfaceKHR, VK_OBJECT_TYPE_SURFACE_KHR);

  Surface() : NonDispatchableObject(kObjectType) {}

  const char* kind = "";  // for messages: "headless", "xcb", ...
  std::unique_ptr<framebuffer::Target> target;
};

// Wraps `target` in a new surface owned by the instance's allocator (or pAllocator).
VkResult CreateSurface(VkInstance instance, const VkAllocationCallbacks* allocator, const char* kind,
                       std::unique_ptr<framebuffer::Target> target, VkSurfaceKHR* surface);

// The formats every surface offers, best first, and their pixel byte order.
std::span<const VkSurfaceFormatKHR> SurfaceFormats();
bool IsSurfaceFormat(VkFormat format, VkColorSpaceKHR color_space);
framebuffer::PixelFormat PixelFormatOf(VkFormat format);

std::span<const VkPresentModeKHR> PresentModes();

// Fills the capabilities; VK_ERROR_SURFACE_LOST_KHR when the window is gone.
VkResult GetSurfaceCapabilities(Surface* surface, VkSurfaceCapabilitiesKHR* capabilities);

// Image counts a swapchain may have.
inline constexpr uint32_t kMinSwapchainImages = 2;
inline constexpr uint32_t kMaxSwapchainImages = 16;

}  // namespace wsi
}  // namespace duet

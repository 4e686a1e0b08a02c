// VK_KHR_wayland_surface over wl_shm (backends/framebuffer/wayland).
// Compiled with VK_USE_PLATFORM_WAYLAND_KHR (see icd/CMakeLists.txt).
#include "backends/framebuffer/wayland.h"
#include "dispatch/entrypoints.h"
#include "wsi/surface.h"

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateWaylandSurfaceKHR(VkInstance instance,
                                                       const VkWaylandSurfaceCreateInfoKHR* pCreateInfo,
                                                       const VkAllocationCallbacks* pAllocator, VkSurfaceKHR* pSurface) {
  return wsi::CreateSurface(instance, pAllocator, "wayland",
                            framebuffer::CreateWaylandTarget(pCreateInfo->display, pCreateInfo->surface), pSurface);
}

VKAPI_ATTR VkBool32 VKAPI_CALL GetPhysicalDeviceWaylandPresentationSupportKHR(VkPhysicalDevice,
                                                                              uint32_t queueFamilyIndex,
                                                                              wl_display* display) {
  return queueFamilyIndex == 0 && framebuffer::WaylandDisplaySupported(display) ? VK_TRUE : VK_FALSE;
}

}  // namespace duet::api

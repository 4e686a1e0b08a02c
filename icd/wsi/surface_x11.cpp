// VK_KHR_xcb_surface and VK_KHR_xlib_surface: both present through xcb
// (backends/framebuffer/x11); an Xlib display lends its xcb connection.
// Compiled with VK_USE_PLATFORM_XCB_KHR/XLIB_KHR (see icd/CMakeLists.txt).
#include "backends/framebuffer/x11.h"
#include "backends/framebuffer/xcb_library.h"
#include "dispatch/entrypoints.h"
#include "wsi/surface.h"

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateXcbSurfaceKHR(VkInstance instance, const VkXcbSurfaceCreateInfoKHR* pCreateInfo,
                                                   const VkAllocationCallbacks* pAllocator, VkSurfaceKHR* pSurface) {
  return wsi::CreateSurface(instance, pAllocator, "xcb",
                            framebuffer::CreateXcbTarget(pCreateInfo->connection, pCreateInfo->window), pSurface);
}

VKAPI_ATTR VkBool32 VKAPI_CALL GetPhysicalDeviceXcbPresentationSupportKHR(VkPhysicalDevice, uint32_t queueFamilyIndex,
                                                                          xcb_connection_t* connection,
                                                                          xcb_visualid_t visual_id) {
  return queueFamilyIndex == 0 && framebuffer::XcbVisualSupported(connection, visual_id) ? VK_TRUE : VK_FALSE;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateXlibSurfaceKHR(VkInstance instance, const VkXlibSurfaceCreateInfoKHR* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator, VkSurfaceKHR* pSurface) {
  xcb_connection_t* connection = framebuffer::XcbConnectionOfXlibDisplay(pCreateInfo->dpy);
  return wsi::CreateSurface(instance, pAllocator, "xlib",
                            framebuffer::CreateXcbTarget(connection, static_cast<xcb_window_t>(pCreateInfo->window)),
                            pSurface);
}

VKAPI_ATTR VkBool32 VKAPI_CALL GetPhysicalDeviceXlibPresentationSupportKHR(VkPhysicalDevice, uint32_t queueFamilyIndex,
                                                                           Display* dpy, VisualID visualID) {
  xcb_connection_t* connection = framebuffer::XcbConnectionOfXlibDisplay(dpy);
  return queueFamilyIndex == 0 && framebuffer::XcbVisualSupported(connection, static_cast<xcb_visualid_t>(visualID))
             ? VK_TRUE
             : VK_FALSE;
}

}  // namespace duet::api

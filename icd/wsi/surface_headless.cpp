// VK_EXT_headless_surface: frames go to memory, and to PNG files with
// DUET_DUMP_FRAMES (backends/framebuffer/headless).
#include "backends/framebuffer/headless.h"
#include "dispatch/entrypoints.h"
#include "wsi/surface.h"

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateHeadlessSurfaceEXT(VkInstance instance, const VkHeadlessSurfaceCreateInfoEXT*,
                                                        const VkAllocationCallbacks* pAllocator,
                                                        VkSurfaceKHR* pSurface) {
  return wsi::CreateSurface(instance, pAllocator, "headless", framebuffer::CreateHeadlessTarget(), pSurface);
}

}  // namespace duet::api

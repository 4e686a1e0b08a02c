// The platforms without a window system, and the choice among all of them.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sample_context.h"
#include "window.h"

namespace sample {
namespace {

bool InstanceOffers(const char* extension) {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data());
  for (const VkExtensionProperties& e : extensions)
    if (std::strcmp(e.extensionName, extension) == 0) return true;
  return false;
}

class Headless final : public Window {
 public:
  const char* Platform() const override { return "headless"; }
  std::vector<const char*> InstanceExtensions() const override {
    return {VK_KHR_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME};
  }
  VkSurfaceKHR CreateSurface(VkInstance instance) override {
    VkHeadlessSurfaceCreateInfoEXT info{VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
    auto create = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateHeadlessSurfaceEXT"));
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    Check(create != nullptr ? create(instance, &info, nullptr, &surface) : VK_ERROR_EXTENSION_NOT_PRESENT,
          "vkCreateHeadlessSurfaceEXT");
    return surface;
  }
};

// The first plane of the first display of the first device, in its
// preferred (first) mode.
class Display final : public Window {
 public:
  const char* Platform() const override { return "display"; }
  std::vector<const char*> InstanceExtensions() const override {
    return {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_DISPLAY_EXTENSION_NAME};
  }
  VkSurfaceKHR CreateSurface(VkInstance instance) override {
    uint32_t count = 1;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    vkEnumeratePhysicalDevices(instance, &count, &physical);
    VkDisplayPropertiesKHR display{};
    count = 1;
    const VkResult displays = vkGetPhysicalDeviceDisplayPropertiesKHR(physical, &count, &display);
    if (displays != VK_SUCCESS && displays != VK_INCOMPLETE) Die("vkGetPhysicalDeviceDisplayPropertiesKHR", displays);
    if (count == 0) {
      std::fprintf(stderr, "the device has no display to present on\n");
      std::exit(1);
    }
    VkDisplayModePropertiesKHR mode{};
    count = 1;
    vkGetDisplayModePropertiesKHR(physical, display.display, &count, &mode);
    if (count == 0) Die("finding a display mode", VK_ERROR_INITIALIZATION_FAILED);
    VkDisplaySurfaceCreateInfoKHR info{VK_STRUCTURE_TYPE_DISPLAY_SURFACE_CREATE_INFO_KHR};
    info.displayMode = mode.displayMode;
    info.planeIndex = 0;
    info.transform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
    info.alphaMode = VK_DISPLAY_PLANE_ALPHA_OPAQUE_BIT_KHR;
    info.imageExtent = mode.parameters.visibleRegion;
    std::printf("display: %s, %ux%u\n", display.displayName != nullptr ? display.displayName : "(unnamed)",
                info.imageExtent.width, info.imageExtent.height);
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    Check(vkCreateDisplayPlaneSurfaceKHR(instance, &info, nullptr, &surface), "vkCreateDisplayPlaneSurfaceKHR");
    return surface;
  }
};

}  // namespace

std::unique_ptr<Window> OpenHeadless() {
  if (!InstanceOffers(VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME)) {
    std::fprintf(stderr, "no driver offers VK_EXT_headless_surface\n");
    return nullptr;
  }
  return std::make_unique<Headless>();
}

std::unique_ptr<Window> OpenDisplay() {
  if (!InstanceOffers(VK_KHR_DISPLAY_EXTENSION_NAME)) {
    std::fprintf(stderr, "no driver offers VK_KHR_display\n");
    return nullptr;
  }
  return std::make_unique<Display>();
}

std::unique_ptr<Window> OpenWindow(const std::string& platform, uint32_t width, uint32_t height) {
  if (platform == "xcb") return OpenXcbWindow(width, height);
  if (platform == "wayland") return OpenWaylandWindow(width, height);
  if (platform == "headless") return OpenHeadless();
  if (platform == "display") return OpenDisplay();
  if (platform != "auto") {
    std::fprintf(stderr, "unknown platform %s (auto, xcb, wayland, headless, display)\n", platform.c_str());
    return nullptr;
  }
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  const char* x11 = std::getenv("DISPLAY");
  if (wayland != nullptr && wayland[0] != '\0')
    if (auto window = OpenWaylandWindow(width, height)) return window;
  if (x11 != nullptr && x11[0] != '\0')
    if (auto window = OpenXcbWindow(width, height)) return window;
  if (InstanceOffers(VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME)) return std::make_unique<Headless>();
  return OpenDisplay();
}

}  // namespace sample

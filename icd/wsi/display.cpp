// VK_KHR_display over KMS connectors (backends/framebuffer/drm): one
// VkDisplayKHR per connected connector, its modes as VkDisplayModeKHR, and
// one plane per display (the primary plane of the CRTC that drives it).
// Without a DRM device there are simply no displays.
#include <vulkan/vulkan_core.h>

#include <memory>
#include <vector>

#include "backends/framebuffer/drm.h"
#include "dispatch/entrypoints.h"
#include "objects/physical_device.h"
#include "util/object.h"
#include "util/vk_util.h"
#include "wsi/surface.h"

namespace duet::wsi {

struct Display;

struct DisplayMode : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkDisplayModeKHR, VK_OBJECT_TYPE_DISPLAY_MODE_KHR);
  DisplayMode(Display* owner, framebuffer::DrmMode m) : NonDispatchableObject(kObjectType), display(owner), mode(std::move(m)) {}
  Display* display;
  framebuffer::DrmMode mode;
};

struct Display : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkDisplayKHR, VK_OBJECT_TYPE_DISPLAY_KHR);
  explicit Display(framebuffer::DrmConnector c) : NonDispatchableObject(kObjectType), connector(std::move(c)) {}
  framebuffer::DrmConnector connector;
  std::vector<std::unique_ptr<DisplayMode>> modes;
};

struct Displays {
  std::vector<std::unique_ptr<Display>> list;  // plane i shows list[i]
};

void DestroyDisplays(Displays* displays) { delete displays; }

namespace {

Displays& DisplaysOf(VkPhysicalDevice handle) {
  PhysicalDevice* physical = FromHandle<PhysicalDevice>(handle);
  std::call_once(physical->displays_found, [&] {
    auto displays = std::make_unique<Displays>();
    for (framebuffer::DrmConnector& connector : framebuffer::EnumerateDrmConnectors()) {
      auto display = std::make_unique<Display>(std::move(connector));
      for (const framebuffer::DrmMode& mode : display->connector.modes)
        display->modes.push_back(std::make_unique<DisplayMode>(display.get(), mode));
      displays->list.push_back(std::move(display));
    }
    physical->displays.reset(displays.release());
  });
  return *physical->displays;
}

VkDisplayModeParametersKHR Parameters(const framebuffer::DrmMode& mode) {
  return {{mode.width, mode.height}, mode.refresh_millihertz};
}

}  // namespace
}  // namespace duet::wsi

namespace duet::api {

using wsi::Display;
using wsi::DisplayMode;

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceDisplayPropertiesKHR(VkPhysicalDevice physicalDevice,
                                                                     uint32_t* pPropertyCount,
                                                                     VkDisplayPropertiesKHR* pProperties) {
  std::vector<VkDisplayPropertiesKHR> properties;
  for (const auto& display : wsi::DisplaysOf(physicalDevice).list) {
    const framebuffer::DrmMode& preferred = display->connector.modes.front();
    VkDisplayPropertiesKHR p{};
    p.display = ToHandle(display.get());
    p.displayName = display->connector.name.c_str();
    p.physicalDimensions = {display->connector.width_mm, display->connector.height_mm};
    p.physicalResolution = {preferred.width, preferred.height};
    p.supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
    p.planeReorderPossible = VK_FALSE;
    p.persistentContent = VK_FALSE;
    properties.push_back(p);
  }
  return FillArray(std::span<const VkDisplayPropertiesKHR>(properties), pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceDisplayPlanePropertiesKHR(VkPhysicalDevice physicalDevice,
                                                                          uint32_t* pPropertyCount,
                                                                          VkDisplayPlanePropertiesKHR* pProperties) {
  std::vector<VkDisplayPlanePropertiesKHR> planes;
  for (const auto& display : wsi::DisplaysOf(physicalDevice).list) planes.push_back({ToHandle(display.get()), 0});
  return FillArray(std::span<const VkDisplayPlanePropertiesKHR>(planes), pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL GetDisplayPlaneSupportedDisplaysKHR(VkPhysicalDevice physicalDevice,
                                                                   uint32_t planeIndex, uint32_t* pDisplayCount,
                                                                   VkDisplayKHR* pDisplays) {
  std::vector<VkDisplayKHR> displays;
  const wsi::Displays& all = wsi::DisplaysOf(physicalDevice);
  if (planeIndex < all.list.size()) displays.push_back(ToHandle(all.list[planeIndex].get()));
  return FillArray(std::span<const VkDisplayKHR>(displays), pDisplayCount, pDisplays);
}

VKAPI_ATTR VkResult VKAPI_CALL GetDisplayModePropertiesKHR(VkPhysicalDevice, VkDisplayKHR _display,
                                                           uint32_t* pPropertyCount,
                                                           VkDisplayModePropertiesKHR* pProperties) {
  std::vector<VkDisplayModePropertiesKHR> modes;
  for (const auto& mode : FromHandle<Display>(_display)->modes)
    modes.push_back({ToHandle(mode.get()), wsi::Parameters(mode->mode)});
  return FillArray(std::span<const VkDisplayModePropertiesKHR>(modes), pPropertyCount, pProperties);
}

// Only the connector's own modes can be set: a "new" mode is one of them
// with the same size and rate.
VKAPI_ATTR VkResult VKAPI_CALL CreateDisplayModeKHR(VkPhysicalDevice, VkDisplayKHR _display,
                                                    const VkDisplayModeCreateInfoKHR* pCreateInfo,
                                                    const VkAllocationCallbacks*, VkDisplayModeKHR* pMode) {
  const VkDisplayModeParametersKHR& wanted = pCreateInfo->parameters;
  for (const auto& mode : FromHandle<Display>(_display)->modes) {
    const VkDisplayModeParametersKHR have = wsi::Parameters(mode->mode);
    if (have.visibleRegion.width == wanted.visibleRegion.width &&
        have.visibleRegion.height == wanted.visibleRegion.height && have.refreshRate == wanted.refreshRate) {
      *pMode = ToHandle(mode.get());
      return VK_SUCCESS;
    }
  }
  return VK_ERROR_INITIALIZATION_FAILED;
}

VKAPI_ATTR VkResult VKAPI_CALL GetDisplayPlaneCapabilitiesKHR(VkPhysicalDevice, VkDisplayModeKHR _mode, uint32_t,
                                                              VkDisplayPlaneCapabilitiesKHR* pCapabilities) {
  const framebuffer::DrmMode& mode = FromHandle<DisplayMode>(_mode)->mode;
  const VkExtent2D size{mode.width, mode.height};
  *pCapabilities = {};
  pCapabilities->supportedAlpha = VK_DISPLAY_PLANE_ALPHA_OPAQUE_BIT_KHR;
  pCapabilities->minSrcExtent = size;
  pCapabilities->maxSrcExtent = size;
  pCapabilities->maxSrcPosition = {0, 0};
  pCapabilities->minDstExtent = size;
  pCapabilities->maxDstExtent = size;
  pCapabilities->maxDstPosition = {0, 0};
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDisplayPlaneSurfaceKHR(VkInstance instance,
                                                            const VkDisplaySurfaceCreateInfoKHR* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator,
                                                            VkSurfaceKHR* pSurface) {
  const DisplayMode* mode = FromHandle<DisplayMode>(pCreateInfo->displayMode);
  return wsi::CreateSurface(instance, pAllocator, "display",
                            framebuffer::CreateDrmTarget(mode->display->connector, mode->mode), pSurface);
}

}  // namespace duet::api

// VK_KHR_display: one VkDisplayKHR per display a backend finds, its modes
// as VkDisplayModeKHR, and one plane per display. On a virtio_gpu DRM
// device the displays are its scanouts, shown through the virtio-gpu 2D
// backend (backends/virtio_gpu); on any other card (or when that backend
// cannot run there, or DUET_BACKEND=drm) they are the KMS connectors, shown
// through dumb buffers (backends/framebuffer/drm). DUET_BACKEND=auto (the
// default), virtio_gpu or drm. Without a DRM device there are no displays.
#include <vulkan/vulkan_core.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/framebuffer/drm.h"
#include "backends/virtio_gpu/displays.h"
#include "backends/virtio_gpu/linux_channel.h"
#include "backends/virtio_gpu/scanout_output.h"
#include "dispatch/entrypoints.h"
#include "objects/physical_device.h"
#include "util/log.h"
#include "util/object.h"
#include "util/vk_util.h"
#include "wsi/surface.h"

namespace duet::wsi {

struct Display;

struct DisplayMode : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkDisplayModeKHR, VK_OBJECT_TYPE_DISPLAY_MODE_KHR);
  DisplayMode(Display* owner, size_t i, VkDisplayModeParametersKHR p)
      : NonDispatchableObject(kObjectType), display(owner), index(i), parameters(p) {}
  Display* display;
  size_t index;  // in the backend's list of modes
  VkDisplayModeParametersKHR parameters;
};

// A target showing the display in its mode `index`.
using TargetMaker = std::function<std::unique_ptr<framebuffer::Target>(size_t index)>;

struct Display : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkDisplayKHR, VK_OBJECT_TYPE_DISPLAY_KHR);
  Display() : NonDispatchableObject(kObjectType) {}
  std::string name;
  uint32_t width_mm = 0, height_mm = 0;
  std::vector<std::unique_ptr<DisplayMode>> modes;  // the preferred one first
  TargetMaker make_target;
};

struct Displays {
  std::vector<std::unique_ptr<Display>> list;  // plane i shows list[i]
};

void DestroyDisplays(Displays* displays) { delete displays; }

namespace {

enum class Backend { kAuto, kVirtioGpu, kDrm };

Backend ChosenBackend() {
  const char* value = std::getenv("DUET_BACKEND");
  if (value == nullptr || std::strcmp(value, "auto") == 0 || *value == 0) return Backend::kAuto;
  if (std::strcmp(value, "virtio_gpu") == 0) return Backend::kVirtioGpu;
  if (std::strcmp(value, "drm") == 0) return Backend::kDrm;
  DUET_WARN("DUET_BACKEND=%s is none of auto, virtio_gpu, drm; using auto", value);
  return Backend::kAuto;
}

struct ModeSize {
  uint32_t width, height, refresh_millihertz;
};

void AddDisplay(Displays* displays, std::string name, uint32_t width_mm, uint32_t height_mm,
                const std::vector<ModeSize>& modes, TargetMaker make_target) {
  auto display = std::make_unique<Display>();
  display->name = std::move(name);
  display->width_mm = width_mm;
  display->height_mm = height_mm;
  for (size_t i = 0; i < modes.size(); ++i)
    display->modes.push_back(std::make_unique<DisplayMode>(
        display.get(), i, VkDisplayModeParametersKHR{{modes[i].width, modes[i].height}, modes[i].refresh_millihertz}));
  display->make_target = std::move(make_target);
  displays->list.push_back(std::move(display));
}

// The card's scanouts through the virtio-gpu backend; false when it cannot drive the card.
bool AddVirtioGpuDisplays(const std::shared_ptr<framebuffer::DrmCard>& card, Displays* displays) {
  std::unique_ptr<virtio_gpu::Channel> channel = virtio_gpu::OpenLinuxChannel(card);
  if (channel == nullptr) return false;
  auto gpu = std::make_shared<virtio_gpu::VirtioGpu>(std::move(channel));
  for (const virtio_gpu::Display& d : virtio_gpu::EnumerateDisplays(*gpu)) {
    std::vector<ModeSize> modes;
    for (const virtio_gpu::Mode& m : d.modes) modes.push_back({m.width, m.height, m.refresh_millihertz});
    AddDisplay(displays, d.name, d.width_mm, d.height_mm, modes,
               [gpu, scanout = d.scanout, all = d.modes](size_t index) -> std::unique_ptr<framebuffer::Target> {
                 return std::make_unique<virtio_gpu::ScanoutTarget>(gpu, scanout, all[index]);
               });
  }
  DUET_INFO("VK_KHR_display: %s: virtio-gpu 2D scanouts", card->path().c_str());
  return true;
}

void AddDrmDisplays(const std::shared_ptr<framebuffer::DrmCard>& card, Displays* displays) {
  for (framebuffer::DrmConnector& connector : framebuffer::ConnectedConnectors(card)) {
    std::vector<ModeSize> modes;
    for (const framebuffer::DrmMode& m : connector.modes) modes.push_back({m.width, m.height, m.refresh_millihertz});
    auto shared = std::make_shared<framebuffer::DrmConnector>(std::move(connector));
    AddDisplay(displays, shared->name, shared->width_mm, shared->height_mm, modes,
               [shared](size_t index) { return framebuffer::CreateDrmTarget(*shared, shared->modes[index]); });
  }
}

Displays& DisplaysOf(VkPhysicalDevice handle) {
  PhysicalDevice* physical = FromHandle<PhysicalDevice>(handle);
  std::call_once(physical->displays_found, [&] {
    auto displays = std::make_unique<Displays>();
    const Backend backend = ChosenBackend();
    for (const std::shared_ptr<framebuffer::DrmCard>& card : framebuffer::OpenDrmCards()) {
      if (card->driver() == "virtio_gpu" && backend != Backend::kDrm && AddVirtioGpuDisplays(card, displays.get()))
        continue;
      if (card->driver() != "virtio_gpu" && backend == Backend::kVirtioGpu)
        DUET_WARN("DUET_BACKEND=virtio_gpu: %s is driven by %s; using KMS dumb buffers", card->path().c_str(),
                  card->driver().c_str());
      AddDrmDisplays(card, displays.get());
    }
    physical->displays.reset(displays.release());
  });
  return *physical->displays;
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
    const VkExtent2D preferred = display->modes.front()->parameters.visibleRegion;
    VkDisplayPropertiesKHR p{};
    p.display = ToHandle(display.get());
    p.displayName = display->name.c_str();
    p.physicalDimensions = {display->width_mm, display->height_mm};
    p.physicalResolution = preferred;
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
    modes.push_back({ToHandle(mode.get()), mode->parameters});
  return FillArray(std::span<const VkDisplayModePropertiesKHR>(modes), pPropertyCount, pProperties);
}

// Only the connector's own modes can be set: a "new" mode is one of them
// with the same size and rate.
VKAPI_ATTR VkResult VKAPI_CALL CreateDisplayModeKHR(VkPhysicalDevice, VkDisplayKHR _display,
                                                    const VkDisplayModeCreateInfoKHR* pCreateInfo,
                                                    const VkAllocationCallbacks*, VkDisplayModeKHR* pMode) {
  const VkDisplayModeParametersKHR& wanted = pCreateInfo->parameters;
  for (const auto& mode : FromHandle<Display>(_display)->modes) {
    const VkDisplayModeParametersKHR have = mode->parameters;
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
  const VkExtent2D size = FromHandle<DisplayMode>(_mode)->parameters.visibleRegion;
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
  return wsi::CreateSurface(instance, pAllocator, "display", mode->display->make_target(mode->index), pSurface);
}

}  // namespace duet::api

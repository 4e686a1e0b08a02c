// The surface queries all window systems share, and vkDestroySurfaceKHR.
#include "wsi/surface.h"

#include <algorithm>
#include <vector>

#include "dispatch/entrypoints.h"
#include "objects/device_limits.h"
#include "objects/instance.h"
#include "objects/physical_device.h"
#include "texel/format_support.h"
#include "util/host_alloc.h"
#include "util/vk_util.h"

namespace duet::wsi {
namespace {

// Every backend takes 4-byte pixels in either byte order; sRGB or not only
// changes how the application's writes are encoded, not the bytes shown.
constexpr VkSurfaceFormatKHR kFormats[] = {
    {VK_FORMAT_B8G8R8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
    {VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
    {VK_FORMAT_R8G8B8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
    {VK_FORMAT_R8G8B8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
};

constexpr VkPresentModeKHR kPresentModes[] = {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
                                              VK_PRESENT_MODE_IMMEDIATE_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR};

// The usages every offered format supports as an optimal 2D image; colour
// attachment is always among them (the spec requires it).
VkImageUsageFlags SupportedUsage() {
  constexpr VkImageUsageFlags kCandidates[] = {
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_USAGE_TRANSFER_DST_BIT,
      VK_IMAGE_USAGE_SAMPLED_BIT,          VK_IMAGE_USAGE_STORAGE_BIT,      VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT};
  VkImageUsageFlags usage = 0;
  for (VkImageUsageFlags candidate : kCandidates) {
    bool all = true;
    for (const VkSurfaceFormatKHR& f : kFormats) {
      VkImageFormatProperties limits{};
      all = all && texel::GetImageFormatLimits(f.format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, candidate, 0,
                                               &limits) == VK_SUCCESS;
    }
    if (all) usage |= candidate;
  }
  return usage | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
}

VkResult SurfaceSupport(uint32_t queue_family, Surface* surface, VkBool32* supported) {
  std::optional<framebuffer::Extent> extent;
  if (surface->target->CurrentExtent(&extent) == framebuffer::Status::kLost) return VK_ERROR_SURFACE_LOST_KHR;
  *supported = queue_family < kQueueFamilyCount ? VK_TRUE : VK_FALSE;
  return VK_SUCCESS;
}

}  // namespace

VkResult CreateSurface(VkInstance _instance, const VkAllocationCallbacks* allocator, const char* kind,
                       std::unique_ptr<framebuffer::Target> target, VkSurfaceKHR* out) {
  if (target == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  Instance* instance = FromHandle<Instance>(_instance);
  Surface* surface =
      HostNew<Surface>(ChooseAllocator(allocator, instance->Allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (surface == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  surface->kind = kind;
  surface->target = std::move(target);
  *out = ToHandle(surface);
  return VK_SUCCESS;
}

std::span<const VkSurfaceFormatKHR> SurfaceFormats() { return kFormats; }

bool IsSurfaceFormat(VkFormat format, VkColorSpaceKHR color_space) {
  return std::any_of(std::begin(kFormats), std::end(kFormats),
                     [&](const VkSurfaceFormatKHR& f) { return f.format == format && f.colorSpace == color_space; });
}

framebuffer::PixelFormat PixelFormatOf(VkFormat format) {
  return format == VK_FORMAT_R8G8B8A8_SRGB || format == VK_FORMAT_R8G8B8A8_UNORM ? framebuffer::PixelFormat::kRgba8888
                                                                                 : framebuffer::PixelFormat::kBgra8888;
}

std::span<const VkPresentModeKHR> PresentModes() { return kPresentModes; }

VkResult GetSurfaceCapabilities(Surface* surface, VkSurfaceCapabilitiesKHR* caps) {
  std::optional<framebuffer::Extent> extent;
  if (surface->target->CurrentExtent(&extent) == framebuffer::Status::kLost) return VK_ERROR_SURFACE_LOST_KHR;
  *caps = {};
  caps->minImageCount = kMinSwapchainImages;
  caps->maxImageCount = kMaxSwapchainImages;
  if (extent.has_value()) {
    // A window's swapchain must match the window.
    caps->currentExtent = {extent->width, extent->height};
    caps->minImageExtent = caps->currentExtent;
    caps->maxImageExtent = caps->currentExtent;
  } else {
    // The special value: the swapchain's extent decides the surface's size.
    caps->currentExtent = {UINT32_MAX, UINT32_MAX};
    caps->minImageExtent = {1, 1};
    caps->maxImageExtent = {limits::kMaxImageDimension2D, limits::kMaxImageDimension2D};
  }
  caps->maxImageArrayLayers = 1;
  caps->supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  caps->currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  // Frames are shown opaque; INHERIT leaves it to the window system, which
  // here is the same thing.
  caps->supportedCompositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR | VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
  static const VkImageUsageFlags usage = SupportedUsage();
  caps->supportedUsageFlags = usage;
  return VK_SUCCESS;
}

}  // namespace duet::wsi

namespace duet::api {

using wsi::Surface;

VKAPI_ATTR void VKAPI_CALL DestroySurfaceKHR(VkInstance _instance, VkSurfaceKHR surface,
                                             const VkAllocationCallbacks* pAllocator) {
  Instance* instance = FromHandle<Instance>(_instance);
  HostDelete(ChooseAllocator(pAllocator, instance->Allocator()), FromHandle<Surface>(surface));
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceSupportKHR(VkPhysicalDevice, uint32_t queueFamilyIndex,
                                                                  VkSurfaceKHR surface, VkBool32* pSupported) {
  return wsi::SurfaceSupport(queueFamilyIndex, FromHandle<Surface>(surface), pSupported);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceCapabilitiesKHR(VkPhysicalDevice, VkSurfaceKHR surface,
                                                                       VkSurfaceCapabilitiesKHR* pCapabilities) {
  return wsi::GetSurfaceCapabilities(FromHandle<Surface>(surface), pCapabilities);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceCapabilities2KHR(
    VkPhysicalDevice, const VkPhysicalDeviceSurfaceInfo2KHR* pSurfaceInfo,
    VkSurfaceCapabilities2KHR* pSurfaceCapabilities) {
  VkSurfaceCapabilitiesKHR& caps = pSurfaceCapabilities->surfaceCapabilities;
  if (VkResult r = wsi::GetSurfaceCapabilities(FromHandle<Surface>(pSurfaceInfo->surface), &caps); r != VK_SUCCESS)
    return r;
  // VK_EXT_surface_maintenance1: the answers for one present mode. Every
  // mode has the same image counts, and the present engine switches
  // between any two of them per present, so all are compatible.
  const auto* mode =
      FindInChain<VkSurfacePresentModeEXT>(pSurfaceInfo->pNext, VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_EXT);
  if (auto* compatible = FindInChain<VkSurfacePresentModeCompatibilityEXT>(
          pSurfaceCapabilities->pNext, VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_COMPATIBILITY_EXT)) {
    // The queried mode first, so a short array still holds it.
    std::vector<VkPresentModeKHR> modes(wsi::PresentModes().begin(), wsi::PresentModes().end());
    if (mode != nullptr) {
      auto it = std::find(modes.begin(), modes.end(), mode->presentMode);
      if (it == modes.end())
        modes.clear();  // not a mode of the surface: compatible with none
      else
        std::rotate(modes.begin(), it, it + 1);
    }
    if (compatible->pPresentModes == nullptr) {
      compatible->presentModeCount = static_cast<uint32_t>(modes.size());
    } else {
      compatible->presentModeCount = std::min(compatible->presentModeCount, static_cast<uint32_t>(modes.size()));
      std::copy_n(modes.begin(), compatible->presentModeCount, compatible->pPresentModes);
    }
  }
  // VK_KHR_surface_protected_capabilities: no protected memory, so no
  // protected swapchains.
  if (auto* protection = FindInChain<VkSurfaceProtectedCapabilitiesKHR>(
          pSurfaceCapabilities->pNext, VK_STRUCTURE_TYPE_SURFACE_PROTECTED_CAPABILITIES_KHR))
    protection->supportsProtected = VK_FALSE;
  if (auto* scaling = FindInChain<VkSurfacePresentScalingCapabilitiesEXT>(
          pSurfaceCapabilities->pNext, VK_STRUCTURE_TYPE_SURFACE_PRESENT_SCALING_CAPABILITIES_EXT)) {
    // No scaling or gravity: a swapchain's extent must be one the surface takes.
    scaling->supportedPresentScaling = 0;
    scaling->supportedPresentGravityX = 0;
    scaling->supportedPresentGravityY = 0;
    scaling->minScaledImageExtent = caps.minImageExtent;
    scaling->maxScaledImageExtent = caps.maxImageExtent;
  }
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceFormatsKHR(VkPhysicalDevice, VkSurfaceKHR,
                                                                  uint32_t* pSurfaceFormatCount,
                                                                  VkSurfaceFormatKHR* pSurfaceFormats) {
  return FillArray(wsi::SurfaceFormats(), pSurfaceFormatCount, pSurfaceFormats);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceFormats2KHR(VkPhysicalDevice,
                                                                   const VkPhysicalDeviceSurfaceInfo2KHR*,
                                                                   uint32_t* pSurfaceFormatCount,
                                                                   VkSurfaceFormat2KHR* pSurfaceFormats) {
  const std::span<const VkSurfaceFormatKHR> formats = wsi::SurfaceFormats();
  if (pSurfaceFormats == nullptr) {
    *pSurfaceFormatCount = static_cast<uint32_t>(formats.size());
    return VK_SUCCESS;
  }
  const uint32_t n = std::min<uint32_t>(*pSurfaceFormatCount, static_cast<uint32_t>(formats.size()));
  for (uint32_t i = 0; i < n; ++i) pSurfaceFormats[i].surfaceFormat = formats[i];
  *pSurfaceFormatCount = n;
  return n < formats.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfacePresentModesKHR(VkPhysicalDevice, VkSurfaceKHR,
                                                                       uint32_t* pPresentModeCount,
                                                                       VkPresentModeKHR* pPresentModes) {
  return FillArray(wsi::PresentModes(), pPresentModeCount, pPresentModes);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDevicePresentRectanglesKHR(VkPhysicalDevice, VkSurfaceKHR _surface,
                                                                     uint32_t* pRectCount, VkRect2D* pRects) {
  VkSurfaceCapabilitiesKHR caps{};
  if (VkResult r = wsi::GetSurfaceCapabilities(FromHandle<Surface>(_surface), &caps); r != VK_SUCCESS) return r;
  // One device presents the whole surface; without a size of its own, the
  // largest swapchain it could have.
  const VkExtent2D extent = caps.currentExtent.width == UINT32_MAX ? caps.maxImageExtent : caps.currentExtent;
  const VkRect2D rects[] = {{{0, 0}, extent}};
  return FillArray(rects, pRectCount, pRects);
}

VKAPI_ATTR VkResult VKAPI_CALL GetDeviceGroupPresentCapabilitiesKHR(
    VkDevice, VkDeviceGroupPresentCapabilitiesKHR* pDeviceGroupPresentCapabilities) {
  std::fill(std::begin(pDeviceGroupPresentCapabilities->presentMask),
            std::end(pDeviceGroupPresentCapabilities->presentMask), 0u);
  pDeviceGroupPresentCapabilities->presentMask[0] = 1;
  pDeviceGroupPresentCapabilities->modes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetDeviceGroupSurfacePresentModesKHR(VkDevice, VkSurfaceKHR,
                                                                    VkDeviceGroupPresentModeFlagsKHR* pModes) {
  *pModes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}

}  // namespace duet::api

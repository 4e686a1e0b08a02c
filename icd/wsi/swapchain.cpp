// vkCreateSwapchainKHR / vkDestroySwapchainKHR / vkGetSwapchainImagesKHR /
// vkReleaseSwapchainImagesEXT.
#include "wsi/swapchain.h"

#include <algorithm>
#include <chrono>

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/image.h"
#include "raster/gpu_place.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"
#include "wsi/surface.h"

namespace duet::wsi {
namespace {

// How long destroying a swapchain waits for presents still queued behind
// semaphores: the spec says they have completed; an application that got
// that wrong should not hang forever.
constexpr std::chrono::milliseconds kDestroyDrainTimeout{5000};

bool IsPresentMode(VkPresentModeKHR mode) {
  return std::find(PresentModes().begin(), PresentModes().end(), mode) != PresentModes().end();
}

VkResult CheckCreateInfo(const Device& device, const VkSwapchainCreateInfoKHR& info, Surface* surface) {
  VkSurfaceCapabilitiesKHR caps{};
  if (VkResult r = GetSurfaceCapabilities(surface, &caps); r != VK_SUCCESS) return r;
  // VK_EXT_swapchain_maintenance1: memory may be bound at first acquire
  // instead; binding it now is allowed, so the flag changes nothing.
  VkSwapchainCreateFlagsKHR allowed_flags = 0;
  if (device.IsEnabled(dispatch::Extension::EXT_swapchain_maintenance1))
    allowed_flags |= VK_SWAPCHAIN_CREATE_DEFERRED_MEMORY_ALLOCATION_BIT_EXT;
  // VK_KHR_swapchain_mutable_format: the images take views of the formats
  // the VkImageFormatListCreateInfo names (CreateImages).
  if (device.IsEnabled(dispatch::Extension::KHR_swapchain_mutable_format))
    allowed_flags |= VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR;
  const auto* modes = FindInChain<VkSwapchainPresentModesCreateInfoEXT>(
      info.pNext, VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODES_CREATE_INFO_EXT);
  const auto* scaling = FindInChain<VkSwapchainPresentScalingCreateInfoEXT>(
      info.pNext, VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_SCALING_CREATE_INFO_EXT);
  const char* problem = nullptr;
  if (!IsSurfaceFormat(info.imageFormat, info.imageColorSpace))
    problem = "format and colour space are not offered by the surface";
  else if (info.imageExtent.width == 0 || info.imageExtent.height == 0 ||
           info.imageExtent.width > caps.maxImageExtent.width || info.imageExtent.height > caps.maxImageExtent.height)
    problem = "image extent is outside the surface's limits";
  else if (info.imageArrayLayers != 1)
    problem = "only single-layer swapchains are supported";
  else if ((info.imageUsage & ~caps.supportedUsageFlags) != 0)
    problem = "image usage is not supported";
  else if (!IsPresentMode(info.presentMode))
    problem = "present mode is not supported";
  else if ((info.flags & ~allowed_flags) != 0)
    problem = "swapchain create flags are not supported";
  else if (modes != nullptr &&
           (std::find(modes->pPresentModes, modes->pPresentModes + modes->presentModeCount, info.presentMode) ==
                modes->pPresentModes + modes->presentModeCount ||
            !std::all_of(modes->pPresentModes, modes->pPresentModes + modes->presentModeCount, IsPresentMode)))
    problem = "VkSwapchainPresentModesCreateInfoEXT lacks presentMode or has an unsupported mode";
  else if (scaling != nullptr &&
           (scaling->scalingBehavior != 0 || scaling->presentGravityX != 0 || scaling->presentGravityY != 0))
    problem = "present scaling and gravity are not supported";
  if (problem == nullptr) return VK_SUCCESS;
  DUET_WARN("vkCreateSwapchainKHR: %s", problem);
  return VK_ERROR_INITIALIZATION_FAILED;
}

void DestroyImages(Swapchain* swapchain, const VkAllocationCallbacks* allocator) {
  const VkDevice device = ToHandle(swapchain->device);
  for (VkImage image : swapchain->images) api::DestroyImage(device, image, allocator);
  for (VkDeviceMemory memory : swapchain->memories) api::FreeMemory(device, memory, allocator);
  swapchain->images.clear();
  swapchain->memories.clear();
}

VkResult CreateImages(Swapchain* swapchain, const VkSwapchainCreateInfoKHR& info, uint32_t count,
                      const VkAllocationCallbacks* allocator, std::vector<EngineImage>* engine_images) {
  const VkDevice device = ToHandle(swapchain->device);
  VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  image_info.imageType = VK_IMAGE_TYPE_2D;
  image_info.format = info.imageFormat;
  image_info.extent = {info.imageExtent.width, info.imageExtent.height, 1};
  image_info.mipLevels = 1;
  image_info.arrayLayers = 1;
  image_info.samples = VK_SAMPLE_COUNT_1_BIT;
  image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
  image_info.usage = info.imageUsage;
  image_info.sharingMode = info.imageSharingMode;
  image_info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImageFormatListCreateInfo format_list{VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO};
  if ((info.flags & VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR) != 0) {
    image_info.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    if (const auto* list = FindInChain<VkImageFormatListCreateInfo>(info.pNext,
                                                                    VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO)) {
      format_list.viewFormatCount = list->viewFormatCount;
      format_list.pViewFormats = list->pViewFormats;
      image_info.pNext = &format_list;
    }
  }
  // Room first: an image or memory made is always recorded, so DestroyImages frees it.
  swapchain->images.reserve(count);
  swapchain->memories.reserve(count);
  engine_images->reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    VkImage image = VK_NULL_HANDLE;
    if (VkResult r = api::CreateImage(device, &image_info, allocator, &image); r != VK_SUCCESS) return r;
    swapchain->images.push_back(image);
    VkMemoryRequirements requirements{};
    api::GetImageMemoryRequirements(device, image, &requirements);
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, requirements.size, 0};
    VkDeviceMemory memory = VK_NULL_HANDLE;
    if (VkResult r = api::AllocateMemory(device, &allocate, allocator, &memory); r != VK_SUCCESS) return r;
    swapchain->memories.push_back(memory);
    if (VkResult r = api::BindImageMemory(device, image, memory, 0); r != VK_SUCCESS) return r;
    const Image* object = FromHandle<Image>(image);
    const VkSubresourceLayout layout = object->layout.Subresource(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
    const std::byte* pixels = object->Data() + layout.offset;
    engine_images->push_back({pixels, static_cast<size_t>(layout.rowPitch), raster::GpuPlace(object->memory, pixels)});
  }
  return VK_SUCCESS;
}

}  // namespace

VkResult Swapchain::SurfaceStatus() const {
  if (retired) return VK_ERROR_OUT_OF_DATE_KHR;
  std::optional<framebuffer::Extent> now;
  if (surface->target->CurrentExtent(&now) == framebuffer::Status::kLost || engine->lost())
    return VK_ERROR_SURFACE_LOST_KHR;
  if (engine->out_of_date()) return VK_ERROR_OUT_OF_DATE_KHR;
  if (!now.has_value()) return VK_SUCCESS;
  if (now->width == 0 || now->height == 0) return VK_ERROR_OUT_OF_DATE_KHR;
  return now->width == extent.width && now->height == extent.height ? VK_SUCCESS : VK_SUBOPTIMAL_KHR;
}

}  // namespace duet::wsi

namespace duet::api {

using wsi::Surface;
using wsi::Swapchain;

VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice _device, const VkSwapchainCreateInfoKHR* pCreateInfo,
                                                  const VkAllocationCallbacks* pAllocator,
                                                  VkSwapchainKHR* pSwapchain) {
  Device* device = FromHandle<Device>(_device);
  Surface* surface = FromHandle<Surface>(pCreateInfo->surface);
  if (VkResult r = wsi::CheckCreateInfo(*device, *pCreateInfo, surface); r != VK_SUCCESS) return r;
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());

  // The old swapchain is retired even if creating the new one fails.
  if (Swapchain* old = FromHandle<Swapchain>(pCreateInfo->oldSwapchain)) old->retired = true;

  Swapchain* swapchain = HostNew<Swapchain>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
  if (swapchain == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  swapchain->device = device;
  swapchain->surface = surface;
  swapchain->extent = pCreateInfo->imageExtent;
  swapchain->format = pCreateInfo->imageFormat;
  swapchain->present_mode = pCreateInfo->presentMode;
  const uint32_t count = std::clamp(pCreateInfo->minImageCount, wsi::kMinSwapchainImages, wsi::kMaxSwapchainImages);
  std::vector<wsi::EngineImage> engine_images;
  VkResult result = VK_SUCCESS;
  try {
    if (const auto* modes = FindInChain<VkSwapchainPresentModesCreateInfoEXT>(
            pCreateInfo->pNext, VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODES_CREATE_INFO_EXT))
      swapchain->present_modes.assign(modes->pPresentModes, modes->pPresentModes + modes->presentModeCount);
    else
      swapchain->present_modes.assign(1, pCreateInfo->presentMode);
    result = wsi::CreateImages(swapchain, *pCreateInfo, count, allocator, &engine_images);
    if (result == VK_SUCCESS) {
      const wsi::EngineConfig config{pCreateInfo->presentMode,
                                     {pCreateInfo->imageExtent.width, pCreateInfo->imageExtent.height},
                                     wsi::PixelFormatOf(pCreateInfo->imageFormat),
                                     surface->target->RefreshInterval(),
                                     swapchain->device->intel_transfers.get()};
      std::unique_ptr<framebuffer::Output> output = surface->target->CreateOutput(config.extent, config.format);
      if (output == nullptr)
        result = VK_ERROR_INITIALIZATION_FAILED;
      else
        swapchain->engine = std::make_shared<wsi::PresentEngine>(config, std::move(engine_images), std::move(output));
    }
  } catch (const std::bad_alloc&) {
    result = VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  if (result != VK_SUCCESS) {
    wsi::DestroyImages(swapchain, allocator);
    HostDelete(allocator, swapchain);
    return result;
  }
  DUET_INFO("swapchain %ux%u, %u images, format %d, present mode %d on a %s surface", swapchain->extent.width,
            swapchain->extent.height, count, swapchain->format, swapchain->present_mode, surface->kind);
  *pSwapchain = ToHandle(swapchain);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroySwapchainKHR(VkDevice _device, VkSwapchainKHR _swapchain,
                                               const VkAllocationCallbacks* pAllocator) {
  Swapchain* swapchain = FromHandle<Swapchain>(_swapchain);
  if (swapchain == nullptr) return;
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, FromHandle<Device>(_device)->Allocator());
  swapchain->engine->Drain(wsi::kDestroyDrainTimeout);
  swapchain->engine->Stop();
  wsi::DestroyImages(swapchain, allocator);
  HostDelete(allocator, swapchain);
}

// VK_EXT_swapchain_maintenance1: acquired images the application will not
// present go back to the swapchain, to be acquired again.
VKAPI_ATTR VkResult VKAPI_CALL ReleaseSwapchainImagesEXT(VkDevice,
                                                         const VkReleaseSwapchainImagesInfoEXT* pReleaseInfo) {
  Swapchain* swapchain = FromHandle<Swapchain>(pReleaseInfo->swapchain);
  for (uint32_t i = 0; i < pReleaseInfo->imageIndexCount; ++i)
    if (!swapchain->engine->Unacquire(pReleaseInfo->pImageIndices[i]))
      DUET_WARN("vkReleaseSwapchainImagesEXT: image %u is not acquired", pReleaseInfo->pImageIndices[i]);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetSwapchainImagesKHR(VkDevice, VkSwapchainKHR _swapchain,
                                                     uint32_t* pSwapchainImageCount, VkImage* pSwapchainImages) {
  const Swapchain* swapchain = FromHandle<Swapchain>(_swapchain);
  return FillArray(std::span<const VkImage>(swapchain->images), pSwapchainImageCount, pSwapchainImages);
}

}  // namespace duet::api

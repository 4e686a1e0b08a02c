// Images: creation, memory requirements, binding, subresource layout.
#include "objects/image.h"

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/device_limits.h"
#include "objects/live_objects.h"
#include "texel/format_support.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"

namespace duet {
namespace {

VkMemoryRequirements ImageRequirements(const texel::ImageLayout& layout) {
  return {layout.size, limits::kImageAlignment, 1u};
}

void FillRequirements2(const texel::ImageLayout& layout, VkMemoryRequirements2* out) {
  FillMemoryRequirements2(ImageRequirements(layout), out);
}

// The layout an image created from `info` gets; VK_ERROR_* when it cannot exist.
VkResult PlanImage(const VkImageCreateInfo& info, texel::ImageLayout* layout) {
  VkImageFormatProperties limits{};
  if (texel::GetImageFormatLimits(info.format, info.imageType, info.tiling, info.usage, info.flags, &limits) !=
      VK_SUCCESS) {
    DUET_WARN("vkCreateImage: format %d with tiling %d, usage 0x%x, flags 0x%x is not supported", info.format,
              info.tiling, info.usage, info.flags);
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  }
  if (info.extent.width > limits.maxExtent.width || info.extent.height > limits.maxExtent.height ||
      info.extent.depth > limits.maxExtent.depth || info.mipLevels > limits.maxMipLevels ||
      info.arrayLayers > limits.maxArrayLayers || (info.samples & limits.sampleCounts) == 0) {
    DUET_WARN("vkCreateImage: extent, mips, layers or samples exceed what the format supports");
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  if (!texel::ComputeImageLayout(info, layout)) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  return VK_SUCCESS;
}

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateImage(VkDevice _device, const VkImageCreateInfo* pCreateInfo,
                                           const VkAllocationCallbacks* pAllocator, VkImage* pImage) {
  Device* device = FromHandle<Device>(_device);
  texel::ImageLayout layout;
  if (VkResult result = PlanImage(*pCreateInfo, &layout); result != VK_SUCCESS) return result;
  Image* image = HostNew<Image>(ChooseAllocator(pAllocator, device->Allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (image == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  image->flags = pCreateInfo->flags;
  image->type = pCreateInfo->imageType;
  image->format = pCreateInfo->format;
  image->extent = pCreateInfo->extent;
  image->mip_levels = pCreateInfo->mipLevels;
  image->array_layers = pCreateInfo->arrayLayers;
  image->samples = pCreateInfo->samples;
  image->tiling = pCreateInfo->tiling;
  image->usage = pCreateInfo->usage;
  image->layout = layout;
  *pImage = ToHandle(image);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyImage(VkDevice _device, VkImage _image, const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<Image>(_image));
}

VKAPI_ATTR void VKAPI_CALL GetImageMemoryRequirements(VkDevice, VkImage image,
                                                      VkMemoryRequirements* pMemoryRequirements) {
  *pMemoryRequirements = ImageRequirements(FromHandle<Image>(image)->layout);
}

VKAPI_ATTR void VKAPI_CALL GetImageMemoryRequirements2(VkDevice, const VkImageMemoryRequirementsInfo2* pInfo,
                                                       VkMemoryRequirements2* pMemoryRequirements) {
  FillRequirements2(FromHandle<Image>(pInfo->image)->layout, pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceImageMemoryRequirements(VkDevice, const VkDeviceImageMemoryRequirements* pInfo,
                                                            VkMemoryRequirements2* pMemoryRequirements) {
  texel::ImageLayout layout;
  if (PlanImage(*pInfo->pCreateInfo, &layout) != VK_SUCCESS) layout = texel::ImageLayout{};
  FillRequirements2(layout, pMemoryRequirements);
}

// Sparse residency is not supported: no image has sparse requirements.
VKAPI_ATTR void VKAPI_CALL GetImageSparseMemoryRequirements(VkDevice, VkImage, uint32_t* pSparseMemoryRequirementCount,
                                                            VkSparseImageMemoryRequirements*) {
  *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL GetImageSparseMemoryRequirements2(VkDevice, const VkImageSparseMemoryRequirementsInfo2*,
                                                             uint32_t* pSparseMemoryRequirementCount,
                                                             VkSparseImageMemoryRequirements2*) {
  *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL GetDeviceImageSparseMemoryRequirements(VkDevice, const VkDeviceImageMemoryRequirements*,
                                                                  uint32_t* pSparseMemoryRequirementCount,
                                                                  VkSparseImageMemoryRequirements2*) {
  *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory2(VkDevice, uint32_t bindInfoCount,
                                                const VkBindImageMemoryInfo* pBindInfos) {
  for (uint32_t i = 0; i < bindInfoCount; ++i) {
    Image* image = FromHandle<Image>(pBindInfos[i].image);
    image->memory = FromHandle<DeviceMemory>(pBindInfos[i].memory);
    image->memory_offset = pBindInfos[i].memoryOffset;
    if (image->memory != nullptr) ++image->memory->bound_resources;
  }
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory(VkDevice device, VkImage image, VkDeviceMemory memory,
                                               VkDeviceSize memoryOffset) {
  VkBindImageMemoryInfo info{VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO, nullptr, image, memory, memoryOffset};
  return BindImageMemory2(device, 1, &info);
}

VKAPI_ATTR void VKAPI_CALL GetImageSubresourceLayout(VkDevice, VkImage _image, const VkImageSubresource* pSubresource,
                                                     VkSubresourceLayout* pLayout) {
  const Image* image = FromHandle<Image>(_image);
  *pLayout = image->layout.Subresource(pSubresource->aspectMask, pSubresource->mipLevel, pSubresource->arrayLayer);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateImageView(VkDevice _device, const VkImageViewCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkImageView* pView) {
  Device* device = FromHandle<Device>(_device);
  ImageView* view =
      HostNew<ImageView>(ChooseAllocator(pAllocator, device->Allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (view == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  Image* image = FromHandle<Image>(pCreateInfo->image);
  view->image = image;
  view->view_type = pCreateInfo->viewType;
  view->format = pCreateInfo->format;
  view->components = pCreateInfo->components;
  view->range = pCreateInfo->subresourceRange;
  if (view->range.levelCount == VK_REMAINING_MIP_LEVELS)
    view->range.levelCount = image->mip_levels - view->range.baseMipLevel;
  if (view->range.layerCount == VK_REMAINING_ARRAY_LAYERS)
    view->range.layerCount = image->array_layers - view->range.baseArrayLayer;
  view->usage = image->usage;
  if (auto* usage = FindInChain<VkImageViewUsageCreateInfo>(pCreateInfo->pNext,
                                                            VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO))
    view->usage = usage->usage;
  MarkLive(view);
  *pView = ToHandle(view);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyImageView(VkDevice _device, VkImageView imageView,
                                            const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  MarkDead(FromHandle<ImageView>(imageView));
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<ImageView>(imageView));
}

}  // namespace duet::api

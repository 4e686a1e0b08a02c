// Format queries on the physical device. Formats are the same for every
// physical device, so the handle is unused; the policy lives in
// texel/format_support.
#include "dispatch/entrypoints.h"
#include "objects/memory.h"
#include "texel/format_info.h"
#include "texel/format_support.h"
#include "util/vk_util.h"

namespace duet::api {

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties(VkPhysicalDevice, VkFormat format,
                                                             VkFormatProperties* pFormatProperties) {
  const texel::FormatFeatures features = texel::GetFormatFeatures(format);
  pFormatProperties->linearTilingFeatures = texel::LegacyFormatFeatures(features.linear);
  pFormatProperties->optimalTilingFeatures = texel::LegacyFormatFeatures(features.optimal);
  pFormatProperties->bufferFeatures = texel::LegacyFormatFeatures(features.buffer);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice, VkFormat format,
                                                              VkFormatProperties2* pFormatProperties) {
  GetPhysicalDeviceFormatProperties(physicalDevice, format, &pFormatProperties->formatProperties);
  auto* properties3 = FindInChain<VkFormatProperties3>(pFormatProperties->pNext, VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3);
  if (properties3 != nullptr) {
    const texel::FormatFeatures features = texel::GetFormatFeatures(format);
    properties3->linearTilingFeatures = features.linear;
    properties3->optimalTilingFeatures = features.optimal;
    properties3->bufferFeatures = features.buffer;
  }
  // VK_EXT_multisampled_render_to_single_sampled: resolving an implicit
  // image costs what any resolve does.
  if (auto* resolve = FindInChain<VkSubpassResolvePerformanceQueryEXT>(
          pFormatProperties->pNext, VK_STRUCTURE_TYPE_SUBPASS_RESOLVE_PERFORMANCE_QUERY_EXT))
    resolve->optimal = VK_TRUE;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceImageFormatProperties(VkPhysicalDevice, VkFormat format,
                                                                      VkImageType type, VkImageTiling tiling,
                                                                      VkImageUsageFlags usage, VkImageCreateFlags flags,
                                                                      VkImageFormatProperties* pImageFormatProperties) {
  return texel::GetImageFormatLimits(format, type, tiling, usage, flags, pImageFormatProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL
GetPhysicalDeviceImageFormatProperties2(VkPhysicalDevice, const VkPhysicalDeviceImageFormatInfo2* pImageFormatInfo,
                                        VkImageFormatProperties2* pImageFormatProperties) {
  const VkPhysicalDeviceImageFormatInfo2& info = *pImageFormatInfo;
  VkImageFormatProperties& limits = pImageFormatProperties->imageFormatProperties;
  limits = {};

  // Images of external memory: a handle type the driver cannot import or export is not supported (memory.cpp).
  VkExternalMemoryProperties external{};
  if (auto* e = FindInChain<VkPhysicalDeviceExternalImageFormatInfo>(
          info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO);
      e != nullptr && e->handleType != 0) {
    external = ExternalMemoryPropertiesOf(e->handleType);
    if (external.externalMemoryFeatures == 0) {
      limits = {};
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
    }
  }

  // A separate stencil usage must be supported as well as the (depth) usage.
  VkImageUsageFlags usage = info.usage;
  auto* stencil =
      FindInChain<VkImageStencilUsageCreateInfo>(info.pNext, VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO);
  const texel::FormatInfo* format = texel::GetFormatInfo(info.format);
  if (stencil != nullptr && format != nullptr && format->has_stencil) usage |= stencil->stencilUsage;

  std::span<const VkFormat> view_formats;
  auto* list = FindInChain<VkImageFormatListCreateInfo>(info.pNext, VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO);
  if (list != nullptr && list->viewFormatCount != 0) view_formats = {list->pViewFormats, list->viewFormatCount};

  const VkResult result =
      texel::GetImageFormatLimits(info.format, info.type, info.tiling, usage, info.flags, &limits, view_formats);
  if (result != VK_SUCCESS) return result;

  for (auto* s = static_cast<VkBaseOutStructure*>(pImageFormatProperties->pNext); s != nullptr; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES) {
      reinterpret_cast<VkExternalImageFormatProperties*>(s)->externalMemoryProperties = external;
    } else if (s->sType == VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_IMAGE_FORMAT_PROPERTIES) {
      reinterpret_cast<VkSamplerYcbcrConversionImageFormatProperties*>(s)->combinedImageSamplerDescriptorCount = 1;
    }
  }
  return VK_SUCCESS;
}

// No sparse residency: no format has sparse image properties.
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceSparseImageFormatProperties(VkPhysicalDevice, VkFormat, VkImageType,
                                                                        VkSampleCountFlagBits, VkImageUsageFlags,
                                                                        VkImageTiling, uint32_t* pPropertyCount,
                                                                        VkSparseImageFormatProperties*) {
  *pPropertyCount = 0;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceSparseImageFormatProperties2(VkPhysicalDevice,
                                                                         const VkPhysicalDeviceSparseImageFormatInfo2*,
                                                                         uint32_t* pPropertyCount,
                                                                         VkSparseImageFormatProperties2*) {
  *pPropertyCount = 0;
}

}  // namespace duet::api

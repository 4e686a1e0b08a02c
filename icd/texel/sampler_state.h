// The sampler half of texture sampling: a VkSamplerCreateInfo reduced to the
// values the sampling code reads (texel/sample.h), resolved once when the
// sampler is created so nothing walks a pNext chain per sample.
#pragma once

#include <vulkan/vulkan_core.h>

namespace duet {
struct Sampler;
}

namespace duet::texel {

// VkPhysicalDeviceLimits::maxSamplerLodBias as objects/device_capabilities.cpp
// reports it: the LOD operation clamps the summed sampler and shader bias to
// +-this value.
inline constexpr float kMaxSamplerLodBias = 15.0f;

struct SamplerState {
  VkFilter mag_filter = VK_FILTER_NEAREST;
  VkFilter min_filter = VK_FILTER_NEAREST;
  VkSamplerMipmapMode mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  VkSamplerAddressMode address_modes[3] = {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                           VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                           VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE};  // U, V, W
  float mip_lod_bias = 0.0f;
  float min_lod = 0.0f;
  float max_lod = 0.0f;
  bool compare_enable = false;
  VkCompareOp compare_op = VK_COMPARE_OP_NEVER;
  bool unnormalized_coordinates = false;
  // Cube maps sample like 2D arrays (wrap modes and border texels apply per
  // face) instead of reading across edges: VK_EXT_non_seamless_cube_map.
  bool non_seamless_cube = false;
  VkBorderColor border_color = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  // The colour of VK_BORDER_COLOR_{FLOAT,INT}_CUSTOM_EXT
  // (VkSamplerCustomBorderColorCreateInfoEXT); unused otherwise.
  VkClearColorValue custom_border_color{};
  VkSamplerReductionMode reduction_mode = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
  // anisotropyEnable: up to this many samples along the footprint's long
  // axis (1: isotropic).
  float max_anisotropy = 1.0f;
};

// From the create info and its pNext chain (reduction mode, custom border
// colour).
SamplerState MakeSamplerState(const VkSamplerCreateInfo& info);

// From a Sampler object, which keeps the create info without its pNext chain
// and the reduction mode: a custom border colour is lost (reads as zero)
// unless the object keeps a SamplerState made at creation.
SamplerState MakeSamplerState(const Sampler& sampler);

}  // namespace duet::texel

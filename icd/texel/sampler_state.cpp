#include "texel/sampler_state.h"

#include <algorithm>

#include "objects/device_limits.h"
#include "objects/sampler.h"
#include "util/vk_util.h"

namespace duet::texel {
namespace {

// Everything but the pNext chain.
SamplerState FromInfo(const VkSamplerCreateInfo& info) {
  SamplerState state;
  state.mag_filter = info.magFilter;
  state.min_filter = info.minFilter;
  state.mipmap_mode = info.mipmapMode;
  state.address_modes[0] = info.addressModeU;
  state.address_modes[1] = info.addressModeV;
  state.address_modes[2] = info.addressModeW;
  state.mip_lod_bias = info.mipLodBias;
  state.min_lod = info.minLod;
  state.max_lod = info.maxLod;
  state.compare_enable = info.compareEnable == VK_TRUE;
  state.compare_op = info.compareOp;
  state.unnormalized_coordinates = info.unnormalizedCoordinates == VK_TRUE;
  state.non_seamless_cube = (info.flags & VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT) != 0;
  state.border_color = info.borderColor;
  if (info.anisotropyEnable == VK_TRUE)
    state.max_anisotropy = std::clamp(info.maxAnisotropy, 1.0f, limits::kMaxSamplerAnisotropy);
  return state;
}

}  // namespace

SamplerState MakeSamplerState(const VkSamplerCreateInfo& info) {
  SamplerState state = FromInfo(info);
  if (auto* reduction = FindInChain<VkSamplerReductionModeCreateInfo>(
          info.pNext, VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO))
    state.reduction_mode = reduction->reductionMode;
  if (auto* custom = FindInChain<VkSamplerCustomBorderColorCreateInfoEXT>(
          info.pNext, VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT))
    state.custom_border_color = custom->customBorderColor;
  return state;
}

SamplerState MakeSamplerState(const Sampler& sampler) {
  SamplerState state = FromInfo(sampler.state);
  state.reduction_mode = sampler.reduction_mode;
  return state;
}

}  // namespace duet::texel

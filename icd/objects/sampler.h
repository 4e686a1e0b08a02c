#pragma once

#include <vulkan/vulkan_core.h>

#include "texel/sampler_state.h"
#include "util/object.h"

namespace duet {

struct Sampler : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkSampler, VK_OBJECT_TYPE_SAMPLER);

  explicit Sampler(const VkSamplerCreateInfo& info)
      : NonDispatchableObject(kObjectType), state(info), sampling(texel::MakeSamplerState(info)) {
    state.pNext = nullptr;
  }

  VkSamplerCreateInfo state;        // pNext dropped: the chain is not the driver's to keep
  texel::SamplerState sampling;     // what sampling reads, resolved from the create info and its chain
  VkSamplerReductionMode reduction_mode = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
};

}  // namespace duet

// A 2D RGBA8 texture for the graphics workloads: uploaded once, then in
// SHADER_READ_ONLY_OPTIMAL, with a view and a linear, repeating sampler
// (objects destroyed with the device; failures throw BenchFailure).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>

namespace duet_bench {

class BenchDevice;

struct SampledTexture {
  VkImageView view = VK_NULL_HANDLE;
  VkSampler sampler = VK_NULL_HANDLE;
};

// A size x size texture of texel(x, y) (RGBA8, R in the low byte).
SampledTexture CreateSampledTexture(BenchDevice& device, uint32_t size,
                                    const std::function<uint32_t(uint32_t x, uint32_t y)>& texel);

}  // namespace duet_bench

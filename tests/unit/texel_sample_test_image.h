// Images, views and samplers for the sampling tests, built by hand over host
// memory (the sampling code only reads the objects' fields and the layout
// texel/image_layout computes), plus one-lane and many-lane call helpers.
// Expected values in the tests come from the spec's formulas, written out in
// the tests themselves.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "objects/image.h"
#include "objects/memory.h"
#include "texel/image_layout.h"
#include "texel/sample.h"
#include "texel/sampler_state.h"

namespace duet::texel::sample_test {

inline constexpr VkComponentMapping kIdentity = {VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
                                                 VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY};

class TestImage {
 public:
  TestImage(VkImageType type, VkFormat format, VkExtent3D extent, uint32_t mips = 1, uint32_t layers = 1,
            VkImageCreateFlags flags = 0, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.flags = flags;
    info.imageType = type;
    info.format = format;
    info.extent = extent;
    info.mipLevels = mips;
    info.arrayLayers = layers;
    info.samples = samples;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
    EXPECT_TRUE(ComputeImageLayout(info, &image_.layout));
    storage_.assign(image_.layout.size + 64, 0);
    memory_.data = reinterpret_cast<std::byte*>(storage_.data());
    memory_.size = image_.layout.size;
    image_.flags = flags;
    image_.type = type;
    image_.format = format;
    image_.extent = extent;
    image_.mip_levels = mips;
    image_.array_layers = layers;
    image_.samples = samples;
    image_.memory = &memory_;
  }
  TestImage(const TestImage&) = delete;
  TestImage& operator=(const TestImage&) = delete;

  const Image& image() const { return image_; }

  // The bytes of texel (x, y, z) of a level and layer (sample `sample`).
  std::byte* Texel(uint32_t mip, uint32_t layer, uint32_t x, uint32_t y, uint32_t z = 0,
                   VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT, uint32_t sample = 0) {
    const VkSubresourceLayout sub = image_.layout.Subresource(aspect, mip, layer);
    const PlaneLayout& plane = image_.layout.planes[image_.layout.PlaneOf(aspect)];
    return image_.Data() + sub.offset + z * sub.depthPitch + y * sub.rowPitch +
           (static_cast<VkDeviceSize>(x) * image_.layout.samples + sample) * plane.block_size;
  }

  void SetRgba8(uint32_t mip, uint32_t layer, uint32_t x, uint32_t y, uint32_t z, uint8_t r, uint8_t g, uint8_t b,
                uint8_t a) {
    const uint8_t bytes[4] = {r, g, b, a};
    std::memcpy(Texel(mip, layer, x, y, z), bytes, 4);
  }

  template <typename T>
  void Set(uint32_t mip, uint32_t layer, uint32_t x, uint32_t y, uint32_t z, const T& value,
           VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT, uint32_t sample = 0) {
    std::memcpy(Texel(mip, layer, x, y, z, aspect, sample), &value, sizeof(T));
  }

  ImageView View(VkImageViewType type, VkFormat format = VK_FORMAT_UNDEFINED, uint32_t base_mip = 0,
                 uint32_t mip_count = VK_REMAINING_MIP_LEVELS, uint32_t base_layer = 0,
                 uint32_t layer_count = VK_REMAINING_ARRAY_LAYERS,
                 VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT, VkComponentMapping components = kIdentity) {
    ImageView view;
    view.image = &image_;
    view.view_type = type;
    view.format = format == VK_FORMAT_UNDEFINED ? image_.format : format;
    view.components = components;
    view.range = {aspect, base_mip, mip_count, base_layer, layer_count};
    if (mip_count == VK_REMAINING_MIP_LEVELS) view.range.levelCount = image_.mip_levels - base_mip;
    if (layer_count == VK_REMAINING_ARRAY_LAYERS) {
      const uint32_t layers = image_.type == VK_IMAGE_TYPE_3D ? image_.extent.depth : image_.array_layers;
      view.range.layerCount = layers - base_layer;
    }
    return view;
  }

 private:
  std::vector<uint64_t> storage_;  // 8-byte aligned backing
  DeviceMemory memory_;
  Image image_;
};

inline SamplerState MakeSampler(VkFilter filter, VkSamplerAddressMode mode = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                VkSamplerMipmapMode mipmap = VK_SAMPLER_MIPMAP_MODE_NEAREST, float max_lod = 16.0f) {
  SamplerState s;
  s.mag_filter = s.min_filter = filter;
  s.mipmap_mode = mipmap;
  s.address_modes[0] = s.address_modes[1] = s.address_modes[2] = mode;
  s.max_lod = max_lod;
  return s;
}

inline SampledImageState Resolve(const ImageView& view, const SamplerState* sampler) {
  SampledImageState state;
  ResolveSampledImage(view, sampler, &state);
  return state;
}

// One lane's operands; the helpers below turn them into a one-lane request.
struct Lane {
  float coords[4] = {0, 0, 0, 0};
  float lod = 0.0f;
  bool derivatives = false;
  float ddx[3] = {0, 0, 0};
  float ddy[3] = {0, 0, 0};
  float bias = 0.0f;
  float min_lod = 0.0f;
  bool has_min_lod = false;
  int32_t offset[3] = {0, 0, 0};
  float dref = 0.0f;
  bool has_dref = false;
};

inline SampleRequest RequestFor(Lane& lane) {
  SampleRequest request;
  for (int c = 0; c < 4; ++c) request.coords[c] = &lane.coords[c];
  request.lod_mode = lane.derivatives ? LodMode::kDerivatives : LodMode::kExplicit;
  request.lod = &lane.lod;
  for (int c = 0; c < 3; ++c) {
    request.ddx[c] = &lane.ddx[c];
    request.ddy[c] = &lane.ddy[c];
    request.const_offset[c] = lane.offset[c];
  }
  request.bias = &lane.bias;
  if (lane.has_min_lod) request.min_lod = &lane.min_lod;
  if (lane.has_dref) request.dref = &lane.dref;
  return request;
}

inline TexelValue SampleOne(const SampledImageState& state, Lane lane) {
  const SampleRequest request = RequestFor(lane);
  TexelValue out;
  std::memset(&out, 0xCD, sizeof(out));
  Sample(state, request, 1, &out);
  return out;
}

inline TexelValue GatherOne(const SampledImageState& state, Lane lane, uint32_t component,
                            const int32_t (*const_offsets)[2] = nullptr) {
  const SampleRequest request = RequestFor(lane);
  TexelValue out;
  std::memset(&out, 0xCD, sizeof(out));
  Gather(state, request, component, const_offsets, 1, &out);
  return out;
}

inline TexelValue FetchOne(const SampledImageState& state, int32_t i, int32_t j = 0, int32_t k = 0, int32_t lod = 0,
                           int32_t sample = 0) {
  const int32_t* coords[3] = {&i, &j, &k};
  TexelValue out;
  std::memset(&out, 0xCD, sizeof(out));
  Fetch(state, coords, &lod, &sample, 1, &out);
  return out;
}

// An RGBA8 UNORM component as the spec converts it: c / 255.
inline float Unorm8(uint32_t c) { return static_cast<float>(c) / 255.0f; }

// The spec's wrapping operation (for expected values), written out again.
inline int32_t ExpectedWrap(int32_t i, int32_t size, VkSamplerAddressMode mode) {
  auto mirror = [](int32_t n) { return n >= 0 ? n : -(1 + n); };
  auto mod = [](int32_t a, int32_t b) { return ((a % b) + b) % b; };
  switch (mode) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT: return mod(i, size);
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: return (size - 1) - mirror(mod(i, 2 * size) - size);
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE: return i < 0 ? 0 : (i >= size ? size - 1 : i);
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER: return i < -1 ? -1 : (i > size ? size : i);
    default: {
      const int32_t m = mirror(i);
      return m >= size ? size - 1 : m;
    }
  }
}

}  // namespace duet::texel::sample_test

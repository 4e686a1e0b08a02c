// TEMPORARY (h1): hashes SampleComponents' output bits over many random
// requests, to compare before/after an optimization. To be deleted.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "texel/sample_internal.h"
#include "texel/sample_rgba8.h"
#include "texel_sample_test_image.h"

namespace duet::texel::sample_test {
namespace {

constexpr uint32_t kN = 64;

struct Ops {
  float coords[3][kN];
  float lod[kN], bias[kN], min_lod[kN];
  float ddx[2][kN], ddy[2][kN];
  int32_t offsets[2][kN];
};

TEST(TmpGolden, Hash) {
  const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB,
                              VK_FORMAT_B8G8R8A8_SRGB};
  constexpr VkSamplerAddressMode kModes[] = {
      VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE};
  const VkComponentMapping swizzles[] = {
      kIdentity,
      {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_ZERO},
      {VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R},
  };
  std::mt19937 rng(4321);
  uint64_t hash[2] = {1469598103934665603ull, 1469598103934665603ull};
  constexpr VkExtent3D kExtents[] = {{8, 5, 1}, {16, 8, 1}, {64, 64, 1}, {37, 20, 1}};
  constexpr uint32_t kMips = 4, kLayers = 3;
  for (VkFormat format : formats) {
    for (VkExtent3D extent : kExtents) {
      TestImage image(VK_IMAGE_TYPE_2D, format, extent, kMips, kLayers);
      for (uint32_t mip = 0; mip < kMips; ++mip) {
        const uint32_t w = std::max(extent.width >> mip, 1u), h = std::max(extent.height >> mip, 1u);
        for (uint32_t layer = 0; layer < kLayers; ++layer)
          for (uint32_t y = 0; y < h; ++y)
            for (uint32_t x = 0; x < w; ++x) {
              const uint32_t word = rng();
              image.SetRgba8(mip, layer, x, y, 0, word & 0xFF, (word >> 8) & 0xFF, (word >> 16) & 0xFF, word >> 24);
            }
      }
      for (int round = 0; round < 300; ++round) {
        const bool arrayed = round % 2 == 1;
        const bool one_level = round % 3 == 0;
        const ImageView view = image.View(arrayed ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
                                          VK_FORMAT_UNDEFINED, 0, one_level ? 1 : kMips, 0, arrayed ? kLayers : 1,
                                          VK_IMAGE_ASPECT_COLOR_BIT, swizzles[(round / 2) % 3]);
        SamplerState sampler;
        sampler.mag_filter = rng() % 2 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
        sampler.min_filter = round % 4 == 0 ? sampler.mag_filter : (rng() % 2 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
        sampler.mipmap_mode = rng() % 2 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
        for (int c = 0; c < 3; ++c) sampler.address_modes[c] = kModes[rng() % 5];
        if (round % 5 < 2) sampler.address_modes[0] = sampler.address_modes[1] = VK_SAMPLER_ADDRESS_MODE_REPEAT;
        sampler.border_color = rng() % 2 ? VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK : VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
        sampler.mip_lod_bias = round % 5 == 0 ? 0.75f : 0.0f;
        sampler.max_lod = round % 6 == 0 ? 0.0f : 16.0f;
        const SampledImageState state = Resolve(view, &sampler);
        Ops op;
        std::uniform_real_distribution<float> wide_coord(-1.5f, 2.5f), in_coord(0.01f, 0.99f), lod(-1.0f, 3.5f),
            derivative(-0.05f, 0.05f);
        const bool inside = round % 4 < 2;
        for (uint32_t l = 0; l < kN; ++l) {
          for (int c = 0; c < 2; ++c) op.coords[c][l] = inside ? in_coord(rng) : wide_coord(rng);
          op.coords[2][l] = 4.0f * wide_coord(rng);
          op.lod[l] = lod(rng);
          op.bias[l] = lod(rng) - 1.0f;
          op.min_lod[l] = std::fabs(lod(rng)) / 2.0f;
          for (int c = 0; c < 2; ++c) {
            op.ddx[c][l] = derivative(rng) * (1 + rng() % 3);
            op.ddy[c][l] = derivative(rng) * (1 + rng() % 3);
            op.offsets[c][l] = static_cast<int32_t>(rng() % 7) - 3;
          }
        }
        SampleRequest request;
        for (int c = 0; c < 3; ++c) request.coords[c] = op.coords[c];
        if (rng() % 3 == 0) {
          request.lod_mode = LodMode::kExplicit;
          request.lod = op.lod;
        } else {
          request.lod_mode = LodMode::kDerivatives;
          for (int c = 0; c < 2; ++c) {
            request.ddx[c] = op.ddx[c];
            request.ddy[c] = op.ddy[c];
          }
        }
        if (rng() % 4 == 0) request.bias = op.bias;
        if (rng() % 5 == 0) request.min_lod = op.min_lod;
        switch (rng() % 4) {
          case 0:
            request.offsets[0] = op.offsets[0];
            request.offsets[1] = op.offsets[1];
            break;
          case 1:
            request.const_offset[0] = -2;
            request.const_offset[1] = 3;
            break;
          default: break;
        }
        const LaneMask masks[] = {~LaneMask{0}, (LaneMask{rng()} << 32) | rng(), 0xFFFFFFFFFFFF0FF0ull, 0x1u,
                                  0x00FFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFF0ull};
        for (LaneMask mask : masks) {
          for (int pass = 0; pass < 2; ++pass) {
            uint32_t got[4][kN];
            for (auto& component : got)
              for (uint32_t& word : component) word = 0xDEADBEEFu;
            uint32_t* const out[4] = {got[0], got[1], got[2], got[3]};
            rgba8::SetWideGroupsEnabled(pass == 1);
            SampleComponents(state, request, mask, out);
            for (auto& component : got)
              for (uint32_t word : component) hash[pass] = (hash[pass] ^ word) * 1099511628211ull;
          }
        }
      }
    }
  }
  rgba8::SetWideGroupsEnabled(true);
  std::printf("GOLDEN %016llx %016llx\n", static_cast<unsigned long long>(hash[0]),
              static_cast<unsigned long long>(hash[1]));
}

}  // namespace
}  // namespace duet::texel::sample_test

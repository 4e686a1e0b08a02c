// SampleComponents (results by component, the shader executor's layout)
// against Sample: the wave path for 2D RGBA8/BGRA8 views must give Sample's
// results up to float rounding for every filter, mipmap mode, address mode,
// border colour, swizzle, offset and LOD source, on 2D and 2D-array views,
// and leave the lanes outside the mask alone; its eight-lane AVX2 groups
// must give the four-lane path's bits. Other formats go through Sample
// itself. Also the LOD operation's log2 (exact at powers of two).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <iterator>
#include <random>
#include <string>

#include "texel/sample_internal.h"
#include "texel/sample_rgba8.h"
#include "texel_sample_test_image.h"

namespace duet::texel::sample_test {
namespace {

constexpr uint32_t kLanes = 32;
constexpr uint32_t kSentinel = 0xDEADBEEFu;

// Every texel of every level and layer a different colour.
void Fill(TestImage& image, uint32_t mips, uint32_t layers, VkExtent3D extent, std::mt19937& rng) {
  for (uint32_t mip = 0; mip < mips; ++mip) {
    const uint32_t w = std::max(extent.width >> mip, 1u), h = std::max(extent.height >> mip, 1u);
    for (uint32_t layer = 0; layer < layers; ++layer)
      for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
          const uint32_t word = rng();
          image.SetRgba8(mip, layer, x, y, 0, word & 0xFF, (word >> 8) & 0xFF, (word >> 16) & 0xFF, word >> 24);
        }
  }
}

struct Operands {
  float coords[3][kLanes];
  float lod[kLanes], bias[kLanes], min_lod[kLanes];
  float ddx[2][kLanes], ddy[2][kLanes];
  int32_t offsets[2][kLanes];
};

// A random request over 32 lanes: coordinates in and well outside [0, 1]
// (a few special values), the LOD explicit or from derivatives, optional
// bias, MinLod and offsets (per lane or constant).
SampleRequest RandomRequest(std::mt19937& rng, Operands* op, bool unnormalized) {
  std::uniform_real_distribution<float> coord(-1.5f, 2.5f), lod(-1.0f, 3.5f), derivative(-0.6f, 0.6f);
  std::uniform_int_distribution<int32_t> offset(-3, 3);
  for (uint32_t l = 0; l < kLanes; ++l) {
    for (int c = 0; c < 2; ++c) op->coords[c][l] = unnormalized ? 8.0f * coord(rng) : coord(rng);
    op->coords[2][l] = 4.0f * coord(rng);  // the array layer
    op->lod[l] = lod(rng);
    op->bias[l] = lod(rng) - 1.0f;
    op->min_lod[l] = std::fabs(lod(rng)) / 2.0f;
    for (int c = 0; c < 2; ++c) {
      op->ddx[c][l] = derivative(rng) * derivative(rng);
      op->ddy[c][l] = derivative(rng) * derivative(rng);
      op->offsets[c][l] = offset(rng);
    }
  }
  // Texel centres and edges, and values sampling must survive.
  op->coords[0][0] = 0.5f, op->coords[1][0] = 0.5f;
  op->coords[0][1] = 0.0f, op->coords[1][1] = 1.0f;
  op->coords[0][2] = std::nanf(""), op->coords[1][2] = INFINITY;
  op->coords[0][3] = -INFINITY, op->coords[1][3] = 1e30f;
  // Array layers at ties (to even), past both ends and NaN.
  const float layers[] = {0.5f, 1.5f, 2.5f, -0.5f, std::nanf(""), 1e30f, -INFINITY, 2.49f};
  for (uint32_t l = 0; l < std::size(layers); ++l) op->coords[2][8 + l] = layers[l];
  // A point footprint (log2(0)) now and then: its group of lanes takes the
  // scalar LOD path.
  if (rng() % 3 == 0) {
    const uint32_t l = rng() % kLanes;
    op->ddx[0][l] = op->ddx[1][l] = op->ddy[0][l] = op->ddy[1][l] = 0.0f;
  }

  SampleRequest request;
  for (int c = 0; c < 3; ++c) request.coords[c] = op->coords[c];
  if (unnormalized || rng() % 2 == 0) {
    request.lod_mode = LodMode::kExplicit;
    request.lod = op->lod;
    if (unnormalized) request.lod = nullptr;  // unnormalized coordinates need LOD 0
  } else {
    request.lod_mode = LodMode::kDerivatives;
    for (int c = 0; c < 2; ++c) {
      request.ddx[c] = op->ddx[c];
      request.ddy[c] = op->ddy[c];
    }
  }
  if (unnormalized) return request;
  if (rng() % 3 == 0) request.bias = op->bias;
  if (rng() % 4 == 0) request.min_lod = op->min_lod;
  switch (rng() % 3) {
    case 0:
      request.offsets[0] = op->offsets[0];
      request.offsets[1] = op->offsets[1];
      break;
    case 1:
      request.const_offset[0] = -2;
      request.const_offset[1] = 3;
      break;
    default: break;
  }
  return request;
}

// Sample's results against SampleComponents' for the lanes of `mask`.
void ExpectSameAsSample(const SampledImageState& state, const SampleRequest& request, LaneMask mask,
                        const std::string& what) {
  TexelValue expected[kLanes];
  Sample(state, request, mask, expected);
  // Four lanes at a time, then (on CPUs with AVX2) eight: the same bits.
  const bool wide = rgba8::WideGroupsEnabled();
  uint32_t got[2][4][kLanes];
  for (int pass = 0; pass < 2; ++pass) {
    for (auto& component : got[pass])
      for (uint32_t& word : component) word = kSentinel;
    uint32_t* const out[4] = {got[pass][0], got[pass][1], got[pass][2], got[pass][3]};
    rgba8::SetWideGroupsEnabled(pass == 1);
    SampleComponents(state, request, mask, out);
  }
  rgba8::SetWideGroupsEnabled(wide);
  for (uint32_t l = 0; l < kLanes; ++l) {
    for (int c = 0; c < 4; ++c) {
      if (((mask >> l) & 1) == 0) {
        EXPECT_EQ(got[0][c][l], kSentinel) << what << " lane " << l << " written outside the mask";
        EXPECT_EQ(got[1][c][l], kSentinel) << what << " lane " << l << " written outside the mask";
        continue;
      }
      const float e = expected[l].f[c], g = std::bit_cast<float>(got[0][c][l]);
      EXPECT_NEAR(g, e, 1e-6f) << what << " lane " << l << " component " << c;
      EXPECT_EQ(got[1][c][l], got[0][c][l]) << what << " lane " << l << " component " << c << " (eight lanes)";
    }
  }
}

struct FormatCase {
  VkFormat format;
  bool wave_path;
};

TEST(SampleComponents, AgreesWithSampleOverFormatsFiltersAddressModesAndLods) {
  const FormatCase formats[] = {
      {VK_FORMAT_R8G8B8A8_UNORM, true}, {VK_FORMAT_B8G8R8A8_UNORM, true}, {VK_FORMAT_R8G8B8A8_SRGB, true},
      {VK_FORMAT_B8G8R8A8_SRGB, true},  {VK_FORMAT_A8B8G8R8_UNORM_PACK32, false},
  };
  constexpr VkSamplerAddressMode kModes[] = {
      VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE};
  constexpr VkBorderColor kBorders[] = {VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE};
  const VkComponentMapping swizzles[] = {
      kIdentity,
      {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_ZERO},
      {VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R},
  };
  std::mt19937 rng(1234);
  // 8x5, 4x2, 2x1, 1x1 and power-of-two levels (REPEAT wraps by masking).
  constexpr VkExtent3D kExtents[] = {{8, 5, 1}, {16, 8, 1}};
  constexpr uint32_t kMips = 4, kLayers = 3;
  for (size_t n = 0; n < std::size(formats) * std::size(kExtents); ++n) {
    const FormatCase& f = formats[n / std::size(kExtents)];
    const VkExtent3D extent = kExtents[n % std::size(kExtents)];
    TestImage image(VK_IMAGE_TYPE_2D, f.format, extent, kMips, kLayers);
    Fill(image, kMips, kLayers, extent, rng);
    for (int round = 0; round < 60; ++round) {
      const bool unnormalized = round % 10 == 9;
      const bool arrayed = !unnormalized && round % 2 == 1;
      const VkComponentMapping& swizzle = swizzles[round % 3];
      const ImageView view = image.View(arrayed ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
                                        VK_FORMAT_UNDEFINED, unnormalized ? 1 : 0, unnormalized ? 1 : kMips - 1,
                                        0, arrayed ? kLayers : 1, VK_IMAGE_ASPECT_COLOR_BIT, swizzle);
      SamplerState sampler;
      sampler.mag_filter = rng() % 2 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
      sampler.min_filter = round % 4 == 0 ? sampler.mag_filter : (rng() % 2 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
      sampler.mipmap_mode = rng() % 2 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
      for (int c = 0; c < 3; ++c) sampler.address_modes[c] = kModes[rng() % 5];
      if (unnormalized) {
        sampler.address_modes[0] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        sampler.address_modes[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
      }
      sampler.border_color = kBorders[rng() % 2];
      sampler.mip_lod_bias = round % 5 == 0 ? 0.75f : 0.0f;
      sampler.min_lod = round % 7 == 0 ? 0.5f : 0.0f;
      sampler.max_lod = round % 6 == 0 ? 0.0f : 16.0f;
      sampler.unnormalized_coordinates = unnormalized;
      const SampledImageState state = Resolve(view, &sampler);
      ASSERT_EQ(state.rgba8_waves, f.wave_path) << f.format;
      Operands op;
      const SampleRequest request = RandomRequest(rng, &op, unnormalized);
      const LaneMask masks[] = {0xFFFFFFFFu, rng(), 0x7FFFFFFEu, 0x1u, 0x80000000u, 0x00F0F00Fu};
      for (LaneMask mask : masks) {
        ExpectSameAsSample(state, request, mask,
                           "format " + std::to_string(f.format) + " round " + std::to_string(round));
      }
    }
  }
}

// Views of one level with one filter (no LOD: one loop over the wave, the
// filter fixed) in every component order: RGBA and BGRA formats, swizzles
// that permute the bytes (their shifts and conversions fixed per loop) and
// ones with constants or a byte twice; wrapped by masking (power-of-two
// REPEAT), by clamping (CLAMP_TO_EDGE) or not at all, with coordinates
// inside the image and past its edges.
TEST(SampleComponents, OneLevelWavesInEveryComponentOrder) {
  const VkFormat formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB,
                              VK_FORMAT_B8G8R8A8_SRGB};
  const VkComponentMapping swizzles[] = {
      kIdentity,
      {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_A},
      {VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R},
      {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_ZERO},
      {VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R},
  };
  constexpr VkSamplerAddressMode kModes[] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                             VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT};
  constexpr VkExtent3D kExtents[] = {{16, 8, 1}, {8, 5, 1}};
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> inside(0.0f, 1.0f), around(-0.3f, 1.3f);
  for (VkFormat format : formats) {
    for (const VkExtent3D& extent : kExtents) {
      TestImage image(VK_IMAGE_TYPE_2D, format, extent);
      Fill(image, 1, 1, extent, rng);
      for (const VkComponentMapping& swizzle : swizzles) {
        const ImageView view =
            image.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 0, 1, 0, 1, VK_IMAGE_ASPECT_COLOR_BIT, swizzle);
        for (VkFilter filter : {VK_FILTER_LINEAR, VK_FILTER_NEAREST}) {
          for (VkSamplerAddressMode mode : kModes) {
            const SamplerState sampler = MakeSampler(filter, mode);
            const SampledImageState state = Resolve(view, &sampler);
            ASSERT_TRUE(state.rgba8_waves);
            ASSERT_FALSE(LodMatters(state, false));
            for (bool edges : {false, true}) {
              Operands op{};
              for (uint32_t l = 0; l < kLanes; ++l)
                for (int c = 0; c < 2; ++c) op.coords[c][l] = edges ? around(rng) : inside(rng);
              SampleRequest request;
              request.coords[0] = op.coords[0];
              request.coords[1] = op.coords[1];
              request.lod_mode = LodMode::kDerivatives;  // no derivatives: the LOD does not matter
              const std::string what = "format " + std::to_string(format) + " filter " + std::to_string(filter) +
                                       " mode " + std::to_string(mode) + (edges ? " edges" : "");
              for (LaneMask mask : {LaneMask{0xFFFFFFFFu}, LaneMask{0xFFFF0FF0u}, LaneMask{rng()}})
                ExpectSameAsSample(state, request, mask, what);
            }
          }
        }
      }
    }
  }
}

// Results marked unused (SampleRequest::unused_components) may be left
// unwritten; the others keep the bits of a sample that computes them all,
// in every component order (permuted bytes, constants, a byte twice), with
// one level and with lanes spread over several (the mixed-level groups).
TEST(SampleComponents, UnusedComponentsLeaveTheOthersAlone) {
  const VkComponentMapping swizzles[] = {
      kIdentity,
      {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_A},
      {VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_ONE},
  };
  constexpr VkExtent3D kExtent{16, 16, 1};
  constexpr uint32_t kMips = 3;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> inside(0.0f, 1.0f), lods(0.0f, 2.0f);
  const bool wide = rgba8::WideGroupsEnabled();
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB}) {
    TestImage image(VK_IMAGE_TYPE_2D, format, kExtent, kMips);
    Fill(image, kMips, 1, kExtent, rng);
    for (const VkComponentMapping& swizzle : swizzles) {
      for (bool levels : {false, true}) {
        const ImageView view = image.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 0, levels ? kMips : 1, 0, 1,
                                          VK_IMAGE_ASPECT_COLOR_BIT, swizzle);
        const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                                 VK_SAMPLER_MIPMAP_MODE_LINEAR);
        const SampledImageState state = Resolve(view, &sampler);
        ASSERT_TRUE(state.rgba8_waves);
        Operands op{};
        for (uint32_t l = 0; l < kLanes; ++l) {
          for (int c = 0; c < 2; ++c) op.coords[c][l] = inside(rng);
          op.lod[l] = lods(rng);
        }
        SampleRequest request;
        request.coords[0] = op.coords[0];
        request.coords[1] = op.coords[1];
        request.lod_mode = LodMode::kExplicit;
        request.lod = op.lod;
        for (bool wide_groups : {false, true}) {
          rgba8::SetWideGroupsEnabled(wide_groups);
          uint32_t all[4][kLanes];
          uint32_t* const all_out[4] = {all[0], all[1], all[2], all[3]};
          SampleComponents(state, request, ~LaneMask{0} >> (64 - kLanes), all_out);
          for (uint8_t unused : {1, 2, 4, 8, 6, 9, 14}) {
            uint32_t got[4][kLanes];
            for (auto& component : got)
              for (uint32_t& word : component) word = kSentinel;
            uint32_t* const out[4] = {got[0], got[1], got[2], got[3]};
            request.unused_components = unused;
            SampleComponents(state, request, ~LaneMask{0} >> (64 - kLanes), out);
            request.unused_components = 0;
            for (int c = 0; c < 4; ++c) {
              if (((unused >> c) & 1) != 0) continue;
              for (uint32_t l = 0; l < kLanes; ++l)
                ASSERT_EQ(got[c][l], all[c][l]) << "format " << format << " unused " << int(unused) << " component "
                                                << c << " lane " << l << (levels ? " levels" : "")
                                                << (wide_groups ? " wide" : "");
            }
          }
        }
      }
    }
  }
  rgba8::SetWideGroupsEnabled(wide);
}

TEST(SampleComponents, LodMattersOnlyWithLevelsOrTwoFilters) {
  TestImage image(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 3);
  SamplerState sampler = MakeSampler(VK_FILTER_LINEAR);
  const SampledImageState one_level = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 0, 1), &sampler);
  EXPECT_FALSE(LodMatters(one_level, false));
  EXPECT_FALSE(LodMatters(one_level, true));
  const SampledImageState levels = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D), &sampler);
  EXPECT_TRUE(LodMatters(levels, false));
  sampler.max_lod = 0.0f;
  const SampledImageState clamped = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D), &sampler);
  EXPECT_FALSE(LodMatters(clamped, false));
  EXPECT_TRUE(LodMatters(clamped, true));  // MinLod can raise lambda above maxLod
  sampler.min_filter = VK_FILTER_NEAREST;
  const SampledImageState two_filters = Resolve(image.View(VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_UNDEFINED, 0, 1), &sampler);
  EXPECT_TRUE(LodMatters(two_filters, false));
}

TEST(SampleLog2, ExactAtPowersOfTwoAndCloseElsewhere) {
  for (int e = -126; e < 128; ++e) EXPECT_EQ(sampling::Log2(std::ldexp(1.0f, e)), static_cast<float>(e)) << e;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> exponent(-40.0f, 40.0f);
  for (int i = 0; i < 100000; ++i) {
    const float x = std::exp2(exponent(rng));
    const double exact = std::log2(static_cast<double>(x));
    EXPECT_NEAR(sampling::Log2(x), exact, 4e-7 * std::max(1.0, std::fabs(exact))) << x;
  }
  EXPECT_EQ(sampling::Log2(0.0f), -INFINITY);
  EXPECT_EQ(sampling::Log2(INFINITY), INFINITY);
  EXPECT_TRUE(std::isnan(sampling::Log2(std::nanf(""))));
  EXPECT_NEAR(sampling::Log2(1e-40f), std::log2(1e-40), 1e-4);  // a denormal
}

}  // namespace
}  // namespace duet::texel::sample_test

// Resolving a (view, sampler) pair into a SampledImageState, and the
// instructions that need no filtering: texel fetches and image queries.
#include <algorithm>
#include <string_view>

#include "objects/image.h"
#include "objects/sampler.h"
#include "texel/block_decode.h"
#include "texel/fixed_point.h"
#include "texel/format_info.h"
#include "texel/sample.h"
#include "texel/sample_internal.h"
#include "texel/sample_rgba8.h"
#include "texel/srgb.h"

namespace duet::texel {
namespace {

constexpr uint32_t kFloatOneBits = 0x3F800000u;  // 1.0f

// UNORM8 codes as floats, exactly as the codecs convert them.
const float* Unorm8Table() {
  static const auto* table = [] {
    static float values[256];
    for (uint32_t c = 0; c < 256; ++c) values[c] = UnormToFloat(c, 8);
    return values;
  }();
  return table;
}

void ChooseInlineFormat(VkFormat format, SampledImageState* out) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM: out->inline_format = InlineTexelFormat::kRgba8; break;
    case VK_FORMAT_B8G8R8A8_UNORM: out->inline_format = InlineTexelFormat::kBgra8; break;
    case VK_FORMAT_R8G8B8A8_SRGB: out->inline_format = InlineTexelFormat::kRgba8; break;
    case VK_FORMAT_B8G8R8A8_SRGB: out->inline_format = InlineTexelFormat::kBgra8; break;
    default: return;
  }
  const bool srgb = format == VK_FORMAT_R8G8B8A8_SRGB || format == VK_FORMAT_B8G8R8A8_SRGB;
  out->srgb8 = srgb;
  out->alpha8_table = Unorm8Table();
  out->rgb8_table = srgb ? GetSrgbTables().decode : Unorm8Table();
}

// Block-compressed formats: a texel read decodes the one texel of its block.
void LoadBlockTexel(const SampledImageState& state, const SampledLevel& level, const std::byte* layer_base, int32_t x,
                    int32_t y, int32_t z, TexelValue* out) {
  const auto bx = static_cast<uint32_t>(x) / state.block_width, by = static_cast<uint32_t>(y) / state.block_height;
  const std::byte* block = layer_base + static_cast<size_t>(z) * level.slice_pitch +
                           static_cast<size_t>(by) * level.row_pitch + static_cast<size_t>(bx) * state.block_bytes;
  *out = DecodeBlockTexel(state.format, block, static_cast<uint32_t>(x) - bx * state.block_width,
                          static_cast<uint32_t>(y) - by * state.block_height);
}

// Formats without a codec or decoder (never advertised for sampling) read
// as the invalid texel, so a bad descriptor cannot crash the sampler.
void LoadUnsupportedTexel(const SampledImageState& state, const SampledLevel&, const std::byte*, int32_t, int32_t,
                          int32_t, TexelValue* out) {
  *out = state.invalid_texel;
}

SampledDim DimOf(VkImageViewType type) {
  switch (type) {
    case VK_IMAGE_VIEW_TYPE_1D:
    case VK_IMAGE_VIEW_TYPE_1D_ARRAY: return SampledDim::k1D;
    case VK_IMAGE_VIEW_TYPE_3D: return SampledDim::k3D;
    case VK_IMAGE_VIEW_TYPE_CUBE:
    case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY: return SampledDim::kCube;
    default: return SampledDim::k2D;
  }
}

bool IsArrayed(VkImageViewType type) {
  return type == VK_IMAGE_VIEW_TYPE_1D_ARRAY || type == VK_IMAGE_VIEW_TYPE_2D_ARRAY ||
         type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
}

uint8_t SwizzleSource(VkComponentSwizzle swizzle, uint8_t identity) {
  switch (swizzle) {
    case VK_COMPONENT_SWIZZLE_ZERO: return kSwizzleZero;
    case VK_COMPONENT_SWIZZLE_ONE: return kSwizzleOne;
    case VK_COMPONENT_SWIZZLE_R: return 0;
    case VK_COMPONENT_SWIZZLE_G: return 1;
    case VK_COMPONENT_SWIZZLE_B: return 2;
    case VK_COMPONENT_SWIZZLE_A: return 3;
    default: return identity;
  }
}

// Which of R, G, B, A the texels of the view have: a depth or stencil aspect
// is one component (R); a colour format has the components its name lists.
void PresentComponents(const FormatInfo& info, VkImageAspectFlagBits aspect, bool present[4]) {
  present[0] = present[1] = present[2] = present[3] = false;
  if (aspect != VK_IMAGE_ASPECT_COLOR_BIT) {
    present[0] = true;
    return;
  }
  for (uint32_t c = 0; c < info.component_count; ++c) {
    switch (info.components[c].name) {
      case 'R': present[0] = true; break;
      case 'G': present[1] = true; break;
      case 'B': present[2] = true; break;
      case 'A': present[3] = true; break;
      default: break;
    }
  }
}

// Conversion to RGBA of a texel whose present components are `value`:
// missing R, G, B read 0 and a missing A reads one.
TexelValue ExpandToRgba(const TexelValue& value, const bool present[4], uint32_t one_bits) {
  TexelValue out;
  for (int c = 0; c < 3; ++c) out.u[c] = present[c] ? value.u[c] : 0u;
  out.u[3] = present[3] ? value.u[3] : one_bits;
  return out;
}

// The border colour B of the spec's table, as the view's value class reads
// it. A float colour with an integer format (or the reverse) is undefined;
// this gives the same zeros and ones in the format's own class.
TexelValue BorderColor(const SamplerState& sampler, ValueClass value_class) {
  TexelValue b{};
  const bool integer = value_class != ValueClass::kFloat;
  const uint32_t one = integer ? 1u : kFloatOneBits;
  switch (sampler.border_color) {
    case VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK:
    case VK_BORDER_COLOR_INT_TRANSPARENT_BLACK: break;
    case VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK:
    case VK_BORDER_COLOR_INT_OPAQUE_BLACK: b.u[3] = one; break;
    case VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE:
    case VK_BORDER_COLOR_INT_OPAQUE_WHITE: b.u[0] = b.u[1] = b.u[2] = b.u[3] = one; break;
    case VK_BORDER_COLOR_FLOAT_CUSTOM_EXT:
      for (int c = 0; c < 4; ++c) {
        const float f = sampler.custom_border_color.float32[c];
        if (value_class == ValueClass::kFloat) b.f[c] = f;
        else b.i[c] = static_cast<int32_t>(f);
      }
      break;
    case VK_BORDER_COLOR_INT_CUSTOM_EXT:
      for (int c = 0; c < 4; ++c) {
        const int32_t i = sampler.custom_border_color.int32[c];
        if (value_class == ValueClass::kFloat) b.f[c] = static_cast<float>(i);
        else b.i[c] = i;
      }
      break;
    default: break;
  }
  return b;
}

uint8_t WrapForNearest(const SamplerState& sampler, SampledDim dim, int c) {
  if (dim == SampledDim::kCube && !sampler.non_seamless_cube) return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  return static_cast<uint8_t>(sampler.address_modes[c]);
}

uint8_t WrapForLinear(const SamplerState& sampler, SampledDim dim, int c) {
  if (dim == SampledDim::kCube && !sampler.non_seamless_cube) return kWrapCubeEdge;
  return static_cast<uint8_t>(sampler.address_modes[c]);
}

void ResolveSampler(const SamplerState& sampler, VkImageAspectFlagBits aspect,
                    const bool present[4], SampledImageState* out) {
  out->has_sampler = true;
  out->sampler = sampler;
  const bool filterable = out->value_class == ValueClass::kFloat;
  out->mag_filter = filterable ? sampler.mag_filter : VK_FILTER_NEAREST;
  out->min_filter = filterable ? sampler.min_filter : VK_FILTER_NEAREST;
  out->mip_linear = filterable && sampler.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_LINEAR;
  for (int c = 0; c < 3; ++c) {
    out->wrap_nearest[c] = WrapForNearest(sampler, out->dim, c);
    out->wrap_linear[c] = WrapForLinear(sampler, out->dim, c);
  }
  out->compare = sampler.compare_enable;
  // D16 and D24 are UNORM; D32 is float and compares Dref unclamped.
  out->clamp_dref = aspect == VK_IMAGE_ASPECT_DEPTH_BIT && out->codec != nullptr &&
                    out->codec->format != VK_FORMAT_D32_SFLOAT;
  out->border_texel = ExpandToRgba(BorderColor(sampler, out->value_class), present, out->one_bits);
  out->rgba8_waves = out->dim == SampledDim::k2D && out->inline_format != InlineTexelFormat::kNone &&
                     !out->compare && sampler.reduction_mode == VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE &&
                     sampler.max_anisotropy <= 1.0f;
  if (out->rgba8_waves) rgba8::ResolveSources(out);
}

// The extent of one level as the view sees it: a view of another block size
// (an uncompressed view of a block-compressed image) counts the image's
// blocks as its own texels.
int32_t ViewExtent(uint32_t image_extent, uint32_t image_block, uint32_t view_block) {
  if (image_block == view_block) return static_cast<int32_t>(image_extent);
  return static_cast<int32_t>((image_extent + image_block - 1) / image_block * view_block);
}

}  // namespace

void ResolveSampledImage(const ImageView& view, const SamplerState* sampler, SampledImageState* out) {
  *out = SampledImageState{};
  out->block_load = LoadUnsupportedTexel;
  const Image& image = *view.image;
  const FormatInfo* view_info = GetFormatInfo(view.format);
  const FormatInfo* image_info = GetFormatInfo(image.format);
  if (view_info == nullptr || image_info == nullptr) return;

  VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  if ((view.range.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) != 0) aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
  else if ((view.range.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT) != 0) aspect = VK_IMAGE_ASPECT_STENCIL_BIT;

  out->view_type = view.view_type;
  out->dim = DimOf(view.view_type);
  out->arrayed = IsArrayed(view.view_type);
  out->format = view.format;
  out->level_count = std::clamp<uint32_t>(view.range.levelCount, 1u, kMaxMipLevels);
  out->layer_count = std::max(view.range.layerCount, 1u);
  out->samples = image.layout.samples;

  const PlaneLayout& plane = image.layout.planes[image.layout.PlaneOf(aspect)];
  out->sample_stride = plane.block_size;
  out->texel_stride = plane.block_size * image.layout.samples;
  if (IsDecodedBlockFormat(view.format)) {
    out->block_load = LoadBlockTexel;
    out->block_bytes = plane.block_size;
    out->block_width = view_info->block_width;
    out->block_height = view_info->block_height;
    out->value_class = ValueClass::kFloat;
  } else {
    out->codec = aspect == VK_IMAGE_ASPECT_COLOR_BIT ? GetTexelCodec(view.format) : GetAspectCodec(view.format, aspect);
    out->value_class = out->codec != nullptr ? out->codec->value_class : ValueClassOf(*view_info);
    if (aspect == VK_IMAGE_ASPECT_COLOR_BIT) ChooseInlineFormat(view.format, out);
  }
  out->one_bits = out->value_class == ValueClass::kFloat ? kFloatOneBits : 1u;
  out->swizzle[0] = SwizzleSource(view.components.r, 0);
  out->swizzle[1] = SwizzleSource(view.components.g, 1);
  out->swizzle[2] = SwizzleSource(view.components.b, 2);
  out->swizzle[3] = SwizzleSource(view.components.a, 3);
  out->identity_swizzle = out->swizzle[0] == 0 && out->swizzle[1] == 1 && out->swizzle[2] == 2 && out->swizzle[3] == 3;
  bool present[4];
  PresentComponents(*view_info, aspect, present);
  out->invalid_texel = ExpandToRgba(TexelValue{}, present, out->one_bits);
  // (By the format's name: vk.xml 1.3.239 gives BC4_SNORM's component as SRGB.)
  if (out->value_class == ValueClass::kFloat && aspect != VK_IMAGE_ASPECT_STENCIL_BIT) {
    const std::string_view name = view_info->name;
    if (name.find("_SNORM") != std::string_view::npos) {
      out->filtered_min = -1.0f, out->filtered_max = 1.0f;
    } else if (name.find("_UNORM") != std::string_view::npos || name.find("_SRGB") != std::string_view::npos) {
      out->filtered_min = 0.0f, out->filtered_max = 1.0f;
    }
  }

  // A 2D (array) view of a 3D image (2D_ARRAY_COMPATIBLE) reads the depth
  // slices of its one level as layers.
  const bool slices_as_layers = image.type == VK_IMAGE_TYPE_3D && out->dim != SampledDim::k3D;
  const bool unnormalized = sampler != nullptr && sampler->unnormalized_coordinates;
  std::byte* const data = image.Data();
  for (uint32_t l = 0; l < out->level_count; ++l) {
    const MipLayout& mip = plane.mips[view.range.baseMipLevel + l];
    SampledLevel& level = out->levels[l];
    level.row_pitch = mip.row_pitch;
    level.slice_pitch = mip.depth_pitch;
    level.layer_pitch = slices_as_layers ? mip.depth_pitch : mip.array_pitch;
    level.base = data + plane.offset + mip.offset + view.range.baseArrayLayer * level.layer_pitch;
    level.extent[0] = ViewExtent(mip.extent.width, image_info->block_width, view_info->block_width);
    level.extent[1] = out->dim == SampledDim::k1D
                          ? 1
                          : ViewExtent(mip.extent.height, image_info->block_height, view_info->block_height);
    level.extent[2] = out->dim == SampledDim::k3D ? static_cast<int32_t>(mip.extent.depth) : 1;
    for (int c = 0; c < 3; ++c) level.scale[c] = unnormalized ? 1.0f : static_cast<float>(level.extent[c]);
  }
  if (sampler != nullptr) {
    ResolveSampler(*sampler, aspect, present, out);
  } else {
    // Sampling without a sampler is invalid; keep it memory-safe anyway.
    for (int c = 0; c < 3; ++c) out->wrap_nearest[c] = out->wrap_linear[c] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  }
}

void ResolveSampledImage(const ImageView& view, const Sampler* sampler, SampledImageState* out) {
  if (sampler == nullptr) {
    ResolveSampledImage(view, static_cast<const SamplerState*>(nullptr), out);
    return;
  }
  const SamplerState state = MakeSamplerState(*sampler);
  ResolveSampledImage(view, &state, out);
}

void Fetch(const SampledImageState& state, const int32_t* const coords[3], const int32_t* lod, const int32_t* sample,
           LaneMask lane_mask, TexelValue* out) {
  for (LaneMask mask = lane_mask; mask != 0; mask &= mask - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(mask));
    int32_t c[3];
    for (int k = 0; k < 3; ++k) c[k] = coords[k] != nullptr ? coords[k][lane] : 0;
    const int32_t level_index = lod != nullptr ? lod[lane] : 0;
    const int32_t sample_index = sample != nullptr ? sample[lane] : 0;
    // (i, j, k) and the layer, by the SPIR-V coordinate order of the view type.
    int32_t ijk[3] = {c[0], 0, 0};
    int32_t layer = 0;
    switch (state.dim) {
      case SampledDim::k1D:
        if (state.arrayed) layer = c[1];
        break;
      case SampledDim::k3D:
        ijk[1] = c[1], ijk[2] = c[2];
        break;
      default:  // 2D, 2D array; cube and cube array take the face / layer third
        ijk[1] = c[1];
        if (state.arrayed || state.dim == SampledDim::kCube) layer = c[2];
        break;
    }
    TexelValue texel = state.invalid_texel;
    if (level_index >= 0 && static_cast<uint32_t>(level_index) < state.level_count && sample_index >= 0 &&
        static_cast<uint32_t>(sample_index) < state.samples && layer >= 0 &&
        static_cast<uint32_t>(layer) < state.layer_count) {
      const SampledLevel& level = state.levels[level_index];
      bool inside = true;
      for (int k = 0; k < 3; ++k) inside = inside && ijk[k] >= 0 && ijk[k] < level.extent[k];
      if (inside) {
        // Samples of a texel are adjacent: sample n is n sample strides on.
        SampledLevel sample_level = level;
        sample_level.base += static_cast<size_t>(sample_index) * state.sample_stride;
        sampling::LoadTexel(state, sample_level, layer, ijk[0], ijk[1], ijk[2], &texel);
      }
    }
    sampling::ApplySwizzle(state, texel, &out[lane]);
  }
}

uint32_t QueryLevels(const SampledImageState& state) { return state.level_count; }

uint32_t QuerySamples(const SampledImageState& state) { return state.samples; }

uint32_t QuerySize(const SampledImageState& state, uint32_t lod, uint32_t size[3]) {
  size[0] = size[1] = size[2] = 0;
  const bool valid = lod < state.level_count;
  const SampledLevel& level = state.levels[valid ? lod : 0];
  auto extent = [&](int c) { return valid ? static_cast<uint32_t>(level.extent[c]) : 0u; };
  switch (state.dim) {
    case SampledDim::k1D:
      size[0] = extent(0);
      if (!state.arrayed) return 1;
      size[1] = state.layer_count;
      return 2;
    case SampledDim::k3D:
      for (int c = 0; c < 3; ++c) size[c] = extent(c);
      return 3;
    case SampledDim::kCube:
      size[0] = extent(0), size[1] = extent(1);
      if (!state.arrayed) return 2;
      size[2] = state.layer_count / 6;
      return 3;
    default:
      size[0] = extent(0), size[1] = extent(1);
      if (!state.arrayed) return 2;
      size[2] = state.layer_count;
      return 3;
  }
}

}  // namespace duet::texel

// Texture sampling as the Vulkan spec's "Image Operations" chapter defines
// it: the leaf the shader executor's image instructions and the rasterizer
// call. A (view, sampler) pair is resolved once into a SampledImageState
// (per-level pointers, pitches and extents, codec, swizzle, border texel,
// filters), then whole waves of lanes are sampled against it.
//
// Pipeline per lane, in the spec's order: cube face selection and face
// coordinates; array layer selection (round to nearest even, clamp); LOD from
// derivatives (isotropic: rho = max over x/y of the length of the scaled
// derivative vector) or explicit, plus the clamped sampler + shader bias,
// clamped to [max(minLod, MinLod), maxLod]; level selection (nearest rounds
// ties down); magnification when lambda <= 0; per level the texels the filter
// needs (nearest: floor(u); linear: floor(u - 0.5) and the fractions),
// wrapped by the address modes; per texel: texel replacement (border colour
// with the format's components, or across a cube edge), depth comparison,
// conversion to RGBA; weighted average (or min/max reduction) within and
// between levels; finally the view's component swizzle. The swizzle is a
// permutation with constants, so applying it once to the filtered value
// equals applying it to every texel first.
//
// Results are TexelValues in R, G, B, A order: floats for float, normalized,
// sRGB (decoded to linear) and depth formats; uint32/int32 for integer and
// stencil formats. Integer formats are never filtered (NEAREST within and
// between levels), as the spec only allows LINEAR with formats that report
// SAMPLED_IMAGE_FILTER_LINEAR.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

#include "texel/image_layout.h"
#include "texel/sampler_state.h"
#include "texel/texel_codec.h"

namespace duet {
struct ImageView;
struct Sampler;
}  // namespace duet

namespace duet::texel {

// Lanes per call: lane l is bit l of a LaneMask and element l of every array.
inline constexpr uint32_t kMaxSampleLanes = 64;
using LaneMask = uint64_t;

enum class SampledDim : uint8_t { k1D, k2D, k3D, kCube };

// One mip level of the view (index 0 is the view's baseMipLevel).
struct SampledLevel {
  const std::byte* base = nullptr;  // texel (0,0,0), sample 0, of the view's first layer
  size_t row_pitch = 0;             // bytes between rows (of blocks, for block formats)
  size_t slice_pitch = 0;           // bytes between 3D slices
  size_t layer_pitch = 0;           // bytes between the view's layers
  int32_t extent[3] = {1, 1, 1};    // width, height, depth in texels, as the view sees them
  // Normalized to unnormalized coordinates: the extent, or 1 with a sampler
  // that uses unnormalized coordinates.
  float scale[3] = {1.0f, 1.0f, 1.0f};
};

struct SampledImageState;

// Reads the in-range texel (x, y, z) of one layer of a level, converted to
// RGBA (before the swizzle). layer_base is level.base plus the layer's (and
// sample's) offset. Block-compressed formats plug in here: the function
// decodes the block that holds the texel.
using TexelLoadFn = void (*)(const SampledImageState& state, const SampledLevel& level, const std::byte* layer_base,
                             int32_t x, int32_t y, int32_t z, TexelValue* out);

// Formats whose texels the sampler decodes inline instead of through the
// codec's row function: the 8-bit RGBA/BGRA formats nearly every texture
// uses. The values are the codec's (same tables).
enum class InlineTexelFormat : uint8_t { kNone, kRgba8, kBgra8 };

// SampledImageState::swizzle entries beyond the four source components.
inline constexpr uint8_t kSwizzleZero = 4;
inline constexpr uint8_t kSwizzleOne = 5;

// How a coordinate of a sampled texel is wrapped: VkSamplerAddressMode
// values 0..4, or kWrapCubeEdge (no wrap: a texel past a face's edge is read
// from the neighbouring face).
inline constexpr uint8_t kWrapCubeEdge = 5;

// Where a result component of the RGBA8 wave path (sample_rgba8.cpp) comes
// from: the view's component order, swizzle and sRGB decoding folded together.
struct Rgba8Source {
  enum Kind : uint8_t { kZero, kOne, kUnorm, kSrgb } kind = kZero;
  uint8_t shift = 0;  // of the source byte within the little-endian texel word
};

struct SampledImageState {
  // --- the view ---
  SampledDim dim = SampledDim::k2D;
  bool arrayed = false;
  VkImageViewType view_type = VK_IMAGE_VIEW_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;  // the view's format (for depth/stencil, the view's format, not the aspect's)
  ValueClass value_class = ValueClass::kFloat;
  uint32_t level_count = 1;
  uint32_t layer_count = 1;   // the view's layers; cube views have 6 per cube
  uint32_t samples = 1;
  uint32_t texel_stride = 0;  // bytes between neighbouring texels (all their samples)
  uint32_t sample_stride = 0; // bytes between samples of one texel
  uint32_t block_bytes = 0;   // block formats: bytes per block
  uint32_t block_width = 1, block_height = 1;  // block formats: texels per block
  const TexelCodec* codec = nullptr;  // uncompressed formats: texels unpack through it (or inline_format)
  TexelLoadFn block_load = nullptr;   // otherwise (block formats): one texel through this function
  InlineTexelFormat inline_format = InlineTexelFormat::kNone;
  bool srgb8 = false;                   // kRgba8/kBgra8: an _SRGB format
  const float* rgb8_table = nullptr;    // kRgba8/kBgra8: R, G, B codes to float (UNORM or sRGB-decoded)
  const float* alpha8_table = nullptr;  //                A codes to float (UNORM)
  uint8_t swizzle[4] = {0, 1, 2, 3};  // source component of R, G, B, A, or kSwizzleZero/kSwizzleOne
  bool identity_swizzle = true;       // swizzle is {0, 1, 2, 3}: results are copied
  uint32_t one_bits = 0;              // bits of "one": 1.0f for float formats, 1 for integer formats
  TexelValue invalid_texel{};         // what a fetch outside the image reads (before the swizzle)
  // Normalized formats (UNORM, SNORM, sRGB): the range their texels hold.
  // Filtered results are clamped to it: weights that sum to a little more
  // than 1 in float would otherwise leave it (filtered_min > filtered_max: none).
  float filtered_min = 1.0f, filtered_max = 0.0f;
  SampledLevel levels[kMaxMipLevels];

  // --- the sampler (has_sampler false: fetches and queries only) ---
  bool has_sampler = false;
  SamplerState sampler;
  // Filters as applied: integer formats always NEAREST.
  VkFilter mag_filter = VK_FILTER_NEAREST;
  VkFilter min_filter = VK_FILTER_NEAREST;
  bool mip_linear = false;
  uint8_t wrap_nearest[3] = {};  // per coordinate, for NEAREST within a level
  uint8_t wrap_linear[3] = {};   // for LINEAR (and gathers)
  bool compare = false;          // depth comparison on (sampler compareEnable)
  bool clamp_dref = false;       // UNORM depth: Dref is clamped to [0, 1] first
  TexelValue border_texel{};     // border colour after replacement and conversion to RGBA
  // The wave path of SampleComponents applies (sample_rgba8.cpp): a 2D or
  // 2D-array view of an inline 8-bit format, a weighted average, no compare.
  bool rgba8_waves = false;
  // With rgba8_waves: the source of each result component, and when they
  // are the texel's four bytes in some order (no constant, no byte twice),
  // the component byte b gives (else all -1).
  Rgba8Source rgba8_sources[4];
  int8_t rgba8_byte_component[4] = {-1, -1, -1, -1};
};

// Resolves a view with a sampler (nullptr for texelFetch, storage images and
// queries). The view's image must be bound to memory. Views of depth/stencil
// formats read the aspect their subresource range selects (depth when both
// are set). A 2D or 2D-array view of a 3D image reads its depth slices as
// layers.
void ResolveSampledImage(const ImageView& view, const SamplerState* sampler, SampledImageState* out);
// The same from a Sampler object; see MakeSamplerState(const Sampler&).
void ResolveSampledImage(const ImageView& view, const Sampler* sampler, SampledImageState* out);

enum class LodMode : uint8_t {
  kDerivatives,  // ImplicitLod (the caller's quad derivatives) or the Grad operand
  kExplicit,     // the Lod operand: lambda_base = lod
};

// One image instruction's operands, one array element per lane. Null
// pointers read as 0 (or as the constant given beside them). Arrays hold at
// least as many elements as the highest active lane + 1: per-lane loops may
// run over inactive lanes below it (their results are discarded).
struct SampleRequest {
  // Coordinates in SPIR-V operand order: 1D (s), 1D array (s, a), 2D (s, t),
  // 2D array (s, t, a), 3D (s, t, r), cube (x, y, z), cube array (x, y, z, a).
  // Proj instructions: the caller divides by q (and Dref by q) first.
  const float* coords[4] = {};
  LodMode lod_mode = LodMode::kExplicit;
  const float* lod = nullptr;      // kExplicit
  const float* ddx[3] = {};        // kDerivatives: d/dx of the coordinates (not of the array layer)
  const float* ddy[3] = {};        //               d/dy
  const float* bias = nullptr;     // Bias operand
  const float* min_lod = nullptr;  // MinLod operand
  const int32_t* offsets[3] = {};  // Offset operand per lane; when null, const_offset
  int32_t const_offset[3] = {};    // ConstOffset operand
  const float* dref = nullptr;     // Dref instructions (the sampler must compare)
  // Bit c: nobody reads result component c, so SampleComponents may leave
  // out[c] unwritten (the whole-wave RGBA8 groups skip its filtering).
  uint8_t unused_components = 0;
};

// OpImageSample*: n lanes (bit l of lane_mask), results in out[l].
void Sample(const SampledImageState& state, const SampleRequest& request, LaneMask lane_mask, TexelValue* out);

// The same with results by component, as the shader executor's registers
// hold them: component c of lane l in out[c][l]. Only the lanes of lane_mask
// are written, some before others are sampled: out must not overlap the
// request's arrays. The common case (a 2D RGBA8/BGRA8 texture, UNORM or sRGB,
// filtered without comparison) runs through whole-wave loops over integer
// texel addresses instead of per-lane filtering; its results are those of
// Sample up to float rounding (a few ulps in filtered values).
void SampleComponents(const SampledImageState& state, const SampleRequest& request, LaneMask lane_mask,
                      uint32_t* const out[4]);

// Whether a sample's result depends on its LOD: false when every LOD reads
// the base level with one filter (magFilter == minFilter and a view of one
// level, or a sampler whose minLod and maxLod are at most 0 without a MinLod
// operand) and no anisotropy spreads probes along the derivatives. Callers
// may then leave the derivatives out of the request.
bool LodMatters(const SampledImageState& state, bool has_min_lod_operand);

// OpImageGather / OpImageDrefGather at the view's base level: out[l] is
// (i0j1, i1j1, i1j0, i0j0)'s `component` after the swizzle (DrefGather: the
// comparison results; pass component 0). With const_offsets (ConstOffsets:
// four (x, y) pairs), result k is texel i0j0 of the footprint offset by pair k.
void Gather(const SampledImageState& state, const SampleRequest& request, uint32_t component,
            const int32_t (*const_offsets)[2], LaneMask lane_mask, TexelValue* out);

// OpImageFetch / OpImageRead: integer coordinates per lane in SPIR-V order
// (i [,j] [,k|layer]; cube views take the face, cube arrays the layer, as the
// third), offsets already added. lod (relative to the base level) and sample
// may be null (0). A texel outside the level, layers or samples reads as the
// spec's invalid texel under robustImageAccess: 0 in R, G, B and in A if the
// format has alpha, else one.
void Fetch(const SampledImageState& state, const int32_t* const coords[3], const int32_t* lod, const int32_t* sample,
           LaneMask lane_mask, TexelValue* out);

// OpImageQueryLevels: the view's levelCount.
uint32_t QueryLevels(const SampledImageState& state);
// OpImageQuerySamples.
uint32_t QuerySamples(const SampledImageState& state);
// OpImageQuerySize(Lod): the size of level `lod` (relative to the base) in
// the components the view type has: width [, height] [, depth | layers];
// cube arrays give cubes (layers / 6) as the third. Returns the component
// count; a level outside the view reads as 0 sizes.
uint32_t QuerySize(const SampledImageState& state, uint32_t lod, uint32_t size[3]);
// OpImageQueryLod: out[l][0] is the mip level sampling would read, relative
// to the base level (d_l - level_base, fractional with LINEAR mipmapping),
// out[l][1] the LOD lambda' before clamping to the sampler's min/max LOD.
// This is SPIR-V's order ("first the mipmap level, then the level of
// detail"), GLSL textureQueryLod's and what hardware and the CTS return; the
// Vulkan spec's text says (lambda', d_l), which Khronos confirmed is a
// documentation bug (Vulkan-Docs issues 2383 and 2777).
void QueryLod(const SampledImageState& state, const SampleRequest& request, LaneMask lane_mask, float (*out)[2]);

}  // namespace duet::texel

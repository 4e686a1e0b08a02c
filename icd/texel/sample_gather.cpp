// OpImageGather / OpImageDrefGather: four texels of the base level, chosen
// by the LINEAR rules, one component of each.
#include "texel/sample.h"
#include "texel/sample_internal.h"

namespace duet::texel {
namespace {

template <SampledDim kDim, bool kCompare>
void GatherLanes(const SampledImageState& state, const SampleRequest& request, uint32_t component,
                 const int32_t (*const_offsets)[2], LaneMask lane_mask, TexelValue* out) {
  const SampledLevel& level = state.levels[0];
  const sampling::Operands op(request);
  // The component of the swizzled texel: a source component, or a constant.
  const uint8_t source = state.swizzle[component & 3];
  const uint32_t constant = source == kSwizzleZero ? 0u : state.one_bits;
  for (LaneMask mask = lane_mask; mask != 0; mask &= mask - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(mask));
    if (source >= 4) {
      for (int k = 0; k < 4; ++k) out[lane].u[k] = constant;
      continue;
    }
    float coord[3];
    sampling::CubeFace cube_face{};
    const sampling::TexelSpace space = sampling::LocateLane<kDim>(state, op.coords, lane, coord, &cube_face);
    const float dref = kCompare ? op.Dref(state, lane) : 0.0f;
    // (i, j) of the texel each result component reads.
    int32_t texel_i[4], texel_j[4];
    if (const_offsets != nullptr) {
      for (int k = 0; k < 4; ++k) {
        const float u = coord[0] * level.scale[0] + static_cast<float>(const_offsets[k][0]) - 0.5f;
        const float v = coord[1] * level.scale[1] + static_cast<float>(const_offsets[k][1]) - 0.5f;
        texel_i[k] = sampling::Wrap(sampling::FloorToInt(u), level.extent[0], state.wrap_linear[0]);
        texel_j[k] = sampling::Wrap(sampling::FloorToInt(v), level.extent[1], state.wrap_linear[1]);
      }
    } else {
      const float u = coord[0] * level.scale[0] + static_cast<float>(op.Offset(0, lane)) - 0.5f;
      const float v = coord[1] * level.scale[1] + static_cast<float>(op.Offset(1, lane)) - 0.5f;
      const int32_t floor_u = sampling::FloorToInt(u), floor_v = sampling::FloorToInt(v);
      const int32_t i0 = sampling::Wrap(floor_u, level.extent[0], state.wrap_linear[0]);
      const int32_t i1 = sampling::Wrap(floor_u + 1, level.extent[0], state.wrap_linear[0]);
      const int32_t j0 = sampling::Wrap(floor_v, level.extent[1], state.wrap_linear[1]);
      const int32_t j1 = sampling::Wrap(floor_v + 1, level.extent[1], state.wrap_linear[1]);
      // The spec's order: i0j1, i1j1, i1j0, i0j0.
      texel_i[0] = i0, texel_j[0] = j1;
      texel_i[1] = i1, texel_j[1] = j1;
      texel_i[2] = i1, texel_j[2] = j0;
      texel_i[3] = i0, texel_j[3] = j0;
    }
    for (int k = 0; k < 4; ++k) {
      TexelValue texel;
      sampling::ReadTexel<kCompare>(state, level, space, texel_i[k], texel_j[k], 0, dref, &texel);
      out[lane].u[k] = texel.u[source];
    }
  }
}

}  // namespace

// SPIR-V allows gathers on 2D, cube and rect images only; a 1D or 3D view
// gathers as if it were 2D.
void Gather(const SampledImageState& state, const SampleRequest& request, uint32_t component,
            const int32_t (*const_offsets)[2], LaneMask lane_mask, TexelValue* out) {
  const bool cube = state.dim == SampledDim::kCube;
  if (state.compare) {
    if (cube) GatherLanes<SampledDim::kCube, true>(state, request, component, const_offsets, lane_mask, out);
    else GatherLanes<SampledDim::k2D, true>(state, request, component, const_offsets, lane_mask, out);
  } else {
    if (cube) GatherLanes<SampledDim::kCube, false>(state, request, component, const_offsets, lane_mask, out);
    else GatherLanes<SampledDim::k2D, false>(state, request, component, const_offsets, lane_mask, out);
  }
}

}  // namespace duet::texel

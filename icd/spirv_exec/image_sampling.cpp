#include "spirv_exec/image_sampling.h"

#include <xmmintrin.h>

#include <bit>
#include <cstring>

#include "texel/sample.h"

namespace duet::spirv_exec {
namespace {

constexpr uint32_t W = kWaveWidth;

// A register's lanes as floats (copied: registers are 32-bit words).
struct FloatLanes {
  float v[W];
  void Load(WaveState& w, uint32_t reg) { std::memcpy(v, w.Register(reg), sizeof v); }
};

// Implicit-LOD derivatives from the quad: lanes 4q..4q+3 are (0,0) (1,0) (0,1) (1,1).
// ddx[l] = v[l | 1] - v[l & ~1] and ddy[l] = v[l | 2] - v[l & ~2], a quad
// (one register) at a time.
void QuadDerivatives(const float* v, float* ddx, float* ddy) {
  static_assert(W % 4 == 0, "waves are whole quads");
  for (uint32_t q = 0; q < W; q += 4) {
    const __m128 quad = _mm_loadu_ps(v + q);
    const __m128 right = _mm_shuffle_ps(quad, quad, _MM_SHUFFLE(3, 3, 1, 1));  // v1 v1 v3 v3
    const __m128 left = _mm_shuffle_ps(quad, quad, _MM_SHUFFLE(2, 2, 0, 0));   // v0 v0 v2 v2
    const __m128 below = _mm_shuffle_ps(quad, quad, _MM_SHUFFLE(3, 2, 3, 2));  // v2 v3 v2 v3
    const __m128 above = _mm_shuffle_ps(quad, quad, _MM_SHUFFLE(1, 0, 1, 0));  // v0 v1 v0 v1
    _mm_storeu_ps(ddx + q, _mm_sub_ps(right, left));
    _mm_storeu_ps(ddy + q, _mm_sub_ps(below, above));
  }
}

uint32_t DerivativeCoordinates(const texel::SampledImageState& s) {
  switch (s.dim) {
    case texel::SampledDim::k1D: return 1;
    case texel::SampledDim::k2D: return 2;
    default: return 3;
  }
}

}  // namespace

void SampleImage(const SampleOperands& ops, const Inst& inst, const texel::SampledImageState& state, WaveState& w) {
  const texel::LaneMask mask = w.active;
  if (state.levels[0].base == nullptr && state.block_load == nullptr && state.codec == nullptr) {
    // Nothing bound: zeros.
    for (uint32_t c = 0; c < 4; ++c) {
      uint32_t* r = w.Register(inst.dst + c);
      for (uint32_t l = 0; l < W; ++l)
        if ((mask >> l) & 1) r[l] = 0;
    }
    return;
  }
  uint32_t coordinate_count = ops.coordinate_count;
  FloatLanes coords[4], q;
  for (uint32_t c = 0; c < coordinate_count && c < 4; ++c) coords[c].Load(w, inst.a + c);
  FloatLanes dref;
  if (ops.dref != kNoOperand) dref.Load(w, ops.dref);
  if (ops.projective) {
    // The last coordinate is q: divide the others (and Dref) by it.
    --coordinate_count;
    q = coords[coordinate_count];
    for (uint32_t c = 0; c < coordinate_count; ++c)
      for (uint32_t l = 0; l < W; ++l) coords[c].v[l] /= q.v[l];
    if (ops.dref != kNoOperand)
      for (uint32_t l = 0; l < W; ++l) dref.v[l] /= q.v[l];
  }
  texel::SampleRequest request;
  for (uint32_t c = 0; c < coordinate_count && c < 4; ++c) request.coords[c] = coords[c].v;
  FloatLanes lod, bias, min_lod, ddx[3], ddy[3];
  int32_t offsets[3][W];
  if (ops.lod != kNoOperand) {
    lod.Load(w, ops.lod);
    request.lod_mode = texel::LodMode::kExplicit;
    request.lod = lod.v;
  } else {
    request.lod_mode = texel::LodMode::kDerivatives;
    // Derivatives only when the LOD can change the result (queries always;
    // gathers read the base level).
    const bool needed = ops.query_lod || texel::LodMatters(state, ops.min_lod != kNoOperand);
    const uint32_t n = needed ? DerivativeCoordinates(state) : 0;
    for (uint32_t c = 0; c < n; ++c) {
      if (ops.grad_x != kNoOperand) {
        ddx[c].Load(w, ops.grad_x + c);
        ddy[c].Load(w, ops.grad_y + c);
      } else {
        QuadDerivatives(coords[c].v, ddx[c].v, ddy[c].v);
      }
      request.ddx[c] = ddx[c].v;
      request.ddy[c] = ddy[c].v;
    }
  }
  if (ops.bias != kNoOperand) {
    bias.Load(w, ops.bias);
    request.bias = bias.v;
  }
  if (ops.min_lod != kNoOperand) {
    min_lod.Load(w, ops.min_lod);
    request.min_lod = min_lod.v;
  }
  if (ops.offset != kNoOperand) {
    for (uint32_t c = 0; c < DerivativeCoordinates(state); ++c) {
      std::memcpy(offsets[c], w.Register(ops.offset + c), sizeof offsets[c]);
      request.offsets[c] = offsets[c];
    }
  }
  if (ops.dref != kNoOperand) request.dref = dref.v;

  if (!ops.query_lod && !ops.gather) {
    // Results no instruction reads (ir_prepare's MarkUnusedSampleResults).
    request.unused_components = uint8_t(inst.c & 0xF);
    uint32_t* const dst[4] = {w.Register(inst.dst), w.Register(inst.dst + 1), w.Register(inst.dst + 2),
                              w.Register(inst.dst + 3)};
    texel::SampleComponents(state, request, mask, dst);
    return;
  }
  texel::TexelValue out[W] = {};
  if (ops.query_lod) {
    float lods[W][2] = {};
    texel::QueryLod(state, request, mask, lods);
    for (uint32_t l = 0; l < W; ++l) {
      out[l].f[0] = lods[l][0];
      out[l].f[1] = lods[l][1];
    }
  } else {
    texel::Gather(state, request, ops.gather_component, ops.has_const_offsets ? ops.const_offsets : nullptr, mask,
                  out);
  }
  for (uint32_t c = 0; c < 4; ++c) {
    uint32_t* r = w.Register(inst.dst + c);
    for (uint32_t l = 0; l < W; ++l)
      if ((mask >> l) & 1) r[l] = out[l].u[c];
  }
}

}  // namespace duet::spirv_exec

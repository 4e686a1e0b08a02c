// The vector steps of the RGBA8 wave path, written once for any width V:
// footprints (coordinates to wrapped integer texel offsets to texel words)
// and filtering (bytes to floats, bilinear weighting, blending of levels).
//
// Included inside an anonymous namespace by sample_rgba8.cpp (V =
// Sse2Lanes, four lanes) and by sample_rgba8_avx2.cpp after its AVX2 target
// pragma (V = Avx2Lanes, eight lanes), so each instruction set compiles its
// own copy. The operations and their order are the same for every V (no
// FMA), and so are the results' bits. V provides, as static functions over
// its float vector F and int32 vector I: LoadF, LoadI, SetF, SetI, Add, Sub,
// Mul, Div, Min, Max, Less (a mask), TruncateToInt, RoundToInt, ToFloat,
// AsInt, AddI, AndI, MinI, MaxI, ShiftLeft2, ShiftRight (by a count),
// MulLo, GreaterI, EqualI, AllSet
// (every lane of a mask), Words (32-bit words at byte offsets), Pairs (the
// words at byte offsets and 4 bytes after) and Lookup (floats from a table).
//
// Expects texel/sample_rgba8.h, and ComponentSource / kLanes in scope.

// The footprints of V::kWidth lanes in one level: the texel words i0j0,
// i1j0, i0j1, i1j1 (NEAREST: only [0] is read) and the weights of i1 and j1
// (0 for NEAREST).
template <class V>
struct Footprints {
  typename V::I texels[4];
  typename V::F alpha, beta;
};

// sampling::FloorAndFraction lane by lane, with the same results: NaN and
// huge values clamped first (max returns its second operand for NaN).
template <class V>
inline typename V::I FloorAndFraction(typename V::F x, typename V::F* fraction) {
  const typename V::F limit = V::SetF(sampling::kCoordinateLimit);
  x = V::Min(V::Max(x, V::SetF(-sampling::kCoordinateLimit)), limit);
  const typename V::I truncated = V::TruncateToInt(x);
  // truncated - 1 where x < truncated (negative non-integers): the mask is -1.
  const typename V::I floor_x = V::AddI(truncated, V::AsInt(V::Less(x, V::ToFloat(truncated))));
  *fraction = V::Sub(x, V::ToFloat(floor_x));
  return floor_x;
}

// The texel indices of one axis: i0 (and i1 = i0 + 1 for LINEAR) wrapped,
// by masking for a power-of-two size under REPEAT, by clamping under
// CLAMP_TO_EDGE (sampling::Wrap's operations); otherwise they must lie
// inside the level. False when a lane needs the general wrap.
template <class V>
inline bool WrapAxis(typename V::I i, int32_t size, uint8_t mode, bool linear, typename V::I* i0,
                     typename V::I* i1) {
  const typename V::I one = V::SetI(1);
  if (mode == VK_SAMPLER_ADDRESS_MODE_REPEAT && (size & (size - 1)) == 0) {
    const typename V::I mask = V::SetI(size - 1);
    *i0 = V::AndI(i, mask);
    *i1 = V::AndI(V::AddI(i, one), mask);
    return true;
  }
  if (mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE) {
    const typename V::I zero = V::SetI(0), last = V::SetI(size - 1);
    *i0 = V::MinI(V::MaxI(i, zero), last);
    *i1 = V::MinI(V::MaxI(V::AddI(i, one), zero), last);
    return true;
  }
  *i0 = i;
  *i1 = V::AddI(i, one);
  const typename V::I inside = V::AndI(V::GreaterI(i, V::SetI(-1)), V::GreaterI(V::SetI(linear ? size - 1 : size), i));
  return V::AllSet(inside);
}

// Whether the vector paths address a level's texels (4 bytes each) by
// 32-bit byte offsets: its bytes (in all the view's layers) must fit.
inline bool VectorAddressable(const SampledImageState& state, const SampledLevel& level) {
  const size_t bytes = state.arrayed ? level.layer_pitch * state.layer_count
                                     : level.row_pitch * static_cast<size_t>(level.extent[1]);
  return state.texel_stride == 4 && bytes < (size_t{1} << 31);
}

// The byte offsets of the lanes' array layers: sampling::SelectLayer,
// clamp(RNE(a), 0, count - 1), with a clamped first to [-1, count] (which
// changes no result, and sends NaN to -1: max returns its second operand).
template <class V>
inline typename V::I LayerOffsets(const SampledImageState& state, const SampledLevel& level,
                                  const sampling::Operands& op, uint32_t first) {
  if (!state.arrayed) return V::SetI(0);
  const int32_t last = static_cast<int32_t>(state.layer_count) - 1;
  const typename V::F a = V::Min(V::Max(V::LoadF(&op.coords[2][first]), V::SetF(-1.0f)),
                                 V::SetF(static_cast<float>(last + 1)));
  // Rounds to nearest even in the default rounding mode, as std::nearbyint.
  const typename V::I layer = V::MinI(V::MaxI(V::RoundToInt(a), V::SetI(0)), V::SetI(last));
  return V::MulLo(layer, V::SetI(static_cast<int32_t>(level.layer_pitch)));
}

// The Offset operand of the lanes from `first`, per lane or constant.
template <class V>
inline typename V::I Offsets(const sampling::Operands& op, int c, uint32_t first) {
  return op.offsets[c] != nullptr ? V::LoadI(&op.offsets[c][first]) : V::SetI(op.const_offset[c]);
}

// The footprints of the lanes from `first`, which all read `level` (vector
// addressable) with one filter, in their array layers. False when a lane needs the general wrap
// (an edge under a mode other than power-of-two REPEAT or CLAMP_TO_EDGE).
template <class V>
[[gnu::always_inline]] inline bool VectorFootprints(const SampledImageState& state, const SampledLevel& level, bool linear,
                      const sampling::Operands& op, uint32_t first, Footprints<V>* out) {
  // u = s * width + offset, minus one half for LINEAR: the general path's order.
  typename V::F u = V::Add(V::Mul(V::LoadF(&op.coords[0][first]), V::SetF(level.scale[0])),
                           V::ToFloat(Offsets<V>(op, 0, first)));
  typename V::F v = V::Add(V::Mul(V::LoadF(&op.coords[1][first]), V::SetF(level.scale[1])),
                           V::ToFloat(Offsets<V>(op, 1, first)));
  if (linear) {
    u = V::Sub(u, V::SetF(0.5f));
    v = V::Sub(v, V::SetF(0.5f));
  }
  typename V::F alpha, beta;
  const typename V::I i = FloorAndFraction<V>(u, &alpha);
  const typename V::I j = FloorAndFraction<V>(v, &beta);
  typename V::I i0, i1, j0, j1;
  const uint8_t mode_s = linear ? state.wrap_linear[0] : state.wrap_nearest[0];
  const uint8_t mode_t = linear ? state.wrap_linear[1] : state.wrap_nearest[1];
  if (!WrapAxis<V>(i, level.extent[0], mode_s, linear, &i0, &i1) ||
      !WrapAxis<V>(j, level.extent[1], mode_t, linear, &j0, &j1))
    return false;
  const typename V::I pitch = V::SetI(static_cast<int32_t>(level.row_pitch));
  const typename V::I layer = LayerOffsets<V>(state, level, op, first);
  const typename V::I row0 = V::AddI(layer, V::MulLo(j0, pitch));
  const typename V::I x0 = V::ShiftLeft2(i0);
  if (!linear) {
    out->texels[0] = V::Words(level.base, V::AddI(row0, x0));
    out->alpha = out->beta = V::SetF(0.0f);
    return true;
  }
  const typename V::I row1 = V::AddI(layer, V::MulLo(j1, pitch));
  const typename V::I x1 = V::ShiftLeft2(i1);
  if (V::AllSet(V::EqualI(i1, V::AddI(i0, V::SetI(1))))) {
    // i1 = i0 + 1 in every lane: each row's two texels are one 64-bit word.
    V::Pairs(level.base, V::AddI(row0, x0), &out->texels[0], &out->texels[1]);
    V::Pairs(level.base, V::AddI(row1, x0), &out->texels[2], &out->texels[3]);
  } else {
    out->texels[0] = V::Words(level.base, V::AddI(row0, x0));
    out->texels[1] = V::Words(level.base, V::AddI(row0, x1));
    out->texels[2] = V::Words(level.base, V::AddI(row1, x0));
    out->texels[3] = V::Words(level.base, V::AddI(row1, x1));
  }
  out->alpha = alpha;
  out->beta = beta;
  return true;
}

// The bilinear weights of a footprint: wi0 = 1 - alpha, wi1 = alpha, wj0 =
// 1 - beta, wj1 = beta, computed once for all components.
template <class V>
struct Weights {
  typename V::F wi0, wi1, wj0, wj1;
  explicit Weights(const Footprints<V>& fp)
      : wi0(V::Sub(V::SetF(1.0f), fp.alpha)), wi1(fp.alpha), wj0(V::Sub(V::SetF(1.0f), fp.beta)), wj1(fp.beta) {}
};

// wj0 * (wi0 * t00 + wi1 * t10) + wj1 * (wi0 * t01 + wi1 * t11), the
// general path's order.
template <class V>
inline typename V::F Bilinear(const typename V::F v[4], const Weights<V>& w) {
  const typename V::F row0 = V::Add(V::Mul(w.wi0, v[0]), V::Mul(w.wi1, v[1]));
  const typename V::F row1 = V::Add(V::Mul(w.wi0, v[2]), V::Mul(w.wi1, v[3]));
  return V::Add(V::Mul(w.wj0, row0), V::Mul(w.wj1, row1));
}

// The byte at `shift` of each of the first kCorners texel words: a shift and
// a mask, either alone at the ends of the word.
template <class V, int kCorners>
inline void Bytes(const typename V::I texels[4], uint8_t shift, typename V::I code[4]) {
  const typename V::I byte = V::SetI(0xFF);
  if (shift == 0) {
#pragma GCC unroll 4
    for (int k = 0; k < kCorners; ++k) code[k] = V::AndI(texels[k], byte);
  } else if (shift == 24) {
#pragma GCC unroll 4
    for (int k = 0; k < kCorners; ++k) code[k] = V::ShiftRight(texels[k], 24);
  } else {
#pragma GCC unroll 4
    for (int k = 0; k < kCorners; ++k) code[k] = V::AndI(V::ShiftRight(texels[k], shift), byte);
  }
}

// The four result components from the footprints. NEAREST footprints (one
// texel, zero weights) skip the weighting, which would return the texel
// unchanged. UNORM codes are weighted as integers and divided by 255
// afterwards, which rounds a single texel exactly as c / 255.
template <class V, bool kNearest>
[[gnu::always_inline]] inline void FilterFootprints(const SampledImageState& state, const ComponentSource sources[4],
                             const Footprints<V>& fp, typename V::F out[4]) {
  constexpr int kCorners = kNearest ? 1 : 4;
  const Weights<V> weights(fp);  // unused (and dropped) for NEAREST
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    const ComponentSource source = sources[c];
    if (source.kind == ComponentSource::kZero || source.kind == ComponentSource::kOne) {
      out[c] = V::SetF(source.kind == ComponentSource::kOne ? 1.0f : 0.0f);
      continue;
    }
    typename V::I code[4];
    Bytes<V, kCorners>(fp.texels, source.shift, code);
    typename V::F v[4];
    if (source.kind == ComponentSource::kSrgb) {
#pragma GCC unroll 4
      for (int k = 0; k < kCorners; ++k) v[k] = V::Lookup(state.rgb8_table, code[k]);
      out[c] = kNearest ? v[0] : Bilinear<V>(v, weights);
    } else {
#pragma GCC unroll 4
      for (int k = 0; k < kCorners; ++k) v[k] = V::ToFloat(code[k]);
      out[c] = V::Div(kNearest ? v[0] : Bilinear<V>(v, weights), V::SetF(255.0f));
    }
  }
}

template <class V>
[[gnu::always_inline]] inline void Filter(const SampledImageState& state, const ComponentSource sources[4], const Footprints<V>& fp,
                   bool nearest, typename V::F out[4]) {
  if (nearest) FilterFootprints<V, true>(state, sources, fp, out);
  else FilterFootprints<V, false>(state, sources, fp, out);
}

// Between two levels: value += delta * (lower - value).
template <class V>
inline void BlendLevels(typename V::F value[4], const typename V::F lower[4], typename V::F delta) {
  for (int c = 0; c < 4; ++c) value[c] = V::Add(value[c], V::Mul(delta, V::Sub(lower[c], value[c])));
}

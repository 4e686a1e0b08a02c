// The vector steps of the RGBA8 wave path, written once for any width V:
// the LOD and level selection, footprints (coordinates to wrapped integer
// texel offsets to texel words) and filtering (bytes to floats, bilinear
// weighting, blending of levels), and the loop over a wave's groups when
// every lane reads level 0 with one filter.
//
// Included inside an anonymous namespace by sample_rgba8.cpp (V =
// Sse2Lanes, four lanes) and by sample_rgba8_avx2.cpp after its AVX2 target
// pragma (V = Avx2Lanes, eight lanes), so each instruction set compiles its
// own copy. The operations and their order are the same for every V (no
// FMA), and so are the results' bits. V provides its width kWidth and, as
// static functions over its float vector F and int32 vector I: LoadF, LoadI,
// Store (to 32-bit words), StoreF, StoreI, SetF, SetI, Add, Sub, Mul, Div,
// DivideBy255 (x / 255, correctly rounded for x in [0, 256]),
// Min, Max, the comparisons Less, Greater, GreaterEqual, LessEqual, Equal,
// NotEqual (SSE's masks), AndF, SelectF, MaskBits (a mask's sign bits),
// TruncateToInt, RoundToInt, ToFloat, AsInt, AsFloat, AddI, SubI, AndI, OrI,
// Floor (only when kHasFloor is true),
// XorI, AndNotI, MinI, MaxI, ShiftLeft2, ShiftRight (by a count), MulLo,
// GreaterI, EqualI, AllSet / AnySet (of a mask's lanes), AllEqualI,
// MiddleByte (byte 1 or 2 of each word, zero-extended), LaneBits (lane k
// holds 2^k), Words (32-bit words at byte offsets), Pairs (the words at
// byte offsets and 4 bytes after) and Lookup (floats from a table).
//
// Expects texel/sample_rgba8.h, and ComponentSource / LaneLevels / kLanes in
// scope.

// sampling::Log2 lane by lane with the same operations; false (and no
// result) when a lane needs its special cases (zero, denormal, negative,
// infinite or NaN).
template <class V>
inline bool Log2Lanes(typename V::F x, typename V::F* out) {
  using I = typename V::I;
  using F = typename V::F;
  const I bits = V::AsInt(x);
  // bits - 2^23 >= 0x7F000000 unsigned, as a signed comparison.
  const I biased = V::XorI(V::SubI(bits, V::SetI(0x00800000)), V::SetI(INT32_MIN));
  if (V::AnySet(V::GreaterI(biased, V::SetI(static_cast<int32_t>(0xFEFFFFFFu))))) return false;
  I exponent = V::SubI(V::ShiftRight(bits, 23), V::SetI(127));
  I mantissa_bits = V::OrI(V::AndI(bits, V::SetI(0x007FFFFF)), V::SetI(0x3F800000));
  const I big = V::GreaterI(mantissa_bits, V::SetI(0x3FB504F3));  // m > sqrt(2): m / 2
  mantissa_bits = V::SubI(mantissa_bits, V::AndI(big, V::SetI(0x00800000)));
  exponent = V::SubI(exponent, big);
  const F one = V::SetF(1.0f);
  const F m = V::AsFloat(mantissa_bits);
  const F t = V::Div(V::Sub(m, one), V::Add(m, one));
  const F t2 = V::Mul(t, t);
  F series = V::Add(V::SetF(0.412198583f), V::Mul(t2, V::SetF(0.320598898f)));
  series = V::Add(V::SetF(0.577078016f), V::Mul(t2, series));
  series = V::Add(V::SetF(0.961796694f), V::Mul(t2, series));
  series = V::Add(V::SetF(2.88539008f), V::Mul(t2, series));
  *out = V::Add(V::ToFloat(exponent), V::Mul(t, series));
  return true;
}

// sampling::ComputeLambdaPrime<k2D> and ChooseLevels for the V::kWidth lanes
// from `first`, with the same operations (min/max operand orders chosen to
// match std::min/max/clamp, NaN included), into out's arrays and two_levels
// (lanes outside lane_mask do not blend). False (nothing written) when
// Log2Lanes declines.
template <class V>
bool ChooseGroupLevels(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                       uint32_t first, LaneLevels* out) {
  using I = typename V::I;
  using F = typename V::F;
  // std::clamp(v, lo, hi) = v < lo ? lo : (hi < v ? hi : v)
  const F summed_bias = V::Add(V::SetF(state.sampler.mip_lod_bias), V::LoadF(&op.bias[first]));
  const F bias = V::Min(V::SetF(kMaxSamplerLodBias), V::Max(V::SetF(-kMaxSamplerLodBias), summed_bias));
  F lambda_prime;
  if (op.explicit_lod) {
    lambda_prime = V::Add(V::LoadF(&op.lod[first]), bias);
  } else {
    const SampledLevel& base = state.levels[0];
    auto length2 = [&](const float* const d[3]) {
      const F m0 = V::Mul(V::LoadF(&d[0][first]), V::SetF(base.scale[0]));
      const F m1 = V::Mul(V::LoadF(&d[1][first]), V::SetF(base.scale[1]));
      return V::Add(V::Mul(m0, m0), V::Mul(m1, m1));
    };
    const F rho_x2 = length2(op.ddx), rho_y2 = length2(op.ddy);
    F log2_rho2;
    if (!Log2Lanes<V>(V::Max(rho_y2, rho_x2), &log2_rho2)) return false;  // std::max(rho_x2, rho_y2)
    lambda_prime = V::Add(V::Mul(V::SetF(0.5f), log2_rho2), bias);
  }
  // ChooseLevels.
  const F lod_min = V::Max(V::LoadF(&op.min_lod[first]), V::SetF(state.sampler.min_lod));
  const F lod_max = V::SetF(state.sampler.max_lod);
  F lambda = V::SelectF(V::Greater(lambda_prime, lod_max), lod_max,
                        V::SelectF(V::GreaterEqual(lambda_prime, lod_min), lambda_prime, lod_min));
  lambda = V::AndF(lambda, V::Equal(lambda, lambda));  // NaN -> 0
  const F zero = V::SetF(0.0f);
  const F magnified = V::LessEqual(lambda, zero);
  const int32_t q = static_cast<int32_t>(state.level_count) - 1;
  const F d = V::Min(V::SetF(static_cast<float>(q)), V::Max(zero, lambda));
  const I whole = V::TruncateToInt(d);
  const F fraction = V::Sub(d, V::ToFloat(whole));
  I hi, lo;
  F delta;
  if (state.mip_linear) {
    hi = whole;
    const I next = V::AddI(whole, V::SetI(1));
    const I last = V::SetI(q);
    const I past = V::GreaterI(next, last);
    lo = V::OrI(V::AndI(past, last), V::AndNotI(past, next));  // std::min(whole + 1, q)
    delta = fraction;
  } else {
    // nearest(d') rounds ties down: the next level once the fraction exceeds one half.
    hi = lo = V::SubI(whole, V::AsInt(V::Greater(fraction, V::SetF(0.5f))));
    delta = zero;
  }
  V::StoreI(&out->hi[first], hi);
  V::StoreI(&out->lo[first], lo);
  // Four bools at a time: byte k is 1 where lane k is magnified (bit k times
  // 2^(7k) lands on bit 8k; the shifted copies do not overlap).
  const uint32_t magnified_bits = V::MaskBits(magnified);
  for (uint32_t k = 0; k < V::kWidth; k += 4) {
    const uint32_t magnified_bytes = (((magnified_bits >> k) & 0xF) * 0x00204081u) & 0x01010101u;
    const uint32_t linear_bytes = (state.mag_filter == VK_FILTER_LINEAR ? magnified_bytes : 0u) |
                                  (state.min_filter == VK_FILTER_LINEAR ? magnified_bytes ^ 0x01010101u : 0u);
    std::memcpy(&out->linear[first + k], &linear_bytes, sizeof linear_bytes);
  }
  // Lanes of the mask between two levels keep their delta, the others get +0.
  const I lane_bits = V::LaneBits();
  const I active = V::EqualI(V::AndI(V::SetI(static_cast<int32_t>(lane_mask >> first)), lane_bits), lane_bits);
  const I blend = V::AndNotI(V::EqualI(lo, hi), V::AsInt(V::NotEqual(delta, zero)));
  const F blending = V::AsFloat(V::AndI(blend, active));
  V::StoreF(&out->delta[first], V::AndF(delta, blending));
  out->two_levels |= LaneMask{V::MaskBits(blending)} << first;
  return true;
}

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
  if constexpr (V::kHasFloor) {
    // floor(x) is a whole float: the same fraction, and an exact conversion.
    const typename V::F floor_x = V::Floor(x);
    *fraction = V::Sub(x, floor_x);
    return V::TruncateToInt(floor_x);
  }
  const typename V::I truncated = V::TruncateToInt(x);
  // truncated - 1 where x < truncated (negative non-integers): the mask is -1.
  const typename V::I floor_x = V::AddI(truncated, V::AsInt(V::Less(x, V::ToFloat(truncated))));
  *fraction = V::Sub(x, V::ToFloat(floor_x));
  return floor_x;
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

// What VectorFootprints needs of a level read with one filter, the same for
// every group of lanes: set up once for a loop over groups.
template <class V>
struct LevelAddressing {
  // How an axis wraps: by masking (REPEAT, a power-of-two size), by clamping
  // (CLAMP_TO_EDGE), both sampling::Wrap's operations, or not at all (the
  // footprint must then lie inside the level).
  enum class Wrap : uint8_t { kMask, kClamp, kInside };

  LevelAddressing() = default;
  LevelAddressing(const SampledImageState& state, const SampledLevel& l, bool is_linear,
                  const sampling::Operands& op)
      : level(&l), linear(is_linear), pitch(V::SetI(static_cast<int32_t>(l.row_pitch))) {
    for (int c = 0; c < 2; ++c) {
      const int32_t size = l.extent[c];
      const uint8_t mode = linear ? state.wrap_linear[c] : state.wrap_nearest[c];
      wrap[c] = mode == VK_SAMPLER_ADDRESS_MODE_REPEAT && (size & (size - 1)) == 0 ? Wrap::kMask
                : mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE                    ? Wrap::kClamp
                                                                                   : Wrap::kInside;
      scale[c] = V::SetF(l.scale[c]);
      const_offset[c] = V::ToFloat(V::SetI(op.const_offset[c]));
      last[c] = V::SetI(size - 1);
      end[c] = V::SetI(linear ? size - 1 : size);
    }
  }

  const SampledLevel* level = nullptr;
  bool linear = false;
  Wrap wrap[2] = {};
  typename V::F scale[2];         // normalized to texel coordinates
  typename V::F const_offset[2];  // the constant Offset, when not per lane
  typename V::I last[2];          // size - 1: the mask (kMask) or the upper clamp (kClamp)
  typename V::I end[2];           // kInside: i below it (size - 1 for LINEAR, size for NEAREST)
  typename V::I pitch;            // bytes between rows
};

// The texel indices of one axis: i0 (and i1 = i0 + 1 for LINEAR) wrapped.
// False when a lane needs the general wrap.
template <class V>
inline bool WrapAxis(const LevelAddressing<V>& at, int c, typename V::I i, typename V::I* i0, typename V::I* i1) {
  const typename V::I one = V::SetI(1);
  using Wrap = typename LevelAddressing<V>::Wrap;
  if (at.wrap[c] == Wrap::kMask) {
    *i0 = V::AndI(i, at.last[c]);
    *i1 = V::AndI(V::AddI(i, one), at.last[c]);
    return true;
  }
  if (at.wrap[c] == Wrap::kClamp) {
    const typename V::I zero = V::SetI(0);
    *i0 = V::MinI(V::MaxI(i, zero), at.last[c]);
    *i1 = V::MinI(V::MaxI(V::AddI(i, one), zero), at.last[c]);
    return true;
  }
  *i0 = i;
  *i1 = V::AddI(i, one);
  return V::AllSet(V::AndI(V::GreaterI(i, V::SetI(-1)), V::GreaterI(at.end[c], i)));
}

// s * width + offset for axis c of the lanes from `first` (the general
// path's order; the constant offset converted once).
template <class V>
inline typename V::F TexelCoordinate(const LevelAddressing<V>& at, const sampling::Operands& op, int c,
                                     uint32_t first) {
  const typename V::F scaled = V::Mul(V::LoadF(&op.coords[c][first]), at.scale[c]);
  // (Adding a zero offset would only turn -0 into +0, which nothing after
  // tells apart: u - 0.5 is -0.5 either way.)
  if (op.offsets[c] == nullptr && op.const_offset[c] == 0) return scaled;
  const typename V::F offset =
      op.offsets[c] != nullptr ? V::ToFloat(V::LoadI(&op.offsets[c][first])) : at.const_offset[c];
  return V::Add(scaled, offset);
}

// The footprints of the lanes from `first`, which all read at.level (vector
// addressable) with at.linear's filter, in their array layers. False when a
// lane needs the general wrap (an edge under a mode other than power-of-two
// REPEAT or CLAMP_TO_EDGE).
template <class V>
[[gnu::always_inline]] inline bool VectorFootprints(const SampledImageState& state, const LevelAddressing<V>& at,
                                                    const sampling::Operands& op, uint32_t first,
                                                    Footprints<V>* out) {
  // u = s * width + offset, minus one half for LINEAR: the general path's order.
  typename V::F u = TexelCoordinate<V>(at, op, 0, first);
  typename V::F v = TexelCoordinate<V>(at, op, 1, first);
  if (at.linear) {
    u = V::Sub(u, V::SetF(0.5f));
    v = V::Sub(v, V::SetF(0.5f));
  }
  typename V::F alpha, beta;
  const typename V::I i = FloorAndFraction<V>(u, &alpha);
  const typename V::I j = FloorAndFraction<V>(v, &beta);
  typename V::I i0, i1, j0, j1;
  if (!WrapAxis<V>(at, 0, i, &i0, &i1) || !WrapAxis<V>(at, 1, j, &j0, &j1)) return false;
  const SampledLevel& level = *at.level;
  const typename V::I layer = LayerOffsets<V>(state, level, op, first);
  const typename V::I row0 = V::AddI(layer, V::MulLo(j0, at.pitch));
  const typename V::I x0 = V::ShiftLeft2(i0);
  if (!at.linear) {
    // One texel; the others only keep callers that pick the filter at run
    // time from reading unset registers.
    out->texels[0] = out->texels[1] = out->texels[2] = out->texels[3] = V::Words(level.base, V::AddI(row0, x0));
    out->alpha = out->beta = V::SetF(0.0f);
    return true;
  }
  const typename V::I row1 = V::AddI(layer, V::MulLo(j1, at.pitch));
  const typename V::I x1 = V::ShiftLeft2(i1);
  if (V::AllEqualI(i1, V::AddI(i0, V::SetI(1)))) {
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

// The byte at `shift` of each of the first kCorners texel words: a mask or
// a shift at the ends of the word, V::MiddleByte (a shift and a mask, or
// one byte shuffle) in between.
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
    for (int k = 0; k < kCorners; ++k) code[k] = V::MiddleByte(texels[k], shift / 8);
  }
}

// One result component: byte `shift` of the footprint's texels, converted
// (UNORM codes, or sRGB through the decode table) and weighted. NEAREST
// footprints (one texel, zero weights) skip the weighting, which would
// return the texel unchanged. UNORM codes are weighted as integers and
// divided by 255 afterwards, which rounds a single texel exactly as c / 255.
template <class V, bool kNearest>
[[gnu::always_inline]] inline typename V::F FilterByte(const SampledImageState& state, const Footprints<V>& fp,
                                                       const Weights<V>& weights, uint8_t shift, bool srgb) {
  constexpr int kCorners = kNearest ? 1 : 4;
  typename V::I code[4];
  Bytes<V, kCorners>(fp.texels, shift, code);
  typename V::F v[4];
  if (srgb) {
#pragma GCC unroll 4
    for (int k = 0; k < kCorners; ++k) v[k] = V::Lookup(state.rgb8_table, code[k]);
    return kNearest ? v[0] : Bilinear<V>(v, weights);
  }
#pragma GCC unroll 4
  for (int k = 0; k < kCorners; ++k) v[k] = V::ToFloat(code[k]);
  return V::DivideBy255(kNearest ? v[0] : Bilinear<V>(v, weights));
}

// The four result components from the footprints.
template <class V, bool kNearest>
[[gnu::always_inline]] inline void FilterFootprints(const SampledImageState& state, const ComponentSource sources[4],
                                                    const Footprints<V>& fp, typename V::F out[4],
                                                    uint32_t unused = 0) {
  const Weights<V> weights(fp);  // unused (and dropped) for NEAREST
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    if (((unused >> c) & 1) != 0) {
      out[c] = V::SetF(0.0f);
      continue;
    }
    const ComponentSource source = sources[c];
    if (source.kind == ComponentSource::kZero || source.kind == ComponentSource::kOne) {
      out[c] = V::SetF(source.kind == ComponentSource::kOne ? 1.0f : 0.0f);
      continue;
    }
    out[c] = FilterByte<V, kNearest>(state, fp, weights, source.shift, source.kind == ComponentSource::kSrgb);
  }
}

// FilterFootprints when the sources are the texel's bytes in some order
// (SampledImageState::rgba8_byte_component): out[b] is byte b's filtered
// value, with every shift and conversion known here. Byte b is sRGB for
// b < 3 of an sRGB format, else UNORM (as SourceOf has it).
template <class V, bool kNearest, bool kSrgb>
[[gnu::always_inline]] inline void FilterBytes(const SampledImageState& state, const Footprints<V>& fp,
                                               typename V::F out[4], uint32_t unused_bytes = 0) {
  const Weights<V> weights(fp);  // unused (and dropped) for NEAREST
#pragma GCC unroll 4
  for (int b = 0; b < 4; ++b)
    out[b] = ((unused_bytes >> b) & 1) != 0
                 ? V::SetF(0.0f)
                 : FilterByte<V, kNearest>(state, fp, weights, static_cast<uint8_t>(8 * b), kSrgb && b < 3);
}

template <class V>
[[gnu::always_inline]] inline void Filter(const SampledImageState& state, const ComponentSource sources[4],
                                          const Footprints<V>& fp, bool nearest, typename V::F out[4]) {
  if (nearest) FilterFootprints<V, true>(state, sources, fp, out);
  else FilterFootprints<V, false>(state, sources, fp, out);
}

// A group's results, every lane of it active: whole registers (but those
// of `unused`).
template <class V>
inline void StoreGroup(uint32_t* const out[4], uint32_t first, const typename V::F value[4], uint32_t unused = 0) {
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c)
    if (((unused >> c) & 1) == 0) V::Store(&out[c][first], value[c]);
}

// How the groups convert and filter: FilterFootprints over the sources, or
// FilterBytes when they are the texel's bytes in some order, for an UNORM or
// an sRGB format.
enum class Conversion : uint8_t { kSources, kUnormBytes, kSrgbBytes };

// The state's Conversion, and where its results go: out (by component) for
// kSources, else byte b's to targets[b].
// `unused_components` (SampleRequest's) becomes *unused in the targets'
// order.
inline Conversion ConversionOf(const SampledImageState& state, uint32_t* const out[4], uint32_t unused_components,
                               uint32_t* targets[4], uint32_t* unused) {
  const int8_t* byte_component = state.rgba8_byte_component;
  if (byte_component[0] < 0) {
    for (int c = 0; c < 4; ++c) targets[c] = out[c];
    *unused = unused_components;
    return Conversion::kSources;
  }
  *unused = 0;
  for (int b = 0; b < 4; ++b) {
    targets[b] = out[byte_component[b]];
    *unused |= ((unused_components >> byte_component[b]) & 1u) << b;
  }
  return state.srgb8 ? Conversion::kSrgbBytes : Conversion::kUnormBytes;
}

// Filter or FilterBytes, by kConversion.
// `unused`: components (kSources) or bytes (otherwise) not to filter.
template <class V, Conversion kConversion>
[[gnu::always_inline]] inline void FilterAs(const SampledImageState& state, const ComponentSource sources[4],
                                            const Footprints<V>& fp, bool nearest, typename V::F out[4],
                                            uint32_t unused) {
  constexpr bool kSrgb = kConversion == Conversion::kSrgbBytes;
  if constexpr (kConversion == Conversion::kSources) {
    if (nearest) FilterFootprints<V, true>(state, sources, fp, out, unused);
    else FilterFootprints<V, false>(state, sources, fp, out, unused);
  } else if (nearest) {
    FilterBytes<V, true, kSrgb>(state, fp, out, unused);
  } else {
    FilterBytes<V, false, kSrgb>(state, fp, out, unused);
  }
}

// The whole groups of V::kWidth active lanes when every lane reads level 0
// with one filter (LaneLevels::uniform, the common case): filter and
// conversions fixed for the whole loop, results to the targets of
// ConversionOf. Returns the groups done (others reach the level's edge under
// a mode the vector wrap does not take).
// kUnused: the targets left out when known here (none, or alpha: byte 3 of
// the byte conversions), else kUnusedAtRunTime and `unused` says (a branch
// per target and group).
inline constexpr uint32_t kUnusedAtRunTime = 0xFF;

template <class V, bool kLinear, Conversion kConversion, uint32_t kUnused>
LaneMask UniformGroupsWith(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                           uint32_t lane_count, const ComponentSource sources[4], uint32_t* const targets[4],
                           uint32_t runtime_unused) {
  const uint32_t unused = kUnused == kUnusedAtRunTime ? runtime_unused : kUnused;
  constexpr LaneMask kGroup = (LaneMask{1} << V::kWidth) - 1;
  const LevelAddressing<V> at(state, state.levels[0], kLinear, op);
  // (A copy the stores cannot alias: the pointers stay in registers.)
  uint32_t* const dst[4] = {targets[0], targets[1], targets[2], targets[3]};
  LaneMask done = 0;
  for (uint32_t first = 0; first + V::kWidth <= lane_count; first += V::kWidth) {
    if (((lane_mask >> first) & kGroup) != kGroup) continue;
    Footprints<V> fp;
    if (!VectorFootprints<V>(state, at, op, first, &fp)) continue;
    typename V::F value[4];
    FilterAs<V, kConversion>(state, sources, fp, !kLinear, value, unused);
    StoreGroup<V>(dst, first, value, unused);
    done |= kGroup << first;
  }
  return done;
}

template <class V, bool kLinear>
LaneMask UniformGroupsOf(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                         uint32_t lane_count, const ComponentSource sources[4], uint32_t* const out[4]) {
  uint32_t* targets[4];
  uint32_t unused;
  const Conversion conversion = ConversionOf(state, out, op.unused_components, targets, &unused);
  // The common sets of unused targets get loops of their own (no branches).
  auto with = [&]<Conversion kConversion>() {
    if (unused == 0)
      return UniformGroupsWith<V, kLinear, kConversion, 0>(state, op, lane_mask, lane_count, sources, targets, 0);
    if constexpr (kConversion != Conversion::kSources) {
      if (unused == 8)
        return UniformGroupsWith<V, kLinear, kConversion, 8>(state, op, lane_mask, lane_count, sources, targets, 8);
    }
    return UniformGroupsWith<V, kLinear, kConversion, kUnusedAtRunTime>(state, op, lane_mask, lane_count, sources,
                                                                        targets, unused);
  };
  switch (conversion) {
    case Conversion::kSources: return with.template operator()<Conversion::kSources>();
    case Conversion::kUnormBytes: return with.template operator()<Conversion::kUnormBytes>();
    default: return with.template operator()<Conversion::kSrgbBytes>();
  }
}

// UniformGroupsWith for the levels' filter and the sources, results written
// to out[c][lane] (as float bits). Expects levels.uniform.
template <class V>
LaneMask UniformGroups(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                       uint32_t lane_count, const LaneLevels& levels, const ComponentSource sources[4],
                       uint32_t* const out[4]) {
  if (!VectorAddressable(state, state.levels[0])) return 0;
  return levels.uniform_linear ? UniformGroupsOf<V, true>(state, op, lane_mask, lane_count, sources, out)
                               : UniformGroupsOf<V, false>(state, op, lane_mask, lane_count, sources, out);
}

// Between two levels: value += delta * (lower - value).
template <class V>
inline void BlendLevels(typename V::F value[4], const typename V::F lower[4], typename V::F delta) {
  for (int c = 0; c < 4; ++c) value[c] = V::Add(value[c], V::Mul(delta, V::Sub(lower[c], value[c])));
}

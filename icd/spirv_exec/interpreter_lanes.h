// Lane loops shared by the interpreter's files: each applies a scalar
// function to every active lane of a register. When every lane is active
// the loop is unconditional, which is what lets the compiler vectorize it.
#pragma once

#include <bit>
#include <cstdint>

#include "spirv_exec/wave.h"

namespace duet::spirv_exec::lanes {

constexpr uint32_t W = kWaveWidth;

inline float F(uint32_t u) { return std::bit_cast<float>(u); }
inline uint32_t U(float f) { return std::bit_cast<uint32_t>(f); }
inline int32_t S(uint32_t u) { return static_cast<int32_t>(u); }

// dst[l] = f(l) for the active lanes.
template <typename Fn>
inline void ForActive(LaneMask active, uint32_t* dst, Fn f) {
  if (active == kAllLanes) {
    for (uint32_t l = 0; l < W; ++l) dst[l] = f(l);
  } else {
    for (uint32_t l = 0; l < W; ++l)
      if ((active >> l) & 1) dst[l] = f(l);
  }
}

template <typename Fn>
inline void Binary(WaveState& w, const Inst& in, Fn f) {
  const uint32_t* a = w.Register(in.a);
  const uint32_t* b = w.Register(in.b);
  ForActive(w.active, w.Register(in.dst), [&](uint32_t l) { return f(a[l], b[l]); });
}

template <typename Fn>
inline void Unary(WaveState& w, const Inst& in, Fn f) {
  const uint32_t* a = w.Register(in.a);
  ForActive(w.active, w.Register(in.dst), [&](uint32_t l) { return f(a[l]); });
}

template <typename Fn>
inline void FloatBinary(WaveState& w, const Inst& in, Fn f) {
  Binary(w, in, [&](uint32_t a, uint32_t b) { return U(f(F(a), F(b))); });
}

template <typename Fn>
inline void FloatCompare(WaveState& w, const Inst& in, Fn f) {
  Binary(w, in, [&](uint32_t a, uint32_t b) { return uint32_t(f(F(a), F(b))); });
}

}  // namespace duet::spirv_exec::lanes

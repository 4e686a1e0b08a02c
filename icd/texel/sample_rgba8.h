// What the RGBA8 wave path of SampleComponents (sample_rgba8.cpp) shares
// with its eight-lane groups for AVX2 CPUs (sample_rgba8_avx2.cpp). Internal
// to texel/sample*.cpp (and the tests).
#pragma once

#include <cstdint>

#include "texel/sample_internal.h"

namespace duet::texel::rgba8 {

inline constexpr uint32_t kLanes = kMaxSampleLanes;

using ComponentSource = Rgba8Source;

// Fills state->rgba8_sources and rgba8_byte_component from the view's
// format and swizzle (ResolveSampledImage, when rgba8_waves).
void ResolveSources(SampledImageState* state);

// The levels and filter of every lane.
struct LaneLevels {
  bool uniform = false;  // every lane reads level 0 with one filter (the arrays are not filled)
  bool uniform_linear = false;
  LaneMask two_levels = 0;  // lanes that blend level lo in
  int32_t hi[kLanes];       // filled up to the lane count rounded up to four
  int32_t lo[kLanes];
  float delta[kLanes];  // weight of level lo (lanes of two_levels)
  bool linear[kLanes];  // LINEAR within the level(s)
};

// Eight lanes at a time with AVX2: the groups whose lanes are all active,
// read (each of) their level(s) with one filter, and have footprints inside
// their level or wrapped by power-of-two REPEAT or by CLAMP_TO_EDGE; their
// results go straight to out[c][lane] (as float bits). Returns the lanes
// done (the caller samples the rest four at a time). Bit-identical to the
// four-lane path: the same operations in the same order, no FMA.
LaneMask SampleGroupsAvx2(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                          uint32_t lane_count, const LaneLevels& levels, const ComponentSource sources[4],
                          uint32_t* const out[4]);

// The LOD and levels of the lanes from 0 eight at a time with AVX2, into
// levels' arrays and two_levels (see ChooseGroupLevels), while whole groups
// of eight remain below lane_count and their log2 needs no special case.
// Returns the first lane not done. The same bits as four at a time.
uint32_t ChooseLevelsAvx2(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                          uint32_t lane_count, LaneLevels* levels);

// UniformGroups sixteen lanes at a time with AVX-512 (levels.uniform):
// the lanes done. The same bits as four and eight at a time.
LaneMask SampleUniformGroupsAvx512(const SampledImageState& state, const sampling::Operands& op, LaneMask lane_mask,
                                   uint32_t lane_count, const LaneLevels& levels, const ComponentSource sources[4],
                                   uint32_t* const out[4]);

// Whether SampleComponents uses SampleGroupsAvx2 and ChooseLevelsAvx2 (and,
// on CPUs with AVX-512 F/DQ/BW/VL, SampleUniformGroupsAvx512): when the CPU
// has AVX2, unless DUET_LANE_ISA=baseline (or avx2: not the AVX-512 groups).
// Tests turn it off and on to compare.
bool WideGroupsEnabled();
void SetWideGroupsEnabled(bool enabled);  // enabling is ignored without AVX2

}  // namespace duet::texel::rgba8

// What lane_kernels_impl.h uses, included before an instruction set's
// `#pragma GCC target` so that nothing from a header is compiled for it
// (a header's inline functions are shared by every object file; only the
// anonymous-namespace code after the pragma may use wider instructions).
#pragma once

#include <spirv/unified1/GLSL.std.450.h>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "spirv_exec/double_lanes.h"
#include "spirv_exec/lane_kernels.h"
#include "spirv_exec/wave.h"
#include "texel/float_formats.h"

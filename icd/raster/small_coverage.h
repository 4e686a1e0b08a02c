// Coverage of small triangles: which pixels of a square of up to 16x16
// are outside, four pixels per instruction, from 32-bit edge functions (a
// small triangle costs a few instructions per row instead of a test per
// quad of its bounding box).
#pragma once

#include <cstdint>

namespace duet::raster {

// Bit c of outside[r] is set when pixel (c, r) from the pixel whose edge
// values are `origin` is outside (an edge function below zero); steps per
// pixel in x and y. The caller checks that the edge functions fit in 32
// bits over the square. `columns` (at most 16) counted from the origin:
// bits past them are unspecified.
void OutsideRows(const int32_t origin[3], const int32_t step_x[3], const int32_t step_y[3], uint32_t columns,
                 uint32_t rows, uint16_t* outside);

}  // namespace duet::raster

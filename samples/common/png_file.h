// Writing an RGBA8 picture to a PNG file (libpng), for the samples' output.
#pragma once

#include <cstdint>

namespace sample {

// rows of width * 4 bytes, `stride` bytes apart, top row first. False (with
// a message on stderr) when the file cannot be written.
bool WritePng(const char* path, uint32_t width, uint32_t height, const uint8_t* rgba, uint32_t stride);

}  // namespace sample

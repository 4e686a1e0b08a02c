// Writes 4-byte pixels as an 8-bit RGBA PNG (libpng).
#pragma once

#include "backends/framebuffer/framebuffer.h"

namespace duet::framebuffer {

// False (logged) when the file cannot be written.
bool WritePng(const char* path, const Frame& frame);

}  // namespace duet::framebuffer

// The headless target (VK_EXT_headless_surface): frames go to memory and,
// with DUET_DUMP_FRAMES=<dir>, each presented frame is written to
// <dir>/frame_NNNNNN.png, numbered across the process in presentation order.
#pragma once

#include <memory>

#include "backends/framebuffer/framebuffer.h"

namespace duet::framebuffer {

std::unique_ptr<Target> CreateHeadlessTarget();

}  // namespace duet::framebuffer

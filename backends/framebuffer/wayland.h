// Wayland surfaces (VK_KHR_wayland_surface) through wl_shm: each output
// owns a few shared-memory wl_buffers; a frame's damage is copied into a
// free one (plus whatever that buffer missed since it was last used), which
// is attached with exactly the damaged rectangles and committed.
// libwayland-client is loaded at run time (dlopen). The driver's requests
// and events go through its own event queue, so the application's queue
// sees nothing of them.
#pragma once

#include <memory>

#include "backends/framebuffer/framebuffer.h"

struct wl_display;
struct wl_surface;

namespace duet::framebuffer {

// nullptr (logged) when libwayland-client cannot be loaded.
std::unique_ptr<Target> CreateWaylandTarget(wl_display* display, wl_surface* surface);

// Whether frames can be shown on this display (it offers wl_shm).
bool WaylandDisplaySupported(wl_display* display);

}  // namespace duet::framebuffer

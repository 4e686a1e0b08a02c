// X11 windows through xcb (VK_KHR_xcb_surface, and VK_KHR_xlib_surface via
// the Xlib display's xcb connection). Frames are drawn into the window with
// MIT-SHM when the server offers it (and DUET_X11_SHM is not 0), otherwise
// with plain PutImage requests split under the server's request size limit.
// Only the damage rectangles are sent. The application's own connection is
// used; no events are selected on it, so the application's event loop sees
// nothing new.
#pragma once

#include <xcb/xcb.h>

#include <memory>

#include "backends/framebuffer/framebuffer.h"

namespace duet::framebuffer {

// nullptr (logged) when libxcb cannot be loaded.
std::unique_ptr<Target> CreateXcbTarget(xcb_connection_t* connection, xcb_window_t window);

// Whether windows of this visual can be shown: 24- or 32-bit TrueColor
// with 8-bit channels in 32-bit pixels, the layouts every X server today uses.
bool XcbVisualSupported(xcb_connection_t* connection, xcb_visualid_t visual);

}  // namespace duet::framebuffer

// libduet_vkcube_capture.so: an LD_PRELOAD library that watches an xcb
// application such as Debian's vkcube / vkcubepp from the inside, without
// changing what it does. It wraps four libxcb calls and forwards each to
// the real one:
//
//   xcb_create_window   remembers the application's window;
//   xcb_poll_for_event  vkcube calls it once per frame (more when events are
//                       pending) at the top of its frame loop, after all
//                       set-up: the first call starts the clock; with
//                       DUET_VKCUBE_EARLY_PNG=<file>, the window's contents
//                       at call DUET_VKCUBE_EARLY_POLL (default 100) are saved
//                       (with DUET_VKCUBE_EXIT_AFTER_EARLY=1 the process then
//                       ends);
//   xcb_wait_for_event  counted as a poll (for programs that draw on Expose);
//   xcb_destroy_window  vkcube destroys its window after its last frame
//                       (`--c N`: after frame N), its swapchain and its
//                       device, so the window then shows frame N exactly:
//                       with DUET_VKCUBE_PNG=<file> the contents are saved.
//                       Then one line goes to stderr:
//                         duet-vkcube: loop_seconds=<s> polls=<n> window=<w>x<h>
//                       loop_seconds = first poll -> window destroyed, i.e.
//                       the frame loop with the final vkDeviceWaitIdle.
//
// The contents are read with GetImage on the application's own connection,
// so every request the driver sent on it before (its PutImage/ShmPutImage
// presents) has been executed by the server. Only 24/32-bit TrueColor
// windows with 8-bit channels are supported (what Xvfb and every usual X
// server give); anything else is reported and not saved.
#include <dlfcn.h>
#include <png.h>
#include <xcb/xcb.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct State {
  xcb_connection_t* connection = nullptr;
  xcb_window_t window = 0;
  bool started = false;
  Clock::time_point first_poll;
  unsigned long polls = 0;
  bool early_done = false;
};
State g_state;

template <typename F>
F Real(const char* name) {
  void* fn = dlsym(RTLD_NEXT, name);
  if (fn == nullptr) {
    std::fprintf(stderr, "duet-vkcube: cannot find the real %s: %s\n", name, dlerror());
    std::abort();
  }
  return reinterpret_cast<F>(fn);
}

const xcb_visualtype_t* FindVisual(const xcb_setup_t* setup, xcb_visualid_t id) {
  for (xcb_screen_iterator_t s = xcb_setup_roots_iterator(setup); s.rem; xcb_screen_next(&s))
    for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(s.data); d.rem; xcb_depth_next(&d))
      for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem; xcb_visualtype_next(&v))
        if (v.data->visual_id == id) return v.data;
  return nullptr;
}

int BitsPerPixel(const xcb_setup_t* setup, uint8_t depth) {
  for (xcb_format_iterator_t f = xcb_setup_pixmap_formats_iterator(setup); f.rem; xcb_format_next(&f))
    if (f.data->depth == depth) return f.data->bits_per_pixel;
  return 0;
}

// The window's size; false (with a message) on failure.
bool WindowSize(xcb_connection_t* c, xcb_window_t window, uint16_t* width, uint16_t* height) {
  xcb_generic_error_t* error = nullptr;
  xcb_get_geometry_reply_t* geometry = xcb_get_geometry_reply(c, xcb_get_geometry(c, window), &error);
  if (geometry == nullptr) {
    std::fprintf(stderr, "duet-vkcube: GetGeometry of window 0x%x failed\n", window);
    std::free(error);
    return false;
  }
  *width = geometry->width;
  *height = geometry->height;
  std::free(geometry);
  return true;
}

// Saves the window's contents as an RGB PNG; false (with a message) on failure.
bool SaveWindow(xcb_connection_t* c, xcb_window_t window, const char* path) {
  uint16_t width = 0, height = 0;
  if (!WindowSize(c, window, &width, &height)) return false;
  xcb_generic_error_t* error = nullptr;
  xcb_get_image_reply_t* image =
      xcb_get_image_reply(c, xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, window, 0, 0, width, height, ~0u), &error);
  if (image == nullptr) {
    std::fprintf(stderr, "duet-vkcube: GetImage of window 0x%x (%ux%u) failed\n", window, width, height);
    std::free(error);
    return false;
  }
  const xcb_setup_t* setup = xcb_get_setup(c);
  const xcb_visualtype_t* visual = FindVisual(setup, image->visual);
  const int bpp = BitsPerPixel(setup, image->depth);
  const size_t bytes = size_t(xcb_get_image_data_length(image));
  const bool supported = visual != nullptr && visual->_class == XCB_VISUAL_CLASS_TRUE_COLOR && bpp == 32 &&
                         visual->red_mask == 0xff0000u && visual->green_mask == 0xff00u && visual->blue_mask == 0xffu &&
                         setup->image_byte_order == XCB_IMAGE_ORDER_LSB_FIRST && bytes >= size_t(width) * height * 4;
  if (!supported) {
    std::fprintf(stderr, "duet-vkcube: window depth %u, %d bits per pixel: not a supported layout, not saved\n",
                 image->depth, bpp);
    std::free(image);
    return false;
  }
  // 32-bit little-endian 0x00RRGGBB pixels are B, G, R, X bytes; the PNG is RGB.
  const uint8_t* data = xcb_get_image_data(image);
  std::vector<uint8_t> rgb(size_t(width) * height * 3);
  for (size_t i = 0; i < size_t(width) * height; ++i) {
    rgb[i * 3 + 0] = data[i * 4 + 2];
    rgb[i * 3 + 1] = data[i * 4 + 1];
    rgb[i * 3 + 2] = data[i * 4 + 0];
  }
  std::free(image);
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = width;
  png.height = height;
  png.format = PNG_FORMAT_RGB;
  if (!png_image_write_to_file(&png, path, 0, rgb.data(), 0, nullptr)) {
    std::fprintf(stderr, "duet-vkcube: cannot write %s: %s\n", path, png.message);
    return false;
  }
  return true;
}

unsigned long EarlyPoll() {
  const char* value = std::getenv("DUET_VKCUBE_EARLY_POLL");
  return value != nullptr && value[0] != '\0' ? std::strtoul(value, nullptr, 10) : 100;
}

// One event poll (or wait) of the application: the clock starts at the
// first; the early screenshot is taken at poll DUET_VKCUBE_EARLY_POLL, and
// with DUET_VKCUBE_EXIT_AFTER_EARLY=1 the process then ends (status 0 when
// it was saved) for programs that never end by themselves (vkd3d demos).
void CountPoll(xcb_connection_t* c) {
  if (c != g_state.connection) return;
  if (!g_state.started) {
    g_state.started = true;
    g_state.first_poll = Clock::now();
  }
  ++g_state.polls;
  const char* early = std::getenv("DUET_VKCUBE_EARLY_PNG");
  if (!g_state.early_done && early != nullptr && early[0] != '\0' && g_state.polls == EarlyPoll()) {
    g_state.early_done = true;
    // A program that presents once and waits (vkd3d-triangle) may reach its
    // next wait before the driver's queue has shown the frame.
    const char* delay = std::getenv("DUET_VKCUBE_EARLY_DELAY_MS");
    if (delay != nullptr && delay[0] != '\0')
      std::this_thread::sleep_for(std::chrono::milliseconds(std::strtoul(delay, nullptr, 10)));
    const bool saved = SaveWindow(c, g_state.window, early);
    const char* exit_after = std::getenv("DUET_VKCUBE_EXIT_AFTER_EARLY");
    if (exit_after != nullptr && std::strcmp(exit_after, "1") == 0) {
      std::fprintf(stderr, "duet-vkcube: screenshot at poll %lu %s, exiting\n", g_state.polls,
                   saved ? "saved" : "not saved");
      std::fflush(nullptr);
      std::_Exit(saved ? 0 : 1);
    }
  }
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) xcb_void_cookie_t xcb_create_window(
    xcb_connection_t* c, uint8_t depth, xcb_window_t wid, xcb_window_t parent, int16_t x, int16_t y, uint16_t width,
    uint16_t height, uint16_t border_width, uint16_t window_class, xcb_visualid_t visual, uint32_t value_mask,
    const void* value_list) {
  using Fn = xcb_void_cookie_t (*)(xcb_connection_t*, uint8_t, xcb_window_t, xcb_window_t, int16_t, int16_t, uint16_t,
                                   uint16_t, uint16_t, uint16_t, xcb_visualid_t, uint32_t, const void*);
  static const Fn real = Real<Fn>("xcb_create_window");
  if (g_state.window == 0) {  // the application's (first) window
    g_state.connection = c;
    g_state.window = wid;
  }
  return real(c, depth, wid, parent, x, y, width, height, border_width, window_class, visual, value_mask, value_list);
}

__attribute__((visibility("default"))) xcb_generic_event_t* xcb_poll_for_event(xcb_connection_t* c) {
  using Fn = xcb_generic_event_t* (*)(xcb_connection_t*);
  static const Fn real = Real<Fn>("xcb_poll_for_event");
  CountPoll(c);
  return real(c);
}

// Programs that draw only on Expose (vkd3d-triangle) wait instead of
// polling: each wait counts as a poll, before it blocks.
__attribute__((visibility("default"))) xcb_generic_event_t* xcb_wait_for_event(xcb_connection_t* c) {
  using Fn = xcb_generic_event_t* (*)(xcb_connection_t*);
  static const Fn real = Real<Fn>("xcb_wait_for_event");
  CountPoll(c);
  return real(c);
}

__attribute__((visibility("default"))) xcb_void_cookie_t xcb_destroy_window(xcb_connection_t* c, xcb_window_t window) {
  using Fn = xcb_void_cookie_t (*)(xcb_connection_t*, xcb_window_t);
  static const Fn real = Real<Fn>("xcb_destroy_window");
  if (window == g_state.window && c == g_state.connection) {
    const double loop_seconds =
        g_state.started ? std::chrono::duration<double>(Clock::now() - g_state.first_poll).count() : 0.0;
    uint16_t w = 0, h = 0;
    WindowSize(c, window, &w, &h);
    const char* path = std::getenv("DUET_VKCUBE_PNG");
    if (path != nullptr && path[0] != '\0') SaveWindow(c, window, path);
    std::fprintf(stderr, "duet-vkcube: loop_seconds=%.6f polls=%lu window=%ux%u\n", loop_seconds, g_state.polls,
                 unsigned(w), unsigned(h));
    g_state.window = 0;
  }
  return real(c, window);
}

}  // extern "C"

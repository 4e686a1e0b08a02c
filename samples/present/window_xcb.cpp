// An X11 window through xcb, closed by the window manager's close button
// (WM_DELETE_WINDOW).
#define VK_USE_PLATFORM_XCB_KHR
#include <vulkan/vulkan.h>
#include <xcb/xcb.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sample_context.h"
#include "window.h"

namespace sample {
namespace {

xcb_atom_t Atom(xcb_connection_t* connection, const char* name) {
  xcb_intern_atom_reply_t* reply =
      xcb_intern_atom_reply(connection, xcb_intern_atom(connection, 0, uint16_t(std::strlen(name)), name), nullptr);
  const xcb_atom_t atom = reply != nullptr ? reply->atom : xcb_atom_t{XCB_ATOM_NONE};
  std::free(reply);
  return atom;
}

class XcbWindow final : public Window {
 public:
  XcbWindow(xcb_connection_t* connection, uint32_t width, uint32_t height) : connection_(connection) {
    const xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(connection)).data;
    window_ = xcb_generate_id(connection);
    const uint32_t events = XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_EXPOSURE;
    xcb_create_window(connection, XCB_COPY_FROM_PARENT, window_, screen->root, 0, 0, uint16_t(width),
                      uint16_t(height), 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_EVENT_MASK,
                      &events);
    const char title[] = "Duet present sample";
    xcb_change_property(connection, XCB_PROP_MODE_REPLACE, window_, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
                        sizeof title - 1, title);
    delete_window_ = Atom(connection, "WM_DELETE_WINDOW");
    const xcb_atom_t protocols = Atom(connection, "WM_PROTOCOLS");
    xcb_change_property(connection, XCB_PROP_MODE_REPLACE, window_, protocols, XCB_ATOM_ATOM, 32, 1, &delete_window_);
    xcb_map_window(connection, window_);
    xcb_flush(connection);
  }
  ~XcbWindow() override {
    xcb_destroy_window(connection_, window_);
    xcb_disconnect(connection_);
  }
  const char* Platform() const override { return "xcb"; }
  std::vector<const char*> InstanceExtensions() const override {
    return {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XCB_SURFACE_EXTENSION_NAME};
  }
  VkSurfaceKHR CreateSurface(VkInstance instance) override {
    VkXcbSurfaceCreateInfoKHR info{VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR};
    info.connection = connection_;
    info.window = window_;
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    Check(vkCreateXcbSurfaceKHR(instance, &info, nullptr, &surface), "vkCreateXcbSurfaceKHR");
    return surface;
  }
  bool Poll() override {
    bool open = true;
    while (xcb_generic_event_t* event = xcb_poll_for_event(connection_)) {
      if ((event->response_type & 0x7f) == XCB_CLIENT_MESSAGE &&
          reinterpret_cast<xcb_client_message_event_t*>(event)->data.data32[0] == delete_window_)
        open = false;
      std::free(event);
    }
    return open && !xcb_connection_has_error(connection_);
  }

 private:
  xcb_connection_t* connection_;
  xcb_window_t window_ = 0;
  xcb_atom_t delete_window_ = XCB_ATOM_NONE;
};

}  // namespace

std::unique_ptr<Window> OpenXcbWindow(uint32_t width, uint32_t height) {
  xcb_connection_t* connection = xcb_connect(nullptr, nullptr);
  if (xcb_connection_has_error(connection)) {
    xcb_disconnect(connection);
    std::fprintf(stderr, "cannot connect to the X server (DISPLAY)\n");
    return nullptr;
  }
  return std::make_unique<XcbWindow>(connection, width, height);
}

}  // namespace sample

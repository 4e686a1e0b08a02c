// libxcb and libxcb-shm, loaded at run time (dlopen) so the driver has no
// link-time dependency on X11. Only the headers are used at build time:
// each member has the type of the library function of the same name.
#pragma once

#include <xcb/shm.h>
#include <xcb/xcb.h>

namespace duet::framebuffer {

struct XcbLibrary {
#define DUET_XCB_FUNCTION(name) decltype(&::name) name = nullptr
  DUET_XCB_FUNCTION(xcb_connection_has_error);
  DUET_XCB_FUNCTION(xcb_flush);
  DUET_XCB_FUNCTION(xcb_generate_id);
  DUET_XCB_FUNCTION(xcb_get_setup);
  DUET_XCB_FUNCTION(xcb_get_maximum_request_length);
  DUET_XCB_FUNCTION(xcb_setup_roots_iterator);
  DUET_XCB_FUNCTION(xcb_screen_next);
  DUET_XCB_FUNCTION(xcb_screen_allowed_depths_iterator);
  DUET_XCB_FUNCTION(xcb_depth_next);
  DUET_XCB_FUNCTION(xcb_depth_visuals_iterator);
  DUET_XCB_FUNCTION(xcb_visualtype_next);
  DUET_XCB_FUNCTION(xcb_setup_pixmap_formats);
  DUET_XCB_FUNCTION(xcb_setup_pixmap_formats_length);
  DUET_XCB_FUNCTION(xcb_get_geometry);
  DUET_XCB_FUNCTION(xcb_get_geometry_reply);
  DUET_XCB_FUNCTION(xcb_create_gc);
  DUET_XCB_FUNCTION(xcb_free_gc);
  DUET_XCB_FUNCTION(xcb_put_image);
  DUET_XCB_FUNCTION(xcb_get_input_focus);
  DUET_XCB_FUNCTION(xcb_get_input_focus_reply);
  DUET_XCB_FUNCTION(xcb_request_check);
  DUET_XCB_FUNCTION(xcb_get_extension_data);
  // libxcb-shm; all null when it is not installed.
  DUET_XCB_FUNCTION(xcb_shm_query_version);
  DUET_XCB_FUNCTION(xcb_shm_query_version_reply);
  DUET_XCB_FUNCTION(xcb_shm_attach_checked);
  DUET_XCB_FUNCTION(xcb_shm_detach);
  DUET_XCB_FUNCTION(xcb_shm_put_image);
#undef DUET_XCB_FUNCTION
  // The extension's id, for xcb_get_extension_data: a request of an
  // extension the server lacks would shut the connection down.
  xcb_extension_t* xcb_shm_id = nullptr;

  bool has_shm = false;
};

// The loaded library, or nullptr (logged once) when libxcb.so.1 is missing.
const XcbLibrary* LoadXcb();

// XGetXCBConnection from libX11-xcb.so.1, for Xlib surfaces; nullptr when
// that library is missing. `display` is an Xlib Display*.
xcb_connection_t* XcbConnectionOfXlibDisplay(void* display);

}  // namespace duet::framebuffer

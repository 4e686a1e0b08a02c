#include "backends/framebuffer/xcb_library.h"

#include <dlfcn.h>


#include "util/log.h"

namespace duet::framebuffer {
namespace {

// Sets lib->name from the library `handle`; clears `ok` when it is missing.
#define DUET_LOAD(handle, name, ok) \
  ok = ((lib->name = reinterpret_cast<decltype(lib->name)>(dlsym(handle, #name))) != nullptr) && ok

bool LoadInto(XcbLibrary* lib) {
  // The application loaded these already when it uses X11, so dlopen only
  // takes another reference. They stay loaded for the life of the process:
  // unloading libxcb under a live connection is never safe.
  void* xcb = dlopen("libxcb.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (xcb == nullptr) {
    DUET_WARN("X11 presentation unavailable: %s", dlerror());
    return false;
  }
  bool ok = true;
  DUET_LOAD(xcb, xcb_connection_has_error, ok);
  DUET_LOAD(xcb, xcb_flush, ok);
  DUET_LOAD(xcb, xcb_generate_id, ok);
  DUET_LOAD(xcb, xcb_get_setup, ok);
  DUET_LOAD(xcb, xcb_get_maximum_request_length, ok);
  DUET_LOAD(xcb, xcb_setup_roots_iterator, ok);
  DUET_LOAD(xcb, xcb_screen_next, ok);
  DUET_LOAD(xcb, xcb_screen_allowed_depths_iterator, ok);
  DUET_LOAD(xcb, xcb_depth_next, ok);
  DUET_LOAD(xcb, xcb_depth_visuals_iterator, ok);
  DUET_LOAD(xcb, xcb_visualtype_next, ok);
  DUET_LOAD(xcb, xcb_setup_pixmap_formats, ok);
  DUET_LOAD(xcb, xcb_setup_pixmap_formats_length, ok);
  DUET_LOAD(xcb, xcb_get_geometry, ok);
  DUET_LOAD(xcb, xcb_get_geometry_reply, ok);
  DUET_LOAD(xcb, xcb_create_gc, ok);
  DUET_LOAD(xcb, xcb_free_gc, ok);
  DUET_LOAD(xcb, xcb_put_image, ok);
  DUET_LOAD(xcb, xcb_get_input_focus, ok);
  DUET_LOAD(xcb, xcb_get_input_focus_reply, ok);
  DUET_LOAD(xcb, xcb_request_check, ok);
  DUET_LOAD(xcb, xcb_get_extension_data, ok);
  if (!ok) {
    DUET_WARN("X11 presentation unavailable: libxcb.so.1 lacks a function");
    return false;
  }
  // Without libxcb-shm (or MIT-SHM on the server) frames go by PutImage.
  if (void* shm = dlopen("libxcb-shm.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) {
    bool shm_ok = true;
    DUET_LOAD(shm, xcb_shm_query_version, shm_ok);
    DUET_LOAD(shm, xcb_shm_query_version_reply, shm_ok);
    DUET_LOAD(shm, xcb_shm_attach_checked, shm_ok);
    DUET_LOAD(shm, xcb_shm_detach, shm_ok);
    DUET_LOAD(shm, xcb_shm_put_image, shm_ok);
    lib->xcb_shm_id = static_cast<xcb_extension_t*>(dlsym(shm, "xcb_shm_id"));
    lib->has_shm = shm_ok && lib->xcb_shm_id != nullptr;
  }
  return true;
}

#undef DUET_LOAD

}  // namespace

const XcbLibrary* LoadXcb() {
  static XcbLibrary library;
  static const bool loaded = LoadInto(&library);
  return loaded ? &library : nullptr;
}

xcb_connection_t* XcbConnectionOfXlibDisplay(void* display) {
  using GetConnection = xcb_connection_t* (*)(void*);
  static const GetConnection get = [] {
    void* x11_xcb = dlopen("libX11-xcb.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (x11_xcb == nullptr) {
      DUET_WARN("Xlib presentation unavailable: %s", dlerror());
      return GetConnection{nullptr};
    }
    return reinterpret_cast<GetConnection>(dlsym(x11_xcb, "XGetXCBConnection"));
  }();
  return get != nullptr ? get(display) : nullptr;
}

}  // namespace duet::framebuffer

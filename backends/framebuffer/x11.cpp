#include "backends/framebuffer/x11.h"

#include <sys/ipc.h>
#include <sys/shm.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "backends/framebuffer/pixels.h"
#include "backends/framebuffer/xcb_library.h"
#include "util/log.h"

namespace duet::framebuffer {
namespace {

// A window's pixel layout, from its depth and the server's pixmap formats.
struct WindowFormat {
  uint8_t depth = 0;
  PixelFormat format = PixelFormat::kBgra8888;
};

std::optional<WindowFormat> FindWindowFormat(const XcbLibrary& xcb, xcb_connection_t* connection, uint8_t depth) {
  const xcb_setup_t* setup = xcb.xcb_get_setup(connection);
  const xcb_format_t* formats = xcb.xcb_setup_pixmap_formats(setup);
  const int count = xcb.xcb_setup_pixmap_formats_length(setup);
  for (int i = 0; i < count; ++i) {
    if (formats[i].depth != depth) continue;
    // 8-bit channels in a 32-bit pixel, least significant byte first: B, G, R, X in memory.
    if (formats[i].bits_per_pixel != 32 || setup->image_byte_order != XCB_IMAGE_ORDER_LSB_FIRST) break;
    return WindowFormat{depth, PixelFormat::kBgra8888};
  }
  return std::nullopt;
}

const xcb_visualtype_t* FindVisual(const XcbLibrary& xcb, xcb_connection_t* connection, xcb_visualid_t id,
                                   uint8_t* depth) {
  for (auto screen = xcb.xcb_setup_roots_iterator(xcb.xcb_get_setup(connection)); screen.rem;
       xcb.xcb_screen_next(&screen)) {
    for (auto d = xcb.xcb_screen_allowed_depths_iterator(screen.data); d.rem; xcb.xcb_depth_next(&d)) {
      for (auto v = xcb.xcb_depth_visuals_iterator(d.data); v.rem; xcb.xcb_visualtype_next(&v)) {
        if (v.data->visual_id != id) continue;
        *depth = d.data->depth;
        return v.data;
      }
    }
  }
  return nullptr;
}

bool VisualSupported(const XcbLibrary& xcb, xcb_connection_t* connection, xcb_visualid_t id) {
  uint8_t depth = 0;
  const xcb_visualtype_t* visual = FindVisual(xcb, connection, id, &depth);
  return visual != nullptr && visual->_class == XCB_VISUAL_CLASS_TRUE_COLOR && visual->red_mask == 0xFF0000u &&
         visual->green_mask == 0xFF00u && visual->blue_mask == 0xFFu && (depth == 24 || depth == 32) &&
         FindWindowFormat(xcb, connection, depth).has_value();
}

bool ShmWanted() {
  const char* value = std::getenv("DUET_X11_SHM");
  return value == nullptr || std::strcmp(value, "0") != 0;
}

class XcbOutput final : public Output {
 public:
  XcbOutput(const XcbLibrary& xcb, xcb_connection_t* connection, xcb_window_t window, Extent extent,
            WindowFormat format)
      : xcb_(xcb), connection_(connection), window_(window), extent_(extent), format_(format) {
    gc_ = xcb_.xcb_generate_id(connection_);
    const uint32_t no_exposures = 0;
    xcb_.xcb_create_gc(connection_, gc_, window_, XCB_GC_GRAPHICS_EXPOSURES, &no_exposures);
    if (xcb_.has_shm && ShmWanted()) AttachShm();
    // The request length limit is in 4-byte units; PutImage's header takes 24 bytes.
    max_put_bytes_ = std::min<size_t>(size_t{xcb_.xcb_get_maximum_request_length(connection_)} * 4 - 24, 4u << 20);
    DUET_INFO("X11 window 0x%x: presenting with %s", window_, shm_segment_ != 0 ? "MIT-SHM" : "PutImage");
  }

  ~XcbOutput() override {
    WaitForServer();
    if (shm_segment_ != 0) xcb_.xcb_shm_detach(connection_, shm_segment_);
    if (shm_pixels_ != nullptr) shmdt(shm_pixels_);
    xcb_.xcb_free_gc(connection_, gc_);
    xcb_.xcb_flush(connection_);
  }

  Status Present(const Frame& frame, std::span<const Rect> damage) override {
    if (xcb_.xcb_connection_has_error(connection_)) return Status::kLost;
    if (damage.empty()) return Status::kOk;
    // The server may still be reading the shared segment for the previous frame.
    WaitForServer();
    for (const Rect& rect : damage) {
      const Rect r = ClipRect(rect, extent_);
      if (r.Area() == 0) continue;
      if (shm_segment_ != 0)
        PutShm(frame, r);
      else
        PutChunks(frame, r);
    }
    if (shm_segment_ != 0) sync_ = xcb_.xcb_get_input_focus(connection_);
    xcb_.xcb_flush(connection_);
    return Status::kOk;
  }

 private:
  void AttachShm() {
    const xcb_query_extension_reply_t* extension = xcb_.xcb_get_extension_data(connection_, xcb_.xcb_shm_id);
    if (extension == nullptr || !extension->present) return;
    xcb_generic_error_t* error = nullptr;
    xcb_shm_query_version_reply_t* version =
        xcb_.xcb_shm_query_version_reply(connection_, xcb_.xcb_shm_query_version(connection_), &error);
    free(error);
    if (version == nullptr) return;
    free(version);
    const size_t size = size_t{extent_.width} * extent_.height * kBytesPerPixel;
    const int id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
    if (id < 0) return;
    void* pixels = shmat(id, nullptr, 0);
    if (pixels == reinterpret_cast<void*>(-1)) {
      shmctl(id, IPC_RMID, nullptr);
      return;
    }
    const xcb_shm_seg_t segment = xcb_.xcb_generate_id(connection_);
    error = xcb_.xcb_request_check(connection_, xcb_.xcb_shm_attach_checked(connection_, segment, id, 0));
    // Marked for removal now: it goes away when both sides have detached,
    // even if this process dies.
    shmctl(id, IPC_RMID, nullptr);
    if (error != nullptr) {  // e.g. a remote server, which cannot map our memory
      free(error);
      shmdt(pixels);
      return;
    }
    shm_pixels_ = static_cast<std::byte*>(pixels);
    shm_segment_ = segment;
  }

  void PutShm(const Frame& frame, const Rect& r) {
    CopyRect(frame, r, shm_pixels_, size_t{extent_.width} * kBytesPerPixel, format_.format);
    xcb_.xcb_shm_put_image(connection_, window_, gc_, static_cast<uint16_t>(extent_.width),
                           static_cast<uint16_t>(extent_.height), static_cast<uint16_t>(r.x),
                           static_cast<uint16_t>(r.y), static_cast<uint16_t>(r.width), static_cast<uint16_t>(r.height),
                           static_cast<int16_t>(r.x), static_cast<int16_t>(r.y), format_.depth,
                           XCB_IMAGE_FORMAT_Z_PIXMAP, 0, shm_segment_, 0);
  }

  // PutImage carries the pixels in the request: send the rectangle in bands
  // of rows that fit the server's request size limit.
  void PutChunks(const Frame& frame, const Rect& r) {
    const size_t row_bytes = size_t{r.width} * kBytesPerPixel;
    const uint32_t rows_per_request = static_cast<uint32_t>(std::max<size_t>(1, max_put_bytes_ / row_bytes));
    for (uint32_t y = 0; y < r.height; y += rows_per_request) {
      const Rect chunk{r.x, r.y + y, r.width, std::min(rows_per_request, r.height - y)};
      staging_.resize(row_bytes * chunk.height);
      PackRect(frame, chunk, staging_.data(), format_.format);
      xcb_.xcb_put_image(connection_, XCB_IMAGE_FORMAT_Z_PIXMAP, window_, gc_, static_cast<uint16_t>(chunk.width),
                         static_cast<uint16_t>(chunk.height), static_cast<int16_t>(chunk.x),
                         static_cast<int16_t>(chunk.y), 0, format_.depth, static_cast<uint32_t>(staging_.size()),
                         reinterpret_cast<const uint8_t*>(staging_.data()));
    }
  }

  // A round trip sent after the last frame's requests: its reply means the
  // server has executed them (and read the shared segment).
  void WaitForServer() {
    if (!sync_.has_value()) return;
    xcb_generic_error_t* error = nullptr;
    free(xcb_.xcb_get_input_focus_reply(connection_, *sync_, &error));
    free(error);
    sync_.reset();
  }

  const XcbLibrary& xcb_;
  xcb_connection_t* connection_;
  xcb_window_t window_;
  Extent extent_;
  WindowFormat format_;
  xcb_gcontext_t gc_ = 0;
  xcb_shm_seg_t shm_segment_ = 0;
  std::byte* shm_pixels_ = nullptr;
  size_t max_put_bytes_ = 0;
  std::vector<std::byte> staging_;
  std::optional<xcb_get_input_focus_cookie_t> sync_;
};

class XcbTarget final : public Target {
 public:
  XcbTarget(const XcbLibrary& xcb, xcb_connection_t* connection, xcb_window_t window)
      : xcb_(xcb), connection_(connection), window_(window) {}

  Status CurrentExtent(std::optional<Extent>* extent) override {
    xcb_get_geometry_reply_t* geometry = Geometry();
    if (geometry == nullptr) return Status::kLost;
    *extent = Extent{geometry->width, geometry->height};
    free(geometry);
    return Status::kOk;
  }

  // X11 gives no vertical blank to wait for here: FIFO and MAILBOX pace
  // themselves at a nominal 60 Hz (DUET_REFRESH_HZ changes it).
  uint64_t RefreshInterval() const override { return RefreshIntervalFromEnvironment(60); }

  std::unique_ptr<Output> CreateOutput(Extent extent, PixelFormat) override {
    xcb_get_geometry_reply_t* geometry = Geometry();
    if (geometry == nullptr) {
      DUET_ERROR("X11 window 0x%x is gone", window_);
      return nullptr;
    }
    const uint8_t depth = geometry->depth;
    free(geometry);
    const std::optional<WindowFormat> format = FindWindowFormat(xcb_, connection_, depth);
    if (!format.has_value()) {
      DUET_ERROR("X11 window 0x%x: depth %u has no 32-bit pixel layout the driver can draw", window_, depth);
      return nullptr;
    }
    return std::make_unique<XcbOutput>(xcb_, connection_, window_, extent, *format);
  }

 private:
  // Errors (a destroyed window) come back here rather than in the
  // application's event queue.
  xcb_get_geometry_reply_t* Geometry() {
    xcb_generic_error_t* error = nullptr;
    xcb_get_geometry_reply_t* reply =
        xcb_.xcb_get_geometry_reply(connection_, xcb_.xcb_get_geometry(connection_, window_), &error);
    free(error);
    return reply;
  }

  const XcbLibrary& xcb_;
  xcb_connection_t* connection_;
  xcb_window_t window_;
};

}  // namespace

std::unique_ptr<Target> CreateXcbTarget(xcb_connection_t* connection, xcb_window_t window) {
  const XcbLibrary* xcb = LoadXcb();
  if (xcb == nullptr || connection == nullptr) return nullptr;
  return std::make_unique<XcbTarget>(*xcb, connection, window);
}

bool XcbVisualSupported(xcb_connection_t* connection, xcb_visualid_t visual) {
  const XcbLibrary* xcb = LoadXcb();
  return xcb != nullptr && connection != nullptr && VisualSupported(*xcb, connection, visual);
}

}  // namespace duet::framebuffer

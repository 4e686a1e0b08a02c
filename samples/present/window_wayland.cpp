// A Wayland window: a wl_surface made an xdg-shell toplevel (generated from
// wayland-protocols' xdg-shell.xml), closed by the compositor's close request.
#define VK_USE_PLATFORM_WAYLAND_KHR
#include <vulkan/vulkan.h>
#include <wayland-client.h>

#include <cstdio>
#include <cstring>

#include "sample_context.h"
#include "window.h"
#include "xdg-shell-client-protocol.h"

namespace sample {
namespace {

class WaylandWindow final : public Window {
 public:
  explicit WaylandWindow(wl_display* display) : display_(display) {
    registry_ = wl_display_get_registry(display);
    wl_registry_add_listener(registry_, &kRegistryListener, this);
    wl_display_roundtrip(display);
  }
  ~WaylandWindow() override {
    if (toplevel_ != nullptr) xdg_toplevel_destroy(toplevel_);
    if (xdg_surface_ != nullptr) xdg_surface_destroy(xdg_surface_);
    if (surface_ != nullptr) wl_surface_destroy(surface_);
    if (wm_base_ != nullptr) xdg_wm_base_destroy(wm_base_);
    if (compositor_ != nullptr) wl_compositor_destroy(compositor_);
    wl_registry_destroy(registry_);
    wl_display_disconnect(display_);
  }
  bool Open() {
    if (compositor_ == nullptr || wm_base_ == nullptr) {
      std::fprintf(stderr, "the compositor has no wl_compositor or xdg_wm_base\n");
      return false;
    }
    surface_ = wl_compositor_create_surface(compositor_);
    xdg_surface_ = xdg_wm_base_get_xdg_surface(wm_base_, surface_);
    xdg_surface_add_listener(xdg_surface_, &kSurfaceListener, this);
    toplevel_ = xdg_surface_get_toplevel(xdg_surface_);
    xdg_toplevel_add_listener(toplevel_, &kToplevelListener, this);
    xdg_toplevel_set_title(toplevel_, "Duet present sample");
    wl_surface_commit(surface_);
    // A surface may be drawn to once its first configure was acknowledged.
    while (!configured_ && wl_display_dispatch(display_) >= 0) {
    }
    return configured_;
  }
  const char* Platform() const override { return "wayland"; }
  std::vector<const char*> InstanceExtensions() const override {
    return {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_WAYLAND_SURFACE_EXTENSION_NAME};
  }
  VkSurfaceKHR CreateSurface(VkInstance instance) override {
    VkWaylandSurfaceCreateInfoKHR info{VK_STRUCTURE_TYPE_WAYLAND_SURFACE_CREATE_INFO_KHR};
    info.display = display_;
    info.surface = surface_;
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    Check(vkCreateWaylandSurfaceKHR(instance, &info, nullptr, &surface), "vkCreateWaylandSurfaceKHR");
    return surface;
  }
  bool Poll() override {
    return wl_display_dispatch_pending(display_) >= 0 && wl_display_flush(display_) >= 0 && !closed_;
  }

 private:
  static void Global(void* data, wl_registry* registry, uint32_t name, const char* interface, uint32_t) {
    auto* self = static_cast<WaylandWindow*>(data);
    if (std::strcmp(interface, wl_compositor_interface.name) == 0)
      self->compositor_ = static_cast<wl_compositor*>(wl_registry_bind(registry, name, &wl_compositor_interface, 4));
    if (std::strcmp(interface, xdg_wm_base_interface.name) == 0) {
      self->wm_base_ = static_cast<xdg_wm_base*>(wl_registry_bind(registry, name, &xdg_wm_base_interface, 1));
      xdg_wm_base_add_listener(self->wm_base_, &kWmBaseListener, self);
    }
  }
  static void GlobalRemove(void*, wl_registry*, uint32_t) {}
  static void Ping(void*, xdg_wm_base* base, uint32_t serial) { xdg_wm_base_pong(base, serial); }
  static void Configure(void* data, xdg_surface* surface, uint32_t serial) {
    xdg_surface_ack_configure(surface, serial);
    static_cast<WaylandWindow*>(data)->configured_ = true;
  }
  static void ToplevelConfigure(void*, xdg_toplevel*, int32_t, int32_t, wl_array*) {}
  static void Close(void* data, xdg_toplevel*) { static_cast<WaylandWindow*>(data)->closed_ = true; }

  static constexpr wl_registry_listener kRegistryListener{Global, GlobalRemove};
  static constexpr xdg_wm_base_listener kWmBaseListener{Ping};
  static constexpr xdg_surface_listener kSurfaceListener{Configure};
  static constexpr xdg_toplevel_listener kToplevelListener{ToplevelConfigure, Close};

  wl_display* display_;
  wl_registry* registry_ = nullptr;
  wl_compositor* compositor_ = nullptr;
  xdg_wm_base* wm_base_ = nullptr;
  wl_surface* surface_ = nullptr;
  xdg_surface* xdg_surface_ = nullptr;
  xdg_toplevel* toplevel_ = nullptr;
  bool configured_ = false, closed_ = false;
};

}  // namespace

std::unique_ptr<Window> OpenWaylandWindow(uint32_t, uint32_t) {
  // The size is the swapchain's: a Wayland surface takes the size of what is presented to it.
  wl_display* display = wl_display_connect(nullptr);
  if (display == nullptr) {
    std::fprintf(stderr, "cannot connect to the Wayland compositor (WAYLAND_DISPLAY)\n");
    return nullptr;
  }
  auto window = std::make_unique<WaylandWindow>(display);
  if (!window->Open()) return nullptr;
  return window;
}

}  // namespace sample

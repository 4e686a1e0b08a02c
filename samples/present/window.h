// Where `present` shows its frames: a window on X11 (xcb) or Wayland, no
// window at all (VK_EXT_headless_surface), or a whole display
// (VK_KHR_display). Each kind names its instance extension and makes the
// surface; windows also report whether the user closed them.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sample {

class Window {
 public:
  virtual ~Window() = default;
  virtual const char* Platform() const = 0;
  virtual std::vector<const char*> InstanceExtensions() const = 0;
  virtual VkSurfaceKHR CreateSurface(VkInstance instance) = 0;
  // Handles pending window-system events; false once the window was closed.
  virtual bool Poll() { return true; }
};

// nullptr (with a message) when the platform is not there, e.g. no X server.
std::unique_ptr<Window> OpenXcbWindow(uint32_t width, uint32_t height);
std::unique_ptr<Window> OpenWaylandWindow(uint32_t width, uint32_t height);
std::unique_ptr<Window> OpenHeadless();
std::unique_ptr<Window> OpenDisplay();

// "auto": Wayland when WAYLAND_DISPLAY is set, else X11 when DISPLAY is,
// else headless when the loader offers it, else the first display.
std::unique_ptr<Window> OpenWindow(const std::string& platform, uint32_t width, uint32_t height);

}  // namespace sample

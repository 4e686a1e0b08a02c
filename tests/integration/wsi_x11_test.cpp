// VK_KHR_xcb_surface / VK_KHR_xlib_surface under a private Xvfb server
// (started per test suite with -displayfd, so no display number is
// guessed): frames are read back from the window with GetImage. Skipped
// with a message when Xvfb is not installed.
// gtest first: Xlib's macros (None, Bool, ...) would break its headers.
#include "wsi_fixture.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xcb/xcb.h>

#include <cstdlib>
#include <cstring>
#include <string>

// The platform parts of the Vulkan headers, after the window-system headers they need.
#include <vulkan/vulkan_xcb.h>
#include <vulkan/vulkan_xlib.h>

extern char** environ;

namespace duet_test {
namespace {

constexpr Rgba kTeal{0, 128, 128, 255};
constexpr Rgba kOrange{255, 160, 0, 255};
constexpr Rgba kWhite{255, 255, 255, 255};

// One Xvfb process; display() is ":N", empty when it could not start.
class XvfbServer {
 public:
  XvfbServer() {
    int fds[2];
    if (pipe(fds) != 0) return;
    const std::string fd_arg = std::to_string(fds[1]);
    const char* argv[] = {"Xvfb", "-displayfd", fd_arg.c_str(), "-screen", "0", "320x240x24", "-nolisten", "tcp",
                          nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    // Xvfb's own chatter (missing fonts, xkb) is not the test's business.
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const int spawned = posix_spawnp(&pid_, "Xvfb", &actions, nullptr, const_cast<char**>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (spawned != 0) {
      pid_ = -1;
      close(fds[0]);
      return;
    }
    // Xvfb writes the display number once it accepts connections.
    std::string number;
    pollfd p{fds[0], POLLIN, 0};
    char c = 0;
    while (poll(&p, 1, 20000) > 0 && read(fds[0], &c, 1) == 1 && c != '\n') number += c;
    close(fds[0]);
    if (!number.empty()) display_ = ":" + number;
  }
  ~XvfbServer() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  const std::string& display() const { return display_; }

 private:
  pid_t pid_ = -1;
  std::string display_;
};

class WsiX11 : public WsiTest {
 protected:
  WsiX11() {
    instance_extensions_ = {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XCB_SURFACE_EXTENSION_NAME,
                            VK_KHR_XLIB_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME};
  }

  static void SetUpTestSuite() { server_ = new XvfbServer(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  void SetUp() override {
    if (server_->display().empty()) GTEST_SKIP() << "Xvfb is not installed or did not start: no X11 test";
    WsiTest::SetUp();
    if (HasFatalFailure()) return;
    connection_ = xcb_connect(server_->display().c_str(), nullptr);
    ASSERT_EQ(xcb_connection_has_error(connection_), 0) << "cannot connect to " << server_->display();
    screen_ = xcb_setup_roots_iterator(xcb_get_setup(connection_)).data;
  }

  void TearDown() override {
    WsiTest::TearDown();
    if (connection_ != nullptr) xcb_disconnect(connection_);
  }

  xcb_window_t MakeWindow(uint16_t width, uint16_t height) {
    const xcb_window_t window = xcb_generate_id(connection_);
    const uint32_t background = screen_->black_pixel;
    xcb_create_window(connection_, XCB_COPY_FROM_PARENT, window, screen_->root, 0, 0, width, height, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen_->root_visual, XCB_CW_BACK_PIXEL, &background);
    xcb_map_window(connection_, window);
    free(xcb_get_input_focus_reply(connection_, xcb_get_input_focus(connection_), nullptr));  // round trip
    return window;
  }

  VkSurfaceKHR MakeXcbSurface(xcb_window_t window) {
    auto create = InstanceProc<PFN_vkCreateXcbSurfaceKHR>("vkCreateXcbSurfaceKHR");
    EXPECT_NE(create, nullptr);
    if (create == nullptr) return VK_NULL_HANDLE;
    VkXcbSurfaceCreateInfoKHR ci{VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR};
    ci.connection = connection_;
    ci.window = window;
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VkResult r = create(instance_, &ci, nullptr, &surface);
    EXPECT_EQ(r, VK_SUCCESS) << R{r};
    if (r != VK_SUCCESS) return VK_NULL_HANDLE;
    DeferInstance([this, surface] { vkDestroySurfaceKHR(instance_, surface, nullptr); });
    return surface;
  }

  // The window's pixels now (24-bit TrueColor: B, G, R, X in memory).
  struct WindowPixels {
    uint16_t width = 0, height = 0;
    std::vector<uint8_t> bgrx;
    Rgba At(uint32_t x, uint32_t y) const {
      const uint8_t* p = &bgrx[(size_t(y) * width + x) * 4];
      return {p[2], p[1], p[0], 255};
    }
  };
  WindowPixels ReadWindow(xcb_window_t window, uint16_t width, uint16_t height) {
    WindowPixels pixels;
    xcb_get_image_reply_t* image = xcb_get_image_reply(
        connection_, xcb_get_image(connection_, XCB_IMAGE_FORMAT_Z_PIXMAP, window, 0, 0, width, height, ~0u),
        nullptr);
    EXPECT_NE(image, nullptr);
    if (image == nullptr) return pixels;
    const uint8_t* data = xcb_get_image_data(image);
    const int length = xcb_get_image_data_length(image);
    EXPECT_EQ(length, width * height * 4);
    pixels.width = width;
    pixels.height = height;
    pixels.bgrx.assign(data, data + length);
    free(image);
    return pixels;
  }

  // Fills the window with `color` behind the driver's back.
  void Scribble(xcb_window_t window, Rgba color, uint16_t width, uint16_t height) {
    const xcb_gcontext_t gc = xcb_generate_id(connection_);
    const uint32_t pixel = (uint32_t(color.r) << 16) | (uint32_t(color.g) << 8) | color.b;
    xcb_create_gc(connection_, gc, window, XCB_GC_FOREGROUND, &pixel);
    const xcb_rectangle_t all{0, 0, width, height};
    xcb_poly_fill_rectangle(connection_, window, gc, 1, &all);
    xcb_free_gc(connection_, gc);
    free(xcb_get_input_focus_reply(connection_, xcb_get_input_focus(connection_), nullptr));
  }

  // Waits until every present so far has reached the server: the queue
  // first, then (destroying the swapchain) the presentation thread.
  void FinishPresents(VkSwapchainKHR swapchain) {
    EXPECT_EQ(vkQueueWaitIdle(queue_), VK_SUCCESS);
    DestroySwapchain(swapchain);
  }

  static XvfbServer* server_;
  xcb_connection_t* connection_ = nullptr;
  xcb_screen_t* screen_ = nullptr;
};

XvfbServer* WsiX11::server_ = nullptr;

// Runs with MIT-SHM and with PutImage (DUET_X11_SHM=0).
class WsiX11Transfer : public WsiX11, public ::testing::WithParamInterface<const char*> {};

TEST_P(WsiX11Transfer, PresentedFrameIsInTheWindow) {
  ScopedEnv shm("DUET_X11_SHM", GetParam());
  const xcb_window_t window = MakeWindow(64, 48);
  VkSurfaceKHR surface = MakeXcbSurface(window);
  ASSERT_NE(surface, VK_NULL_HANDLE);

  auto support = InstanceProc<PFN_vkGetPhysicalDeviceXcbPresentationSupportKHR>(
      "vkGetPhysicalDeviceXcbPresentationSupportKHR");
  ASSERT_NE(support, nullptr);
  EXPECT_EQ(support(phys_, queue_family_, connection_, screen_->root_visual), VK_TRUE);
  VkBool32 supported = VK_FALSE;
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfaceSupportKHR(phys_, queue_family_, surface, &supported));
  EXPECT_EQ(supported, VK_TRUE);
  VkSurfaceCapabilitiesKHR caps{};
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(phys_, surface, &caps));
  EXPECT_EQ(caps.currentExtent.width, 64u);
  EXPECT_EQ(caps.currentExtent.height, 48u);

  SwapchainOptions options;
  options.extent = {64, 48};
  options.mode = VK_PRESENT_MODE_IMMEDIATE_KHR;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, kTeal, {{63, 47, kOrange}, {0, 0, kWhite}}));
  FinishPresents(swapchain);

  const WindowPixels pixels = ReadWindow(window, 64, 48);
  ASSERT_EQ(pixels.width, 64);
  EXPECT_EQ(pixels.At(0, 0), kWhite);
  EXPECT_EQ(pixels.At(1, 0), kTeal);
  EXPECT_EQ(pixels.At(30, 20), kTeal);
  EXPECT_EQ(pixels.At(63, 47), kOrange);
}

// Damage as the window sees it: what the driver does not resend stays as
// someone else drew it.
TEST_P(WsiX11Transfer, OnlyDamageReachesTheWindow) {
  ScopedEnv shm("DUET_X11_SHM", GetParam());
  const xcb_window_t window = MakeWindow(200, 100);
  VkSurfaceKHR surface = MakeXcbSurface(window);
  ASSERT_NE(surface, VK_NULL_HANDLE);
  SwapchainOptions options;
  options.extent = {200, 100};
  options.mode = VK_PRESENT_MODE_FIFO_KHR;
  ScopedEnv refresh("DUET_REFRESH_HZ", "0");
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, kTeal));
  ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, kTeal, {{10, 10, kOrange}}));
  EXPECT_EQ(vkQueueWaitIdle(queue_), VK_SUCCESS);
  // Wait for the presentation thread: an acquire of every image returns
  // only once each was shown (2 are in use until then).
  std::vector<uint32_t> held;
  for (size_t i = 0; i < SwapchainImages(swapchain).size(); ++i) {
    uint32_t index = 0;
    ASSERT_EQ(AcquireWithFence(swapchain, &index), VK_SUCCESS);
    held.push_back(index);
  }
  // The backend's transfer follows the image release, on its own
  // connection: wait until the window shows the second frame's orange pixel
  // (the server runs a connection's requests in order, so everything sent
  // before it is there too). A fixed pause was too short on a loaded machine.
  for (int attempt = 0; attempt < 500 && ReadWindow(window, 200, 100).At(10, 10) != kOrange; ++attempt) SleepMs(10);
  ASSERT_EQ(ReadWindow(window, 200, 100).At(10, 10), kOrange) << "the second frame never reached the window";
  Scribble(window, kWhite, 200, 100);
  // The same frame again: nothing is sent, the scribble stays.
  ASSERT_EQ(RenderAndPresent(swapchain, held[0], options, kTeal, {{10, 10, kOrange}}), VK_SUCCESS);
  // One pixel changes: only a small area around it is sent.
  ASSERT_EQ(RenderAndPresent(swapchain, held[1], options, kTeal, {{150, 80, kOrange}}), VK_SUCCESS);
  FinishPresents(swapchain);

  const WindowPixels pixels = ReadWindow(window, 200, 100);
  ASSERT_EQ(pixels.width, 200);
  EXPECT_EQ(pixels.At(150, 80), kOrange);
  EXPECT_EQ(pixels.At(10, 10), kTeal);  // changed back
  EXPECT_EQ(pixels.At(100, 50), kWhite);  // never resent
  EXPECT_EQ(pixels.At(0, 0), kWhite);
  EXPECT_EQ(pixels.At(199, 99), kWhite);
}

INSTANTIATE_TEST_SUITE_P(Transfers, WsiX11Transfer, ::testing::Values("1", "0"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::strcmp(info.param, "0") == 0 ? std::string("PutImage")
                                                                    : std::string("MitShm");
                         });

TEST_F(WsiX11, ResizeMakesTheSwapchainSuboptimalUntilRecreated) {
  const xcb_window_t window = MakeWindow(64, 48);
  VkSurfaceKHR surface = MakeXcbSurface(window);
  ASSERT_NE(surface, VK_NULL_HANDLE);
  SwapchainOptions options;
  options.extent = {64, 48};
  options.mode = VK_PRESENT_MODE_IMMEDIATE_KHR;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, kTeal));

  const uint32_t size[] = {90, 70};
  xcb_configure_window(connection_, window, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
  free(xcb_get_input_focus_reply(connection_, xcb_get_input_focus(connection_), nullptr));

  uint32_t index = 0;
  EXPECT_EQ(AcquireWithFence(swapchain, &index), VK_SUBOPTIMAL_KHR);
  // Still presentable (clipped), and reported as suboptimal.
  EXPECT_EQ(RenderAndPresent(swapchain, index, options, kOrange), VK_SUBOPTIMAL_KHR);
  VkSurfaceCapabilitiesKHR caps{};
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(phys_, surface, &caps));
  EXPECT_EQ(caps.currentExtent.width, 90u);
  EXPECT_EQ(caps.currentExtent.height, 70u);

  SwapchainOptions resized = options;
  resized.extent = {90, 70};
  resized.old_swapchain = swapchain;
  VkSwapchainKHR recreated = MakeSwapchain(surface, resized);
  ASSERT_NE(recreated, VK_NULL_HANDLE);
  if (!validation_layer_)  // acquiring from a retired swapchain is invalid usage
    EXPECT_EQ(vkAcquireNextImageKHR(device_, swapchain, 0, VK_NULL_HANDLE, MakeFence(), &index),
              VK_ERROR_OUT_OF_DATE_KHR);
  EXPECT_EQ(vkQueueWaitIdle(queue_), VK_SUCCESS);
  DestroySwapchain(swapchain);
  ASSERT_NO_FATAL_FAILURE(PresentFrame(recreated, resized, kWhite));
  FinishPresents(recreated);
  const WindowPixels pixels = ReadWindow(window, 90, 70);
  ASSERT_EQ(pixels.width, 90);
  EXPECT_EQ(pixels.At(89, 69), kWhite);
}

TEST_F(WsiX11, DestroyedWindowLosesTheSurface) {
  const xcb_window_t window = MakeWindow(32, 32);
  VkSurfaceKHR surface = MakeXcbSurface(window);
  ASSERT_NE(surface, VK_NULL_HANDLE);
  SwapchainOptions options;
  options.extent = {32, 32};
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  xcb_destroy_window(connection_, window);
  free(xcb_get_input_focus_reply(connection_, xcb_get_input_focus(connection_), nullptr));
  uint32_t index = 0;
  EXPECT_EQ(vkAcquireNextImageKHR(device_, swapchain, 0, VK_NULL_HANDLE, MakeFence(), &index),
            VK_ERROR_SURFACE_LOST_KHR);
  VkSurfaceCapabilitiesKHR caps{};
  EXPECT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(phys_, surface, &caps), VK_ERROR_SURFACE_LOST_KHR);
}

TEST_F(WsiX11, XlibSurfacePresents) {
  Display* display = XOpenDisplay(server_->display().c_str());
  ASSERT_NE(display, nullptr);
  ScopeExit close_display([display] { XCloseDisplay(display); });
  const Window window = XCreateSimpleWindow(display, DefaultRootWindow(display), 0, 0, 40, 30, 0, 0, 0);
  XMapWindow(display, window);
  XSync(display, False);

  auto support = InstanceProc<PFN_vkGetPhysicalDeviceXlibPresentationSupportKHR>(
      "vkGetPhysicalDeviceXlibPresentationSupportKHR");
  ASSERT_NE(support, nullptr);
  EXPECT_EQ(support(phys_, queue_family_, display, XVisualIDFromVisual(DefaultVisual(display, 0))), VK_TRUE);

  auto create = InstanceProc<PFN_vkCreateXlibSurfaceKHR>("vkCreateXlibSurfaceKHR");
  ASSERT_NE(create, nullptr);
  VkXlibSurfaceCreateInfoKHR ci{VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR};
  ci.dpy = display;
  ci.window = window;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VK_ASSERT_OK(create(instance_, &ci, nullptr, &surface));
  ScopeExit destroy_surface([&] { vkDestroySurfaceKHR(instance_, surface, nullptr); });
  {
    SwapchainOptions options;
    options.extent = {40, 30};
    options.mode = VK_PRESENT_MODE_IMMEDIATE_KHR;
    VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
    ASSERT_NE(swapchain, VK_NULL_HANDLE);
    ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, kOrange, {{39, 29, kTeal}}));
    FinishPresents(swapchain);
  }
  XImage* image = XGetImage(display, window, 0, 0, 40, 30, AllPlanes, ZPixmap);
  ASSERT_NE(image, nullptr);
  const unsigned long orange = XGetPixel(image, 5, 5);
  const unsigned long teal = XGetPixel(image, 39, 29);
  XDestroyImage(image);
  EXPECT_EQ(orange, 0xFFA000ul);
  EXPECT_EQ(teal, 0x008080ul);
}

}  // namespace
}  // namespace duet_test

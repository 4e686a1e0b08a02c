// VK_KHR_wayland_surface under a private headless Weston (pixman renderer,
// kiosk shell), started per test suite in its own XDG_RUNTIME_DIR. The
// surface has no role, so nothing is drawn; the test checks that frames go
// through wl_shm buffers without protocol errors and that buffers cycle.
// Skipped with a message when weston is not installed.
#include "wsi_fixture.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wayland-client.h>

#include <cstring>
#include <string>

#include <vulkan/vulkan_wayland.h>

extern char** environ;

namespace duet_test {
namespace {

constexpr const char* kSocket = "wayland-duet-test";

class WestonServer {
 public:
  WestonServer() {
    if (dir_.path().empty()) return;
    const std::string runtime = "XDG_RUNTIME_DIR=" + dir_.path();
    std::vector<std::string> env_strings = {runtime};
    for (char** e = environ; *e != nullptr; ++e)
      if (std::strncmp(*e, "XDG_RUNTIME_DIR=", 16) != 0 && std::strncmp(*e, "WAYLAND_DISPLAY=", 16) != 0 &&
          std::strncmp(*e, "DISPLAY=", 8) != 0)
        env_strings.push_back(*e);
    std::vector<char*> env;
    for (std::string& s : env_strings) env.push_back(s.data());
    env.push_back(nullptr);
    const std::string socket_arg = std::string("--socket=") + kSocket;
    const char* argv[] = {"weston",       "--backend=headless-backend.so", socket_arg.c_str(), "--idle-time=0",
                          "--use-pixman", "--shell=kiosk-shell.so",        nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const int spawned = posix_spawnp(&pid_, "weston", &actions, nullptr, const_cast<char**>(argv), env.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
      pid_ = -1;
      return;
    }
    // Weston has no -displayfd: wait for its socket (and lock file) to appear.
    const std::string socket = dir_.path() + "/" + kSocket;
    for (int i = 0; i < 200; ++i) {
      struct stat st {};
      if (stat(socket.c_str(), &st) == 0) {
        ready_ = true;
        return;
      }
      SleepMs(50);
    }
  }
  ~WestonServer() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  bool ready() const { return ready_; }
  const std::string& runtime_dir() const { return dir_.path(); }

 private:
  TempDir dir_;
  pid_t pid_ = -1;
  bool ready_ = false;
};

class WsiWayland : public WsiTest {
 protected:
  WsiWayland() {
    instance_extensions_ = {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_WAYLAND_SURFACE_EXTENSION_NAME,
                            VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME};
  }
  static void SetUpTestSuite() { server_ = new WestonServer(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  void SetUp() override {
    if (!server_->ready()) GTEST_SKIP() << "weston is not installed or did not start: no Wayland test";
    WsiTest::SetUp();
    if (HasFatalFailure()) return;
    ScopedEnv runtime("XDG_RUNTIME_DIR", server_->runtime_dir());
    display_ = wl_display_connect(kSocket);
    ASSERT_NE(display_, nullptr) << "cannot connect to weston";
    wl_registry* registry = wl_display_get_registry(display_);
    static const wl_registry_listener listener = {
        [](void* data, wl_registry* r, uint32_t name, const char* interface, uint32_t) {
          if (std::strcmp(interface, "wl_compositor") == 0)
            *static_cast<wl_compositor**>(data) =
                static_cast<wl_compositor*>(wl_registry_bind(r, name, &wl_compositor_interface, 4));
        },
        [](void*, wl_registry*, uint32_t) {}};
    wl_registry_add_listener(registry, &listener, &compositor_);
    wl_display_roundtrip(display_);
    wl_registry_destroy(registry);
    ASSERT_NE(compositor_, nullptr);
    surface_ = wl_compositor_create_surface(compositor_);
  }

  void TearDown() override {
    WsiTest::TearDown();
    if (surface_ != nullptr) wl_surface_destroy(surface_);
    if (compositor_ != nullptr) wl_compositor_destroy(compositor_);
    if (display_ != nullptr) wl_display_disconnect(display_);
  }

  static WestonServer* server_;
  wl_display* display_ = nullptr;
  wl_compositor* compositor_ = nullptr;
  wl_surface* surface_ = nullptr;
};

WestonServer* WsiWayland::server_ = nullptr;

TEST_F(WsiWayland, FramesGoThroughWlShm) {
  auto support = InstanceProc<PFN_vkGetPhysicalDeviceWaylandPresentationSupportKHR>(
      "vkGetPhysicalDeviceWaylandPresentationSupportKHR");
  ASSERT_NE(support, nullptr);
  EXPECT_EQ(support(phys_, queue_family_, display_), VK_TRUE);

  auto create = InstanceProc<PFN_vkCreateWaylandSurfaceKHR>("vkCreateWaylandSurfaceKHR");
  ASSERT_NE(create, nullptr);
  VkWaylandSurfaceCreateInfoKHR ci{VK_STRUCTURE_TYPE_WAYLAND_SURFACE_CREATE_INFO_KHR};
  ci.display = display_;
  ci.surface = surface_;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VK_ASSERT_OK(create(instance_, &ci, nullptr, &surface));
  DeferInstance([this, surface] { vkDestroySurfaceKHR(instance_, surface, nullptr); });

  VkSurfaceCapabilitiesKHR caps{};
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(phys_, surface, &caps));
  EXPECT_EQ(caps.currentExtent.width, UINT32_MAX);  // the buffers decide

  ScopedEnv refresh("DUET_REFRESH_HZ", "0");
  SwapchainOptions options;
  options.extent = {64, 48};
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  // More frames than buffers: buffers must come back (wl_buffer.release).
  for (uint32_t i = 0; i < 8; ++i)
    ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, Rgba{40, 80, 120, 255}, {{i, i, Rgba{255, 0, 0, 255}}}));
  EXPECT_EQ(vkQueueWaitIdle(queue_), VK_SUCCESS);
  DestroySwapchain(swapchain);
  EXPECT_GE(wl_display_roundtrip(display_), 0);
  EXPECT_EQ(wl_display_get_error(display_), 0);
}

}  // namespace
}  // namespace duet_test

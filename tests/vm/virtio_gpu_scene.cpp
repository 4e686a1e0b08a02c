// The guest side of the virtio-gpu VM test (tests/vm/run_virtio_gpu_vm_test.sh):
// presents CPU-made frames on VK_KHR_display swapchains, phase by phase, and
// waits after each for the host (which screendumps the guest's screen
// through QMP and compares it with the frames this program describes).
//
//   virtio_gpu_scene [--nowait]                 in the guest: the phases below
//   virtio_gpu_scene --write-expected DIR W H [MW MH]
//                                               on the host, no Vulkan: the
//                                               expected images (PPM) of the
//                                               phases, so host and guest share
//                                               one definition of the pattern
//
// Phases (stdout; each "PHASE <name> READY <w>x<h>" then waits for a line on
// stdin unless --nowait):
//   displays  "DISPLAY <i> <name> <w>x<h> modes=<n>", "MODES <i> <w>x<h>@<mHz>...",
//             "DISPLAYS <n>" (no READY: nothing is presented)
//   full      swapchain on display 0, its first (preferred) mode, FIFO: frame A
//   small     frame A plus one small rectangle
//   same      the same frame again
//   fifo      "STREAM fifo BEGIN", 60 presents without waiting for the host,
//             frame k = the small frame with 32-row top and bottom bands in
//             colour C(k), "STREAM fifo END"
//   mode      a new display-plane surface and swapchain on another mode of
//             display 0 (800x600 if listed): frame A at that size
//   second    only with two displays: display 1's preferred mode shows the
//             small frame while display 0 keeps showing the mode phase's
//   unplug    "UNPLUG 1 REQUEST", then (the host has disabled scanout 1)
//             presents to display 1 until "UNPLUG 1 SURFACE_LOST ..."
// Failures print "FAIL <reason>"; the exit status is 0 only without any.
// Frames reach the images with vkCmdCopyBufferToImage; no shaders.
#include <poll.h>
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

// ---- the pattern (the only definition; the host gets it via --write-expected) ----

constexpr uint32_t Rgb(uint32_t r, uint32_t g, uint32_t b) { return 0xff000000u | r << 16 | g << 8 | b; }

struct Rect {
  uint32_t x, y, w, h;
};

// B8G8R8A8 in memory, as 0xAARRGGBB words.
struct Frame {
  uint32_t width = 0, height = 0;
  std::vector<uint32_t> pixels;
  Frame(uint32_t w, uint32_t h) : width(w), height(h), pixels(size_t{w} * h) {}
  void Fill(Rect r, uint32_t colour) {
    for (uint32_t y = r.y; y < r.y + r.h && y < height; ++y)
      for (uint32_t x = r.x; x < r.x + r.w && x < width; ++x) pixels[size_t{y} * width + x] = colour;
  }
};

constexpr uint32_t kBand = 32;            // fifo: rows of each band; also the gradient's height
constexpr Rect kSmallRect{100, 80, 40, 30};
constexpr uint32_t kSmallColour = Rgb(0, 0, 0);
constexpr uint32_t kFifoFrames = 60;

// Frame A: four quadrants of distinct colours, a horizontal gradient band
// across the lower quadrants (its rows differ too), a one-pixel yellow border.
Frame FrameA(uint32_t w, uint32_t h) {
  Frame f(w, h);
  static constexpr uint32_t kQuadrant[4] = {Rgb(200, 40, 40), Rgb(40, 200, 40), Rgb(40, 40, 200), Rgb(230, 230, 230)};
  const uint32_t grad_y = h * 3 / 4 - kBand / 2;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      uint32_t c;
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        c = Rgb(255, 255, 0);
      } else if (y >= grad_y && y < grad_y + kBand) {
        const uint32_t g = w > 1 ? x * 255 / (w - 1) : 0;
        c = Rgb(g, (y - grad_y) * 8, 255 - g);
      } else {
        c = kQuadrant[(y >= h / 2) * 2 + (x >= w / 2)];
      }
      f.pixels[size_t{y} * w + x] = c;
    }
  return f;
}

Frame FrameSmall(uint32_t w, uint32_t h) {
  Frame f = FrameA(w, h);
  f.Fill(kSmallRect, kSmallColour);
  return f;
}

// C(k): distinct for every k (the red channel alone is), none a colour of frame A.
uint32_t FifoColour(uint32_t k) { return Rgb(8 + 4 * k, 255 - 3 * k, (k * 53 + 17) % 256); }

Frame FrameFifo(uint32_t w, uint32_t h, uint32_t k) {
  Frame f = FrameSmall(w, h);
  f.Fill({0, 0, w, kBand}, FifoColour(k));
  f.Fill({0, h > kBand ? h - kBand : 0, w, kBand}, FifoColour(k));
  return f;
}

bool WritePpm(const std::string& path, const Frame& f) {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return false;
  std::fprintf(file, "P6\n%u %u\n255\n", f.width, f.height);
  std::vector<unsigned char> rgb(f.pixels.size() * 3);
  for (size_t i = 0; i < f.pixels.size(); ++i) {
    rgb[i * 3 + 0] = static_cast<unsigned char>(f.pixels[i] >> 16);
    rgb[i * 3 + 1] = static_cast<unsigned char>(f.pixels[i] >> 8);
    rgb[i * 3 + 2] = static_cast<unsigned char>(f.pixels[i]);
  }
  const bool ok = std::fwrite(rgb.data(), 1, rgb.size(), file) == rgb.size();
  return std::fclose(file) == 0 && ok;
}

// full.ppm small.ppm same.ppm fifo.ppm (the last fifo frame) and
// second.ppm (display 1) at WxH, mode.ppm at MWxMH, fifo_colours.txt ("k r g b" lines), small_rect.txt.
int WriteExpected(int argc, char** argv) {
  if (argc != 5 && argc != 7) {
    std::fprintf(stderr, "usage: %s --write-expected DIR W H [MODE_W MODE_H]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[2];
  const uint32_t w = std::atoi(argv[3]), h = std::atoi(argv[4]);
  const uint32_t mw = argc == 7 ? std::atoi(argv[5]) : 800, mh = argc == 7 ? std::atoi(argv[6]) : 600;
  if (w < 2 * kBand + 2 || h < 2 * kBand + 2 || mw < 2 || mh < 2) {
    std::fprintf(stderr, "sizes too small\n");
    return 2;
  }
  bool ok = WritePpm(dir + "/full.ppm", FrameA(w, h)) && WritePpm(dir + "/small.ppm", FrameSmall(w, h)) &&
            WritePpm(dir + "/same.ppm", FrameSmall(w, h)) &&
            WritePpm(dir + "/fifo.ppm", FrameFifo(w, h, kFifoFrames - 1)) && WritePpm(dir + "/mode.ppm", FrameA(mw, mh)) &&
            WritePpm(dir + "/second.ppm", FrameSmall(w, h));
  if (FILE* f = std::fopen((dir + "/fifo_colours.txt").c_str(), "w")) {
    std::fprintf(f, "# k r g b of the fifo bands (%u rows at the top and at the bottom)\nband %u\n", kBand, kBand);
    for (uint32_t k = 0; k < kFifoFrames; ++k) {
      const uint32_t c = FifoColour(k);
      std::fprintf(f, "%u %u %u %u\n", k, c >> 16 & 255, c >> 8 & 255, c & 255);
    }
    ok &= std::fclose(f) == 0;
  } else {
    ok = false;
  }
  if (FILE* f = std::fopen((dir + "/small_rect.txt").c_str(), "w")) {
    std::fprintf(f, "%u %u %u %u\n", kSmallRect.x, kSmallRect.y, kSmallRect.w, kSmallRect.h);
    ok &= std::fclose(f) == 0;
  } else {
    ok = false;
  }
  if (!ok) std::fprintf(stderr, "cannot write the expected images into %s\n", dir.c_str());
  return ok ? 0 : 1;
}

// ---- Vulkan ----

struct VkError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// VK_ERROR_SURFACE_LOST_KHR from an acquire or a present: the display went away.
struct SurfaceLost : VkError {
  using VkError::VkError;
};

const char* ResultName(VkResult r) {
  switch (r) {
#define CASE(x) \
  case x: return #x;
    CASE(VK_SUCCESS) CASE(VK_NOT_READY) CASE(VK_TIMEOUT) CASE(VK_INCOMPLETE) CASE(VK_SUBOPTIMAL_KHR)
    CASE(VK_ERROR_OUT_OF_HOST_MEMORY) CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY) CASE(VK_ERROR_INITIALIZATION_FAILED)
    CASE(VK_ERROR_DEVICE_LOST) CASE(VK_ERROR_EXTENSION_NOT_PRESENT) CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    CASE(VK_ERROR_INCOMPATIBLE_DRIVER) CASE(VK_ERROR_SURFACE_LOST_KHR) CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    CASE(VK_ERROR_OUT_OF_DATE_KHR) CASE(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR) CASE(VK_ERROR_UNKNOWN)
#undef CASE
    default: return "VkResult(?)";
  }
}

void Check(VkResult r, const char* what) {
  if (r == VK_SUCCESS) return;
  const std::string message = std::string(what) + " -> " + ResultName(r) + " (" + std::to_string(r) + ")";
  if (r == VK_ERROR_SURFACE_LOST_KHR) throw SurfaceLost(message);
  throw VkError(message);
}
#define VK(call) Check((call), #call)

bool g_nowait = false;
int g_failures = 0;

void Fail(const std::string& reason) {
  std::printf("FAIL %s\n", reason.c_str());
  std::fflush(stdout);
  ++g_failures;
}

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Waits for the host's line on stdin.
void WaitHostLine(const char* phase) {
  if (g_nowait) return;
  pollfd p{0, POLLIN, 0};
  if (poll(&p, 1, 120000) <= 0) throw VkError(std::string("no host answer after phase ") + phase + " (120 s)");
  char line[128];
  if (std::fgets(line, sizeof line, stdin) == nullptr) throw VkError("stdin closed while waiting for the host");
}

// Prints the phase's READY line, then waits for the host.
void WaitHost(const char* phase, uint32_t w, uint32_t h) {
  std::printf("PHASE %s READY %ux%u\n", phase, w, h);
  std::fflush(stdout);
  WaitHostLine(phase);
}

struct Display {
  VkDisplayKHR handle;
  std::string name;
  VkExtent2D resolution;
  std::vector<VkDisplayModePropertiesKHR> modes;
};

class Scene {
 public:
  ~Scene() { Teardown(); }

  void Run() {
    CreateInstance();
    ListDisplays();
    if (displays_.empty()) throw VkError("no displays");
    const Display& d0 = displays_[0];
    if (d0.modes.empty()) throw VkError("display 0 has no modes");
    CreateDevice();

    // full: the preferred mode (the driver lists it first).
    Chain& c0 = chains_[0];
    MakeSwapchain(c0, d0, d0.modes[0]);
    const uint32_t w = c0.extent.width, h = c0.extent.height;
    double t = Now();
    PresentAndWait(c0, FrameA(w, h));
    Timing("full", t);
    WaitHost("full", w, h);

    t = Now();
    PresentAndWait(c0, FrameSmall(w, h));
    Timing("small", t);
    WaitHost("small", w, h);

    t = Now();
    PresentAndWait(c0, FrameSmall(w, h));
    Timing("same", t);
    WaitHost("same", w, h);

    // fifo: 60 presents back to back; FIFO paces them, the host screendumps meanwhile.
    std::vector<Frame> fifo;
    for (uint32_t k = 0; k < kFifoFrames; ++k) fifo.push_back(FrameFifo(w, h, k));
    std::printf("STREAM fifo BEGIN\n");
    std::fflush(stdout);
    t = Now();
    uint64_t last_id = 0;
    for (const Frame& f : fifo) last_id = Present(c0, f);
    const double t_queued = Now();
    WaitOnScreen(c0, last_id);
    std::printf("TIME fifo %u presents queued in %.3f s, last on screen after %.3f s\n", kFifoFrames, t_queued - t,
                Now() - t);
    std::printf("STREAM fifo END\n");
    std::fflush(stdout);
    WaitHost("fifo", w, h);

    // mode: another size of display 0 through a new surface and swapchain.
    const VkDisplayModePropertiesKHR* other = nullptr;
    for (const auto& m : d0.modes)
      if (m.parameters.visibleRegion.width == 800 && m.parameters.visibleRegion.height == 600) {
        other = &m;
        break;
      }
    for (const auto& m : d0.modes)
      if (other == nullptr && (m.parameters.visibleRegion.width != w || m.parameters.visibleRegion.height != h))
        other = &m;
    if (other == nullptr)
      throw VkError("display 0 lists no mode of another size than " + std::to_string(w) + "x" + std::to_string(h));
    DestroySwapchain(c0);
    MakeSwapchain(c0, d0, *other);
    t = Now();
    PresentAndWait(c0, FrameA(c0.extent.width, c0.extent.height));
    Timing("mode", t);
    WaitHost("mode", c0.extent.width, c0.extent.height);

    // second: display 1 (when there is one) shows the small frame at its
    // preferred mode while display 0 keeps the mode phase's frame.
    if (displays_.size() < 2) {
      std::printf("NOTE one display: no second phase\n");
      return;
    }
    const Display& d1 = displays_[1];
    if (d1.modes.empty()) throw VkError("display 1 has no modes");
    Chain& c1 = chains_[1];
    MakeSwapchain(c1, d1, d1.modes[0]);
    t = Now();
    PresentAndWait(c1, FrameSmall(c1.extent.width, c1.extent.height));
    Timing("second", t);
    WaitHost("second", c1.extent.width, c1.extent.height);

    // unplug: the host disables scanout 1, as pulling its monitor's cable
    // would; presents to display 1 then end in VK_ERROR_SURFACE_LOST_KHR
    // (once the kernel has heard of it) while display 0 is left alone.
    std::printf("UNPLUG 1 REQUEST\n");
    std::fflush(stdout);
    WaitHostLine("unplug");
    t = Now();
    int presents = 0;
    bool lost = false;
    while (!lost && Now() - t < 10.0) {
      try {
        PresentAndWait(c1, FrameSmall(c1.extent.width, c1.extent.height));
        ++presents;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      } catch (const SurfaceLost& e) {
        std::printf("UNPLUG 1 SURFACE_LOST after %d presents, %.3f s (%s)\n", presents, Now() - t, e.what());
        lost = true;
      }
    }
    if (!lost) Fail("display 1 was disabled but its presents never returned VK_ERROR_SURFACE_LOST_KHR (10 s)");
    DestroySwapchain(c1);
  }

 private:
  struct PerImage {
    VkImage image = VK_NULL_HANDLE;
    VkBuffer staging = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence done = VK_NULL_HANDLE;          // the copy into this image finished
    VkSemaphore rendered = VK_NULL_HANDLE;  // the present waits on it
  };
  // One display's surface and swapchain.
  struct Chain {
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VkSwapchainKHR swapchain = VK_NULL_HANDLE;
    VkExtent2D extent{};
    std::vector<PerImage> images;
    uint64_t present_id = 0;
  };

  void Timing(const char* phase, double t0) {
    std::printf("TIME %s %.3f s (present to on screen, %s)\n", phase, Now() - t0,
                present_wait_ ? "vkWaitForPresentKHR" : "300 ms sleep");
  }

  void CreateInstance() {
    const char* extensions[] = {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_DISPLAY_EXTENSION_NAME};
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "duet_vm_virtio_gpu_scene";
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    ci.enabledExtensionCount = 2;
    ci.ppEnabledExtensionNames = extensions;
    VK(vkCreateInstance(&ci, nullptr, &instance_));
    uint32_t count = 1;
    VkResult r = vkEnumeratePhysicalDevices(instance_, &count, &physical_);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) Check(r, "vkEnumeratePhysicalDevices");
    if (count == 0) throw VkError("no physical device");
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(physical_, &props);
    std::printf("DEVICE %s\n", props.deviceName);
  }

  void ListDisplays() {
    uint32_t count = 0;
    VK(vkGetPhysicalDeviceDisplayPropertiesKHR(physical_, &count, nullptr));
    std::vector<VkDisplayPropertiesKHR> props(count);
    VK(vkGetPhysicalDeviceDisplayPropertiesKHR(physical_, &count, props.data()));
    props.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
      Display d;
      d.handle = props[i].display;
      d.name = props[i].displayName != nullptr ? props[i].displayName : "unnamed";
      for (char& c : d.name)
        if (c == ' ') c = '_';
      d.resolution = props[i].physicalResolution;
      uint32_t n = 0;
      VK(vkGetDisplayModePropertiesKHR(physical_, d.handle, &n, nullptr));
      d.modes.resize(n);
      VK(vkGetDisplayModePropertiesKHR(physical_, d.handle, &n, d.modes.data()));
      d.modes.resize(n);
      std::printf("DISPLAY %u %s %ux%u modes=%u\n", i, d.name.c_str(), d.resolution.width, d.resolution.height, n);
      std::string line = "MODES " + std::to_string(i);
      for (const auto& m : d.modes)
        line += " " + std::to_string(m.parameters.visibleRegion.width) + "x" +
                std::to_string(m.parameters.visibleRegion.height) + "@" + std::to_string(m.parameters.refreshRate);
      std::printf("%s\n", line.c_str());
      displays_.push_back(std::move(d));
    }
    std::printf("DISPLAYS %u\n", count);
    std::fflush(stdout);
  }

  void CreateDevice() {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, families.data());
    family_ = UINT32_MAX;
    for (uint32_t i = 0; i < n && family_ == UINT32_MAX; ++i)
      if (families[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT)) family_ = i;
    if (family_ == UINT32_MAX) throw VkError("no queue family");

    uint32_t count = 0;
    VK(vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, nullptr));
    std::vector<VkExtensionProperties> available(count);
    VK(vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, available.data()));
    auto has = [&](const char* name) {
      for (const auto& e : available)
        if (std::strcmp(e.extensionName, name) == 0) return true;
      return false;
    };
    std::vector<const char*> extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
    VkPhysicalDevicePresentWaitFeaturesKHR wait_features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR};
    VkPhysicalDevicePresentIdFeaturesKHR id_features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR};
    const char* no_wait = std::getenv("SCENE_NO_PRESENT_WAIT");
    if (has(VK_KHR_PRESENT_ID_EXTENSION_NAME) && has(VK_KHR_PRESENT_WAIT_EXTENSION_NAME) &&
        !(no_wait != nullptr && std::strcmp(no_wait, "1") == 0)) {
      VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
      features.pNext = &wait_features;
      wait_features.pNext = &id_features;
      vkGetPhysicalDeviceFeatures2(physical_, &features);
      present_wait_ = wait_features.presentWait && id_features.presentId;
    }
    VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    if (present_wait_) {
      extensions.push_back(VK_KHR_PRESENT_ID_EXTENSION_NAME);
      extensions.push_back(VK_KHR_PRESENT_WAIT_EXTENSION_NAME);
      wait_features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR, &id_features, VK_TRUE};
      id_features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR, nullptr, VK_TRUE};
      ci.pNext = &wait_features;
    }
    std::printf("PRESENT_WAIT %s\n", present_wait_ ? "yes" : "no (sleeping 300 ms after each present instead)");
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = family_;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &queue;
    ci.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    ci.ppEnabledExtensionNames = extensions.data();
    VK(vkCreateDevice(physical_, &ci, nullptr, &device_));
    vkGetDeviceQueue(device_, family_, 0, &queue_);
    if (present_wait_) {
      wait_for_present_ =
          reinterpret_cast<PFN_vkWaitForPresentKHR>(vkGetDeviceProcAddr(device_, "vkWaitForPresentKHR"));
      if (wait_for_present_ == nullptr) throw VkError("vkGetDeviceProcAddr(vkWaitForPresentKHR) is null");
    }
    VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = family_;
    VK(vkCreateCommandPool(device_, &pool, nullptr, &pool_));
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK(vkCreateFence(device_, &fence, nullptr, &acquired_));
  }

  void MakeSwapchain(Chain& chain, const Display& display, const VkDisplayModePropertiesKHR& mode) {
    // A plane that can show this display (Duet: one per display).
    uint32_t n = 0;
    VK(vkGetPhysicalDeviceDisplayPlanePropertiesKHR(physical_, &n, nullptr));
    std::vector<VkDisplayPlanePropertiesKHR> planes(n);
    VK(vkGetPhysicalDeviceDisplayPlanePropertiesKHR(physical_, &n, planes.data()));
    uint32_t plane = UINT32_MAX;
    for (uint32_t p = 0; p < n && plane == UINT32_MAX; ++p) {
      uint32_t m = 0;
      VK(vkGetDisplayPlaneSupportedDisplaysKHR(physical_, p, &m, nullptr));
      std::vector<VkDisplayKHR> supported(m);
      VK(vkGetDisplayPlaneSupportedDisplaysKHR(physical_, p, &m, supported.data()));
      for (uint32_t i = 0; i < m; ++i)
        if (supported[i] == display.handle) plane = p;
    }
    if (plane == UINT32_MAX) throw VkError("no plane supports display " + display.name);
    VkDisplayPlaneCapabilitiesKHR plane_caps{};
    VK(vkGetDisplayPlaneCapabilitiesKHR(physical_, mode.displayMode, plane, &plane_caps));
    VkDisplayPlaneAlphaFlagBitsKHR alpha = VK_DISPLAY_PLANE_ALPHA_OPAQUE_BIT_KHR;
    if (!(plane_caps.supportedAlpha & alpha))
      alpha = static_cast<VkDisplayPlaneAlphaFlagBitsKHR>(plane_caps.supportedAlpha & -plane_caps.supportedAlpha);

    VkDisplaySurfaceCreateInfoKHR sci{VK_STRUCTURE_TYPE_DISPLAY_SURFACE_CREATE_INFO_KHR};
    sci.displayMode = mode.displayMode;
    sci.planeIndex = plane;
    sci.planeStackIndex = planes[plane].currentStackIndex;
    sci.transform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
    sci.globalAlpha = 1.0f;
    sci.alphaMode = alpha;
    sci.imageExtent = mode.parameters.visibleRegion;
    VK(vkCreateDisplayPlaneSurfaceKHR(instance_, &sci, nullptr, &chain.surface));
    VkBool32 supported = VK_FALSE;
    VK(vkGetPhysicalDeviceSurfaceSupportKHR(physical_, family_, chain.surface, &supported));
    if (!supported) throw VkError("queue family cannot present to the display surface");

    VkSurfaceCapabilitiesKHR caps;
    VK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_, chain.surface, &caps));
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
      throw VkError("surface images cannot be TRANSFER_DST");
    uint32_t count = 0;
    VK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_, chain.surface, &count, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(count);
    VK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_, chain.surface, &count, formats.data()));
    bool bgra = false;
    for (const auto& f : formats)
      bgra |= f.format == VK_FORMAT_B8G8R8A8_UNORM && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    if (!bgra) throw VkError("surface has no B8G8R8A8_UNORM/SRGB_NONLINEAR format");
    VK(vkGetPhysicalDeviceSurfacePresentModesKHR(physical_, chain.surface, &count, nullptr));
    std::vector<VkPresentModeKHR> modes(count);
    VK(vkGetPhysicalDeviceSurfacePresentModesKHR(physical_, chain.surface, &count, modes.data()));
    bool fifo = false;
    for (VkPresentModeKHR m : modes) fifo |= m == VK_PRESENT_MODE_FIFO_KHR;
    if (!fifo) throw VkError("surface has no FIFO present mode");

    chain.extent = caps.currentExtent.width != UINT32_MAX ? caps.currentExtent : mode.parameters.visibleRegion;
    if (chain.extent.width != mode.parameters.visibleRegion.width ||
        chain.extent.height != mode.parameters.visibleRegion.height)
      Fail("surface currentExtent " + std::to_string(chain.extent.width) + "x" + std::to_string(chain.extent.height) +
           " is not the mode's size");
    uint32_t images = std::max(caps.minImageCount + 1, 3u);
    if (caps.maxImageCount != 0) images = std::min(images, caps.maxImageCount);
    VkSwapchainCreateInfoKHR ci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    ci.surface = chain.surface;
    ci.minImageCount = images;
    ci.imageFormat = VK_FORMAT_B8G8R8A8_UNORM;
    ci.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    ci.imageExtent = chain.extent;
    ci.imageArrayLayers = 1;
    ci.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    ci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ci.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
    ci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    if (!(caps.supportedCompositeAlpha & ci.compositeAlpha))
      ci.compositeAlpha = static_cast<VkCompositeAlphaFlagBitsKHR>(caps.supportedCompositeAlpha &
                                                                   -caps.supportedCompositeAlpha);
    ci.presentMode = VK_PRESENT_MODE_FIFO_KHR;
    ci.clipped = VK_TRUE;
    VK(vkCreateSwapchainKHR(device_, &ci, nullptr, &chain.swapchain));

    VK(vkGetSwapchainImagesKHR(device_, chain.swapchain, &count, nullptr));
    std::vector<VkImage> handles(count);
    VK(vkGetSwapchainImagesKHR(device_, chain.swapchain, &count, handles.data()));
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory);
    const VkDeviceSize bytes = VkDeviceSize{chain.extent.width} * chain.extent.height * 4;
    chain.images.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
      PerImage& im = chain.images[i];
      im.image = handles[i];
      VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
      bci.size = bytes;
      bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
      VK(vkCreateBuffer(device_, &bci, nullptr, &im.staging));
      VkMemoryRequirements req;
      vkGetBufferMemoryRequirements(device_, im.staging, &req);
      const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      uint32_t type = UINT32_MAX;
      for (uint32_t t = 0; t < memory.memoryTypeCount && type == UINT32_MAX; ++t)
        if ((req.memoryTypeBits & (1u << t)) && (memory.memoryTypes[t].propertyFlags & want) == want) type = t;
      if (type == UINT32_MAX) throw VkError("no host-visible coherent memory type");
      VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      ai.allocationSize = req.size;
      ai.memoryTypeIndex = type;
      VK(vkAllocateMemory(device_, &ai, nullptr, &im.memory));
      VK(vkBindBufferMemory(device_, im.staging, im.memory, 0));
      VK(vkMapMemory(device_, im.memory, 0, VK_WHOLE_SIZE, 0, &im.mapped));
      VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      cai.commandPool = pool_;
      cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      cai.commandBufferCount = 1;
      VK(vkAllocateCommandBuffers(device_, &cai, &im.cmd));
      VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      fci.flags = VK_FENCE_CREATE_SIGNALED_BIT;
      VK(vkCreateFence(device_, &fci, nullptr, &im.done));
      VkSemaphoreCreateInfo sci2{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
      VK(vkCreateSemaphore(device_, &sci2, nullptr, &im.rendered));
    }
    std::printf("SWAPCHAIN %s %ux%u@%u images=%u FIFO B8G8R8A8_UNORM\n", display.name.c_str(), chain.extent.width,
                chain.extent.height, mode.parameters.refreshRate, count);
    std::fflush(stdout);
  }

  // Copies the frame into the chain's next image and presents it; returns its present id.
  uint64_t Present(Chain& chain, const Frame& frame) {
    uint32_t index = 0;
    VkResult r =
        vkAcquireNextImageKHR(device_, chain.swapchain, 10'000'000'000ull, VK_NULL_HANDLE, acquired_, &index);
    if (r == VK_SUBOPTIMAL_KHR) std::printf("NOTE vkAcquireNextImageKHR: VK_SUBOPTIMAL_KHR\n");
    else Check(r, "vkAcquireNextImageKHR");
    VK(vkWaitForFences(device_, 1, &acquired_, VK_TRUE, 10'000'000'000ull));
    VK(vkResetFences(device_, 1, &acquired_));
    PerImage& im = chain.images[index];
    VK(vkWaitForFences(device_, 1, &im.done, VK_TRUE, 10'000'000'000ull));
    VK(vkResetFences(device_, 1, &im.done));
    std::memcpy(im.mapped, frame.pixels.data(), frame.pixels.size() * 4);

    VK(vkResetCommandBuffer(im.cmd, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK(vkBeginCommandBuffer(im.cmd, &begin));
    VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier.srcAccessMask = 0;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;  // every pixel is rewritten
    barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = im.image;
    barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(im.cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {frame.width, frame.height, 1};
    vkCmdCopyBufferToImage(im.cmd, im.staging, im.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = 0;
    barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barrier.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    vkCmdPipelineBarrier(im.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr,
                         0, nullptr, 1, &barrier);
    VK(vkEndCommandBuffer(im.cmd));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &im.cmd;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &im.rendered;
    VK(vkQueueSubmit(queue_, 1, &submit, im.done));

    const uint64_t id = ++chain.present_id;
    VkPresentIdKHR present_id{VK_STRUCTURE_TYPE_PRESENT_ID_KHR};
    present_id.swapchainCount = 1;
    present_id.pPresentIds = &id;
    VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    if (present_wait_) present.pNext = &present_id;
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &im.rendered;
    present.swapchainCount = 1;
    present.pSwapchains = &chain.swapchain;
    present.pImageIndices = &index;
    r = vkQueuePresentKHR(queue_, &present);
    if (r == VK_SUBOPTIMAL_KHR) std::printf("NOTE vkQueuePresentKHR: VK_SUBOPTIMAL_KHR\n");
    else Check(r, "vkQueuePresentKHR");
    return id;
  }

  // Returns once the chain's present with this id is on screen.
  void WaitOnScreen(Chain& chain, uint64_t id) {
    if (present_wait_) {
      const VkResult r = wait_for_present_(device_, chain.swapchain, id, 10'000'000'000ull);
      if (r == VK_SUBOPTIMAL_KHR) std::printf("NOTE vkWaitForPresentKHR: VK_SUBOPTIMAL_KHR\n");
      else Check(r, "vkWaitForPresentKHR (10 s)");
      return;
    }
    // TODO(lead): remove once present_wait lands
    VK(vkQueueWaitIdle(queue_));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }

  void PresentAndWait(Chain& chain, const Frame& frame) { WaitOnScreen(chain, Present(chain, frame)); }

  void DestroySwapchain(Chain& chain) {
    if (device_ != VK_NULL_HANDLE) vkDeviceWaitIdle(device_);
    for (PerImage& im : chain.images) {
      if (im.mapped != nullptr) vkUnmapMemory(device_, im.memory);
      vkDestroyBuffer(device_, im.staging, nullptr);
      vkFreeMemory(device_, im.memory, nullptr);
      vkFreeCommandBuffers(device_, pool_, 1, &im.cmd);
      vkDestroyFence(device_, im.done, nullptr);
      vkDestroySemaphore(device_, im.rendered, nullptr);
    }
    chain.images.clear();
    if (chain.swapchain != VK_NULL_HANDLE) vkDestroySwapchainKHR(device_, chain.swapchain, nullptr);
    chain.swapchain = VK_NULL_HANDLE;
    if (chain.surface != VK_NULL_HANDLE) vkDestroySurfaceKHR(instance_, chain.surface, nullptr);
    chain.surface = VK_NULL_HANDLE;
  }

  void Teardown() {
    if (device_ != VK_NULL_HANDLE) {
      for (Chain& chain : chains_) DestroySwapchain(chain);
      vkDestroyFence(device_, acquired_, nullptr);
      vkDestroyCommandPool(device_, pool_, nullptr);
      vkDestroyDevice(device_, nullptr);
      device_ = VK_NULL_HANDLE;
    }
    if (instance_ != VK_NULL_HANDLE) {
      for (Chain& chain : chains_)
        if (chain.surface != VK_NULL_HANDLE) vkDestroySurfaceKHR(instance_, chain.surface, nullptr);
      vkDestroyInstance(instance_, nullptr);
      instance_ = VK_NULL_HANDLE;
    }
  }

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  std::vector<Display> displays_;
  uint32_t family_ = 0;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkFence acquired_ = VK_NULL_HANDLE;
  bool present_wait_ = false;
  PFN_vkWaitForPresentKHR wait_for_present_ = nullptr;
  Chain chains_[2];  // display 0, display 1
};

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--write-expected") == 0) return WriteExpected(argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--nowait") == 0) {
      g_nowait = true;
    } else {
      std::fprintf(stderr, "usage: %s [--nowait] | --write-expected DIR W H [MODE_W MODE_H]\n", argv[0]);
      return 2;
    }
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const double t0 = Now();
  try {
    Scene scene;
    scene.Run();
  } catch (const std::exception& e) {
    Fail(e.what());
  }
  std::printf("SCENE DONE failures=%d %.3f s\n", g_failures, Now() - t0);
  return g_failures == 0 ? 0 : 1;
}

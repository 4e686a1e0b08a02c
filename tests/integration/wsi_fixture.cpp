#include "wsi_fixture.h"

#include <dirent.h>
#include <png.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace duet_test {

std::ostream& operator<<(std::ostream& os, const Rgba& c) {
  return os << "rgba(" << int(c.r) << ", " << int(c.g) << ", " << int(c.b) << ", " << int(c.a) << ")";
}

Rgba DecodedPng::At(uint32_t x, uint32_t y) const {
  const uint8_t* p = &rgba[(size_t(y) * width + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}

bool ReadPng(const std::string& path, DecodedPng* out) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) {
    ADD_FAILURE() << "cannot read PNG " << path << ": " << image.message;
    return false;
  }
  image.format = PNG_FORMAT_RGBA;
  out->width = image.width;
  out->height = image.height;
  out->rgba.assign(PNG_IMAGE_SIZE(image), 0);
  if (!png_image_finish_read(&image, nullptr, out->rgba.data(), 0, nullptr)) {
    ADD_FAILURE() << "cannot decode PNG " << path << ": " << image.message;
    return false;
  }
  return true;
}

TempDir::TempDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp") + "/duet-wsi-XXXXXX";
  if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
}

TempDir::~TempDir() {
  for (const std::string& f : Files()) unlink(f.c_str());
  if (!path_.empty()) rmdir(path_.c_str());
}

std::vector<std::string> TempDir::Files() const {
  std::vector<std::string> files;
  if (DIR* dir = opendir(path_.c_str())) {
    while (dirent* e = readdir(dir))
      if (e->d_name[0] != '.') files.push_back(path_ + "/" + e->d_name);
    closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}

ScopedEnv::ScopedEnv(const char* name, const std::string& value) : name_(name) {
  const char* old = std::getenv(name);
  had_old_ = old != nullptr;
  if (had_old_) old_ = old;
  setenv(name, value.c_str(), 1);
}

ScopedEnv::~ScopedEnv() {
  if (had_old_)
    setenv(name_.c_str(), old_.c_str(), 1);
  else
    unsetenv(name_.c_str());
}

bool InWsiChild() {
  const char* child = std::getenv("DUET_WSI_CHILD");
  return child != nullptr && std::strcmp(child, "1") == 0;
}

ChildResult RunThisTestInChild(const std::vector<std::string>& env) {
  ChildResult result;
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string filter = std::string(info->test_suite_name()) + "." + info->name();
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return result;
  self[n] = '\0';
  TempDir dir;
  const std::string log = dir.path() + "/child.log";
  std::string command;
  for (const std::string& e : env) command += e + " ";
  command += std::string("DUET_WSI_CHILD=1 '") + self + "' --gtest_filter='" + filter + "' > '" + log + "' 2>&1";
  const int status = std::system(command.c_str());
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(log);
  std::stringstream ss;
  ss << in.rdbuf();
  result.output = ss.str();
  return result;
}

std::map<std::string, uint64_t> ParsePresentStats(const std::string& output) {
  std::map<std::string, uint64_t> stats;
  const size_t line = output.find("duet stats: present");
  if (line == std::string::npos) return stats;
  std::istringstream words(output.substr(line, output.find('\n', line) - line));
  std::string word;
  while (words >> word) {
    const size_t eq = word.find('=');
    if (eq != std::string::npos) stats[word.substr(0, eq)] = std::stoull(word.substr(eq + 1));
  }
  return stats;
}

// ---------------------------------------------------------------------------
// WsiTest

WsiTest::WsiTest() {
  instance_extensions_ = {VK_KHR_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME,
                          VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME};
  device_options_.extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME, VK_KHR_INCREMENTAL_PRESENT_EXTENSION_NAME};
}

void WsiTest::SetUp() {
  QueueTest::SetUp();
  if (HasFatalFailure()) return;
  create_headless_surface_ = InstanceProc<PFN_vkCreateHeadlessSurfaceEXT>("vkCreateHeadlessSurfaceEXT");
  ASSERT_NE(create_headless_surface_, nullptr);
  // Swapchains go before the device (and the surfaces, which are instance cleanups).
  Defer([this] {
    vkDeviceWaitIdle(device_);
    for (VkSwapchainKHR s : live_swapchains_) vkDestroySwapchainKHR(device_, s, nullptr);
    live_swapchains_.clear();
  });
}

VkSurfaceKHR WsiTest::MakeHeadlessSurface() {
  VkHeadlessSurfaceCreateInfoEXT ci{VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VkResult r = create_headless_surface_(instance_, &ci, nullptr, &surface);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateHeadlessSurfaceEXT -> " << R{r};
  if (r != VK_SUCCESS) return VK_NULL_HANDLE;
  DeferInstance([this, surface] { vkDestroySurfaceKHR(instance_, surface, nullptr); });
  return surface;
}

VkResult WsiTest::TryMakeSwapchain(VkSurfaceKHR surface, const SwapchainOptions& o, VkSwapchainKHR* out) {
  VkSwapchainCreateInfoKHR ci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  ci.pNext = o.next;
  ci.flags = o.flags;
  ci.surface = surface;
  ci.minImageCount = o.min_images;
  ci.imageFormat = o.format;
  ci.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  ci.imageExtent = o.extent;
  ci.imageArrayLayers = 1;
  ci.imageUsage =
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  ci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  ci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  ci.presentMode = o.mode;
  ci.clipped = VK_TRUE;
  ci.oldSwapchain = o.old_swapchain;
  VkResult r = vkCreateSwapchainKHR(device_, &ci, nullptr, out);
  if (r != VK_SUCCESS) return r;
  live_swapchains_.push_back(*out);
  // Before any acquire, as applications do: the validation layer tracks
  // acquired images only once it has seen them.
  SwapchainImages(*out);
  return r;
}

VkSwapchainKHR WsiTest::MakeSwapchain(VkSurfaceKHR surface, const SwapchainOptions& options) {
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  VkResult r = TryMakeSwapchain(surface, options, &swapchain);
  EXPECT_EQ(r, VK_SUCCESS) << "vkCreateSwapchainKHR -> " << R{r};
  return swapchain;
}

void WsiTest::DestroySwapchain(VkSwapchainKHR swapchain) {
  live_swapchains_.erase(std::remove(live_swapchains_.begin(), live_swapchains_.end(), swapchain),
                         live_swapchains_.end());
  swapchain_images_.erase(swapchain);
  vkDestroySwapchainKHR(device_, swapchain, nullptr);
}

std::vector<VkImage> WsiTest::SwapchainImages(VkSwapchainKHR swapchain) {
  // Asked once per swapchain, as applications do (the validation layer
  // forgets which images are acquired when they are asked for again).
  if (auto it = swapchain_images_.find(swapchain); it != swapchain_images_.end()) return it->second;
  uint32_t count = 0;
  EXPECT_EQ(vkGetSwapchainImagesKHR(device_, swapchain, &count, nullptr), VK_SUCCESS);
  std::vector<VkImage> images(count);
  EXPECT_EQ(vkGetSwapchainImagesKHR(device_, swapchain, &count, images.data()), VK_SUCCESS);
  images.resize(count);
  swapchain_images_[swapchain] = images;
  return images;
}

VkResult WsiTest::AcquireWithFence(VkSwapchainKHR swapchain, uint32_t* index, uint64_t timeout) {
  VkFence fence = MakeFence();
  VkResult r = vkAcquireNextImageKHR(device_, swapchain, timeout, VK_NULL_HANDLE, fence, index);
  if (r == VK_SUCCESS || r == VK_SUBOPTIMAL_KHR) EXPECT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs), VK_SUCCESS);
  return r;
}

void WsiTest::Render(VkImage image, VkFormat format, Rgba color, const std::vector<Dot>& dots,
                     VkSemaphore signal) {
  const bool bgra = format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
  HostBuffer dot_buffer;
  if (!dots.empty()) {
    dot_buffer = MakeHostBuffer(dots.size() * 4);
    for (size_t i = 0; i < dots.size(); ++i) {
      const Rgba& c = dots[i].color;
      const uint8_t bytes[4] = {bgra ? c.b : c.r, c.g, bgra ? c.r : c.b, c.a};
      std::memcpy(dot_buffer.data + i * 4, bytes, 4);
    }
  }
  VkCommandBuffer cb = BeginCommands();
  const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageMemoryBarrier to_dst{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  to_dst.srcAccessMask = 0;
  to_dst.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  to_dst.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  to_dst.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  to_dst.srcQueueFamilyIndex = to_dst.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  to_dst.image = image;
  to_dst.subresourceRange = range;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &to_dst);
  VkClearColorValue clear{};
  clear.float32[0] = color.r / 255.0f;
  clear.float32[1] = color.g / 255.0f;
  clear.float32[2] = color.b / 255.0f;
  clear.float32[3] = color.a / 255.0f;
  vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &clear, 1, &range);
  if (!dots.empty()) {
    TransferBarrier(cb);
    std::vector<VkBufferImageCopy> copies;
    for (size_t i = 0; i < dots.size(); ++i) {
      VkBufferImageCopy copy{};
      copy.bufferOffset = i * 4;
      copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      copy.imageOffset = {int32_t(dots[i].x), int32_t(dots[i].y), 0};
      copy.imageExtent = {1, 1, 1};
      copies.push_back(copy);
    }
    vkCmdCopyBufferToImage(cb, dot_buffer.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           uint32_t(copies.size()), copies.data());
  }
  VkImageMemoryBarrier to_present = to_dst;
  to_present.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  to_present.dstAccessMask = 0;
  to_present.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  to_present.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &to_present);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  submit.signalSemaphoreCount = signal != VK_NULL_HANDLE ? 1 : 0;
  submit.pSignalSemaphores = &signal;
  ASSERT_EQ(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
}

VkResult WsiTest::RenderAndPresent(VkSwapchainKHR swapchain, uint32_t index, const SwapchainOptions& options,
                                   Rgba color, const std::vector<Dot>& dots, const void* next) {
  const std::vector<VkImage> images = SwapchainImages(swapchain);
  EXPECT_LT(index, images.size());
  if (index >= images.size()) return VK_ERROR_UNKNOWN;
  VkSemaphore rendered = MakeBinarySemaphore();
  Render(images[index], options.format, color, dots, rendered);
  VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  present.pNext = next;
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &rendered;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain;
  present.pImageIndices = &index;
  return vkQueuePresentKHR(queue_, &present);
}

void WsiTest::PresentFrame(VkSwapchainKHR swapchain, const SwapchainOptions& options, Rgba color,
                           const std::vector<Dot>& dots) {
  uint32_t index = UINT32_MAX;
  const VkResult acquired = AcquireWithFence(swapchain, &index);
  ASSERT_EQ(acquired, VK_SUCCESS) << R{acquired};
  const VkResult presented = RenderAndPresent(swapchain, index, options, color, dots);
  ASSERT_EQ(presented, VK_SUCCESS) << R{presented};
}

}  // namespace duet_test

// present: frames on a swapchain, on whatever the environment offers.
//
//   present [--frames 300] [--platform auto|xcb|wayland|headless|display]
//           [--present-mode fifo|mailbox|immediate] [--width 640] [--height 480] [--out last-frame.png]
//
// It opens a window (see window.h for how the platform is chosen), makes
// a swapchain for it and draws a turning colour wheel into each image it
// acquires, two frames in flight, then prints the frame rate. With --out
// it also copies the last frame into memory and writes it to a PNG file.
// The swapchain is made again when the surface changes size (out of date).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "png_file.h"
#include "sample_context.h"
#include "shaders/spin.frag.h"
#include "shaders/spin.vert.h"
#include "window.h"

namespace {

constexpr uint32_t kFramesInFlight = 2;

struct Swapchain {
  VkSwapchainKHR handle = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
  std::vector<VkImage> images;
  std::vector<VkImageView> views;
  std::vector<VkSemaphore> rendered;  // per image: signalled by its frame's commands, waited on by the present
  bool copyable = false;              // images can be copied from (TRANSFER_SRC)
};

VkPresentModeKHR PresentMode(const std::string& name) {
  if (name == "immediate") return VK_PRESENT_MODE_IMMEDIATE_KHR;
  if (name == "mailbox") return VK_PRESENT_MODE_MAILBOX_KHR;
  return VK_PRESENT_MODE_FIFO_KHR;  // the one every surface supports
}

void DestroySwapchain(const sample::Context& c, Swapchain& s, bool keep_handle) {
  for (VkImageView view : s.views) vkDestroyImageView(c.device, view, nullptr);
  for (VkSemaphore semaphore : s.rendered) vkDestroySemaphore(c.device, semaphore, nullptr);
  if (!keep_handle) vkDestroySwapchainKHR(c.device, s.handle, nullptr);
  s.views.clear();
  s.rendered.clear();
  s.images.clear();
}

// A swapchain for the surface as it is now (replacing `old`, if any).
Swapchain CreateSwapchain(const sample::Context& c, VkExtent2D wanted, VkPresentModeKHR mode, VkSwapchainKHR old) {
  VkSurfaceCapabilitiesKHR caps;
  sample::Check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(c.physical, c.surface, &caps),
                "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
  uint32_t count = 0;
  vkGetPhysicalDeviceSurfaceFormatsKHR(c.physical, c.surface, &count, nullptr);
  std::vector<VkSurfaceFormatKHR> formats(count);
  vkGetPhysicalDeviceSurfaceFormatsKHR(c.physical, c.surface, &count, formats.data());
  if (formats.empty()) sample::Die("finding a surface format", VK_ERROR_FORMAT_NOT_SUPPORTED);
  VkSurfaceFormatKHR format = formats[0];
  for (const VkSurfaceFormatKHR& f : formats)
    if (f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) format = f;

  Swapchain s;
  s.format = format.format;
  s.extent = caps.currentExtent.width != UINT32_MAX ? caps.currentExtent : wanted;  // UINT32_MAX: ours to choose
  s.extent.width = std::clamp(s.extent.width, caps.minImageExtent.width, caps.maxImageExtent.width);
  s.extent.height = std::clamp(s.extent.height, caps.minImageExtent.height, caps.maxImageExtent.height);
  s.copyable = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = c.surface;
  info.minImageCount = caps.maxImageCount == 0 ? caps.minImageCount + 1 : std::min(caps.minImageCount + 1, caps.maxImageCount);
  info.imageFormat = format.format;
  info.imageColorSpace = format.colorSpace;
  info.imageExtent = s.extent;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (s.copyable ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  for (VkCompositeAlphaFlagBitsKHR alpha : {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
                                            VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR,
                                            VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR}) {
    if (caps.supportedCompositeAlpha & alpha) {
      info.compositeAlpha = alpha;
      break;
    }
  }
  info.presentMode = mode;
  info.clipped = VK_TRUE;
  info.oldSwapchain = old;
  sample::Check(vkCreateSwapchainKHR(c.device, &info, nullptr, &s.handle), "vkCreateSwapchainKHR");
  vkGetSwapchainImagesKHR(c.device, s.handle, &count, nullptr);
  s.images.resize(count);
  vkGetSwapchainImagesKHR(c.device, s.handle, &count, s.images.data());
  for (VkImage image : s.images) {
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = s.format;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    s.views.push_back(VK_NULL_HANDLE);
    sample::Check(vkCreateImageView(c.device, &view, nullptr, &s.views.back()), "vkCreateImageView");
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    s.rendered.push_back(VK_NULL_HANDLE);
    sample::Check(vkCreateSemaphore(c.device, &semaphore, nullptr, &s.rendered.back()), "vkCreateSemaphore");
  }
  return s;
}

struct Frame {
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence done = VK_NULL_HANDLE;
  VkSemaphore acquired = VK_NULL_HANDLE;
};

// The commands of frame `index` into swapchain image `image`; with
// `readback`, the image is also copied into it.
void Record(const Frame& frame, const Swapchain& s, uint32_t image, VkPipeline pipeline, VkPipelineLayout layout,
            uint32_t index, VkBuffer readback) {
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  sample::Check(vkBeginCommandBuffer(frame.commands, &begin), "vkBeginCommandBuffer");
  // The acquire semaphore is waited on at colour output: the layout change waits there too.
  sample::Barrier(frame.commands, s.images[image],
                  {VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                   VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                   VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT});
  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = s.views[image];
  attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.clearValue.color = {{0.08f, 0.08f, 0.1f, 1.0f}};
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea = {{0, 0}, s.extent};
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachments = &attachment;
  vkCmdBeginRendering(frame.commands, &rendering);
  vkCmdBindPipeline(frame.commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  sample::SetViewport(frame.commands, s.extent);
  const float push[2] = {0.05f * float(index), float(s.extent.width) / float(s.extent.height)};
  vkCmdPushConstants(frame.commands, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof push, push);
  vkCmdDraw(frame.commands, 18, 1, 0, 0);
  vkCmdEndRendering(frame.commands);
  VkImageLayout layout_now = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  if (readback != VK_NULL_HANDLE) {
    sample::Barrier(frame.commands, s.images[image],
                    {layout_now, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                     VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT});
    sample::CopyImageToBuffer(frame.commands, s.images[image], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, s.extent, readback);
    layout_now = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  }
  // Presentation needs no access mask: the present waits on the semaphore.
  sample::Barrier(frame.commands, s.images[image],
                  {layout_now, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                   VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                   VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_NONE, 0});
  sample::Check(vkEndCommandBuffer(frame.commands), "vkEndCommandBuffer");
}

}  // namespace

int main(int argc, char** argv) {
  const int frames = std::atoi(sample::Option(argc, argv, "--frames", "300").c_str());
  const std::string platform = sample::Option(argc, argv, "--platform", "auto");
  const std::string mode_name = sample::Option(argc, argv, "--present-mode", "fifo");
  const std::string out = sample::Option(argc, argv, "--out", "");
  const VkExtent2D wanted{uint32_t(std::atoi(sample::Option(argc, argv, "--width", "640").c_str())),
                          uint32_t(std::atoi(sample::Option(argc, argv, "--height", "480").c_str()))};
  if (frames <= 0 || wanted.width == 0 || wanted.height == 0 || wanted.width > 8192 || wanted.height > 8192) {
    std::fprintf(stderr, "--frames: at least 1; --width and --height: 1 to 8192\n");
    return 2;
  }
  std::unique_ptr<sample::Window> window = sample::OpenWindow(platform, wanted.width, wanted.height);
  if (!window) return 1;

  sample::ContextOptions options;
  options.instance_extensions = window->InstanceExtensions();
  options.device_extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
  options.create_surface = [](VkInstance instance, void* user) {
    return static_cast<sample::Window*>(user)->CreateSurface(instance);
  };
  options.surface_user = window.get();
  sample::Context c = sample::CreateContext("present", options);

  VkPresentModeKHR mode = PresentMode(mode_name);
  uint32_t mode_count = 0;
  vkGetPhysicalDeviceSurfacePresentModesKHR(c.physical, c.surface, &mode_count, nullptr);
  std::vector<VkPresentModeKHR> modes(mode_count);
  vkGetPhysicalDeviceSurfacePresentModesKHR(c.physical, c.surface, &mode_count, modes.data());
  if (std::find(modes.begin(), modes.end(), mode) == modes.end()) {
    std::printf("present mode %s is not supported here: fifo\n", mode_name.c_str());
    mode = VK_PRESENT_MODE_FIFO_KHR;
  }
  Swapchain swapchain = CreateSwapchain(c, wanted, mode, VK_NULL_HANDLE);

  sample::PipelineDesc desc;
  desc.vertex = sample::CreateShader(c, kSpinVert);
  desc.fragment = sample::CreateShader(c, kSpinFrag);
  desc.layout = sample::CreatePipelineLayout(c, {}, 2 * sizeof(float), VK_SHADER_STAGE_VERTEX_BIT);
  desc.color_format = swapchain.format;
  const VkPipeline pipeline = sample::CreateGraphicsPipeline(c, desc);

  Frame in_flight[kFramesInFlight];
  for (Frame& f : in_flight) {
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = c.pool;
    allocate.commandBufferCount = 1;
    sample::Check(vkAllocateCommandBuffers(c.device, &allocate, &f.commands), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    sample::Check(vkCreateFence(c.device, &fence, nullptr, &f.done), "vkCreateFence");
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    sample::Check(vkCreateSemaphore(c.device, &semaphore, nullptr, &f.acquired), "vkCreateSemaphore");
  }
  sample::Buffer readback;
  VkExtent2D readback_extent{};
  if (!out.empty() && !swapchain.copyable) std::printf("the swapchain images cannot be copied: no --out picture\n");

  const auto start = std::chrono::steady_clock::now();
  int presented = 0;
  bool open = true;
  for (int index = 0; index < frames && open; ++index) {
    open = window->Poll();
    Frame& frame = in_flight[index % kFramesInFlight];
    sample::Check(vkWaitForFences(c.device, 1, &frame.done, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    uint32_t image = 0;
    VkResult acquired = vkAcquireNextImageKHR(c.device, swapchain.handle, UINT64_MAX, frame.acquired, VK_NULL_HANDLE, &image);
    if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {  // the window changed size: a new swapchain, this frame again
      vkDeviceWaitIdle(c.device);
      Swapchain replaced = CreateSwapchain(c, wanted, mode, swapchain.handle);
      DestroySwapchain(c, swapchain, false);
      swapchain = replaced;
      --index;
      continue;
    }
    if (acquired != VK_SUBOPTIMAL_KHR) sample::Check(acquired, "vkAcquireNextImageKHR");
    sample::Check(vkResetFences(c.device, 1, &frame.done), "vkResetFences");

    const bool last = index == frames - 1;
    VkBuffer copy_to = VK_NULL_HANDLE;
    if (last && !out.empty() && swapchain.copyable) {
      readback = sample::CreateHostBuffer(c, VkDeviceSize{swapchain.extent.width} * swapchain.extent.height * 4,
                                          VK_BUFFER_USAGE_TRANSFER_DST_BIT);
      readback_extent = swapchain.extent;
      copy_to = readback.buffer;
    }
    Record(frame, swapchain, image, pipeline, desc.layout, uint32_t(index), copy_to);
    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = frame.acquired;
    wait.stageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal.semaphore = swapchain.rendered[image];
    signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkCommandBufferSubmitInfo commands{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    commands.commandBuffer = frame.commands;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.waitSemaphoreInfoCount = 1;
    submit.pWaitSemaphoreInfos = &wait;
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &commands;
    submit.signalSemaphoreInfoCount = 1;
    submit.pSignalSemaphoreInfos = &signal;
    sample::Check(vkQueueSubmit2(c.queue, 1, &submit, frame.done), "vkQueueSubmit2");

    VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &swapchain.rendered[image];
    present.swapchainCount = 1;
    present.pSwapchains = &swapchain.handle;
    present.pImageIndices = &image;
    const VkResult presented_result = vkQueuePresentKHR(c.queue, &present);
    if (presented_result != VK_ERROR_OUT_OF_DATE_KHR && presented_result != VK_SUBOPTIMAL_KHR)
      sample::Check(presented_result, "vkQueuePresentKHR");
    ++presented;
  }
  sample::Check(vkDeviceWaitIdle(c.device), "vkDeviceWaitIdle");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("present on %s: %d frames in %.2f s = %.1f frames/s (%s, %ux%u)\n", window->Platform(), presented, seconds,
              presented / seconds, mode_name.c_str(), swapchain.extent.width, swapchain.extent.height);

  bool ok = true;
  if (readback.buffer != VK_NULL_HANDLE) {
    // Swapchains are often BGRA: PNG rows are RGBA.
    auto* pixels = static_cast<uint8_t*>(readback.mapped);
    if (swapchain.format == VK_FORMAT_B8G8R8A8_UNORM || swapchain.format == VK_FORMAT_B8G8R8A8_SRGB)
      for (size_t i = 0; i < size_t{readback_extent.width} * readback_extent.height; ++i) std::swap(pixels[i * 4], pixels[i * 4 + 2]);
    ok = sample::WritePng(out.c_str(), readback_extent.width, readback_extent.height, pixels, readback_extent.width * 4);
    if (ok) std::printf("wrote %s: frame %d\n", out.c_str(), presented);
    sample::Destroy(c, readback);
  }

  for (Frame& f : in_flight) {
    vkDestroySemaphore(c.device, f.acquired, nullptr);
    vkDestroyFence(c.device, f.done, nullptr);
  }
  vkDestroyPipeline(c.device, pipeline, nullptr);
  vkDestroyPipelineLayout(c.device, desc.layout, nullptr);
  vkDestroyShaderModule(c.device, desc.vertex, nullptr);
  vkDestroyShaderModule(c.device, desc.fragment, nullptr);
  DestroySwapchain(c, swapchain, false);
  sample::DestroyContext(c);
  return ok ? 0 : 1;
}

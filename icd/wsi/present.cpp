// vkAcquireNextImageKHR / vkAcquireNextImage2KHR / vkQueuePresentKHR.
//
// Acquire hands out an image the presentation engine has finished with
// (shown images are copied out before they are freed), so its semaphore and
// fence are signalled at once. Present goes through the queue's worker as
// a submission that waits on the present's semaphores and then passes the
// images to each swapchain's engine: presents keep their order with the
// queue's other work, and the presenting thread never waits for rendering.
// VK_EXT_swapchain_maintenance1: a present may name a fence per swapchain,
// signalled once the engine is done with the image (shown and copied out,
// replaced or discarded; the semaphores were waited on before), and a
// present mode per swapchain, from those the swapchain was created with.
// VK_KHR_present_id / VK_KHR_present_wait: a present may carry an id per
// swapchain, and vkWaitForPresentKHR waits until the engine is done with it.
#include <algorithm>
#include <vector>

#include "cmdtape/queue_worker.h"
#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/sync.h"
#include "util/log.h"
#include "util/vk_util.h"
#include "wsi/swapchain.h"

namespace duet::wsi {
namespace {

VkResult Acquire(Device* device, Swapchain* swapchain, uint64_t timeout, VkSemaphore semaphore, VkFence fence,
                 uint32_t* index) {
  if (swapchain->retired) return VK_ERROR_OUT_OF_DATE_KHR;
  if (VkResult r = swapchain->engine->Acquire(timeout, index); r != VK_SUCCESS) return r;
  // Checked after a possibly long wait, so a resize meanwhile is reported.
  const VkResult status = swapchain->SurfaceStatus();
  if (status < 0) {
    swapchain->engine->Unacquire(*index);
    return status;
  }
  if (semaphore != VK_NULL_HANDLE) SignalSemaphore(device, FromHandle<Semaphore>(semaphore), 0);
  if (fence != VK_NULL_HANDLE) SignalFence(device, FromHandle<Fence>(fence));
  return status;
}

// The worse of two present results: errors over SUBOPTIMAL over SUCCESS.
VkResult Worse(VkResult a, VkResult b) {
  if (a < 0) return a;
  if (b < 0) return b;
  return a != VK_SUCCESS ? a : b;
}

}  // namespace
}  // namespace duet::wsi

namespace duet::api {

using wsi::Swapchain;

VKAPI_ATTR VkResult VKAPI_CALL AcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain, uint64_t timeout,
                                                   VkSemaphore semaphore, VkFence fence, uint32_t* pImageIndex) {
  return wsi::Acquire(FromHandle<Device>(device), FromHandle<Swapchain>(swapchain), timeout, semaphore, fence,
                      pImageIndex);
}

VKAPI_ATTR VkResult VKAPI_CALL AcquireNextImage2KHR(VkDevice device, const VkAcquireNextImageInfoKHR* pAcquireInfo,
                                                    uint32_t* pImageIndex) {
  return wsi::Acquire(FromHandle<Device>(device), FromHandle<Swapchain>(pAcquireInfo->swapchain),
                      pAcquireInfo->timeout, pAcquireInfo->semaphore, pAcquireInfo->fence, pImageIndex);
}

VKAPI_ATTR VkResult VKAPI_CALL QueuePresentKHR(VkQueue _queue, const VkPresentInfoKHR* pPresentInfo) {
  Queue* queue = FromHandle<Queue>(_queue);
  if (queue->device->lost) return VK_ERROR_DEVICE_LOST;
  const auto* regions =
      FindInChain<VkPresentRegionsKHR>(pPresentInfo->pNext, VK_STRUCTURE_TYPE_PRESENT_REGIONS_KHR);
  const auto* fences = FindInChain<VkSwapchainPresentFenceInfoEXT>(pPresentInfo->pNext,
                                                                   VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_FENCE_INFO_EXT);
  const auto* modes = FindInChain<VkSwapchainPresentModeInfoEXT>(pPresentInfo->pNext,
                                                                 VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODE_INFO_EXT);
  const auto* ids = FindInChain<VkPresentIdKHR>(pPresentInfo->pNext, VK_STRUCTURE_TYPE_PRESENT_ID_KHR);

  struct Handoff {
    std::shared_ptr<wsi::PresentEngine> engine;
    uint32_t index;
    bool discard;
  };
  std::vector<Handoff> handoffs;
  VkResult overall = VK_SUCCESS;
  for (uint32_t i = 0; i < pPresentInfo->swapchainCount; ++i) {
    Swapchain* swapchain = FromHandle<Swapchain>(pPresentInfo->pSwapchains[i]);
    const uint32_t index = pPresentInfo->pImageIndices[i];
    // A retired swapchain may still present the images it handed out.
    VkResult result = swapchain->SurfaceStatus();
    if (result == VK_ERROR_OUT_OF_DATE_KHR && swapchain->retired) result = VK_SUCCESS;

    std::vector<framebuffer::Rect> declared;
    bool has_declared = false;
    if (regions != nullptr && i < regions->swapchainCount && regions->pRegions != nullptr) {
      const VkPresentRegionKHR& region = regions->pRegions[i];
      // No rectangles means "the whole image may have changed": diff it.
      has_declared = region.rectangleCount != 0 && region.pRectangles != nullptr;
      for (uint32_t r = 0; has_declared && r < region.rectangleCount; ++r) {
        const VkRectLayerKHR& rect = region.pRectangles[r];
        if (rect.offset.x < 0 || rect.offset.y < 0) continue;  // invalid usage; ignored
        declared.push_back({static_cast<uint32_t>(rect.offset.x), static_cast<uint32_t>(rect.offset.y),
                            rect.extent.width, rect.extent.height});
      }
    }
    if (modes != nullptr && i < modes->swapchainCount) {
      const VkPresentModeKHR mode = modes->pPresentModes[i];
      if (std::find(swapchain->present_modes.begin(), swapchain->present_modes.end(), mode) !=
          swapchain->present_modes.end())
        swapchain->present_mode = mode;  // for this present and the later ones
      else
        DUET_WARN("vkQueuePresentKHR: present mode %d was not given at swapchain creation; ignored", mode);
    }
    std::function<void()> released;
    if (fences != nullptr && i < fences->swapchainCount && fences->pFences[i] != VK_NULL_HANDLE) {
      Device* device = queue->device;
      Fence* fence = FromHandle<Fence>(fences->pFences[i]);
      released = [device, fence] { SignalFence(device, fence); };
    }
    const uint64_t present_id =
        ids != nullptr && ids->pPresentIds != nullptr && i < ids->swapchainCount ? ids->pPresentIds[i] : 0;
    swapchain->engine->Queue(index, swapchain->present_mode, std::move(declared), has_declared, std::move(released),
                             present_id);
    // An image that cannot be shown still waits for the semaphores and
    // then goes back to the swapchain.
    handoffs.push_back({swapchain->engine, index, result < 0});
    if (pPresentInfo->pResults != nullptr) pPresentInfo->pResults[i] = result;
    overall = wsi::Worse(overall, result);
  }

  cmdtape::Submission submission;
  for (uint32_t i = 0; i < pPresentInfo->waitSemaphoreCount; ++i)
    submission.waits.push_back({FromHandle<Semaphore>(pPresentInfo->pWaitSemaphores[i]), 0});
  submission.host_operation = [handoffs = std::move(handoffs)](bool device_lost) {
    for (const Handoff& h : handoffs) h.engine->Ready(h.index, h.discard || device_lost);
  };
  std::vector<cmdtape::Submission> batch;
  batch.push_back(std::move(submission));
  queue->worker.Submit(std::move(batch));
  return overall;
}

// VK_KHR_present_wait: until the present with id presentId (or a later
// one) has been shown, or was replaced by a later one (MAILBOX).
VKAPI_ATTR VkResult VKAPI_CALL WaitForPresentKHR(VkDevice device, VkSwapchainKHR _swapchain, uint64_t presentId,
                                                 uint64_t timeout) {
  Swapchain* swapchain = FromHandle<Swapchain>(_swapchain);
  if (FromHandle<Device>(device)->lost) return VK_ERROR_DEVICE_LOST;
  const VkResult r = swapchain->engine->WaitPresented(presentId, timeout);
  if (r == VK_SUCCESS || r == VK_TIMEOUT) return r;
  return swapchain->retired ? VK_ERROR_OUT_OF_DATE_KHR : r;
}

}  // namespace duet::api

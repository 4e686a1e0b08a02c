// vkQueueSubmit / vkQueueSubmit2 turn their arguments into Submissions for
// the queue's worker thread and return; waits for idleness.
#include <vector>

#include "cmdtape/command_buffer.h"
#include "cmdtape/queue_worker.h"
#include "cmdtape/tape_dump_files.h"
#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/sync.h"
#include "util/vk_util.h"

namespace duet {
namespace {

VkResult Enqueue(Queue* queue, std::vector<cmdtape::Submission> batch, VkFence fence) {
  if (queue->device->lost) return VK_ERROR_DEVICE_LOST;
  for (const cmdtape::Submission& s : batch) cmdtape::DumpSubmittedTapes(s.command_buffers);
  if (fence != VK_NULL_HANDLE) {
    // The fence signals when every submission of the call has completed:
    // attach it to the last one (an empty one when there is none).
    if (batch.empty()) batch.emplace_back();
    batch.back().fence = FromHandle<Fence>(fence);
  }
  if (!batch.empty()) queue->worker.Submit(std::move(batch));
  return VK_SUCCESS;
}

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue _queue, uint32_t submitCount, const VkSubmitInfo* pSubmits,
                                           VkFence fence) {
  Queue* queue = FromHandle<Queue>(_queue);
  std::vector<cmdtape::Submission> batch(submitCount);
  for (uint32_t i = 0; i < submitCount; ++i) {
    const VkSubmitInfo& info = pSubmits[i];
    const auto* timeline = FindInChain<VkTimelineSemaphoreSubmitInfo>(
        info.pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
    auto value_of = [](const uint64_t* values, uint32_t count, uint32_t index) {
      return values != nullptr && index < count ? values[index] : 0;
    };
    cmdtape::Submission& s = batch[i];
    for (uint32_t w = 0; w < info.waitSemaphoreCount; ++w)
      s.waits.push_back({FromHandle<Semaphore>(info.pWaitSemaphores[w]),
                         timeline ? value_of(timeline->pWaitSemaphoreValues, timeline->waitSemaphoreValueCount, w) : 0});
    for (uint32_t c = 0; c < info.commandBufferCount; ++c)
      s.command_buffers.push_back(FromHandle<CommandBuffer>(info.pCommandBuffers[c]));
    for (uint32_t g = 0; g < info.signalSemaphoreCount; ++g)
      s.signals.push_back(
          {FromHandle<Semaphore>(info.pSignalSemaphores[g]),
           timeline ? value_of(timeline->pSignalSemaphoreValues, timeline->signalSemaphoreValueCount, g) : 0});
  }
  return Enqueue(queue, std::move(batch), fence);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue _queue, uint32_t submitCount, const VkSubmitInfo2* pSubmits,
                                            VkFence fence) {
  Queue* queue = FromHandle<Queue>(_queue);
  std::vector<cmdtape::Submission> batch(submitCount);
  for (uint32_t i = 0; i < submitCount; ++i) {
    const VkSubmitInfo2& info = pSubmits[i];
    cmdtape::Submission& s = batch[i];
    for (uint32_t w = 0; w < info.waitSemaphoreInfoCount; ++w)
      s.waits.push_back({FromHandle<Semaphore>(info.pWaitSemaphoreInfos[w].semaphore),
                         info.pWaitSemaphoreInfos[w].value});
    for (uint32_t c = 0; c < info.commandBufferInfoCount; ++c)
      s.command_buffers.push_back(FromHandle<CommandBuffer>(info.pCommandBufferInfos[c].commandBuffer));
    for (uint32_t g = 0; g < info.signalSemaphoreInfoCount; ++g)
      s.signals.push_back({FromHandle<Semaphore>(info.pSignalSemaphoreInfos[g].semaphore),
                           info.pSignalSemaphoreInfos[g].value});
  }
  return Enqueue(queue, std::move(batch), fence);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueWaitIdle(VkQueue _queue) {
  Queue* queue = FromHandle<Queue>(_queue);
  queue->worker.WaitIdle();
  return queue->device->lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL DeviceWaitIdle(VkDevice _device) {
  Device* device = FromHandle<Device>(_device);
  for (Queue* queue : device->queues) queue->worker.WaitIdle();
  return device->lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

}  // namespace duet::api

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

// The semaphore operations of a VkSubmitInfo or VkBindSparseInfo (timeline
// values from a VkTimelineSemaphoreSubmitInfo in `next`).
void AddSemaphores(const void* next, uint32_t wait_count, const VkSemaphore* waits, uint32_t signal_count,
                   const VkSemaphore* signals, cmdtape::Submission* s) {
  const auto* timeline =
      FindInChain<VkTimelineSemaphoreSubmitInfo>(next, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  auto value_of = [](const uint64_t* values, uint32_t count, uint32_t index) {
    return values != nullptr && index < count ? values[index] : 0;
  };
  for (uint32_t w = 0; w < wait_count; ++w)
    s->waits.push_back({FromHandle<Semaphore>(waits[w]),
                        timeline ? value_of(timeline->pWaitSemaphoreValues, timeline->waitSemaphoreValueCount, w) : 0});
  for (uint32_t g = 0; g < signal_count; ++g)
    s->signals.push_back(
        {FromHandle<Semaphore>(signals[g]),
         timeline ? value_of(timeline->pSignalSemaphoreValues, timeline->signalSemaphoreValueCount, g) : 0});
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
    cmdtape::Submission& s = batch[i];
    AddSemaphores(info.pNext, info.waitSemaphoreCount, info.pWaitSemaphores, info.signalSemaphoreCount,
                  info.pSignalSemaphores, &s);
    for (uint32_t c = 0; c < info.commandBufferCount; ++c)
      s.command_buffers.push_back(FromHandle<CommandBuffer>(info.pCommandBuffers[c]));
  }
  return Enqueue(queue, std::move(batch), fence);
}

// No queue family has sparse binding (no resource can be sparse), so a bind
// carries only its semaphore operations and fence, which are kept in order.
VKAPI_ATTR VkResult VKAPI_CALL QueueBindSparse(VkQueue _queue, uint32_t bindInfoCount,
                                               const VkBindSparseInfo* pBindInfo, VkFence fence) {
  Queue* queue = FromHandle<Queue>(_queue);
  std::vector<cmdtape::Submission> batch(bindInfoCount);
  for (uint32_t i = 0; i < bindInfoCount; ++i) {
    const VkBindSparseInfo& info = pBindInfo[i];
    AddSemaphores(info.pNext, info.waitSemaphoreCount, info.pWaitSemaphores, info.signalSemaphoreCount,
                  info.pSignalSemaphores, &batch[i]);
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

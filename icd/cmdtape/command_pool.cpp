// Command pools and the command buffer life cycle (begin/end/reset).
#include <algorithm>

#include "cmdtape/command_buffer.h"
#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "util/host_alloc.h"
#include "util/log.h"

namespace duet {
namespace {

void ReturnToInitialState(CommandBuffer* buffer) {
  buffer->tape.Reset();
  buffer->pushed_sets.Clear();
  buffer->state = CommandBufferState::kInitial;
  buffer->usage = 0;
  buffer->record_error = VK_SUCCESS;
}

void FreeCommandBuffer(CommandBuffer* buffer, const VkAllocationCallbacks* allocator) {
  if (buffer->pending_submissions != 0)
    DUET_ERROR("a command buffer was freed while a queue still executes it");
  HostDelete(allocator, buffer);
}

}  // namespace

namespace cmdtape {

Tape* RecordingTape(VkCommandBuffer command_buffer, const char* command) {
  CommandBuffer* buffer = FromHandle<CommandBuffer>(command_buffer);
  if (buffer->state != CommandBufferState::kRecording) {
    DUET_ERROR("%s: the command buffer is not recording; the command is ignored", command);
    return nullptr;
  }
  return &buffer->tape;
}

void NoteRecordingFailure(VkCommandBuffer command_buffer) {
  FromHandle<CommandBuffer>(command_buffer)->record_error = VK_ERROR_OUT_OF_HOST_MEMORY;
}

}  // namespace cmdtape
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateCommandPool(VkDevice _device, const VkCommandPoolCreateInfo* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator,
                                                 VkCommandPool* pCommandPool) {
  Device* device = FromHandle<Device>(_device);
  if ((pCreateInfo->flags & VK_COMMAND_POOL_CREATE_PROTECTED_BIT) != 0) return VK_ERROR_FEATURE_NOT_PRESENT;
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  auto* pool = HostNew<CommandPool>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
  if (pool == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  pool->device = device;
  pool->flags = pCreateInfo->flags;
  pool->queue_family_index = pCreateInfo->queueFamilyIndex;
  *pCommandPool = ToHandle(pool);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice _device, VkCommandPool commandPool,
                                              const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  CommandPool* pool = FromHandle<CommandPool>(commandPool);
  if (pool == nullptr) return;
  for (CommandBuffer* buffer : pool->buffers) FreeCommandBuffer(buffer, pool->Allocator());
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), pool);
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice, VkCommandPool commandPool, VkCommandPoolResetFlags flags) {
  CommandPool* pool = FromHandle<CommandPool>(commandPool);
  for (CommandBuffer* buffer : pool->buffers) {
    ReturnToInitialState(buffer);
    // RELEASE_RESOURCES: give the tape's memory back, not just rewind it.
    if ((flags & VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT) != 0) buffer->tape.Release();
  }
  return VK_SUCCESS;
}

// Trimming returns spare tape chunks; reset tapes keep only one chunk already.
VKAPI_ATTR void VKAPI_CALL TrimCommandPool(VkDevice, VkCommandPool, VkCommandPoolTrimFlags) {}

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice, const VkCommandBufferAllocateInfo* pAllocateInfo,
                                                      VkCommandBuffer* pCommandBuffers) {
  CommandPool* pool = FromHandle<CommandPool>(pAllocateInfo->commandPool);
  try {
    pool->buffers.reserve(pool->buffers.size() + pAllocateInfo->commandBufferCount);  // push_back then cannot throw
  } catch (const std::bad_alloc&) {
    std::fill_n(pCommandBuffers, pAllocateInfo->commandBufferCount, VK_NULL_HANDLE);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  for (uint32_t i = 0; i < pAllocateInfo->commandBufferCount; ++i) {
    auto* buffer = HostNew<CommandBuffer>(pool->Allocator(), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, pool,
                                          pAllocateInfo->level);
    if (buffer == nullptr) {
      // The spec asks for all-or-nothing: free what was made, null every handle.
      for (uint32_t j = 0; j < i; ++j) {
        CommandBuffer* made = FromHandle<CommandBuffer>(pCommandBuffers[j]);
        std::erase(pool->buffers, made);
        FreeCommandBuffer(made, pool->Allocator());
      }
      std::fill_n(pCommandBuffers, pAllocateInfo->commandBufferCount, VK_NULL_HANDLE);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    pool->buffers.push_back(buffer);
    pCommandBuffers[i] = ToHandle(buffer);
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice, VkCommandPool commandPool, uint32_t commandBufferCount,
                                              const VkCommandBuffer* pCommandBuffers) {
  CommandPool* pool = FromHandle<CommandPool>(commandPool);
  for (uint32_t i = 0; i < commandBufferCount; ++i) {
    CommandBuffer* buffer = FromHandle<CommandBuffer>(pCommandBuffers[i]);
    if (buffer == nullptr) continue;
    std::erase(pool->buffers, buffer);
    FreeCommandBuffer(buffer, pool->Allocator());
  }
}

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                  const VkCommandBufferBeginInfo* pBeginInfo) {
  CommandBuffer* buffer = FromHandle<CommandBuffer>(commandBuffer);
  // Beginning an executable buffer resets it implicitly (pool flag permitting).
  ReturnToInitialState(buffer);
  buffer->usage = pBeginInfo->flags;
  buffer->state = CommandBufferState::kRecording;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer commandBuffer) {
  CommandBuffer* buffer = FromHandle<CommandBuffer>(commandBuffer);
  if (buffer->record_error != VK_SUCCESS) {
    buffer->state = CommandBufferState::kInvalid;
    return buffer->record_error;
  }
  buffer->state = CommandBufferState::kExecutable;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandBuffer(VkCommandBuffer commandBuffer, VkCommandBufferResetFlags flags) {
  CommandBuffer* buffer = FromHandle<CommandBuffer>(commandBuffer);
  ReturnToInitialState(buffer);
  if ((flags & VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT) != 0) buffer->tape.Release();
  return VK_SUCCESS;
}

}  // namespace duet::api

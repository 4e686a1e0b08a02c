// Command pools and command buffers. A command buffer owns one tape; its
// vkCmd* entry points (generated: cmdtape/tape_recorder.cpp) append records.
#pragma once

#include <vulkan/vulkan_core.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "cmdtape/tape.h"
#include "util/object.h"

namespace duet {

struct Device;
struct CommandBuffer;

struct CommandPool : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkCommandPool, VK_OBJECT_TYPE_COMMAND_POOL);

  CommandPool() : NonDispatchableObject(kObjectType) {}

  Device* device = nullptr;
  VkCommandPoolCreateFlags flags = 0;
  uint32_t queue_family_index = 0;
  std::vector<CommandBuffer*> buffers;  // all command buffers allocated from the pool
};

enum class CommandBufferState : uint8_t { kInitial, kRecording, kExecutable, kInvalid };

struct CommandBuffer : DispatchableObject {
  DUET_OBJECT_TYPE(VkCommandBuffer, VK_OBJECT_TYPE_COMMAND_BUFFER);

  CommandBuffer(CommandPool* owner, VkCommandBufferLevel buffer_level)
      : DispatchableObject(kObjectType), pool(owner), level(buffer_level) {}

  CommandPool* pool;
  VkCommandBufferLevel level;
  CommandBufferState state = CommandBufferState::kInitial;
  VkCommandBufferUsageFlags usage = 0;
  // Set when a vkCmd* failed to record (out of host memory): vkEndCommandBuffer reports it.
  VkResult record_error = VK_SUCCESS;
  // Submissions that have not finished executing the tape (pending state).
  std::atomic<uint32_t> pending_submissions{0};
  cmdtape::Tape tape;
};

namespace cmdtape {

// The tape to append to, or nullptr (logged) when the command buffer is not
// recording; used by every generated vkCmd* recorder.
Tape* RecordingTape(VkCommandBuffer command_buffer, const char* command);

// Called by generated recorders when copying arguments ran out of memory.
void NoteRecordingFailure(VkCommandBuffer command_buffer);

}  // namespace cmdtape
}  // namespace duet

// Command pools and command buffers. A command buffer owns one tape; its
// vkCmd* entry points (generated: cmdtape/tape_recorder.cpp) append records.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "cmdtape/tape.h"
#include "objects/descriptor_set.h"
#include "objects/device_limits.h"
#include "util/host_alloc.h"
#include "util/object.h"

namespace duet {

struct Device;
struct CommandBuffer;

struct CommandPool : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkCommandPool, VK_OBJECT_TYPE_COMMAND_POOL);

  explicit CommandPool(const VkAllocationCallbacks* allocator)
      : NonDispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) {}

  // The pool's allocator (its own, else the device's): its command buffers,
  // their tapes and pushed descriptor sets come from it.
  HostMemoryResource memory;
  Device* device = nullptr;
  VkCommandPoolCreateFlags flags = 0;
  uint32_t queue_family_index = 0;
  std::pmr::vector<CommandBuffer*> buffers{&memory};  // all command buffers allocated from the pool
  const VkAllocationCallbacks* Allocator() const { return memory.Callbacks(); }
};

// Push descriptors (VK_KHR_push_descriptor) as recorded: every push makes a
// new set, the one pushed before to that bind point and set number with the
// writes applied, so the records before it keep what they saw.
struct PushedDescriptorSets {
  // Sets come from the command pool's allocation callbacks.
  struct Delete {
    const VkAllocationCallbacks* allocator;
    void operator()(DescriptorSet* set) const { HostDelete(allocator, set); }
  };
  explicit PushedDescriptorSets(std::pmr::memory_resource* memory) : made(memory) {}

  std::pmr::vector<std::unique_ptr<DescriptorSet, Delete>> made;  // every set pushed since recording began
  // The latest set per bind point (0 graphics, 1 compute) and set number.
  std::array<std::array<const DescriptorSet*, limits::kMaxBoundDescriptorSets>, 2> latest{};

  void Clear() {
    made.clear();
    latest = {};
  }
};

enum class CommandBufferState : uint8_t { kInitial, kRecording, kExecutable, kInvalid };

struct CommandBuffer : DispatchableObject {
  DUET_OBJECT_TYPE(VkCommandBuffer, VK_OBJECT_TYPE_COMMAND_BUFFER);

  CommandBuffer(CommandPool* owner, VkCommandBufferLevel buffer_level)
      : DispatchableObject(kObjectType),
        pool(owner),
        level(buffer_level),
        tape(owner->Allocator()),
        pushed_sets(&owner->memory) {}

  CommandPool* pool;
  VkCommandBufferLevel level;
  CommandBufferState state = CommandBufferState::kInitial;
  VkCommandBufferUsageFlags usage = 0;
  // Set when a vkCmd* failed to record (out of host memory): vkEndCommandBuffer reports it.
  VkResult record_error = VK_SUCCESS;
  // Submissions that have not finished executing the tape (pending state).
  std::atomic<uint32_t> pending_submissions{0};
  cmdtape::Tape tape;
  PushedDescriptorSets pushed_sets;  // referred to by the tape's push records
};

namespace cmdtape {

// The tape to append to, or nullptr (logged) when the command buffer is not
// recording; used by every generated vkCmd* recorder.
Tape* RecordingTape(VkCommandBuffer command_buffer, const char* command);

// Called by generated recorders when copying arguments ran out of memory.
void NoteRecordingFailure(VkCommandBuffer command_buffer);

}  // namespace cmdtape
}  // namespace duet

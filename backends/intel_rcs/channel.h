// The seam between batches and whatever runs them: buffer objects in a GPU
// address space, submission of a batch to an engine, and waiting for it.
// Two implementations: i915_channel (the kernel driver, soft-pinned
// addresses, no relocations) and simulated_channel (the command-streamer
// simulator the tests run).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "backends/intel_rcs/address_space.h"
#include "backends/intel_rcs/generation.h"

namespace duet::intel_rcs {

// The engine a batch runs on: the render command streamer takes the MI
// work and PIPE_CONTROL, the blitter (BCS) the XY_ blits and MI_FLUSH_DW.
enum class Engine : uint8_t { kRender, kBlitter };

// Memory the GPU reaches at `gpu_address` and the CPU at `cpu`.
struct BufferObject {
  uint32_t handle = 0;
  uint64_t gpu_address = 0;
  uint64_t size = 0;
  std::byte* cpu = nullptr;
};

struct ChannelInfo {
  GpuModel model;
  uint16_t device_id = 0;
  const char* name = "";  // "i915 /dev/dri/renderD128", "simulator"
};

enum class WaitStatus : uint8_t {
  kDone,     // the batch ran to its end
  kTimeout,  // still running after the timeout: a hang, as far as the caller
             // knows
  kFailed,   // the GPU or kernel gave up on it (reset, banned context, fault)
};

class Channel {
 public:
  // GPU addresses end at `address_end` (the per-process GTT's size).
  explicit Channel(uint64_t address_end = AddressSpace::kMaxEnd) : addresses_(address_end) {}
  virtual ~Channel() = default;
  virtual const ChannelInfo& Info() const = 0;

  // A new object of `size` bytes, mapped for the CPU, at addresses of its own.
  virtual std::optional<BufferObject> Create(uint64_t size) = 0;
  // Addresses for the windows of one host allocation: wrapped at addresses
  // inside the reservation, windows of contiguous pages are contiguous for
  // the GPU too, so a move may span them.
  std::optional<uint64_t> ReserveAddresses(uint64_t size) { return addresses_.Allocate(size); }
  void ReleaseAddresses(uint64_t address) { addresses_.Free(address); }
  // The host pages [pages, pages + size) as an object (userptr) at
  // `gpu_address` (inside a reservation): pages page-aligned; they stay the
  // caller's and must outlive the object.
  virtual std::optional<BufferObject> WrapHostPages(std::byte* pages, uint64_t size, uint64_t gpu_address) = 0;
  virtual void Destroy(const BufferObject& object) = 0;

  // Runs `batch_bytes` of `batch` (from its start, ending in
  // MI_BATCH_BUFFER_END) on `engine`; `objects` are every object the batch
  // touches, each once, the batch excluded. Returns a fence, or nothing
  // when refused.
  virtual std::optional<uint64_t> Submit(const BufferObject& batch, uint32_t batch_bytes,
                                         std::span<const BufferObject> objects, Engine engine) = 0;
  virtual WaitStatus Wait(uint64_t fence, uint64_t timeout_ns) = 0;
  // A batch that did not finish: cancels it and waits until it can write no
  // more. False when that could not be confirmed. The channel takes no
  // submissions afterwards.
  virtual bool Abandon(uint64_t fence) = 0;

  // What went wrong last (refused submission, failed wait), for the log.
  const std::string& LastError() const { return last_error_; }

 protected:
  AddressSpace addresses_;
  std::string last_error_;
};

}  // namespace duet::intel_rcs

// Fills and copies of the driver's memory on an Intel GPU: the driver's
// allocations (page-aligned, as vkAllocateMemory makes them) are wrapped
// as userptr objects window by window where moves touch them (the kernel
// pins a userptr object's pages: a mostly untouched 4 GiB allocation must
// not be pinned whole for a 1 MiB fill), at consecutive GPU addresses so a
// move may span windows; the planner turns a move into packets, and
// each move runs as one batch the caller waits for, so it is ordered with
// the CPU work before and after it like any other command of the tape.
// Anything the GPU cannot do, or does not finish, is left to the caller's
// CPU path (false); a failure also turns the GPU off for the rest of the
// device's life, with one log line.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "backends/intel_rcs/blit_plan.h"
#include "backends/intel_rcs/channel.h"

namespace duet::intel_rcs {

// A page-aligned host allocation (base and length multiples of the page).
struct HostMemory {
  std::byte* base = nullptr;
  size_t length = 0;
};

// A byte of such an allocation.
struct HostPlace {
  HostMemory memory;
  uint64_t offset = 0;
};

class IntelTransfers {
 public:
  // `min_bytes`: moves smaller than this stay on the CPU, where they are
  // cheaper than a submission.
  IntelTransfers(std::unique_ptr<Channel> channel, uint64_t min_bytes);
  ~IntelTransfers();

  // Bring-up check before use: a cookie stored by MI_STORE_DWORD_IMM on
  // both engines and read back, then a fill and a copy compared with what
  // the CPU makes. False leaves the GPU off.
  bool SelfTest();

  // True when the GPU did the move; false: the caller must do it.
  bool Fill(HostPlace dst, uint64_t bytes, std::span<const std::byte> pattern);
  bool Copy(HostPlace dst, HostPlace src, uint64_t bytes);
  bool CopyRect(HostPlace dst, uint32_t dst_pitch, HostPlace src, uint32_t src_pitch, uint32_t row_bytes,
                uint32_t rows);

  // The allocation at `base` is going away: drop its object.
  void Forget(const std::byte* base);

  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }
  uint64_t min_bytes() const { return min_bytes_; }
  Channel& channel() { return *channel_; }

 private:
  static constexpr uint64_t kBatchBytes = 64 * 1024;
  // Status page layout: the completion seqno of each engine, cookies, a
  // scratch area for the self-test's fill and copy.
  static constexpr uint64_t kBlitterSeqno = 0, kRenderSeqno = 64, kBlitterCookie = 128, kRenderCookie = 192,
                            kScratch = 1024, kScratchBytes = 1024;

  // What the GPU sees of an allocation: addresses for all of it, objects
  // for the windows moves touched.
  struct Wrapped {
    uint64_t gpu_base = 0;
    std::map<uint64_t, BufferObject> windows;  // by window index
    bool refused = false;                      // userptr refused: the CPU's
  };
  static constexpr uint64_t kWindowBytes = uint64_t{8} << 20;

  // The GPU address of `place` with the objects of the windows
  // [place, place + bytes) spans added to `objects` (each once); nothing
  // when the memory cannot be wrapped.
  std::optional<uint64_t> Reach(const HostPlace& place, uint64_t bytes, std::vector<BufferObject>* objects);
  // Drops an allocation's window objects and addresses; it stays the CPU's.
  void Unwrap(Wrapped* wrapped);
  // Whether a move of `bytes` is worth a batch: the GPU is on, the move is
  // not empty and not below the threshold.
  bool Wanted(uint64_t bytes) const { return enabled() && bytes != 0 && bytes >= min_bytes_; }
  // Runs `packets` then a post-sync write of a new seqno on `engine`; true
  // when the batch completed and the seqno landed.
  bool Run(Engine engine, Dwords packets, std::span<const BufferObject> objects, uint64_t bytes);
  // Run for an application's move: a batch that fails counts as a fallback.
  bool RunMove(Engine engine, Dwords packets, std::span<const BufferObject> objects, uint64_t bytes);
  void TurnOff(const std::string& why);

  std::mutex mutex_;
  std::unique_ptr<Channel> channel_;
  uint64_t min_bytes_;
  std::atomic<bool> enabled_{false};
  std::optional<BufferObject> batch_, status_;
  std::map<const std::byte*, Wrapped> wrapped_;  // by allocation base
  uint32_t seqno_ = 0;
};

// The device's Intel transfers as DUET_INTEL asks:
//   auto (default)  an i915 GPU the encoder knows, after its self-test;
//                   moves of DUET_INTEL_MIN_KB (default 256) KiB and up
//   force           the same for moves of every size
//   simulate        the command-streamer simulator (DUET_INTEL_GEN=9|11|12,
//                   default 12) for moves of every size: for tests
//   off             none
std::unique_ptr<IntelTransfers> OpenIntelTransfers();

}  // namespace duet::intel_rcs

// A wave: kWaveWidth invocations executing one Program together. All of its
// state is here (registers, block masks, program counter), so a wave that
// stops at a barrier is resumed later simply by running it again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "spirv_exec/ir.h"
#include "texel/sample.h"

namespace duet::spirv_exec {

// Memory the roots of a Program resolve to for one dispatch (or draw).
struct RootMemory {
  std::byte* base = nullptr;
  uint32_t range = 0;  // bytes; accesses beyond are dropped (robust buffer access)
};

class ShaderWatchdog;
struct InvocationTrace;

// How often (in loop back edges taken) a wave looks at its watchdog.
inline constexpr uint32_t kWatchdogCheckInterval = 4096;

// Registers start on a cache line: the lane kernels move whole registers
// (kWaveWidth words) with vector loads and stores, which must not straddle
// two lines.
template <typename T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{64};
  CacheLineAllocator() = default;
  template <typename U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlignment)); }
  void deallocate(T* p, size_t) { ::operator delete(p, kAlignment); }
  template <typename U>
  bool operator==(const CacheLineAllocator<U>&) const {
    return true;
  }
};

// The lanes of the subgroup of `size` lanes that starts at lane `base`.
inline LaneMask SubgroupLanes(uint32_t size, uint32_t base) {
  return (size >= kWaveWidth ? kAllLanes : (LaneMask{1} << size) - 1) << base;
}

struct WaveState {
  std::vector<uint32_t, CacheLineAllocator<uint32_t>> registers;  // register r, lane l at [r * kWaveWidth + l]
  uint64_t registers_of = 0;  // Program::serial of the program whose constants `registers` holds
  std::vector<LaneMask> block_masks;
  std::vector<LaneMask> edges;      // lanes taking each edge of the last branch
  std::vector<std::byte> private_memory;  // kWaveWidth * Program::private_memory_size
  LaneMask active = 0;
  LaneMask launched = 0;  // lanes that hold an invocation
  LaneMask killed = 0;
  // Fragment waves: lanes that are helper invocations from the start (the
  // rasterizer's uncovered quad lanes) and lanes that became helpers through
  // OpDemoteToHelperInvocation. Helpers keep executing (for derivatives),
  // but their stores and atomics are dropped, and their outputs must be
  // discarded like those of killed lanes.
  LaneMask helpers = 0;
  LaneMask demoted = 0;
  uint32_t pc = 0;
  uint32_t subgroup_size = kWaveWidth;  // the Program's (ResetWave)
  uint32_t saved_mxcsr = kMxcsrDefault;  // the float environment kFloatMode restores
  // The workgroup's shared memory, where variable pointers into it point
  // (compute_dispatch sets it; none elsewhere).
  std::byte* workgroup_memory = nullptr;
  uint32_t workgroup_memory_size = 0;

  // Runaway shaders: when set, the wave checks the watchdog every
  // kWatchdogCheckInterval back edges and stops (aborted) once it expired.
  // Callers set it after ResetWave; ResetWave keeps it. Without one, the
  // wave uses the watchdog of its thread's WorkContext (util/thread_pool.h),
  // which is how draws watch their vertex and fragment waves.
  const ShaderWatchdog* watchdog = nullptr;
  uint32_t back_edges_until_check = kWatchdogCheckInterval;
  int64_t watch_started_ns = 0;  // steady clock at the first check of this wave; 0 before
  bool aborted = false;          // stopped by the watchdog: results are meaningless

  // DUET_TRACE_INVOCATION: when set, RunWave prints every instruction the
  // traced lane executes. Callers set it after ResetWave; ResetWave keeps it.
  const InvocationTrace* trace = nullptr;

  uint32_t* Register(uint32_t r) { return &registers[size_t(r) * kWaveWidth]; }
};

}  // namespace duet::spirv_exec

namespace duet {
struct ImageView;
struct BufferView;
struct Sampler;
namespace texel {
struct SampledImageState;
}
}  // namespace duet

namespace duet::spirv_exec {

struct DescriptorTables;

// What an ImageRoot resolves to for one dispatch or draw.
struct ImageBinding {
  const ImageView* view = nullptr;           // images (sampled, storage, combined)
  const BufferView* buffer_view = nullptr;   // texel buffers
  const Sampler* sampler = nullptr;          // samplers and combined image samplers
};

// The resources a Program runs against.
struct ShaderResources {
  std::vector<RootMemory> roots;
  std::vector<ImageBinding> images;
  std::vector<texel::SampledImageState> sampled;  // per Program::sampled_images
  // What kDescriptorArray / kImageArray roots point to (descriptor_tables.h);
  // shared, so copies of the resources keep the roots' pointers valid.
  std::shared_ptr<const DescriptorTables> tables;
};

// kEmit: a geometry shader's kEmit stopped the wave (program.code[pc - 1]):
// the caller takes its active lanes' vertex or strip end, then runs on.
enum class WaveStatus { kFinished, kAtBarrier, kEmit };

// Sizes the state for `program`, broadcasts its constants and makes the
// `launched` lanes enter the first block. Built-in registers are the
// caller's to fill before running.
void ResetWave(const Program& program, LaneMask launched, WaveState* wave);

// Runs until the program ends, the wave reaches a workgroup barrier or emits. A
// wave stopped by its watchdog returns kFinished with `aborted` set.
// `roots` has one entry per Program::roots; kWorkgroup roots point into the
// workgroup's memory, kPrivate roots are per lane and need no entry.
WaveStatus RunWave(const Program& program, const RootMemory* roots, const ImageBinding* images,
                   const texel::SampledImageState* sampled, WaveState* wave);

}  // namespace duet::spirv_exec

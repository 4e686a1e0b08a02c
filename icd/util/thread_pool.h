// A fixed pool of worker threads shared by the whole driver for data-parallel
// work (workgroups, tiles). The calling thread takes part, so a pool of one
// runs everything inline.
#pragma once

#include <cstdint>
#include <functional>

namespace duet {

namespace spirv_exec {
class ShaderWatchdog;
}

// What the work a thread does belongs to, set by the thread that starts
// device work (a draw) and inherited by the jobs ParallelFor runs for it on
// other threads, so code deep inside (a shader wave) can reach it without
// every layer in between passing it on.
struct WorkContext {
  // Waves without a watchdog of their own (WaveState::watchdog) ask this one.
  const spirv_exec::ShaderWatchdog* watchdog = nullptr;
};

// The calling thread's context (empty outside device work).
const WorkContext& CurrentWorkContext();

// Sets the calling thread's context for its lifetime, then restores the old one.
class ScopedWorkContext {
 public:
  explicit ScopedWorkContext(const WorkContext& context);
  ~ScopedWorkContext();
  ScopedWorkContext(const ScopedWorkContext&) = delete;
  ScopedWorkContext& operator=(const ScopedWorkContext&) = delete;

 private:
  WorkContext saved_;
};

// Runs fn(i) for every i in [0, count), spread over the pool; returns when
// all have run. Calls from several threads at once are serialized. Every
// fn(i) runs with the caller's WorkContext.
void ParallelFor(uint32_t count, const std::function<void(uint32_t)>& fn);

// Worker threads in the pool (DUET_THREADS overrides; default: the cores).
uint32_t ThreadCount();

}  // namespace duet

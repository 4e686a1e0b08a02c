#include "spirv_exec/compute_dispatch.h"

#include <cstring>
#include <mutex>

#include "objects/descriptor_set.h"
#include "objects/device.h"
#include "objects/pipeline.h"
#include "spirv_exec/invocation_trace.h"
#include "spirv_exec/resource_roots.h"
#include "spirv_exec/shader_watchdog.h"
#include "spirv_exec/wave.h"
#include "util/log.h"
#include "util/thread_pool.h"

namespace duet::spirv_exec {
namespace {

void FillBuiltins(const Program& p, WaveState& w, const uint32_t group[3], const uint32_t count[3],
                  uint32_t first_index) {
  const BuiltinRegisters& b = p.builtins;
  const uint32_t* size = p.local_size;
  for (uint32_t l = 0; l < kWaveWidth; ++l) {
    const uint32_t index = first_index + l;
    const uint32_t local[3] = {index % size[0], (index / size[0]) % size[1], index / (size[0] * size[1])};
    for (uint32_t c = 0; c < 3; ++c) {
      if (b.local_invocation_id != UINT32_MAX) w.Register(b.local_invocation_id + c)[l] = local[c];
      if (b.global_invocation_id != UINT32_MAX)
        w.Register(b.global_invocation_id + c)[l] = group[c] * size[c] + local[c];
      if (b.workgroup_id != UINT32_MAX) w.Register(b.workgroup_id + c)[l] = group[c];
      if (b.num_workgroups != UINT32_MAX) w.Register(b.num_workgroups + c)[l] = count[c];
    }
    if (b.local_invocation_index != UINT32_MAX) w.Register(b.local_invocation_index)[l] = index;
    if (b.subgroup_local_invocation_id != UINT32_MAX) w.Register(b.subgroup_local_invocation_id)[l] = l;
    if (b.subgroup_id != UINT32_MAX) w.Register(b.subgroup_id)[l] = first_index / kWaveWidth;
    if (b.subgroup_size != UINT32_MAX) w.Register(b.subgroup_size)[l] = kWaveWidth;
    if (b.num_subgroups != UINT32_MAX)
      w.Register(b.num_subgroups)[l] = (size[0] * size[1] * size[2] + kWaveWidth - 1) / kWaveWidth;
  }
}

// The traced invocation (DUET_TRACE_INVOCATION), located in the dispatch.
struct TraceTarget {
  bool enabled = false;
  uint32_t group[3] = {0, 0, 0};
  uint32_t local_index = 0;
  InvocationTrace trace;
};

TraceTarget FindTraceTarget(const Program& p) {
  TraceTarget t;
  if (!TraceTargetFromEnvironment(t.trace.invocation)) return t;
  t.enabled = true;
  const uint32_t* id = t.trace.invocation;
  const uint32_t* size = p.local_size;
  for (int c = 0; c < 3; ++c) t.group[c] = id[c] / size[c];
  t.local_index = id[0] % size[0] + (id[1] % size[1]) * size[0] + (id[2] % size[2]) * size[0] * size[1];
  t.trace.lane = t.local_index % kWaveWidth;
  return t;
}

struct WorkgroupContext {
  const Program& program;
  const ImageBinding* images;
  const texel::SampledImageState* sampled;
  const uint32_t* count;
  const ShaderWatchdog* watchdog;
  const TraceTarget& trace;
};

void RunWorkgroup(const WorkgroupContext& c, std::vector<RootMemory>& roots, const uint32_t group[3],
                  std::vector<WaveState>& waves, std::vector<std::byte>& shared) {
  const Program& p = c.program;
  const uint32_t invocations = p.local_size[0] * p.local_size[1] * p.local_size[2];
  const uint32_t wave_count = (invocations + kWaveWidth - 1) / kWaveWidth;
  if (waves.size() < wave_count) waves.resize(wave_count);
  // Workgroup memory starts zeroed (shaderZeroInitializeWorkgroupMemory).
  shared.assign(p.workgroup_memory_size, std::byte{0});
  for (size_t i = 0; i < p.roots.size(); ++i) {
    if (p.roots[i].kind != RootKind::kWorkgroup) continue;
    roots[i].base = shared.data() + p.roots[i].offset;
    roots[i].range = p.workgroup_memory_size - p.roots[i].offset;
  }
  const bool traced_group = c.trace.enabled && group[0] == c.trace.group[0] && group[1] == c.trace.group[1] &&
                            group[2] == c.trace.group[2];
  for (uint32_t v = 0; v < wave_count; ++v) {
    const uint32_t first = v * kWaveWidth;
    const uint32_t lanes = std::min(kWaveWidth, invocations - first);
    const LaneMask launched = lanes == kWaveWidth ? kAllLanes : (LaneMask{1} << lanes) - 1;
    ResetWave(p, launched, &waves[v]);
    FillBuiltins(p, waves[v], group, c.count, first);
    waves[v].watchdog = c.watchdog;
    waves[v].trace = traced_group && c.trace.local_index / kWaveWidth == v ? &c.trace.trace : nullptr;
  }
  // Without barriers each wave runs to the end at once; with them, every
  // wave runs to the next barrier before any continues past it. A wave the
  // watchdog stopped ends the workgroup.
  bool pending = true;
  std::vector<bool> finished(wave_count, false);
  while (pending) {
    pending = false;
    for (uint32_t v = 0; v < wave_count; ++v) {
      if (finished[v]) continue;
      if (RunWave(p, roots.data(), c.images, c.sampled, &waves[v]) == WaveStatus::kFinished) finished[v] = true;
      else pending = true;
      if (waves[v].aborted) return;
    }
  }
}

// Marks the device lost (once) and wakes every waiter, which then returns
// VK_ERROR_DEVICE_LOST.
void LoseDevice(Device* device, int64_t limit_ns) {
  {
    std::lock_guard lock(device->sync_mutex);
    if (device->lost.exchange(true)) return;
  }
  device->sync_cv.notify_all();
  DUET_ERROR("a shader ran longer than the watchdog limit (%lld ms, DUET_WATCHDOG_MS): device lost",
             static_cast<long long>(limit_ns / 1000000));
}

}  // namespace

ShaderWatchdog DeviceWatchdog(Device* device) {
  const int64_t limit_ns = device->shader_watchdog_ns;
  return ShaderWatchdog(&device->lost, limit_ns, [device, limit_ns] { LoseDevice(device, limit_ns); });
}

void RunComputeDispatch(Device* device, const ShaderBindings& bindings, const uint32_t base[3],
                        const uint32_t count[3]) {
  const Pipeline* pipeline = bindings.pipeline;
  if (pipeline == nullptr || pipeline->bind_point != VK_PIPELINE_BIND_POINT_COMPUTE) {
    DUET_ERROR("vkCmdDispatch without a compute pipeline bound");
    return;
  }
  const Program& program = pipeline->compute;
  const ShaderResources resources = ResolveResources(program, bindings);
  const uint32_t total = count[0] * count[1] * count[2];
  if (total == 0) return;
  const ShaderWatchdog watchdog = DeviceWatchdog(device);
  const TraceTarget trace = FindTraceTarget(program);
  const WorkgroupContext context{program, resources.images.data(), resources.sampled.data(), count, &watchdog, trace};
  ParallelFor(total, [&](uint32_t index) {
    if (watchdog.Stopped()) return;  // the device is lost: the rest of the dispatch is moot
    thread_local std::vector<WaveState> waves;
    thread_local std::vector<std::byte> shared;
    std::vector<RootMemory> local_roots = resources.roots;  // workgroup roots differ per workgroup
    const uint32_t group[3] = {base[0] + index % count[0], base[1] + (index / count[0]) % count[1],
                               base[2] + index / (count[0] * count[1])};
    RunWorkgroup(context, local_roots, group, waves, shared);
  });
}

}  // namespace duet::spirv_exec

#include "spirv_exec/compute_dispatch.h"

#include <string>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "objects/descriptor_set.h"
#include "objects/device.h"
#include "objects/pipeline.h"
#include "spirv_exec/invocation_trace.h"
#include "spirv_exec/lane_kernels.h"
#include "spirv_exec/resource_roots.h"
#include "spirv_exec/shader_watchdog.h"
#include "spirv_exec/wave.h"
#include "util/log.h"
#include "util/thread_pool.h"
#include "util/thread_scratch.h"

namespace duet::spirv_exec {
namespace {

// The local ids of a workgroup's invocations, lane by lane of each of its
// waves (the same in every workgroup of a dispatch), so that a wave's
// built-ins are copies and additions rather than divisions per lane.
struct LocalIds {
  std::vector<uint32_t> id[3];  // x, y, z; index wave * kWaveWidth + lane
  uint32_t lane[kWaveWidth];    // 0, 1, 2...

  explicit LocalIds(const Program& p, uint32_t waves) {
    for (uint32_t l = 0; l < kWaveWidth; ++l) lane[l] = l;
    const uint32_t* size = p.local_size;
    for (auto& v : id) v.resize(size_t(waves) * kWaveWidth);
    for (uint32_t index = 0; index < waves * kWaveWidth; ++index) {
      id[0][index] = index % size[0];
      id[1][index] = (index / size[0]) % size[1];
      id[2][index] = index / (size[0] * size[1]);
    }
  }
};

// Every lane of dst = value, or base + src's lane: the lane kernels of a
// move and an add whose operand is uniform.
void Fill(uint32_t* dst, uint32_t value) {
  SelectedLaneKernels().op[uint16_t(Op::kMove)][1](dst, &value, &value, &value, kAllLanes);
}

void Offset(uint32_t* dst, const uint32_t* src, uint32_t base) {
  SelectedLaneKernels().op[uint16_t(Op::kIAdd)][2](dst, src, &base, &base, kAllLanes);
}

void FillBuiltins(const Program& p, WaveState& w, const uint32_t group[3], const uint32_t count[3],
                  const LocalIds& ids, uint32_t wave) {
  const BuiltinRegisters& b = p.builtins;
  const uint32_t* size = p.local_size;
  const uint32_t first = wave * kWaveWidth;
  for (uint32_t c = 0; c < 3; ++c) {
    const uint32_t* local = ids.id[c].data() + first;
    if (b.local_invocation_id != UINT32_MAX)
      std::memcpy(w.Register(b.local_invocation_id + c), local, kWaveWidth * sizeof(uint32_t));
    if (b.global_invocation_id != UINT32_MAX) Offset(w.Register(b.global_invocation_id + c), local, group[c] * size[c]);
    if (b.workgroup_id != UINT32_MAX) Fill(w.Register(b.workgroup_id + c), group[c]);
    if (b.num_workgroups != UINT32_MAX) Fill(w.Register(b.num_workgroups + c), count[c]);
  }
  if (b.local_invocation_index != UINT32_MAX) Offset(w.Register(b.local_invocation_index), ids.lane, first);
  // A wave holds kWaveWidth / subgroup_size whole subgroups.
  const uint32_t subgroup = p.subgroup_size;
  if (b.subgroup_id != UINT32_MAX) {
    uint32_t* id = w.Register(b.subgroup_id);
    for (uint32_t l = 0; l < kWaveWidth; ++l) id[l] = (first + l) / subgroup;
  }
  if (b.num_subgroups != UINT32_MAX)
    Fill(w.Register(b.num_subgroups), (size[0] * size[1] * size[2] + subgroup - 1) / subgroup);
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
  const LocalIds& ids;
};

// What a worker thread keeps from one workgroup to the next.
struct WorkerState {
  std::vector<WaveState> waves;
  std::vector<std::byte> shared;
  std::vector<RootMemory> roots;  // the dispatch's, with this workgroup's workgroup memory
  std::vector<uint8_t> finished;
};

void RunWorkgroup(const WorkgroupContext& c, const uint32_t group[3], WorkerState& worker) {
  const Program& p = c.program;
  const uint32_t invocations = p.local_size[0] * p.local_size[1] * p.local_size[2];
  const uint32_t wave_count = (invocations + kWaveWidth - 1) / kWaveWidth;
  std::vector<WaveState>& waves = worker.waves;
  std::vector<RootMemory>& roots = worker.roots;
  std::vector<std::byte>& shared = worker.shared;
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
    FillBuiltins(p, waves[v], group, c.count, c.ids, v);
    waves[v].workgroup_memory = shared.data();
    waves[v].workgroup_memory_size = uint32_t(shared.size());
    waves[v].watchdog = c.watchdog;
    waves[v].trace = traced_group && c.trace.local_index / kWaveWidth == v ? &c.trace.trace : nullptr;
  }
  // Without barriers each wave runs to the end at once; with them, every
  // wave runs to the next barrier before any continues past it. A wave the
  // watchdog stopped ends the workgroup.
  bool pending = true;
  std::vector<uint8_t>& finished = worker.finished;
  finished.assign(wave_count, 0);
  while (pending) {
    pending = false;
    for (uint32_t v = 0; v < wave_count; ++v) {
      if (finished[v]) continue;
      if (RunWave(p, roots.data(), c.images, c.sampled, &waves[v]) == WaveStatus::kFinished) finished[v] = 1;
      else pending = true;
      if (waves[v].aborted) return;
    }
  }
}

}  // namespace

ShaderWatchdog DeviceWatchdog(Device* device) {
  const int64_t limit_ns = device->shader_watchdog_ns;
  return ShaderWatchdog(&device->lost, limit_ns, [device, limit_ns] {
    const std::string why = "a shader wave ran longer than the watchdog limit (" + std::to_string(limit_ns / 1000000) +
                            " ms, DUET_WATCHDOG_MS), or a whole command " + std::to_string(kCommandLimitFactor) +
                            " times that";
    LoseDevice(device, why.c_str());
  });
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
  // 64 bits: 65535^3 workgroups are legal.
  const uint64_t total = uint64_t{count[0]} * count[1] * count[2];
  if (total == 0) return;
  const ShaderWatchdog watchdog = DeviceWatchdog(device);
  const TraceTarget trace = FindTraceTarget(program);
  const uint32_t invocations = program.local_size[0] * program.local_size[1] * program.local_size[2];
  const LocalIds ids(program, (invocations + kWaveWidth - 1) / kWaveWidth);
  const WorkgroupContext context{program, resources.images.data(), resources.sampled.data(), count, &watchdog, trace,
                                 ids};
  // Workgroups go to the threads in batches (a few dozen per thread), so
  // that small workgroups do not spend their time taking the next index.
  // Huge dispatches take passes of at most 2^20 batches: the watchdog stops
  // the dispatch between passes (within a pass, each remaining batch only
  // sees that it must stop), and ParallelFor counts in 32 bits.
  const uint64_t batch = std::clamp<uint64_t>(total / (ThreadCount() * 32), 1, 64);
  const uint64_t batches = (total + batch - 1) / batch;
  constexpr uint64_t kBatchesPerPass = uint64_t{1} << 20;
  const uint64_t row = count[0], plane = uint64_t{count[0]} * count[1];
  for (uint64_t first = 0; first < batches && !watchdog.Stopped(); first += kBatchesPerPass) {
    const auto pass = static_cast<uint32_t>(std::min(batches - first, kBatchesPerPass));
    ParallelFor(pass, [&](uint32_t in_pass) {
      // The device is lost, or the dispatch ran past the watchdog: the rest is moot.
      if (watchdog.CommandExpired()) return;
      WorkerState& worker = ThreadScratch<WorkerState>();
      worker.roots.assign(resources.roots.begin(), resources.roots.end());
      const uint64_t begin = (first + in_pass) * batch, end = std::min(total, begin + batch);
      for (uint64_t index = begin; index < end; ++index) {
        if (watchdog.Stopped()) return;
        const uint32_t group[3] = {base[0] + static_cast<uint32_t>(index % row),
                                   base[1] + static_cast<uint32_t>(index / row % count[1]),
                                   base[2] + static_cast<uint32_t>(index / plane)};
        RunWorkgroup(context, group, worker);
      }
    });
  }
}

}  // namespace duet::spirv_exec

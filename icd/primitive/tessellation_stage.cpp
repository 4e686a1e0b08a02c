#include "primitive/tessellation_stage.h"

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "primitive/input_assembly.h"
#include "primitive/tessellator.h"
#include "util/thread_pool.h"
#include "util/thread_scratch.h"

namespace duet::raster {

using spirv_exec::kWaveWidth;
using spirv_exec::LaneMask;
using spirv_exec::PatchField;
using spirv_exec::Program;

namespace {

constexpr uint32_t kMaxPatchVertices = 32;  // maxTessellationPatchSize

// A program's roots with its patch memory (kPatch roots) at the `size`
// bytes of records from `records`.
void SetPatchMemory(const Program& program, std::byte* records, size_t size,
                    std::vector<spirv_exec::RootMemory>* roots) {
  roots->resize(program.roots.size());
  for (size_t i = 0; i < program.roots.size(); ++i) {
    if (program.roots[i].kind != spirv_exec::RootKind::kPatch) continue;
    const uint32_t offset = program.roots[i].offset;
    (*roots)[i].base = records + std::min<size_t>(offset, size);
    (*roots)[i].range = uint32_t(std::min<size_t>(size > offset ? size - offset : 0, UINT32_MAX));
  }
}

// One scalar of a control shader's patch record that the evaluation shader
// reads: copied per vertex (vertices of them, strides apart) or once.
struct ScalarCopy {
  uint32_t from, to;
  uint32_t vertices, from_stride, to_stride;
};

// What the evaluation shader's inputs take from the control shader's
// outputs: the same built-in, or the same location and component.
std::vector<ScalarCopy> PlanCopies(const Program& control, const Program& evaluation) {
  std::vector<ScalarCopy> copies;
  auto first_of = [](const PatchField& f) { return f.location * 4 + f.component; };
  for (const PatchField& in : evaluation.patch_fields) {
    for (uint32_t j = 0; j < in.count; ++j) {
      for (const PatchField& out : control.patch_fields) {
        if ((out.vertex_stride == 0) != (in.vertex_stride == 0)) continue;
        uint32_t scalar = 0;
        if (in.builtin != UINT32_MAX) {
          if (out.builtin != in.builtin || j >= out.count) continue;
          scalar = j;
        } else {
          const uint32_t component = first_of(in) + j;
          if (out.builtin != UINT32_MAX || component < first_of(out) || component >= first_of(out) + out.count)
            continue;
          scalar = component - first_of(out);
        }
        copies.push_back({out.offset + 4 * scalar, in.offset + 4 * j, std::min(out.vertices, in.vertices),
                          out.vertex_stride, in.vertex_stride});
        break;
      }
    }
  }
  return copies;
}

// Where a control shader's tessellation levels are in its patch record.
struct LevelFields {
  explicit LevelFields(const Program& control) {
    for (const PatchField& f : control.patch_fields) {
      if (f.builtin == uint32_t(spv::BuiltIn::TessLevelOuter)) outer = &f;
      if (f.builtin == uint32_t(spv::BuiltIn::TessLevelInner)) inner = &f;
    }
  }
  void Read(const std::byte* record, float out_levels[4], float in_levels[2]) const {
    for (uint32_t i = 0; i < 4; ++i) out_levels[i] = 0.0f;
    for (uint32_t i = 0; i < 2; ++i) in_levels[i] = 0.0f;
    if (outer != nullptr) std::memcpy(out_levels, record + outer->offset, 4 * std::min(outer->count, 4u));
    if (inner != nullptr) std::memcpy(in_levels, record + inner->offset, 4 * std::min(inner->count, 2u));
  }
  const PatchField* outer = nullptr;
  const PatchField* inner = nullptr;
};

// Runs the control shader over `patches` patches into their records.
bool ShadeControl(const TessellationStage& stage, const ShadedVertices& vertices, const std::vector<uint32_t>& slots,
                  size_t patches, std::vector<std::byte>* records) {
  const Program& program = *stage.control;
  const uint32_t n = std::clamp(stage.patch_control_points, 1u, kMaxPatchVertices);
  const uint32_t m = std::clamp(stage.modes.output_vertices, 1u, kMaxPatchVertices);
  const size_t record = program.patch_record_size;
  records->assign(patches * record, std::byte{0});
  const PerVertexInputs inputs(program);
  // Whole patches to a wave: their invocations meet at barriers together.
  const uint32_t per_wave = kWaveWidth / m;
  const size_t waves = (patches + per_wave - 1) / per_wave;
  constexpr size_t kWavesPerJob = 4;
  const uint32_t jobs = uint32_t((waves + kWavesPerJob - 1) / kWavesPerJob);
  std::atomic<bool> aborted{false};
  ParallelFor(jobs, [&](uint32_t job) {
    spirv_exec::WaveState wave;
    std::vector<spirv_exec::RootMemory> roots = stage.control_resources->roots;
    const size_t end = std::min(waves, size_t(job + 1) * kWavesPerJob);
    for (size_t w = size_t(job) * kWavesPerJob; w < end; ++w) {
      const size_t first = w * per_wave;
      const uint32_t count = uint32_t(std::min<size_t>(per_wave, patches - first));
      // The wave's patches only: an index past a patch's arrays cannot
      // reach the patches other threads are writing.
      SetPatchMemory(program, records->data() + first * record, count * record, &roots);
      const uint32_t lanes = count * m;
      const LaneMask launched = lanes == kWaveWidth ? spirv_exec::kAllLanes : (LaneMask{1} << lanes) - 1;
      spirv_exec::ResetWave(program, launched, &wave);
      for (uint32_t l = 0; l < lanes; ++l) {
        const size_t patch = first + l / m;
        for (uint32_t k = 0; k < n; ++k)
          LoadInputVertex(inputs, program, *stage.input_layout, vertices.Vertex(slots[patch * n + k]), k, l, wave);
        if (inputs.primitive_id != UINT32_MAX) wave.Register(inputs.primitive_id)[l] = uint32_t(patch);
        if (inputs.invocation_id != UINT32_MAX) wave.Register(inputs.invocation_id)[l] = l % m;
        if (inputs.patch_vertices != UINT32_MAX) wave.Register(inputs.patch_vertices)[l] = n;
        if (inputs.view_index != UINT32_MAX) wave.Register(inputs.view_index)[l] = stage.view_index;
        if (program.patch_base_register != UINT32_MAX)
          wave.Register(program.patch_base_register)[l] = uint32_t((patch - first) * record);
      }
      const spirv_exec::ShaderResources& r = *stage.control_resources;
      // A barrier: every invocation of the wave's patches is there.
      while (spirv_exec::RunWave(program, roots.data(), r.images.data(), r.sampled.data(), &wave) !=
             spirv_exec::WaveStatus::kFinished) {
      }
      if (wave.aborted) {
        aborted = true;
        return;
      }
    }
  });
  return !aborted;
}

// The domain points of every patch, with the patch each belongs to.
struct DomainPoints {
  PatchTessellation tessellation;
  std::vector<uint32_t> patch_of;  // per point
};

// A thread's records and points, kept from draw to draw.
struct TessellationScratch {
  std::vector<std::byte> control_records, evaluation_records;
  DomainPoints points;
};

void TessellatePatches(const TessellationStage& stage, const std::vector<std::byte>& control_records,
                       size_t patches, DomainPoints* out) {
  const LevelFields levels(*stage.control);
  const uint32_t record = stage.control->patch_record_size;
  constexpr size_t kPatchesPerJob = 64;
  const uint32_t jobs = uint32_t((patches + kPatchesPerJob - 1) / kPatchesPerJob);
  std::vector<DomainPoints> parts(jobs);
  ParallelFor(jobs, [&](uint32_t job) {
    DomainPoints& part = parts[job];
    const size_t end = std::min(patches, size_t(job + 1) * kPatchesPerJob);
    for (size_t patch = size_t(job) * kPatchesPerJob; patch < end; ++patch) {
      float outer[4], inner[2];
      levels.Read(control_records.data() + patch * record, outer, inner);
      TessellatePatch(stage.modes, stage.lower_left, outer, inner, &part.tessellation);
      part.patch_of.resize(part.tessellation.coords.size() / 3, uint32_t(patch));
    }
  });
  out->tessellation.coords.clear();
  out->tessellation.indices.clear();
  out->patch_of.clear();
  for (const DomainPoints& part : parts) {
    const uint32_t base = uint32_t(out->patch_of.size());
    const std::vector<float>& coords = part.tessellation.coords;
    out->tessellation.coords.insert(out->tessellation.coords.end(), coords.begin(), coords.end());
    for (uint32_t index : part.tessellation.indices) out->tessellation.indices.push_back(base + index);
    out->patch_of.insert(out->patch_of.end(), part.patch_of.begin(), part.patch_of.end());
  }
}

// The evaluation shader's patch records, from the control shader's.
void CopyRecords(const Program& control, const Program& evaluation, const std::vector<std::byte>& from,
                 size_t patches, std::vector<std::byte>* to) {
  const std::vector<ScalarCopy> copies = PlanCopies(control, evaluation);
  const uint32_t from_record = control.patch_record_size, to_record = evaluation.patch_record_size;
  to->assign(patches * to_record, std::byte{0});
  for (size_t patch = 0; patch < patches; ++patch) {
    const std::byte* src = from.data() + patch * from_record;
    std::byte* dst = to->data() + patch * to_record;
    for (const ScalarCopy& c : copies)
      for (uint32_t v = 0; v < c.vertices; ++v)
        std::memcpy(dst + c.to + v * c.to_stride, src + c.from + v * c.from_stride, 4);
  }
}

bool ShadeEvaluation(const TessellationStage& stage, const DomainPoints& points, std::vector<std::byte>& records,
                     ShadedVertices* out) {
  const Program& program = *stage.evaluation;
  const OutputRegisters outputs(program);
  const uint32_t tess_coord = program.BuiltinInput(uint32_t(spv::BuiltIn::TessCoord));
  const uint32_t primitive_id = program.BuiltinInput(uint32_t(spv::BuiltIn::PrimitiveId));
  const uint32_t patch_vertices = program.BuiltinInput(uint32_t(spv::BuiltIn::PatchVertices));
  const uint32_t view_index = program.BuiltinInput(uint32_t(spv::BuiltIn::ViewIndex));
  uint32_t tess_coord_count = 0;
  for (const spirv_exec::BuiltinSlot& b : program.builtin_inputs)
    if (b.builtin == uint32_t(spv::BuiltIn::TessCoord)) tess_coord_count = std::min(b.count, 3u);
  const size_t record = program.patch_record_size;
  const uint32_t control_vertices = stage.modes.output_vertices;
  std::vector<spirv_exec::RootMemory> roots = stage.evaluation_resources->roots;
  SetPatchMemory(program, records.data(), records.size(), &roots);
  const size_t count = points.patch_of.size();
  out->stride = kVaryingsOffset + stage.output_layout->floats;
  out->data.assign(count * out->stride, 0.0f);
  constexpr size_t kWavesPerJob = 4;
  const size_t waves = (count + kWaveWidth - 1) / kWaveWidth;
  const uint32_t jobs = uint32_t((waves + kWavesPerJob - 1) / kWavesPerJob);
  std::atomic<bool> aborted{false};
  ParallelFor(jobs, [&](uint32_t job) {
    spirv_exec::WaveState wave;
    const size_t end = std::min(count, size_t(job + 1) * kWavesPerJob * kWaveWidth);
    for (size_t first = size_t(job) * kWavesPerJob * kWaveWidth; first < end; first += kWaveWidth) {
      const uint32_t lanes = uint32_t(std::min<size_t>(kWaveWidth, count - first));
      const LaneMask launched = lanes == kWaveWidth ? spirv_exec::kAllLanes : (LaneMask{1} << lanes) - 1;
      spirv_exec::ResetWave(program, launched, &wave);
      for (uint32_t c = 0; c < tess_coord_count; ++c) {
        uint32_t* reg = wave.Register(tess_coord + c);
        for (uint32_t l = 0; l < lanes; ++l) std::memcpy(&reg[l], &points.tessellation.coords[(first + l) * 3 + c], 4);
      }
      for (uint32_t l = 0; l < lanes; ++l) {
        const uint32_t patch = points.patch_of[first + l];
        if (primitive_id != UINT32_MAX) wave.Register(primitive_id)[l] = patch;
        if (patch_vertices != UINT32_MAX) wave.Register(patch_vertices)[l] = control_vertices;
        if (view_index != UINT32_MAX) wave.Register(view_index)[l] = stage.view_index;
        // (Reads only: every wave sees every record.)
        if (program.patch_base_register != UINT32_MAX)
          wave.Register(program.patch_base_register)[l] = uint32_t(std::min<size_t>(patch * record, UINT32_MAX));
      }
      const spirv_exec::ShaderResources& r = *stage.evaluation_resources;
      spirv_exec::RunWave(program, roots.data(), r.images.data(), r.sampled.data(), &wave);
      if (wave.aborted) {
        aborted = true;
        return;
      }
      for (uint32_t l = 0; l < lanes; ++l)
        StoreShadedVertex(outputs, *stage.output_layout, wave, l, out->Vertex(uint32_t(first + l)));
    }
  });
  return !aborted;
}

}  // namespace

void Tessellate(const TessellationStage& stage, const ShadedVertices& vertices, const std::vector<uint32_t>& slots,
                TessellationOutput* out) {
  const uint32_t n = std::clamp(stage.patch_control_points, 1u, kMaxPatchVertices);
  out->topology = TessellationTopology(stage.modes);
  out->indices.clear();
  out->vertices.data.clear();
  out->vertices.stride = kVaryingsOffset + stage.output_layout->floats;
  // Patches of n vertices from each run between primitive restarts
  // (primitiveTopologyPatchListRestart): a restart drops the unfinished
  // patch before it, as in the other list topologies.
  std::vector<uint32_t> patch_slots;
  patch_slots.reserve(slots.size());
  ForEachRun(slots, [&](std::span<const uint32_t> run) {
    patch_slots.insert(patch_slots.end(), run.begin(), run.begin() + ptrdiff_t(run.size() / n * n));
  });
  const size_t patches = patch_slots.size() / n;
  out->patches = patches;
  out->evaluations = 0;
  if (patches == 0) return;

  TessellationScratch& scratch = ThreadScratch<TessellationScratch>();
  std::vector<std::byte>& control_records = scratch.control_records;
  std::vector<std::byte>& evaluation_records = scratch.evaluation_records;
  if (!ShadeControl(stage, vertices, patch_slots, patches, &control_records)) return;
  DomainPoints& points = scratch.points;
  TessellatePatches(stage, control_records, patches, &points);
  CopyRecords(*stage.control, *stage.evaluation, control_records, patches, &evaluation_records);
  if (!ShadeEvaluation(stage, points, evaluation_records, &out->vertices)) return;
  out->evaluations = points.patch_of.size();
  out->indices = points.tessellation.indices;
}

}  // namespace duet::raster

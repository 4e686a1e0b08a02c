#include "primitive/geometry_stage.h"

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cstring>
#include <memory>
#include <span>

#include "primitive/input_assembly.h"
#include "util/thread_pool.h"

namespace duet::raster {

using spirv_exec::kWaveWidth;
using spirv_exec::LaneMask;
using spirv_exec::Program;

namespace {

// What the lanes of one wave emitted, kept apart per lane until the wave
// ends so that the strips come out in lane order.
struct LaneEmissions {
  std::vector<float> data[kWaveWidth];  // vertices, stride floats each
  // Per stream: lane-local vertex numbers, UINT32_MAX ends a strip.
  std::vector<uint32_t> indices[4][kWaveWidth];
  uint32_t emitted[kWaveWidth] = {};
  void Clear() {
    for (uint32_t l = 0; l < kWaveWidth; ++l) {
      data[l].clear();
      for (auto& stream : indices) stream[l].clear();
      emitted[l] = 0;
    }
  }
};

// Appends `from` (vertex numbers from 0, UINT32_MAX between strips) to
// `to` as numbers from `base`.
void AppendRebased(std::span<const uint32_t> from, uint32_t base, std::vector<uint32_t>* to) {
  for (uint32_t index : from) to->push_back(index == UINT32_MAX ? index : base + index);
}

VkPrimitiveTopology OutputTopology(const Program& program) {
  switch (program.geometry.output) {
    case spirv_exec::GeometryModes::Output::kPoints: return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    case spirv_exec::GeometryModes::Output::kLineStrip: return VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    default: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  }
}

}  // namespace

void ShadeGeometry(const GeometryStage& stage, const ShadedVertices& vertices, const std::vector<uint32_t>& primitives,
                   uint32_t per_primitive, GeometryOutput* out) {
  const Program& program = *stage.program;
  const PerVertexInputs inputs(program);
  const OutputRegisters outputs(program);
  const VaryingLayout& in_layout = *stage.input_layout;
  const VaryingLayout& out_layout = *stage.output_layout;
  const uint32_t stride = kVaryingsOffset + out_layout.floats;
  const uint32_t invocations = program.geometry.invocations;
  const uint32_t max_vertices = program.geometry.output_vertices;
  const uint32_t shader_vertices = program.geometry.input_vertices;
  const size_t count = per_primitive != 0 ? primitives.size() / per_primitive : 0;
  const size_t lanes_total = count * invocations;

  out->topology = OutputTopology(program);
  out->vertices.stride = stride;
  out->vertices.data.clear();
  for (std::vector<uint32_t>& stream : out->indices) stream.clear();
  out->invocations = lanes_total;
  out->primitives = 0;

  // Jobs of waves on the pool, each with its own output, joined in order.
  constexpr size_t kWavesPerJob = 4;
  const size_t waves = (lanes_total + kWaveWidth - 1) / kWaveWidth;
  const uint32_t jobs = uint32_t((waves + kWavesPerJob - 1) / kWavesPerJob);
  std::vector<GeometryOutput> parts(jobs);
  ParallelFor(jobs, [&](uint32_t job) {
    GeometryOutput& part = parts[job];
    spirv_exec::WaveState wave;
    const std::unique_ptr<LaneEmissions> emissions = std::make_unique<LaneEmissions>();
    LaneEmissions& lanes_out = *emissions;
    const size_t end = std::min(lanes_total, size_t(job + 1) * kWavesPerJob * kWaveWidth);
    for (size_t first = size_t(job) * kWavesPerJob * kWaveWidth; first < end; first += kWaveWidth) {
      const uint32_t lanes = uint32_t(std::min<size_t>(kWaveWidth, lanes_total - first));
      const LaneMask launched = lanes == kWaveWidth ? spirv_exec::kAllLanes : (LaneMask{1} << lanes) - 1;
      spirv_exec::ResetWave(program, launched, &wave);
      for (uint32_t l = 0; l < lanes; ++l) {
        const size_t primitive = (first + l) / invocations;
        const uint32_t invocation = uint32_t((first + l) % invocations);
        for (uint32_t k = 0; k < shader_vertices; ++k) {
          // A primitive with fewer vertices than the shader takes (a
          // topology that does not match it: invalid) repeats its last one.
          const uint32_t slot = primitives[primitive * per_primitive + std::min(k, per_primitive - 1)];
          LoadInputVertex(inputs, program, in_layout, vertices.Vertex(slot), k, l, wave);
        }
        if (inputs.primitive_id != UINT32_MAX) wave.Register(inputs.primitive_id)[l] = uint32_t(primitive);
        if (inputs.invocation_id != UINT32_MAX) wave.Register(inputs.invocation_id)[l] = invocation;
        if (inputs.view_index != UINT32_MAX) wave.Register(inputs.view_index)[l] = stage.view_index;
      }
      lanes_out.Clear();
      const spirv_exec::ShaderResources& r = *stage.resources;
      while (spirv_exec::RunWave(program, r.roots.data(), r.images.data(), r.sampled.data(), &wave) ==
             spirv_exec::WaveStatus::kEmit) {
        const spirv_exec::Inst& emit = program.code[wave.pc - 1];
        if (emit.aux >= 4) continue;  // beyond maxTransformFeedbackStreams (invalid)
        for (uint32_t l = 0; l < lanes; ++l) {
          if (((wave.active >> l) & 1) == 0) continue;
          std::vector<uint32_t>& strip = lanes_out.indices[emit.aux][l];
          if (emit.ext != 0) {
            if (!strip.empty() && strip.back() != UINT32_MAX) strip.push_back(UINT32_MAX);
            continue;
          }
          // Vertices past OutputVertices are dropped (their effect is undefined).
          if (lanes_out.emitted[l] >= max_vertices) continue;
          std::vector<float>& data = lanes_out.data[l];
          data.resize(data.size() + stride, 0.0f);
          StoreShadedVertex(outputs, out_layout, wave, l, &data[data.size() - stride]);
          strip.push_back(lanes_out.emitted[l]++);
        }
      }
      if (wave.aborted) return;
      for (uint32_t l = 0; l < lanes; ++l) {
        if (lanes_out.emitted[l] == 0) continue;
        const uint32_t base = uint32_t(part.vertices.data.size() / stride);
        part.vertices.data.insert(part.vertices.data.end(), lanes_out.data[l].begin(), lanes_out.data[l].end());
        for (uint32_t s = 0; s < 4; ++s) {
          std::vector<uint32_t>& to = part.indices[s];
          AppendRebased(lanes_out.indices[s][l], base, &to);
          if (!to.empty() && to.back() != UINT32_MAX) to.push_back(UINT32_MAX);
        }
      }
    }
  });
  for (const GeometryOutput& part : parts) {
    const uint32_t base = uint32_t(out->vertices.data.size() / stride);
    out->vertices.data.insert(out->vertices.data.end(), part.vertices.data.begin(), part.vertices.data.end());
    for (uint32_t s = 0; s < 4; ++s) AppendRebased(part.indices[s], base, &out->indices[s]);
  }
  // The primitives of the strips (pipeline statistics).
  for (const std::vector<uint32_t>& indices : out->indices) out->primitives += StripPrimitives(out->topology, indices);
}

}  // namespace duet::raster

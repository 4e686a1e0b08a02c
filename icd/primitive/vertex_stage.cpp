#include "primitive/vertex_stage.h"

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cstring>

#include "objects/buffer.h"
#include "texel/texel_codec.h"
#include "util/thread_pool.h"

namespace duet::raster {

using spirv_exec::kWaveWidth;
using spirv_exec::Program;

namespace {

uint32_t BuiltinOutputCount(const Program& program, spv::BuiltIn builtin) {
  for (const spirv_exec::BuiltinSlot& b : program.builtin_outputs)
    if (b.builtin == uint32_t(builtin)) return b.count;
  return 0;
}

// One Varying per fragment shader input slot, fed by the vertex shader
// outputs at its location and components.
void MatchFragmentInputs(const Program& vertex, const Program& fragment, VaryingLayout* result) {
  VaryingLayout& layout = *result;
  for (const spirv_exec::InterfaceSlot& in : fragment.inputs) {
    VaryingLayout::Varying v;
    v.count = std::min(in.count, uint32_t(v.vertex_registers.size()));
    v.offset = layout.floats;
    // Components numbered across locations (location * 4 + component): a
    // slot of more than four registers (64-bit vectors) runs on into the next location.
    auto first_of = [](const spirv_exec::InterfaceSlot& s) { return s.location * 4 + s.component; };
    for (uint32_t c = 0; c < v.count; ++c) {
      const uint32_t component = first_of(in) + c;
      for (const spirv_exec::InterfaceSlot& out : vertex.outputs)
        if (first_of(out) <= component && component < first_of(out) + out.count)
          v.vertex_registers[c] = out.reg + (component - first_of(out));
    }
    layout.floats += in.count;
    layout.varyings.push_back(v);
  }
}

}  // namespace

VaryingLayout MatchVaryings(const Program& producer, const Program* consumer) {
  VaryingLayout layout;
  if (consumer != nullptr) MatchFragmentInputs(producer, *consumer, &layout);
  layout.clip_offset = layout.floats;
  layout.clip_count = BuiltinOutputCount(producer, spv::BuiltIn::ClipDistance);
  layout.floats += layout.clip_count;
  layout.cull_offset = layout.floats;
  layout.cull_count = BuiltinOutputCount(producer, spv::BuiltIn::CullDistance);
  layout.floats += layout.cull_count;
  if (BuiltinOutputCount(producer, spv::BuiltIn::ViewportIndex) != 0) layout.viewport_index_offset = layout.floats++;
  if (BuiltinOutputCount(producer, spv::BuiltIn::Layer) != 0) layout.layer_offset = layout.floats++;
  if (BuiltinOutputCount(producer, spv::BuiltIn::PrimitiveId) != 0 && consumer != nullptr &&
      consumer->stage == spirv_exec::ShaderStage::kFragment &&
      consumer->BuiltinInput(uint32_t(spv::BuiltIn::PrimitiveId)) != UINT32_MAX)
    layout.primitive_id_offset = layout.floats++;
  // Transform feedback captures the last stage's outputs (not a vertex
  // shader's that a geometry shader follows).
  if (producer.transform_feedback && !producer.xfb_outputs.empty() &&
      (consumer == nullptr || consumer->stage == spirv_exec::ShaderStage::kFragment)) {
    layout.xfb_offset = layout.floats;
    for (const spirv_exec::XfbOutput& out : producer.xfb_outputs) layout.floats += out.count;
  }
  return layout;
}

OutputRegisters::OutputRegisters(const Program& program)
    : position(program.BuiltinOutput(uint32_t(spv::BuiltIn::Position))),
      point_size(program.BuiltinOutput(uint32_t(spv::BuiltIn::PointSize))),
      clip_distances(program.BuiltinOutput(uint32_t(spv::BuiltIn::ClipDistance))),
      cull_distances(program.BuiltinOutput(uint32_t(spv::BuiltIn::CullDistance))),
      viewport_index(program.BuiltinOutput(uint32_t(spv::BuiltIn::ViewportIndex))),
      layer(program.BuiltinOutput(uint32_t(spv::BuiltIn::Layer))),
      primitive_id(program.BuiltinOutput(uint32_t(spv::BuiltIn::PrimitiveId))),
      xfb(&program.xfb_outputs) {}

void StoreShadedVertex(const OutputRegisters& o, const VaryingLayout& layout, spirv_exec::WaveState& wave,
                       uint32_t lane, float* v) {
  const uint32_t l = lane;
  if (o.position != UINT32_MAX)
    for (uint32_t c = 0; c < 4; ++c) std::memcpy(&v[c], &wave.Register(o.position + c)[l], 4);
  v[4] = 1.0f;
  if (o.point_size != UINT32_MAX) std::memcpy(&v[4], &wave.Register(o.point_size)[l], 4);
  for (const VaryingLayout::Varying& varying : layout.varyings) {
    for (uint32_t c = 0; c < varying.count; ++c)
      if (varying.vertex_registers[c] != UINT32_MAX)
        std::memcpy(&v[kVaryingsOffset + varying.offset + c], &wave.Register(varying.vertex_registers[c])[l], 4);
  }
  for (uint32_t i = 0; i < layout.clip_count; ++i)
    std::memcpy(&v[kVaryingsOffset + layout.clip_offset + i], &wave.Register(o.clip_distances + i)[l], 4);
  for (uint32_t i = 0; i < layout.cull_count; ++i)
    std::memcpy(&v[kVaryingsOffset + layout.cull_offset + i], &wave.Register(o.cull_distances + i)[l], 4);
  if (layout.viewport_index_offset != UINT32_MAX)
    std::memcpy(&v[kVaryingsOffset + layout.viewport_index_offset], &wave.Register(o.viewport_index)[l], 4);
  if (layout.layer_offset != UINT32_MAX)
    std::memcpy(&v[kVaryingsOffset + layout.layer_offset], &wave.Register(o.layer)[l], 4);
  if (layout.primitive_id_offset != UINT32_MAX)
    std::memcpy(&v[kVaryingsOffset + layout.primitive_id_offset], &wave.Register(o.primitive_id)[l], 4);
  if (layout.xfb_offset != UINT32_MAX) {
    float* to = &v[kVaryingsOffset + layout.xfb_offset];
    for (const spirv_exec::XfbOutput& out : *o.xfb)
      for (uint32_t c = 0; c < out.count; ++c) std::memcpy(to++, &wave.Register(out.reg + c)[l], 4);
  }
}

namespace {

const spirv_exec::BuiltinSlot* FindBuiltinInput(const Program& program, spv::BuiltIn builtin) {
  for (const spirv_exec::BuiltinSlot& b : program.builtin_inputs)
    if (b.builtin == uint32_t(builtin)) return &b;
  return nullptr;
}

}  // namespace

PerVertexInputs::PerVertexInputs(const Program& p)
    : position(FindBuiltinInput(p, spv::BuiltIn::Position)),
      point_size(FindBuiltinInput(p, spv::BuiltIn::PointSize)),
      clip_distances(FindBuiltinInput(p, spv::BuiltIn::ClipDistance)),
      cull_distances(FindBuiltinInput(p, spv::BuiltIn::CullDistance)),
      primitive_id(p.BuiltinInput(uint32_t(spv::BuiltIn::PrimitiveId))),
      invocation_id(p.BuiltinInput(uint32_t(spv::BuiltIn::InvocationId))),
      view_index(p.BuiltinInput(uint32_t(spv::BuiltIn::ViewIndex))),
      patch_vertices(p.BuiltinInput(uint32_t(spv::BuiltIn::PatchVertices))) {}

void LoadInputVertex(const PerVertexInputs& in, const Program& program, const VaryingLayout& layout, const float* v,
                     uint32_t k, uint32_t l, spirv_exec::WaveState& wave) {
  auto put = [&](uint32_t reg, float value) { std::memcpy(&wave.Register(reg)[l], &value, 4); };
  // Vertices past a per-vertex array (a patch larger than the shader takes: invalid) are not loaded.
  auto has = [k](const auto& slot) { return slot.vertex_stride == 0 ? k == 0 : k < slot.vertex_count; };
  if (in.position != nullptr && has(*in.position))
    for (uint32_t c = 0; c < 4 && c < in.position->count; ++c) put(in.position->reg + k * in.position->vertex_stride + c, v[c]);
  if (in.point_size != nullptr && has(*in.point_size)) put(in.point_size->reg + k * in.point_size->vertex_stride, v[4]);
  if (in.clip_distances != nullptr && has(*in.clip_distances))
    for (uint32_t i = 0; i < in.clip_distances->count; ++i)
      put(in.clip_distances->reg + k * in.clip_distances->vertex_stride + i,
          i < layout.clip_count ? v[kVaryingsOffset + layout.clip_offset + i] : 0.0f);
  if (in.cull_distances != nullptr && has(*in.cull_distances))
    for (uint32_t i = 0; i < in.cull_distances->count; ++i)
      put(in.cull_distances->reg + k * in.cull_distances->vertex_stride + i,
          i < layout.cull_count ? v[kVaryingsOffset + layout.cull_offset + i] : 0.0f);
  for (size_t j = 0; j < program.inputs.size() && j < layout.varyings.size(); ++j) {
    const spirv_exec::InterfaceSlot& slot = program.inputs[j];
    const VaryingLayout::Varying& varying = layout.varyings[j];
    if (!has(slot)) continue;
    for (uint32_t c = 0; c < varying.count; ++c)
      std::memcpy(&wave.Register(slot.reg + k * slot.vertex_stride + c)[l], &v[kVaryingsOffset + varying.offset + c], 4);
  }
}

namespace {

struct AttributeFetch {
  const std::byte* base = nullptr;  // buffer data + binding offset + attribute offset
  VkDeviceSize stride = 0;
  VkDeviceSize limit = 0;           // bytes readable from base
  bool per_instance = false;
  uint32_t divisor = 1;
  const texel::TexelCodec* codec = nullptr;
  uint32_t reg = 0, count = 0;      // destination registers
  uint32_t component = 0;           // the first of the attribute's components they take
};

std::vector<AttributeFetch> PlanFetches(const DrawBindings& bindings, const GraphicsState& state,
                                        const Program& program) {
  std::vector<AttributeFetch> fetches;
  for (const VkVertexInputAttributeDescription& attribute : state.vertex_input.attributes) {
    const VkVertexInputBindingDescription* binding = nullptr;
    uint32_t divisor = 1;
    for (size_t b = 0; b < state.vertex_input.bindings.size(); ++b) {
      if (state.vertex_input.bindings[b].binding != attribute.binding) continue;
      binding = &state.vertex_input.bindings[b];
      divisor = state.vertex_input.divisors[b];
    }
    if (binding == nullptr || binding->binding >= kMaxVertexBindings) continue;
    const VertexBufferBinding& vb = bindings.vertex_buffers[binding->binding];
    AttributeFetch f;
    f.codec = texel::GetTexelCodec(attribute.format);
    if (f.codec == nullptr) continue;  // not a vertex format (invalid usage): the input stays zero
    if (vb.buffer != nullptr && vb.buffer->Data() != nullptr) {
      f.base = vb.buffer->Data() + vb.offset + attribute.offset;
      const VkDeviceSize end = vb.buffer->size;
      f.limit = end > vb.offset + attribute.offset ? end - vb.offset - attribute.offset : 0;
    }
    f.stride = state.vertex_input.dynamic_strides && vb.has_stride ? vb.stride : binding->stride;
    f.per_instance = binding->inputRate == VK_VERTEX_INPUT_RATE_INSTANCE;
    f.divisor = divisor;
    // Every input at the attribute's location takes its components (inputs
    // with Component decorations share a location).
    for (const spirv_exec::InterfaceSlot& slot : program.inputs) {
      if (slot.location != attribute.location) continue;
      f.reg = slot.reg;
      f.count = slot.count;
      f.component = slot.component;
      fetches.push_back(f);
    }
  }
  return fetches;
}

}  // namespace

void ShadeVertices(const DrawBindings& bindings, const GraphicsState& state, const Program& program,
                   const spirv_exec::ShaderResources& resources, const VaryingLayout& layout,
                   const std::vector<uint32_t>& vertex_ids, uint32_t instance, const DrawCall& draw,
                   uint32_t view_index, ShadedVertices* out) {
  const std::vector<AttributeFetch> fetches = PlanFetches(bindings, state, program);
  const OutputRegisters outputs(program);
  const uint32_t vertex_index = program.BuiltinInput(uint32_t(spv::BuiltIn::VertexIndex));
  const uint32_t instance_index = program.BuiltinInput(uint32_t(spv::BuiltIn::InstanceIndex));
  const uint32_t base_vertex = program.BuiltinInput(uint32_t(spv::BuiltIn::BaseVertex));
  const uint32_t base_instance = program.BuiltinInput(uint32_t(spv::BuiltIn::BaseInstance));
  const uint32_t draw_index = program.BuiltinInput(uint32_t(spv::BuiltIn::DrawIndex));
  const uint32_t view = program.BuiltinInput(uint32_t(spv::BuiltIn::ViewIndex));

  out->stride = kVaryingsOffset + layout.floats;
  out->data.assign(size_t(out->stride) * vertex_ids.size(), 0.0f);
  // Waves of vertices are independent: batches of them run on the pool.
  constexpr size_t kWavesPerJob = 16;
  const size_t waves = (vertex_ids.size() + kWaveWidth - 1) / kWaveWidth;
  ParallelFor(uint32_t((waves + kWavesPerJob - 1) / kWavesPerJob), [&](uint32_t job) {
    spirv_exec::WaveState wave;
    const size_t end = std::min(vertex_ids.size(), size_t(job + 1) * kWavesPerJob * kWaveWidth);
    for (size_t first = size_t(job) * kWavesPerJob * kWaveWidth; first < end; first += kWaveWidth) {
      const uint32_t lanes = uint32_t(std::min<size_t>(kWaveWidth, vertex_ids.size() - first));
      const spirv_exec::LaneMask launched =
          lanes == kWaveWidth ? spirv_exec::kAllLanes : (spirv_exec::LaneMask{1} << lanes) - 1;
      spirv_exec::ResetWave(program, launched, &wave);
      for (uint32_t l = 0; l < lanes; ++l) {
        const uint32_t id = vertex_ids[first + l];
        auto set = [&](uint32_t reg, uint32_t value) {
          if (reg != UINT32_MAX) wave.Register(reg)[l] = value;
        };
        set(vertex_index, id);
        set(instance_index, instance);
        set(base_vertex, draw.indexed ? uint32_t(draw.vertex_offset) : draw.first);
        set(base_instance, draw.first_instance);
        set(draw_index, draw.draw_index);
        set(view, view_index);
        for (const AttributeFetch& f : fetches) {
          const uint32_t element = f.per_instance ? (f.divisor == 0 ? draw.first_instance
                                                                     : draw.first_instance +
                                                                           (instance - draw.first_instance) / f.divisor)
                                                  : id;
          // Robust buffer access: attributes beyond the buffer, or of a null
          // one (nullDescriptor), read zero with alpha 1 where the format has none.
          const VkDeviceSize at = VkDeviceSize(element) * f.stride;
          const bool in_bounds = f.base != nullptr && at + f.codec->texel_size <= f.limit;
          if (f.codec->channel_bits[0] == 64) {
            // 64-bit formats feed 64-bit inputs bit for bit: two registers per
            // channel, low word first (Component counts 32-bit words).
            uint32_t words[8] = {};
            if (in_bounds) std::memcpy(words, f.base + at, std::min<size_t>(f.codec->texel_size, sizeof words));
            for (uint32_t c = 0; c < f.count && f.component + c < 8; ++c)
              wave.Register(f.reg + c)[l] = words[f.component + c];
            continue;
          }
          texel::TexelValue value = texel::OutOfBoundsTexel(f.codec);
          if (in_bounds) f.codec->unpack(f.base + at, &value, 1);
          for (uint32_t c = 0; c < f.count && f.component + c < 4; ++c)
            wave.Register(f.reg + c)[l] = value.u[f.component + c];
        }
      }
      spirv_exec::RunWave(program, resources.roots.data(), resources.images.data(), resources.sampled.data(), &wave);
      for (uint32_t l = 0; l < lanes; ++l) StoreShadedVertex(outputs, layout, wave, l, out->Vertex(uint32_t(first + l)));
    }
  });
}

}  // namespace duet::raster

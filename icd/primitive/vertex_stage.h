// Vertex fetch and shading. Vertices are shaded in waves; an indexed draw
// shades each distinct index once per instance (a post-transform cache).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "raster/draw.h"
#include "spirv_exec/ir.h"
#include "spirv_exec/wave.h"

namespace duet::raster {

// How the fragment shader's inputs map to vertex shader outputs: for each
// fragment input slot (in order), the vertex output register of each of its
// components (by location and component: one input may gather several
// outputs that share a location, and the other way round).
struct VaryingLayout {
  static constexpr std::array<uint32_t, 8> FilledWithNone() {
    std::array<uint32_t, 8> a{};
    a.fill(UINT32_MAX);
    return a;
  }
  struct Varying {
    // UINT32_MAX: a component the vertex shader does not write (reads 0).
    // Up to 8: a 64-bit dvec3 or dvec4 slot runs on into the next location.
    std::array<uint32_t, 8> vertex_registers = FilledWithNone();
    uint32_t count = 0;
    uint32_t offset = 0;  // in floats, within a vertex's varyings
  };
  std::vector<Varying> varyings;  // the fragment shader's inputs, in order
  // After them, the vertex shader's ClipDistance and CullDistance arrays
  // (offsets in floats within a vertex's varyings): clipping interpolates
  // them with the rest, and fragment shaders may read them.
  uint32_t clip_offset = 0, clip_count = 0;
  uint32_t cull_offset = 0, cull_count = 0;
  // Then the ViewportIndex and Layer it writes, as integers (UINT32_MAX:
  // not written); the provoking vertex's pick the primitive's viewport and
  // layer.
  uint32_t viewport_index_offset = UINT32_MAX, layer_offset = UINT32_MAX;
  // A geometry shader's PrimitiveId output, as an integer, when the
  // fragment shader reads PrimitiveId (UINT32_MAX: not carried).
  uint32_t primitive_id_offset = UINT32_MAX;
  // The outputs transform feedback captures (Program::xfb_outputs, their
  // registers one after the other), when the last pre-rasterization stage
  // has them (UINT32_MAX: none).
  uint32_t xfb_offset = UINT32_MAX;
  uint32_t floats = 0;  // per vertex
};

// How the outputs of `producer` (a vertex or geometry shader) feed the
// inputs of `consumer` (a geometry or fragment shader; none: no fragment
// shader). A geometry shader's per-vertex inputs match like a fragment
// shader's inputs: `varyings` holds one entry per slot of consumer->inputs.
VaryingLayout MatchVaryings(const spirv_exec::Program& producer, const spirv_exec::Program* consumer);

// The output registers of a vertex or geometry shader, found once per draw.
struct OutputRegisters {
  explicit OutputRegisters(const spirv_exec::Program& program);
  uint32_t position, point_size, clip_distances, cull_distances, viewport_index, layer, primitive_id;
  const std::vector<spirv_exec::XfbOutput>* xfb;
};

// Shaded vertices: per vertex `stride` floats: clip position (4), point
// size (1), then the varyings of the layout.
struct ShadedVertices {
  uint32_t stride = 0;
  std::vector<float> data;
  const float* Vertex(uint32_t i) const { return &data[size_t(i) * stride]; }
  float* Vertex(uint32_t i) { return &data[size_t(i) * stride]; }
};
inline constexpr uint32_t kVaryingsOffset = 5;

// Lane `lane`'s outputs in `wave` as a shaded vertex `v` (stride floats).
void StoreShadedVertex(const OutputRegisters& outputs, const VaryingLayout& layout, spirv_exec::WaveState& wave,
                       uint32_t lane, float* v);

// The registers a geometry or tessellation control shader reads its
// per-vertex inputs (gl_in[], arrays over the vertices it takes) and its
// other built-in inputs from, found once per draw.
struct PerVertexInputs {
  explicit PerVertexInputs(const spirv_exec::Program& p);
  const spirv_exec::BuiltinSlot *position, *point_size, *clip_distances, *cull_distances;
  uint32_t primitive_id, invocation_id, view_index, patch_vertices;  // UINT32_MAX: not read
};

// Shaded vertex `v` (of `layout`: MatchVaryings(producer, program)) into
// lane `l` as the program's input vertex `k`.
void LoadInputVertex(const PerVertexInputs& in, const spirv_exec::Program& program, const VaryingLayout& layout,
                     const float* v, uint32_t k, uint32_t l, spirv_exec::WaveState& wave);

// Shades `vertex_ids` (vertex indices as gl_VertexIndex sees them) of one
// instance into `out` (in the same order).
void ShadeVertices(const DrawBindings& bindings, const GraphicsState& state, const spirv_exec::Program& program,
                   const spirv_exec::ShaderResources& resources, const VaryingLayout& layout,
                   const std::vector<uint32_t>& vertex_ids, uint32_t instance, const DrawCall& draw,
                   uint32_t view_index, ShadedVertices* out);

}  // namespace duet::raster

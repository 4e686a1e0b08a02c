// From shaded vertices to triangles ready to rasterize: assembly by
// topology, clipping in clip space, the viewport transform, culling, and
// fixed-point edge functions with the top-left rule. Points become squares
// and lines (strict, as the device reports) rectangles, each two triangles;
// Bresenham lines parallelograms along their major axis; a stippled line
// the quads of the runs its pattern keeps.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "raster/graphics_state.h"
#include "primitive/vertex_stage.h"

namespace duet::raster {

inline constexpr int kSubpixelBits = 8;
inline constexpr int64_t kSubpixelOne = int64_t{1} << kSubpixelBits;

struct Triangle {
  // Edge i is opposite vertex i: E_i(x, y) = a[i] * x + b[i] * y + c[i] in
  // fixed point, positive inside; `bias` is 0 for top-left edges, 1 otherwise
  // (a sample exactly on an edge belongs to the triangle only on a top or left edge).
  int64_t a[3], b[3], c[3];
  int64_t bias[3];
  double inverse_area;          // 1 / (twice the area): barycentric i is E_i * inverse_area
  float z[3];                   // window depth
  float inv_w[3];               // 1 / clip w
  float depth_offset;           // depth bias (constant + slope), applied to every fragment
  bool front_facing;
  // Points are squares: gl_PointCoord comes from the centre and size.
  bool point = false;
  // Bresenham lines: a pixel is covered, every sample of it, when its
  // centre is (VK_EXT_line_rasterization).
  bool whole_pixels = false;
  // Smooth lines: the quad reaches half a pixel past the line, and each
  // fragment's coverage of the line (from its pixel centre's distance to
  // it: the line from (line_x, line_y) along the unit (line_dx, line_dy),
  // line_length long and 2 * line_half_width wide) multiplies colour 0's alpha.
  bool smooth_line = false;
  float line_x = 0, line_y = 0, line_dx = 0, line_dy = 0, line_length = 0, line_half_width = 0;
  float point_x = 0, point_y = 0, point_size = 1;
  int32_t min_x, min_y, max_x, max_y;  // pixel bounds, exclusive max, inside the scissor
  uint32_t varyings;            // offset in floats into TriangleSetup::varyings (3 vertices)
  // The primitive's viewport and framebuffer layer (its provoking vertex's
  // ViewportIndex and Layer; 0 when the vertex shader writes none).
  uint32_t viewport = 0, layer = 0;
  // The fragment shader's PrimitiveId (set when SetupParameters::primitive_ids).
  uint32_t primitive_id = 0;
};

struct TriangleSetup {
  std::vector<Triangle> triangles;
  std::vector<float> varyings;  // per triangle: 3 x VaryingLayout::floats
  uint32_t varying_floats = 0;
  // Primitives that came out of clipping, whole or in part (pipeline
  // statistics' clipping primitives): one each, however many triangles
  // they became.
  uint64_t clipped_primitives = 0;
};

struct SetupParameters {
  VkViewport viewport;
  VkRect2D scissor;             // already intersected with the render area
  const RasterizationState* rasterization;
  VkFormat depth_format;        // for the depth bias unit; UNDEFINED when none
  const std::vector<bool>* flat = nullptr;  // per varying float: flat (taken from the provoking vertex)
  // The vertex shader's ClipDistance and CullDistance values: where they
  // are in a shaded vertex (kVaryingsOffset + the layout's offsets).
  uint32_t clip_offset = 0, clip_count = 0;
  uint32_t cull_offset = 0, cull_count = 0;
  // Where a shaded vertex holds its ViewportIndex and Layer (UINT32_MAX: not written).
  uint32_t viewport_index_at = UINT32_MAX, layer_at = UINT32_MAX;
  // The fragment shader reads PrimitiveId: each triangle gets its
  // primitive's index in the draw, or the geometry shader's PrimitiveId
  // output at primitive_id_at of its provoking vertex.
  bool primitive_ids = false;
  uint32_t primitive_id_at = UINT32_MAX;
};

// Appends the triangles of `indices` (slots in `vertices`, assembled by
// `topology`; UINT32_MAX = primitive restart) in primitive order.
// `viewports` holds the parameters of each viewport (and its scissor); a
// primitive takes its provoking vertex's ViewportIndex (an index out of
// range: viewport 0), else viewport 0.
void SetupTriangles(const ShadedVertices& vertices, const std::vector<uint32_t>& indices, VkPrimitiveTopology topology,
                    std::span<const SetupParameters> viewports, uint32_t varying_floats, TriangleSetup* out);

}  // namespace duet::raster

#include "primitive/primitive_setup.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "objects/device_limits.h"
#include "primitive/input_assembly.h"
#include "util/thread_pool.h"
#include "util/thread_scratch.h"

namespace duet::raster {
namespace {

// A vertex during clipping: clip position then varyings.
using ClipVertex = std::vector<float>;

// Signed distance to the clip planes the spec defines (inside >= 0):
// -w <= x, y <= w, and 0 <= z <= w unless depth clipping is off; w > 0 always.
float PlaneDistance(const float* v, int plane) {
  switch (plane) {
    case 0: return v[3] + v[0];
    case 1: return v[3] - v[0];
    case 2: return v[3] + v[1];
    case 3: return v[3] - v[1];
    case 4: return v[2];
    case 5: return v[3] - v[2];
    default: return v[3] - 1e-6f;
  }
}

// The planes primitives are clipped against: the view volume's (0..5; 4
// and 5 only with depth clipping), w > 0 (6), then one per ClipDistance
// the vertex shader writes, its value read at `user` in the vertex.
struct ClipPlanes {
  bool depth_clip = true;
  uint32_t user = 0, user_count = 0;

  int Count() const { return 7 + int(user_count); }
  bool Skipped(int plane) const { return !depth_clip && (plane == 4 || plane == 5); }
  float Distance(const float* v, int plane) const {
    return plane < 7 ? PlaneDistance(v, plane) : v[user + uint32_t(plane - 7)];
  }
};

// For vertices as shaded (position, point size, varyings).
ClipPlanes PlanesOf(const SetupParameters& p) { return {p.rasterization->depth_clip, p.clip_offset, p.clip_count}; }

// A primitive is culled when all its vertices are outside (negative) one
// of the CullDistance planes.
bool CulledByDistances(const SetupParameters& p, std::initializer_list<const float*> vertices) {
  for (uint32_t i = 0; i < p.cull_count; ++i) {
    bool outside = true;
    for (const float* v : vertices) outside = outside && v[p.cull_offset + i] < 0;
    if (outside) return true;
  }
  return false;
}

// Sutherland-Hodgman against each plane in turn; attributes interpolate
// linearly in clip space, which is perspective-correct.
std::vector<ClipVertex> ClipPolygon(std::vector<ClipVertex> polygon, const ClipPlanes& planes) {
  for (int plane = 0; plane < planes.Count() && !polygon.empty(); ++plane) {
    if (planes.Skipped(plane)) continue;
    std::vector<ClipVertex> out;
    for (size_t i = 0; i < polygon.size(); ++i) {
      const ClipVertex& a = polygon[i];
      const ClipVertex& b = polygon[(i + 1) % polygon.size()];
      const float da = planes.Distance(a.data(), plane), db = planes.Distance(b.data(), plane);
      if (da >= 0) out.push_back(a);
      if ((da >= 0) != (db >= 0)) {
        const float t = da / (da - db);
        ClipVertex v(a.size());
        for (size_t k = 0; k < a.size(); ++k) v[k] = a[k] + (b[k] - a[k]) * t;
        out.push_back(std::move(v));
      }
    }
    polygon = std::move(out);
  }
  return polygon;
}

bool NeedsClipping(const float* v0, const float* v1, const float* v2, const ClipPlanes& planes) {
  for (int plane = 0; plane < planes.Count(); ++plane) {
    if (planes.Skipped(plane)) continue;
    if (planes.Distance(v0, plane) < 0 || planes.Distance(v1, plane) < 0 || planes.Distance(v2, plane) < 0) return true;
  }
  return false;
}

// The depth bias unit's r: the smallest resolvable depth difference.
float MinimumResolvableDifference(VkFormat format, float max_z) {
  switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT: return 1.0f / 65536.0f;
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: return 1.0f / 16777216.0f;
    default: {
      int exponent = 0;
      std::frexp(std::max(max_z, 1e-30f), &exponent);
      return std::ldexp(1.0f, exponent - 1 - 23);
    }
  }
}

// std::llround (half away from zero) of a window coordinate in sub-pixel
// units, inline: the truncation and the remainder are exact below 2^53.
inline int64_t RoundToSubpixel(double x) {
  const int64_t whole = int64_t(x);
  const double fraction = x - double(whole);
  return whole + int64_t(fraction >= 0.5) - int64_t(fraction <= -0.5);
}

struct WindowVertex {
  double x, y;  // window coordinates
  float z, inv_w;
  const float* varyings;
};

struct PointInfo {
  float x, y, size;
};

// `cullable`: polygons face and can be culled; the triangles of points and
// lines always count as front-facing.
void EmitTriangle(const WindowVertex (&v)[3], const SetupParameters& p, uint32_t varying_floats, TriangleSetup* out,
                  bool cullable = true, const PointInfo* point = nullptr) {
  // Clipped positions lie within the viewport bounds; NaN (or infinity)
  // from the vertex shader does not, and has no pixels to cover.
  constexpr double kMaxWindow = double(1 << 24);
  for (int i = 0; i < 3; ++i)
    if (!(std::abs(v[i].x) < kMaxWindow && std::abs(v[i].y) < kMaxWindow)) return;
  int64_t fx[3], fy[3];
  for (int i = 0; i < 3; ++i) {
    fx[i] = RoundToSubpixel(v[i].x * kSubpixelOne);
    fy[i] = RoundToSubpixel(v[i].y * kSubpixelOne);
  }
  // Twice the signed area in fixed point. Framebuffer y points down, so a
  // positive value here is counter-clockwise as the spec defines it.
  const int64_t area = (fx[1] - fx[0]) * (fy[2] - fy[0]) - (fx[2] - fx[0]) * (fy[1] - fy[0]);
  if (area == 0) return;
  const bool counter_clockwise = area < 0;
  const RasterizationState& r = *p.rasterization;
  const bool front = !cullable || (r.front_face == VK_FRONT_FACE_COUNTER_CLOCKWISE) == counter_clockwise;
  if (cullable && (r.cull_mode & (front ? VK_CULL_MODE_FRONT_BIT : VK_CULL_MODE_BACK_BIT)) != 0) return;

  // Order the vertices so every edge function is positive inside.
  int order[3] = {0, 1, 2};
  if (area < 0) std::swap(order[1], order[2]);
  Triangle t{};
  int64_t x[3], y[3];
  for (int i = 0; i < 3; ++i) {
    x[i] = fx[order[i]];
    y[i] = fy[order[i]];
    t.z[i] = v[order[i]].z;
    t.inv_w[i] = v[order[i]].inv_w;
  }
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;  // edge j -> k is opposite vertex i
    const int64_t dx = x[k] - x[j], dy = y[k] - y[j];
    // E(p) = dx * (py - yj) - dy * (px - xj)
    t.a[i] = -dy;
    t.b[i] = dx;
    t.c[i] = dy * x[j] - dx * y[j];
    const bool left = dy < 0;
    const bool top = dy == 0 && dx > 0;
    t.bias[i] = (left || top) ? 0 : 1;
  }
  // The three edge functions sum to twice the area at every point, e.g. at
  // vertex 0, where only E_0 is non-zero: barycentrics are E_i / that.
  t.inverse_area = 1.0 / double(t.a[0] * x[0] + t.b[0] * y[0] + t.c[0]);
  t.front_facing = front;
  if (point != nullptr) {
    t.point = true;
    t.point_x = point->x;
    t.point_y = point->y;
    t.point_size = point->size;
  }

  if (r.depth_bias) {
    // Slope: the largest of |dz/dx| and |dz/dy| of the plane through the vertices.
    const double ax = v[1].x - v[0].x, ay = v[1].y - v[0].y, bx = v[2].x - v[0].x, by = v[2].y - v[0].y;
    const double az = v[1].z - v[0].z, bz = v[2].z - v[0].z;
    const double det = ax * by - bx * ay;
    double slope = 0;
    if (det != 0) slope = std::max(std::abs((az * by - bz * ay) / det), std::abs((ax * bz - bx * az) / det));
    const float max_z = std::max({std::abs(v[0].z), std::abs(v[1].z), std::abs(v[2].z)});
    float bias = float(slope) * r.depth_bias_slope +
                 MinimumResolvableDifference(p.depth_format, max_z) * r.depth_bias_constant;
    if (r.depth_bias_clamp > 0) bias = std::min(bias, r.depth_bias_clamp);
    if (r.depth_bias_clamp < 0) bias = std::max(bias, r.depth_bias_clamp);
    t.depth_offset = bias;
  }

  const int64_t min_fx = std::min({x[0], x[1], x[2]}), max_fx = std::max({x[0], x[1], x[2]});
  const int64_t min_fy = std::min({y[0], y[1], y[2]}), max_fy = std::max({y[0], y[1], y[2]});
  const int64_t sx0 = p.scissor.offset.x, sy0 = p.scissor.offset.y;
  const int64_t sx1 = sx0 + p.scissor.extent.width, sy1 = sy0 + p.scissor.extent.height;
  t.min_x = int32_t(std::max<int64_t>(sx0, min_fx >> kSubpixelBits));
  t.min_y = int32_t(std::max<int64_t>(sy0, min_fy >> kSubpixelBits));
  t.max_x = int32_t(std::min<int64_t>(sx1, (max_fx >> kSubpixelBits) + 1));
  t.max_y = int32_t(std::min<int64_t>(sy1, (max_fy >> kSubpixelBits) + 1));
  if (t.min_x >= t.max_x || t.min_y >= t.max_y) return;

  t.varyings = uint32_t(out->varyings.size());
  for (int i = 0; i < 3; ++i)
    out->varyings.insert(out->varyings.end(), v[order[i]].varyings, v[order[i]].varyings + varying_floats);
  out->triangles.push_back(t);
}

WindowVertex ToWindow(const float* clip, const VkViewport& vp, const float* varyings) {
  const float inv_w = 1.0f / clip[3];
  WindowVertex w;
  w.x = vp.x + vp.width * 0.5 * (double(clip[0]) * inv_w + 1.0);
  w.y = vp.y + vp.height * 0.5 * (double(clip[1]) * inv_w + 1.0);
  w.z = vp.minDepth + (vp.maxDepth - vp.minDepth) * (clip[2] * inv_w);
  w.inv_w = inv_w;
  w.varyings = varyings;
  return w;
}

// A point: a square of its size around the vertex, all attributes the vertex's.
void SetupPoint(const float* v, const SetupParameters& p, uint32_t varying_floats, TriangleSetup* out) {
  const ClipPlanes planes = PlanesOf(p);
  for (int plane = 0; plane < planes.Count(); ++plane) {
    if (planes.Skipped(plane)) continue;
    if (planes.Distance(v, plane) < 0) return;
  }
  ++out->clipped_primitives;
  const WindowVertex c = ToWindow(v, p.viewport, v + kVaryingsOffset);
  // Sizes outside pointSizeRange are clamped to it (NaN: the smallest).
  const float size = v[4] >= limits::kMinPointSize ? std::min(v[4], limits::kMaxPointSize) : limits::kMinPointSize;
  const double h = size * 0.5;
  WindowVertex corners[4] = {c, c, c, c};
  corners[0].x -= h; corners[0].y -= h;
  corners[1].x += h; corners[1].y -= h;
  corners[2].x += h; corners[2].y += h;
  corners[3].x -= h; corners[3].y += h;
  const PointInfo info{float(c.x), float(c.y), size};
  const WindowVertex a[3] = {corners[0], corners[1], corners[2]};
  const WindowVertex b[3] = {corners[0], corners[2], corners[3]};
  EmitTriangle(a, p, varying_floats, out, false, &info);
  EmitTriangle(b, p, varying_floats, out, false, &info);
}

// The quad of a line from clip-space vertex `a` to `b` (whole vertices;
// `a` holds the flat attributes): rectangular (and default) lines a
// rectangle, the width across the line; Bresenham lines a parallelogram,
// the rounded width along the minor axis, whose ends are the major axis's
// lines through the end points: the pixels whose centres it covers are
// those the diamond-exit rule gives, the first in and the last out.
void EmitLineQuad(const float* a, const float* b, const SetupParameters& p, uint32_t varying_floats,
                  TriangleSetup* out) {
  const WindowVertex w0 = ToWindow(a, p.viewport, a + kVaryingsOffset);
  const WindowVertex w1 = ToWindow(b, p.viewport, b + kVaryingsOffset);
  const double dx = w1.x - w0.x, dy = w1.y - w0.y, length = std::sqrt(dx * dx + dy * dy);
  if (length == 0) return;
  // Widths outside lineWidthRange are clamped to it (NaN: the narrowest).
  const float width = p.rasterization->line_width;
  const double clamped = width >= 1.0f ? std::min(width, limits::kMaxLineWidth) : 1.0f;
  WindowVertex c[4] = {w0, w0, w1, w1};
  double nx = -dy / length * clamped * 0.5, ny = dx / length * clamped * 0.5;
  const bool bresenham = p.rasterization->line_mode == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
  const bool smooth = p.rasterization->line_mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT;
  if (smooth) {
    // Half a pixel more on every side: the pixels the line partly covers.
    const double ux = dx / length * 0.5, uy = dy / length * 0.5;
    nx += -uy;
    ny += ux;
    c[0].x -= ux; c[0].y -= uy;
    c[1].x -= ux; c[1].y -= uy;
    c[2].x += ux; c[2].y += uy;
    c[3].x += ux; c[3].y += uy;
  }
  if (bresenham) {
    const bool x_major = std::abs(dx) >= std::abs(dy);
    const double half = std::max(std::round(clamped), 1.0) * 0.5;
    nx = x_major ? 0.0 : half;
    ny = x_major ? half : 0.0;
    // Both ends a subpixel back along the line, so that a pixel centre on
    // the first end is in and one on the last end out whichever way the
    // line runs (the top-left rule alone would pick by direction).
    const double back = ((x_major ? dx : dy) > 0 ? -1.0 : 1.0) / double(kSubpixelOne);
    for (WindowVertex& v : c) (x_major ? v.x : v.y) += back;
  }
  c[0].x += nx; c[0].y += ny;
  c[1].x -= nx; c[1].y -= ny;
  c[2].x -= nx; c[2].y -= ny;
  c[3].x += nx; c[3].y += ny;
  const WindowVertex first[3] = {c[0], c[1], c[2]};
  const WindowVertex second[3] = {c[0], c[2], c[3]};
  const size_t before = out->triangles.size();
  EmitTriangle(first, p, varying_floats, out, false);
  EmitTriangle(second, p, varying_floats, out, false);
  for (size_t i = before; i < out->triangles.size(); ++i) {
    Triangle& t = out->triangles[i];
    // A Bresenham fragment covers its whole pixel: every sample or none.
    t.whole_pixels = bresenham;
    if (smooth) {
      t.smooth_line = true;
      t.line_x = float(w0.x);
      t.line_y = float(w0.y);
      t.line_dx = float(dx / length);
      t.line_dy = float(dy / length);
      t.line_length = float(length);
      t.line_half_width = float(clamped * 0.5);
    }
  }
}

// A Bresenham line's ends by the diamond-exit rule: an end point inside
// the diamond (|dx| + |dy| < 1/2) of the pixel whose centre lies just
// behind it along the major axis moves back to that centre, as line
// parameters (tau0, tau1 from 0, 1). False when neither moves.
bool BresenhamEnds(const WindowVertex& w0, const WindowVertex& w1, double* tau0, double* tau1) {
  const double dx = w1.x - w0.x, dy = w1.y - w0.y;
  const bool x_major = std::abs(dx) >= std::abs(dy);
  const double major = x_major ? dx : dy;
  if (major == 0) return false;
  const double sign = major > 0 ? 1.0 : -1.0;
  // The centre behind `end` (major, minor) and whether `end` is in its diamond.
  auto behind = [&](double u, double v, double* centre) {
    const double c = sign > 0 ? std::floor(u - 0.5) + 0.5 : std::ceil(u + 0.5) - 0.5;  // the last centre passed
    const double row = std::floor(v) + 0.5;
    *centre = c;
    return c != u && std::abs(u - c) + std::abs(v - row) < 0.5;
  };
  const double u0 = x_major ? w0.x : w0.y, v0 = x_major ? w0.y : w0.x;
  const double u1 = x_major ? w1.x : w1.y, v1 = x_major ? w1.y : w1.x;
  bool moved = false;
  double centre = 0;
  if (behind(u0, v0, &centre)) {
    *tau0 = (centre - u0) / major;
    moved = true;
  }
  if (behind(u1, v1, &centre)) {
    *tau1 = (centre - u0) / major;
    moved = true;
  }
  return moved;
}

// The kept runs of a stippled line from a to b (window positions w0, w1):
// calls keep(from, to) with window-space line parameters of each run.
// Returns the line stipple counter after the line: rectangular lines count
// unit pieces of their length, Bresenham lines the pixels along the major
// axis (those whose centres the line's parallelogram covers).
template <typename Keep>
uint32_t StippleRuns(const RasterizationState& r, const WindowVertex& w0, const WindowVertex& w1, uint32_t counter,
                     Keep keep) {
  const double dx = w1.x - w0.x, dy = w1.y - w0.y;
  const uint32_t factor = std::max(r.stipple_factor, 1u);
  auto kept = [&](uint32_t s) { return ((r.stipple_pattern >> ((s / factor) % 16)) & 1) != 0; };
  // Pieces: [piece_start(i), piece_start(i + 1)) in the line's parameter.
  double first = 0, step = 1, u0 = 0, u1 = 1;  // in the units pieces are counted in
  uint32_t pieces = 0;
  if (r.line_mode == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT) {
    const bool x_major = std::abs(dx) >= std::abs(dy);
    const double sign = (x_major ? dx : dy) > 0 ? 1.0 : -1.0;
    u0 = sign * (x_major ? w0.x : w0.y);
    u1 = sign * (x_major ? w1.x : w1.y);
    // Pixel centres (half-integers along u) in [u0, u1), ends a subpixel back.
    const double back = 1.0 / double(kSubpixelOne);
    const double first_centre = std::ceil(u0 - back - 0.5) + 0.5;
    const double end_centre = std::ceil(u1 - back - 0.5) + 0.5;
    pieces = end_centre > first_centre ? uint32_t(end_centre - first_centre) : 0;
    first = first_centre - 0.5;
  } else {
    u1 = std::sqrt(dx * dx + dy * dy);
    pieces = uint32_t(std::ceil(u1));
  }
  if (u1 == u0) return counter;
  auto parameter = [&](double u) { return std::clamp((u - u0) / (u1 - u0), 0.0, 1.0); };
  for (uint32_t i = 0; i < pieces;) {
    if (!kept(counter + i)) {
      ++i;
      continue;
    }
    uint32_t j = i + 1;
    while (j < pieces && kept(counter + j)) ++j;
    const double from = i == 0 ? u0 : first + step * i, to = j == pieces ? u1 : first + step * j;
    keep(parameter(from), parameter(to));
    i = j;
  }
  return counter + pieces;
}

// A line: clipped in clip space, then its quad (EmitLineQuad), or the
// quads of its stipple's kept runs. `provoking` (v0 or v1) gives the flat
// attributes. `stipple_counter`: the line stipple counter (continued along
// a strip), nullptr without stipple.
void SetupLine(const float* v0, const float* v1, const float* provoking, const SetupParameters& p, uint32_t stride,
               uint32_t varying_floats, TriangleSetup* out, uint32_t* stipple_counter = nullptr) {
  float t0 = 0.0f, t1 = 1.0f;
  const ClipPlanes planes = PlanesOf(p);
  for (int plane = 0; plane < planes.Count(); ++plane) {
    if (planes.Skipped(plane)) continue;
    const float d0 = planes.Distance(v0, plane), d1 = planes.Distance(v1, plane);
    if (d0 < 0 && d1 < 0) return;
    if (d0 < 0) t0 = std::max(t0, d0 / (d0 - d1));
    if (d1 < 0) t1 = std::min(t1, d0 / (d0 - d1));
  }
  if (t0 >= t1) return;
  ++out->clipped_primitives;
  std::vector<float> a(v0, v0 + stride), b(v0, v0 + stride);
  for (uint32_t k = 0; k < stride; ++k) {
    a[k] = v0[k] + (v1[k] - v0[k]) * t0;
    b[k] = v0[k] + (v1[k] - v0[k]) * t1;
  }
  // Flat attributes are not interpolated (integers travel as float bits).
  auto flat = [&](float* v) {
    if (p.flat != nullptr)
      for (size_t k = 0; k < p.flat->size(); ++k)
        if ((*p.flat)[k]) v[kVaryingsOffset + k] = provoking[kVaryingsOffset + k];
  };
  WindowVertex w0 = ToWindow(a.data(), p.viewport, nullptr);
  WindowVertex w1 = ToWindow(b.data(), p.viewport, nullptr);
  // The clip-space point whose window position is `tau` of the way from
  // w0 to w1 (perspective: tau is not linear in clip space).
  auto at = [&](double tau, std::vector<float>& v) {
    const double wa = a[3], wb = b[3];
    const double denominator = tau * wa + (1 - tau) * wb;
    const float t = denominator != 0 ? float(tau * wa / denominator) : float(tau);
    for (uint32_t k = 0; k < stride; ++k) v[k] = a[k] + (b[k] - a[k]) * t;
  };
  if (p.rasterization->line_mode == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT) {
    // Diamond exit at the ends: an end inside the diamond of the pixel
    // whose centre it has passed moves back to that centre (a start there
    // exits it: the pixel is drawn; an end there does not: it is not).
    double tau0 = 0, tau1 = 1;
    if (BresenhamEnds(w0, w1, &tau0, &tau1)) {
      std::vector<float> from(stride), to(stride);
      at(tau0, from);
      at(tau1, to);
      a = std::move(from);
      b = std::move(to);
      w0 = ToWindow(a.data(), p.viewport, nullptr);
      w1 = ToWindow(b.data(), p.viewport, nullptr);
    }
  }
  if (stipple_counter == nullptr) {
    flat(a.data());
    EmitLineQuad(a.data(), b.data(), p, varying_floats, out);
    return;
  }
  std::vector<float> from(stride), to(stride);
  *stipple_counter = StippleRuns(*p.rasterization, w0, w1, *stipple_counter, [&](double t_from, double t_to) {
    at(t_from, from);
    at(t_to, to);
    flat(from.data());
    EmitLineQuad(from.data(), to.data(), p, varying_floats, out);
  });
}

// Polygon modes LINE and POINT: a triangle that faces the way the cull
// mode keeps becomes its three edges or its three vertices. The facing comes
// from the homogeneous determinant, whose sign is the window-space winding's
// when every w is positive, and the viewport's flips.
void SetupOutline(const float* v0, const float* v1, const float* v2, const SetupParameters& p, uint32_t stride,
                  uint32_t varying_floats, TriangleSetup* out) {
  const double det = double(v0[0]) * (double(v1[1]) * v2[3] - double(v2[1]) * v1[3]) -
                     double(v1[0]) * (double(v0[1]) * v2[3] - double(v2[1]) * v0[3]) +
                     double(v2[0]) * (double(v0[1]) * v1[3] - double(v1[1]) * v0[3]);
  const double window_area = det * p.viewport.width * p.viewport.height;
  if (window_area == 0) return;
  const RasterizationState& r = *p.rasterization;
  const bool counter_clockwise = window_area < 0;  // as EmitTriangle: y points down
  const bool front = (r.front_face == VK_FRONT_FACE_COUNTER_CLOCKWISE) == counter_clockwise;
  if ((r.cull_mode & (front ? VK_CULL_MODE_FRONT_BIT : VK_CULL_MODE_BACK_BIT)) != 0) return;
  // The triangle counts as one clipped primitive if any of its points or edges survives.
  const uint64_t clipped_before = out->clipped_primitives;
  if (r.polygon_mode == VK_POLYGON_MODE_POINT) {
    for (const float* v : {v0, v1, v2}) SetupPoint(v, p, varying_floats, out);
  } else {
    // Every edge takes the triangle's flat attributes (v0 is its provoking vertex).
    SetupLine(v0, v1, v0, p, stride, varying_floats, out);
    SetupLine(v1, v2, v0, p, stride, varying_floats, out);
    SetupLine(v2, v0, v0, p, stride, varying_floats, out);
  }
  out->clipped_primitives = clipped_before + (out->clipped_primitives != clipped_before ? 1 : 0);
}

void SetupOne(const float* v0, const float* v1, const float* v2, const SetupParameters& p, uint32_t stride,
              uint32_t varying_floats, TriangleSetup* out) {
  if (p.cull_count != 0 && CulledByDistances(p, {v0, v1, v2})) return;
  if (p.rasterization->polygon_mode == VK_POLYGON_MODE_LINE || p.rasterization->polygon_mode == VK_POLYGON_MODE_POINT)
    return SetupOutline(v0, v1, v2, p, stride, varying_floats, out);
  ClipPlanes planes = PlanesOf(p);
  if (!NeedsClipping(v0, v1, v2, planes)) {
    ++out->clipped_primitives;
    const WindowVertex w[3] = {ToWindow(v0, p.viewport, v0 + kVaryingsOffset),
                               ToWindow(v1, p.viewport, v1 + kVaryingsOffset),
                               ToWindow(v2, p.viewport, v2 + kVaryingsOffset)};
    EmitTriangle(w, p, varying_floats, out);
    return;
  }
  // Clip a copy: position (4 floats) then varyings, skipping the point size.
  auto pack = [&](const float* v) {
    ClipVertex c(v, v + 4);
    c.insert(c.end(), v + kVaryingsOffset, v + stride);
    return c;
  };
  --planes.user;  // packed: the point size is gone
  std::vector<ClipVertex> polygon = ClipPolygon({pack(v0), pack(v1), pack(v2)}, planes);
  if (polygon.size() < 3) return;
  ++out->clipped_primitives;
  // Flat attributes are the provoking (first) vertex's, not interpolated.
  if (p.flat != nullptr)
    for (ClipVertex& c : polygon)
      for (size_t k = 0; k < p.flat->size(); ++k)
        if ((*p.flat)[k]) c[4 + k] = v0[kVaryingsOffset + k];
  std::vector<WindowVertex> window;
  for (const ClipVertex& c : polygon) window.push_back(ToWindow(c.data(), p.viewport, c.data() + 4));
  // A convex polygon: a fan from its first vertex keeps the winding.
  for (size_t i = 1; i + 1 < window.size(); ++i) {
    const WindowVertex tri[3] = {window[0], window[i], window[i + 1]};
    EmitTriangle(tri, p, varying_floats, out);
  }
}

// Sets up one primitive (`setup` called with its viewport's parameters)
// and stamps the triangles it adds with its viewport and layer, the
// provoking vertex's.
// `primitive` is its index in the draw (the fragment shader's PrimitiveId
// unless a geometry shader wrote one).
template <typename F>
void SetupInViewport(std::span<const SetupParameters> viewports, const float* provoking, uint32_t primitive,
                     TriangleSetup* out, F&& setup) {
  const SetupParameters& p = viewports[0];
  if (p.viewport_index_at == UINT32_MAX && p.layer_at == UINT32_MAX && !p.primitive_ids) return setup(p);
  uint32_t viewport = 0, layer = 0;
  if (p.viewport_index_at != UINT32_MAX) std::memcpy(&viewport, provoking + p.viewport_index_at, 4);
  if (p.layer_at != UINT32_MAX) std::memcpy(&layer, provoking + p.layer_at, 4);
  if (p.primitive_id_at != UINT32_MAX) std::memcpy(&primitive, provoking + p.primitive_id_at, 4);
  if (viewport >= viewports.size()) viewport = 0;
  const size_t first = out->triangles.size();
  setup(viewports[viewport]);
  for (size_t i = first; i < out->triangles.size(); ++i) {
    out->triangles[i].viewport = viewport;
    out->triangles[i].layer = layer;
    out->triangles[i].primitive_id = primitive;
  }
}

// Sets up the primitives of `indices` (whole runs: it starts at the
// beginning of one) in order, the first one being primitive
// `first_primitive` of the draw.
void SetupRange(const ShadedVertices& vertices, std::span<const uint32_t> indices, VkPrimitiveTopology topology,
                std::span<const SetupParameters> viewports, uint32_t varying_floats, uint32_t first_primitive,
                TriangleSetup* out) {
  const SetupParameters& params = viewports[0];
  // Triangles are given provoking vertex first.
  auto one = [&](const float* v0, const float* v1, const float* v2, uint32_t primitive, TriangleSetup* to) {
    SetupInViewport(viewports, v0, primitive, to, [&](const SetupParameters& p) {
      SetupOne(v0, v1, v2, p, vertices.stride, varying_floats, to);
    });
  };
  // Triangles are set up with their provoking vertex first; in last-vertex
  // mode they are rotated to put it there (a rotation keeps the winding).
  const bool last = params.rasterization->provoking_last;
  const size_t list_triangles = indices.size() / 3;
  if (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST) {
    out->triangles.reserve(out->triangles.size() + list_triangles);
    out->varyings.reserve(out->varyings.size() + list_triangles * 3 * varying_floats);
  }
  // A triangle given from its first-vertex-mode provoking vertex.
  // `last_at` is where the last-vertex-mode provoking vertex is (1 or 2).
  uint32_t primitive = first_primitive;  // across restarts
  auto emit = [&](uint32_t i0, uint32_t i1, uint32_t i2, int last_at = 2) {
    const uint32_t v[3] = {i0, i1, i2};
    const int first = last ? last_at : 0;
    one(vertices.Vertex(v[first]), vertices.Vertex(v[(first + 1) % 3]), vertices.Vertex(v[(first + 2) % 3]),
        primitive++, out);
  };
  // The line stipple counter: reset for each line of a list, continued
  // along a strip.
  const bool stippled = params.rasterization->line_stipple;
  uint32_t stipple = 0;
  auto line = [&](uint32_t i0, uint32_t i1, bool strip = false) {
    const float* v0 = vertices.Vertex(i0);
    const float* v1 = vertices.Vertex(i1);
    const uint32_t index = primitive++;
    if (!strip) stipple = 0;
    if (params.cull_count != 0 && CulledByDistances(params, {v0, v1})) return;
    const float* provoking = last ? v1 : v0;
    SetupInViewport(viewports, provoking, index, out, [&](const SetupParameters& p) {
      SetupLine(v0, v1, provoking, p, vertices.stride, varying_floats, out, stippled ? &stipple : nullptr);
    });
  };
  // Split at primitive restarts, then assemble each run.
  std::vector<uint32_t> adjacency;
  size_t start = 0;
  while (start < indices.size()) {
    size_t end = start;
    while (end < indices.size() && indices[end] != UINT32_MAX) ++end;
    const size_t n = end - start;
    const uint32_t* run = indices.data() + start;
    switch (topology) {
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
        for (size_t i = 0; i + 2 < n; i += 3) emit(run[i], run[i + 1], run[i + 2]);
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
        // Odd triangles swap their last two vertices to keep the winding;
        // v_i stays first, the provoking vertex (in last-vertex mode v_{i+2}).
        for (size_t i = 0; i + 2 < n; ++i) {
          if (i % 2 == 0) emit(run[i], run[i + 1], run[i + 2]);
          else emit(run[i], run[i + 2], run[i + 1], 1);
        }
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
        // (v_i, v_{i+1}, v_0): provoking v_i, in last-vertex mode v_{i+1}.
        for (size_t i = 1; i + 1 < n; ++i) emit(run[i], run[i + 1], run[0], 1);
        break;
      case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
        for (size_t i = 0; i < n; ++i) {
          const float* v = vertices.Vertex(run[i]);
          const uint32_t index = primitive++;
          if (params.cull_count != 0 && CulledByDistances(params, {v})) continue;
          SetupInViewport(viewports, v, index, out,
                          [&](const SetupParameters& p) { SetupPoint(v, p, varying_floats, out); });
        }
        break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
        for (size_t i = 0; i + 1 < n; i += 2) line(run[i], run[i + 1]);
        break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
        for (size_t i = 0; i + 1 < n; ++i) line(run[i], run[i + 1], i > 0);
        break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
      case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: {
        // Without a geometry shader the adjacent vertices are ignored. The
        // assembly (in the provoking-vertex mode) puts the provoking vertex
        // first, or last in last-vertex mode.
        adjacency.clear();
        AssemblePrimitives(topology, std::span(run, n), last, &adjacency);
        const uint32_t per = TopologyVertices(topology);
        for (size_t i = 0; i + per <= adjacency.size(); i += per) {
          const uint32_t* a = &adjacency[i];
          if (MainVertexCount(topology) == 2)
            line(MainVertex(topology, a, 0), MainVertex(topology, a, 1),
                 topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY && i > 0);
          else
            emit(MainVertex(topology, a, 0), MainVertex(topology, a, 1), MainVertex(topology, a, 2), last ? 2 : 0);
        }
        break;
      }
      default:
        break;  // patch lists need tessellation, which is not supported
    }
    start = end + 1;
  }
}

// Where SetupTriangles may cut `indices` into pieces set up apart: at the
// start of a run (after a restart), or in a list without restarts at a
// primitive boundary. Each piece: [begin, end) and its first primitive.
struct IndexPiece {
  size_t begin, end;
  uint32_t first_primitive;
};

std::vector<IndexPiece> SplitIndices(const std::vector<uint32_t>& indices, VkPrimitiveTopology topology,
                                     size_t piece_elements) {
  std::vector<IndexPiece> pieces;
  const bool list = topology == VK_PRIMITIVE_TOPOLOGY_POINT_LIST || topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST ||
                    topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const size_t per = std::max<uint32_t>(TopologyVertices(topology), 1);
  uint32_t primitives = 0;  // before the current piece
  size_t begin = 0, run_start = 0;
  auto cut = [&](size_t end) {
    pieces.push_back({begin, end, primitives});
    primitives += uint32_t(StripPrimitives(topology, std::span(indices).subspan(begin, end - begin)));
    begin = end;
  };
  for (size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] == UINT32_MAX) {
      run_start = i + 1;
      if (run_start - begin >= piece_elements) cut(run_start);
    } else if (list && i - begin >= piece_elements && (i - run_start) % per == 0) {
      cut(i);  // a primitive boundary inside a run of a list
      run_start = i;
    }
  }
  if (begin < indices.size()) cut(indices.size());
  return pieces;
}

// A thread's triangle lists of a draw split into pieces.
struct SetupParts {
  std::vector<TriangleSetup> parts;
};

}  // namespace

void SetupTriangles(const ShadedVertices& vertices, const std::vector<uint32_t>& indices, VkPrimitiveTopology topology,
                    std::span<const SetupParameters> viewports, uint32_t varying_floats, TriangleSetup* out) {
  out->varying_floats = varying_floats;
  // Long draws are set up in pieces on the pool, then put back together
  // in primitive order.
  constexpr size_t kPieceElements = 3 * 1024;
  const std::vector<IndexPiece> pieces =
      indices.size() >= 2 * kPieceElements ? SplitIndices(indices, topology, kPieceElements) : std::vector<IndexPiece>{};
  if (pieces.size() < 2) {
    SetupRange(vertices, indices, topology, viewports, varying_floats, 0, out);
    return;
  }
  // Kept from draw to draw (their pages stay mapped); the jobs reach this
  // thread's vector through the reference, not their own thread's.
  std::vector<TriangleSetup>& parts = ThreadScratch<SetupParts>().parts;
  if (parts.size() < pieces.size()) parts.resize(pieces.size());
  ParallelFor(uint32_t(pieces.size()), [&](uint32_t k) {
    TriangleSetup& part = parts[k];
    part.triangles.clear();
    part.varyings.clear();
    part.varying_floats = varying_floats;
    part.clipped_primitives = 0;
    const IndexPiece& piece = pieces[k];
    SetupRange(vertices, std::span(indices).subspan(piece.begin, piece.end - piece.begin), topology, viewports,
               varying_floats, piece.first_primitive, &part);
  });
  size_t triangles = out->triangles.size(), floats = out->varyings.size();
  for (size_t k = 0; k < pieces.size(); ++k) {
    triangles += parts[k].triangles.size();
    floats += parts[k].varyings.size();
    out->clipped_primitives += parts[k].clipped_primitives;
  }
  out->triangles.reserve(triangles);
  out->varyings.reserve(floats);
  for (size_t k = 0; k < pieces.size(); ++k) {
    const TriangleSetup& part = parts[k];
    const uint32_t base = uint32_t(out->varyings.size());
    for (Triangle t : part.triangles) {
      t.varyings += base;
      out->triangles.push_back(t);
    }
    out->varyings.insert(out->varyings.end(), part.varyings.begin(), part.varyings.end());
  }
}

}  // namespace duet::raster

#include "primitive/tessellator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

namespace duet::raster {

using spirv_exec::TessellationModes;
using Spacing = TessellationModes::Spacing;
using Domain = TessellationModes::Domain;

namespace {

constexpr float kMaxLevel = 64.0f;  // maxTessellationGenerationLevel

// A level clamped and rounded for `spacing`: the segments of an edge (n)
// and the level they stand for (f).
struct EdgeLevel {
  int n;
  float f;
};

EdgeLevel ClampLevel(Spacing spacing, float level) {
  if (std::isnan(level)) level = 0.0f;
  switch (spacing) {
    case Spacing::kFractionalOdd: {
      const float f = std::clamp(level, 1.0f, kMaxLevel - 1.0f);
      int n = int(std::ceil(f));
      n += 1 - n % 2;
      return {n, f};
    }
    case Spacing::kFractionalEven: {
      const float f = std::clamp(level, 2.0f, kMaxLevel);
      int n = int(std::ceil(f));
      n += n % 2;
      return {n, f};
    }
    default: {
      const float f = std::clamp(level, 1.0f, kMaxLevel);
      return {int(std::ceil(f)), f};
    }
  }
}

// An inner level of 1 where an outer edge is finer tessellates as if a
// little more than 1: 2 segments, or 3 in fractional-odd spacing, whose
// two short ones are then empty (the ring inside lies on the edges).
EdgeLevel JustAboveOne(Spacing spacing) {
  return spacing == Spacing::kFractionalOdd ? EdgeLevel{3, 1.0f} : EdgeLevel{2, 2.0f};
}

// Domain coordinates are fixed point, multiples of 2^-16: each converts
// to a float exactly, so 1 - x is exact in a shader, and a triangle's
// third coordinate is 1 minus the other two exactly.
constexpr int32_t kOne = 1 << 16;
constexpr float ToFloat(int32_t x) { return float(x) * (1.0f / float(kOne)); }

// The n + 1 positions 0..kOne of the points that divide an edge. Equal
// spacing: n equal segments. Fractional: n - 2 segments of 1/f and two
// shorter ones, at the ends, of what is left. The second half mirrors
// the first (t[n - i] = 1 - t[i]), so an edge gives the same points from
// either end.
using EdgePositions = std::array<int32_t, 65>;

void DivideEdge(Spacing spacing, EdgeLevel level, EdgePositions* t) {
  const int n = level.n;
  const bool fractional = spacing != Spacing::kEqual && n >= 2 && float(n) != level.f;
  const double f = level.f;
  const double short_segment = (f - double(n - 2)) / (2.0 * f);
  for (int i = 0; 2 * i < n; ++i) {
    double x = 0.0;
    if (i > 0) x = fractional ? short_segment + double(i - 1) / f : double(i) / double(n);
    const int32_t fixed = int32_t(std::lround(x * kOne));
    (*t)[size_t(i)] = fixed;
    (*t)[size_t(n - i)] = kOne - fixed;
  }
  if (n % 2 == 0) (*t)[size_t(n / 2)] = kOne / 2;
}

// Points of the domain as the tessellator builds them, and its triangles.
class PatchBuilder {
 public:
  PatchBuilder(PatchTessellation* out, bool clockwise_positive)
      : out_(*out), base_(uint32_t(out->coords.size() / 3)), clockwise_positive_(clockwise_positive) {}

  // A point of the triangle domain (w = 1 - u - v) or of the others (w = 0).
  uint32_t Point(int32_t u, int32_t v) { return Add(u, v, 0); }
  uint32_t TrianglePoint(int32_t u, int32_t v) { return Add(u, v, kOne - u - v); }
  // A triangle of points, wound as the vertex order asks: in (u, v) with
  // v down, clockwise turns have a positive cross product.
  void Triangle(uint32_t a, uint32_t b, uint32_t c) {
    const float* p = &out_.coords[size_t(base_) * 3];
    const float cross = (p[b * 3] - p[a * 3]) * (p[c * 3 + 1] - p[a * 3 + 1]) -
                        (p[c * 3] - p[a * 3]) * (p[b * 3 + 1] - p[a * 3 + 1]);
    if ((cross > 0.0f) != clockwise_positive_) std::swap(b, c);
    triangles_.push_back(a);
    triangles_.push_back(b);
    triangles_.push_back(c);
  }
  void Line(uint32_t a, uint32_t b) {
    triangles_.push_back(a);
    triangles_.push_back(b);
  }
  // Emits what was built: the primitives, or every point once.
  void Finish(bool point_mode) {
    if (point_mode) {
      for (uint32_t i = 0; i < points_; ++i) out_.indices.push_back(base_ + i);
      return;
    }
    for (uint32_t index : triangles_) out_.indices.push_back(base_ + index);
  }

 private:
  PatchTessellation& out_;
  uint32_t base_;
  uint32_t points_ = 0;
  bool clockwise_positive_;
  std::vector<uint32_t> triangles_;

  uint32_t Add(int32_t u, int32_t v, int32_t w) {
    out_.coords.push_back(ToFloat(u));
    out_.coords.push_back(ToFloat(v));
    out_.coords.push_back(ToFloat(w));
    return points_++;
  }
};

// A closed ring of points, side by side: side s runs from corner s to
// corner s + 1 (its last point is the next side's first).
struct Ring {
  std::vector<std::vector<uint32_t>> sides;
};

// Triangles between a side of an outer ring and the matching side of the
// ring inside it (which may be a single point): walks both, advancing on
// the one whose next segment's middle comes first.
void Zip(PatchBuilder& b, const std::vector<uint32_t>& outer, const std::vector<uint32_t>& inner) {
  const size_t a = outer.size() - 1, c = inner.size() - 1;
  size_t i = 0, j = 0;
  while (i < a || j < c) {
    const bool advance_outer = j == c || (i < a && (2 * i + 1) * c <= (2 * j + 1) * a);
    if (advance_outer) {
      b.Triangle(outer[i], outer[i + 1], inner[j]);
      ++i;
    } else {
      b.Triangle(outer[i], inner[j + 1], inner[j]);
      ++j;
    }
  }
}

void ZipRings(PatchBuilder& b, const Ring& outer, const Ring& inner) {
  for (size_t s = 0; s < outer.sides.size(); ++s) Zip(b, outer.sides[s], inner.sides[s]);
}

// The outer ring of a domain: side s divided at levels[s], its points
// point_of(s, x, 1 - x) as x runs from 0 up to (not including) 1.
template <typename PointOf>
Ring OuterRing(Spacing spacing, std::span<const EdgeLevel> levels, PointOf point_of) {
  Ring ring;
  ring.sides.resize(levels.size());
  EdgePositions t;
  for (size_t s = 0; s < levels.size(); ++s) {
    DivideEdge(spacing, levels[s], &t);
    for (int i = 0; i < levels[s].n; ++i)
      ring.sides[s].push_back(point_of(s, t[size_t(i)], t[size_t(levels[s].n - i)]));
  }
  for (size_t s = 0; s < levels.size(); ++s) ring.sides[s].push_back(ring.sides[(s + 1) % levels.size()].front());
  return ring;
}

void TessellateTriangles(PatchBuilder& b, Spacing spacing, const float outer_levels[4], float inner_level) {
  EdgeLevel outer[3], inner = ClampLevel(spacing, inner_level);
  for (int e = 0; e < 3; ++e) outer[e] = ClampLevel(spacing, outer_levels[e]);
  if (inner.n == 1) {
    if (outer[0].n == 1 && outer[1].n == 1 && outer[2].n == 1) {
      b.Triangle(b.TrianglePoint(kOne, 0), b.TrianglePoint(0, kOne), b.TrianglePoint(0, 0));
      return;
    }
    inner = JustAboveOne(spacing);
  }
  // The outer ring: (0,0,1) -> (0,1,0) along u = 0 (outer level 0),
  // -> (1,0,0) along w = 0 (level 2), -> (0,0,1) along v = 0 (level 1).
  const EdgeLevel sides[3] = {outer[0], outer[2], outer[1]};
  Ring ring = OuterRing(spacing, sides, [&](size_t s, int32_t x, int32_t y) {
    return s == 0 ? b.TrianglePoint(0, x) : s == 1 ? b.TrianglePoint(x, y) : b.TrianglePoint(y, 0);
  });
  EdgePositions t;
  std::array<uint32_t, 3> corners{};

  // Inner rings: ring k's points are those of the edge divided at the
  // inner level, k .. n - k, moved in (perpendicularly) by t[k].
  DivideEdge(spacing, inner, &t);
  const int n = inner.n;
  for (int k = 1; n - 2 * k >= 0; ++k) {
    Ring next;
    next.sides.resize(3);
    if (n - 2 * k == 0) {
      const uint32_t center = b.TrianglePoint(kOne / 3, kOne / 3);
      for (std::vector<uint32_t>& side : next.sides) side.push_back(center);
      ZipRings(b, ring, next);
      break;
    }
    // Moved in by t[k] / 3 along both coordinates of the edge, 2 t[k] / 3
    // off the edge (as the third coordinate).
    const int32_t inset = t[size_t(k)] / 3;
    for (int s = 0; s < 3; ++s) {
      std::vector<uint32_t>& side = next.sides[size_t(s)];
      for (int i = k; i < n - k; ++i) {
        const int32_t x = t[size_t(i)] - inset, y = t[size_t(n - i)] - inset;
        const int32_t depth = kOne - x - y;
        if (s == 0) side.push_back(b.TrianglePoint(depth, x));
        if (s == 1) side.push_back(b.TrianglePoint(x, y));
        if (s == 2) side.push_back(b.TrianglePoint(y, depth));
      }
      corners[size_t(s)] = side.front();
    }
    for (int s = 0; s < 3; ++s) next.sides[size_t(s)].push_back(corners[size_t((s + 1) % 3)]);
    ZipRings(b, ring, next);
    if (n - 2 * k == 1) {
      b.Triangle(corners[0], corners[1], corners[2]);
      break;
    }
    ring = std::move(next);
  }
}

void TessellateQuads(PatchBuilder& b, Spacing spacing, const float outer_levels[4], const float inner_levels[2]) {
  EdgeLevel outer[4], inner[2];
  for (int e = 0; e < 4; ++e) outer[e] = ClampLevel(spacing, outer_levels[e]);
  for (int e = 0; e < 2; ++e) inner[e] = ClampLevel(spacing, inner_levels[e]);
  if (inner[0].n == 1 || inner[1].n == 1) {
    if (inner[0].n == 1 && inner[1].n == 1 && outer[0].n == 1 && outer[1].n == 1 && outer[2].n == 1 &&
        outer[3].n == 1) {
      const uint32_t p00 = b.Point(0, 0), p10 = b.Point(kOne, 0), p01 = b.Point(0, kOne), p11 = b.Point(kOne, kOne);
      b.Triangle(p00, p10, p01);
      b.Triangle(p10, p11, p01);
      return;
    }
    for (EdgeLevel& level : inner)
      if (level.n == 1) level = JustAboveOne(spacing);
  }
  // The outer ring: (0,0) -> (0,1) along u = 0 (outer level 0), -> (1,1)
  // along v = 1 (level 3), -> (1,0) along u = 1 (level 2), -> (0,0) along
  // v = 0 (level 1).
  const EdgeLevel sides[4] = {outer[0], outer[3], outer[2], outer[1]};
  Ring ring = OuterRing(spacing, sides, [&](size_t s, int32_t x, int32_t y) {
    return s == 0 ? b.Point(0, x) : s == 1 ? b.Point(x, kOne) : s == 2 ? b.Point(kOne, y) : b.Point(y, 0);
  });

  // Inner rings: rectangles [tu[k], tu[nu - k]] x [tv[k], tv[nv - k]].
  EdgePositions tu, tv;
  DivideEdge(spacing, inner[0], &tu);
  DivideEdge(spacing, inner[1], &tv);
  const int nu = inner[0].n, nv = inner[1].n;
  for (int k = 1; nu - 2 * k >= 0 && nv - 2 * k >= 0; ++k) {
    const int su = nu - 2 * k, sv = nv - 2 * k;  // segments along u and v
    // The ring's points: its sides in the outer ring's order (a side of no
    // segments is a single point: the ring has collapsed to a line or point).
    Ring next;
    next.sides.resize(4);
    std::vector<uint32_t> column_low, row_high, column_high, row_low;
    auto point = [&](int i, int j) { return b.Point(tu[size_t(i)], tv[size_t(j)]); };
    // Shared corners: made once.
    const uint32_t c00 = point(k, k);
    const uint32_t c01 = sv == 0 ? c00 : point(k, nv - k);
    const uint32_t c11 = su == 0 ? c01 : point(nu - k, nv - k);
    const uint32_t c10 = sv == 0 ? c11 : su == 0 ? c00 : point(nu - k, k);
    std::vector<uint32_t>& left = next.sides[0];  // u low, v rising
    left.push_back(c00);
    for (int j = k + 1; j < nv - k; ++j) left.push_back(point(k, j));
    if (sv != 0) left.push_back(c01);
    std::vector<uint32_t>& top = next.sides[1];  // v high, u rising
    top.push_back(c01);
    for (int i = k + 1; i < nu - k; ++i) top.push_back(point(i, nv - k));
    if (su != 0) top.push_back(c11);
    std::vector<uint32_t>& right = next.sides[2];  // u high, v falling
    right.push_back(c11);
    if (su == 0) {
      // A vertical line: its right side is its left side, back down.
      for (size_t i = left.size() - 1; i-- > 0;) right.push_back(left[i]);
    } else {
      for (int j = nv - k - 1; j > k; --j) right.push_back(point(nu - k, j));
      if (sv != 0) right.push_back(c10);
    }
    std::vector<uint32_t>& bottom = next.sides[3];  // v low, u falling
    bottom.push_back(c10);
    if (sv == 0) {
      for (size_t i = top.size() - 1; i-- > 0;) bottom.push_back(top[i]);
    } else if (su != 0) {
      for (int i = nu - k - 1; i > k; --i) bottom.push_back(point(i, k));
      bottom.push_back(c00);
    }
    ZipRings(b, ring, next);
    if (su == 0 || sv == 0) break;
    if (su == 1 || sv == 1) {
      // A rectangle one segment thick: filled as a strip of quads.
      const std::vector<uint32_t>& a = su == 1 ? left : bottom;
      const std::vector<uint32_t>& c = su == 1 ? right : top;
      const size_t segments = a.size() - 1;
      for (size_t q = 0; q < segments; ++q) {
        const uint32_t a0 = a[q], a1 = a[q + 1], c0 = c[segments - q], c1 = c[segments - q - 1];
        b.Triangle(a0, a1, c0);
        b.Triangle(a1, c1, c0);
      }
      break;
    }
    ring = std::move(next);
  }
}

void TessellateIsolines(PatchBuilder& b, Spacing spacing, const float outer_levels[4]) {
  const EdgeLevel lines = ClampLevel(Spacing::kEqual, outer_levels[0]);
  const EdgeLevel segments = ClampLevel(spacing, outer_levels[1]);
  EdgePositions tv, tu;
  DivideEdge(Spacing::kEqual, lines, &tv);
  DivideEdge(spacing, segments, &tu);
  for (int y = 0; y < lines.n; ++y) {
    uint32_t previous = b.Point(tu[0], tv[size_t(y)]);
    for (int x = 1; x <= segments.n; ++x) {
      const uint32_t point = b.Point(tu[size_t(x)], tv[size_t(y)]);
      b.Line(previous, point);
      previous = point;
    }
  }
}

}  // namespace

uint32_t TessellationPrimitiveVertices(const TessellationModes& modes) {
  if (modes.point_mode) return 1;
  return modes.domain == Domain::kIsolines ? 2 : 3;
}

VkPrimitiveTopology TessellationTopology(const TessellationModes& modes) {
  switch (TessellationPrimitiveVertices(modes)) {
    case 1: return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    case 2: return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    default: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  }
}

void TessellatePatch(const TessellationModes& modes, bool lower_left, const float outer[4], const float inner[2],
                     PatchTessellation* out) {
  // Outer levels of 0 or less, or NaN, discard the patch.
  const int outer_count = modes.domain == Domain::kTriangles ? 3 : modes.domain == Domain::kQuads ? 4 : 2;
  for (int e = 0; e < outer_count; ++e)
    if (!(outer[e] > 0.0f)) return;
  // With the origin at the lower left, v points up: a clockwise turn has
  // a negative cross product.
  const bool clockwise = modes.order == TessellationModes::Order::kCw;
  PatchBuilder builder(out, clockwise != lower_left);
  switch (modes.domain) {
    case Domain::kTriangles: TessellateTriangles(builder, modes.spacing, outer, inner[0]); break;
    case Domain::kQuads: TessellateQuads(builder, modes.spacing, outer, inner); break;
    case Domain::kIsolines: TessellateIsolines(builder, modes.spacing, outer); break;
    case Domain::kNone: return;
  }
  builder.Finish(modes.point_mode);
}

}  // namespace duet::raster

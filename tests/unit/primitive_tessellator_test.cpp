// The tessellator on its own: point and primitive counts for every domain
// and spacing (the spec's rings: a strip between edges of a and b segments
// holds a + b triangles), the positions along a fractionally divided edge,
// the exactness rules (outer edges closed under x -> 1 - x, u + v + w == 1,
// the constant coordinate of an edge exactly 0), the inner-level-1 special
// cases, discarded patches and the winding of every triangle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "primitive/tessellator.h"

namespace duet::raster {
namespace {

using spirv_exec::TessellationModes;
using Domain = TessellationModes::Domain;
using Spacing = TessellationModes::Spacing;
using Order = TessellationModes::Order;

TessellationModes Modes(Domain domain, Spacing spacing, bool point_mode = false, Order order = Order::kCcw) {
  TessellationModes m;
  m.domain = domain;
  m.spacing = spacing;
  m.order = order;
  m.point_mode = point_mode;
  return m;
}

PatchTessellation Tessellate(const TessellationModes& modes, std::vector<float> outer, std::vector<float> inner,
                      bool lower_left = false) {
  outer.resize(4, 1.0f);
  inner.resize(2, 1.0f);
  PatchTessellation t;
  TessellatePatch(modes, lower_left, outer.data(), inner.data(), &t);
  return t;
}

// The clamped, rounded level (maxTessellationGenerationLevel 64; 63 for
// fractional-odd spacing, whose levels are odd).
int Rounded(Spacing spacing, float level) {
  const float f = spacing == Spacing::kFractionalEven ? std::clamp(level, 2.0f, 64.0f)
                  : spacing == Spacing::kFractionalOdd ? std::clamp(level, 1.0f, 63.0f)
                                                       : std::clamp(level, 1.0f, 64.0f);
  int n = int(std::ceil(f));
  if (spacing == Spacing::kFractionalOdd) n += 1 - n % 2;
  if (spacing == Spacing::kFractionalEven) n += n % 2;
  return n;
}

int TriangleCount(Spacing spacing, int inner, int o0, int o1, int o2) {
  if (inner == 1) {
    if (o0 == 1 && o1 == 1 && o2 == 1) return 1;
    inner = spacing == Spacing::kFractionalOdd ? 3 : 2;
  }
  int count = o0 + o1 + o2;
  for (int k = 1; inner - 2 * k >= 0; ++k) {
    const int level = inner - 2 * k;
    count += level == 0 ? 0 : level == 1 ? 4 : 6 * level;
  }
  return count;
}

int TrianglePoints(Spacing spacing, int inner, int o0, int o1, int o2) {
  if (inner == 1) {
    if (o0 == 1 && o1 == 1 && o2 == 1) return 3;
    inner = spacing == Spacing::kFractionalOdd ? 3 : 2;
  }
  int count = o0 + o1 + o2;
  for (int k = 1; inner - 2 * k >= 0; ++k) count += inner - 2 * k == 0 ? 1 : 3 * (inner - 2 * k);
  return count;
}

int QuadInner(Spacing spacing, int level) { return level > 1 ? level : spacing == Spacing::kFractionalOdd ? 3 : 2; }

const Spacing kSpacings[] = {Spacing::kEqual, Spacing::kFractionalEven, Spacing::kFractionalOdd};
const float kLevels[] = {1.0f, 1.3f, 2.0f, 2.5f, 3.0f, 4.7f, 5.0f, 8.0f, 11.2f, 63.0f, 64.0f};

TEST(Tessellator, TriangleCountsFollowTheRings) {
  for (Spacing spacing : kSpacings)
    for (float inner : kLevels)
      for (float outer : kLevels) {
        const float outers[] = {outer, 2.0f, 3.5f};
        const int n = Rounded(spacing, inner);
        const int o[3] = {Rounded(spacing, outers[0]), Rounded(spacing, outers[1]), Rounded(spacing, outers[2])};
        const PatchTessellation t = Tessellate(Modes(Domain::kTriangles, spacing), {outers[0], outers[1], outers[2]}, {inner});
        ASSERT_EQ(t.indices.size(), size_t(3 * TriangleCount(spacing, n, o[0], o[1], o[2])))
            << int(spacing) << " " << inner << " " << outer;
        const PatchTessellation p =
            Tessellate(Modes(Domain::kTriangles, spacing, true), {outers[0], outers[1], outers[2]}, {inner});
        ASSERT_EQ(p.indices.size(), size_t(TrianglePoints(spacing, n, o[0], o[1], o[2])));
        ASSERT_EQ(p.coords.size(), 3 * p.indices.size());
      }
}

TEST(Tessellator, QuadCountsFollowTheRings) {
  for (Spacing spacing : kSpacings)
    for (float inner0 : kLevels)
      for (float inner1 : {1.0f, 2.0f, 3.0f, 6.5f}) {
        const float outers[] = {1.0f, 4.0f, 2.2f, 7.0f};
        int sum = 0;
        for (float o : outers) sum += Rounded(spacing, o);
        const int m = QuadInner(spacing, Rounded(spacing, inner0)), n = QuadInner(spacing, Rounded(spacing, inner1));
        const PatchTessellation t =
            Tessellate(Modes(Domain::kQuads, spacing), {outers[0], outers[1], outers[2], outers[3]}, {inner0, inner1});
        ASSERT_EQ(t.indices.size(), size_t(3 * (2 * (m - 2) * (n - 2) + 2 * (m - 2) + 2 * (n - 2) + sum)))
            << int(spacing) << " " << inner0 << " " << inner1;
        const PatchTessellation p =
            Tessellate(Modes(Domain::kQuads, spacing, true), {outers[0], outers[1], outers[2], outers[3]}, {inner0, inner1});
        ASSERT_EQ(p.indices.size(), size_t(sum + (m - 1) * (n - 1)));
      }
  // All levels 1: the two triangles of the corners.
  EXPECT_EQ(Tessellate(Modes(Domain::kQuads, Spacing::kEqual), {1, 1, 1, 1}, {1, 1}).indices.size(), 6u);
}

TEST(Tessellator, IsolinesAreLinesAcrossV) {
  const PatchTessellation t = Tessellate(Modes(Domain::kIsolines, Spacing::kFractionalOdd), {3.0f, 4.5f}, {});
  // Lines: equal spacing for outer level 0 whatever the mode; 5 segments each.
  ASSERT_EQ(t.indices.size(), size_t(2 * 3 * 5));
  std::set<float> vs;
  for (size_t i = 0; i < t.coords.size(); i += 3) {
    vs.insert(t.coords[i + 1]);
    EXPECT_EQ(t.coords[i + 2], 0.0f);
  }
  EXPECT_EQ(vs, (std::set<float>{0.0f, std::ldexp(std::round(65536.0f / 3), -16),
                                 std::ldexp(std::round(2 * 65536.0f / 3), -16)}));
}

// The x of each point of an isoline of outer level 1 and `level`, sorted.
std::vector<float> LinePoints(Spacing spacing, float level) {
  const PatchTessellation t = Tessellate(Modes(Domain::kIsolines, spacing, true), {1.0f, level}, {});
  std::vector<float> xs;
  for (size_t i = 0; i < t.coords.size(); i += 3) xs.push_back(t.coords[i]);
  std::sort(xs.begin(), xs.end());
  return xs;
}

TEST(Tessellator, FractionalSpacingHasTwoShortSegmentsAtTheEnds) {
  for (Spacing spacing : {Spacing::kFractionalEven, Spacing::kFractionalOdd})
    for (float level : {2.5f, 3.1f, 4.0f, 5.5f, 7.9f, 12.25f, 33.3f}) {
      const int n = Rounded(spacing, level);
      const std::vector<float> xs = LinePoints(spacing, level);
      ASSERT_EQ(xs.size(), size_t(n + 1)) << level;
      EXPECT_EQ(xs.front(), 0.0f);
      EXPECT_EQ(xs.back(), 1.0f);
      const float f = level;
      const float long_segment = 1.0f / f, short_segment = (f - float(n - 2)) / (2.0f * f);
      for (int i = 0; i < n; ++i) {
        const float expected = i == 0 || i == n - 1 ? short_segment : long_segment;
        EXPECT_NEAR(xs[size_t(i) + 1] - xs[size_t(i)], expected, 1e-4f) << level << " segment " << i;
      }
    }
  // Equal spacing: n equal segments at the rounded-up level.
  const std::vector<float> xs = LinePoints(Spacing::kEqual, 4.2f);
  ASSERT_EQ(xs.size(), 6u);
  for (int i = 0; i <= 5; ++i) EXPECT_NEAR(xs[size_t(i)], float(i) / 5.0f, 1e-4f);
}

// Outer edges: closed under x -> 1 - x exactly, their constant coordinate
// exactly 0, their points the same on every edge of the same level.
TEST(Tessellator, OuterEdgesAreSymmetricAndExact) {
  for (Spacing spacing : kSpacings)
    for (float level : {1.0f, 2.3f, 3.7f, 6.0f, 9.9f, 24.4f}) {
      const PatchTessellation t = Tessellate(Modes(Domain::kTriangles, spacing, true), {level, level, level}, {5.5f});
      std::set<float> edges[3];
      for (size_t i = 0; i < t.coords.size(); i += 3) {
        const float* c = &t.coords[i];
        EXPECT_EQ(c[0] + c[1] + c[2], 1.0f);
        for (int e = 0; e < 3; ++e)
          if (c[e] == 0.0f) edges[e].insert(c[(e + 1) % 3]);
      }
      for (int e = 0; e < 3; ++e) {
        EXPECT_EQ(edges[e], edges[0]) << "edge " << e;
        for (float x : edges[e]) EXPECT_TRUE(edges[e].count(1.0f - x)) << x;
        EXPECT_EQ(edges[e].size(), size_t(Rounded(spacing, level) + 1));
      }
      const PatchTessellation q = Tessellate(Modes(Domain::kQuads, spacing, true), {level, level, level, level}, {3, 4});
      std::set<float> u0, v0;
      for (size_t i = 0; i < q.coords.size(); i += 3) {
        if (q.coords[i] == 0.0f) u0.insert(q.coords[i + 1]);
        if (q.coords[i + 1] == 0.0f) v0.insert(q.coords[i]);
      }
      EXPECT_EQ(u0, v0);
      for (float x : u0) EXPECT_TRUE(u0.count(1.0f - x));
    }
}

// Fractional-odd spacing treats an inner level of 1 beside finer outer
// edges as 1 + epsilon: the ring inside lies exactly on the outer edges,
// so no triangle is interior (none without a zero coordinate).
TEST(Tessellator, InnerLevelOneMakesNoInteriorTriangles) {
  const PatchTessellation t = Tessellate(Modes(Domain::kTriangles, Spacing::kFractionalOdd), {3, 5, 7}, {1});
  for (size_t i = 0; i < t.indices.size(); i += 3) {
    bool on_edge = false;
    for (int v = 0; v < 3; ++v)
      for (int c = 0; c < 3; ++c) on_edge |= t.coords[t.indices[i + size_t(v)] * 3 + size_t(c)] == 0.0f;
    EXPECT_TRUE(on_edge) << "triangle " << i / 3;
  }
}

TEST(Tessellator, NonPositiveOrNanOuterLevelsDiscard) {
  for (float bad : {0.0f, -1.0f, std::nanf("")}) {
    EXPECT_TRUE(Tessellate(Modes(Domain::kTriangles, Spacing::kEqual), {2, bad, 2}, {2}).coords.empty());
    EXPECT_TRUE(Tessellate(Modes(Domain::kQuads, Spacing::kEqual), {2, 2, 2, bad}, {2, 2}).coords.empty());
    EXPECT_TRUE(Tessellate(Modes(Domain::kIsolines, Spacing::kEqual), {bad, 2}, {}).coords.empty());
  }
  // Levels a domain does not use do not discard it.
  EXPECT_FALSE(Tessellate(Modes(Domain::kTriangles, Spacing::kEqual), {2, 2, 2, 0}, {2, 0}).coords.empty());
  EXPECT_FALSE(Tessellate(Modes(Domain::kIsolines, Spacing::kEqual), {2, 2, 0, 0}, {0, 0}).coords.empty());
}

// In (u, v) with the origin at the upper left, clockwise triangles turn
// with a positive cross product; the lower-left origin reverses it.
TEST(Tessellator, TrianglesAreWoundAsAsked) {
  for (Domain domain : {Domain::kTriangles, Domain::kQuads})
    for (Order order : {Order::kCw, Order::kCcw})
      for (bool lower_left : {false, true}) {
        const PatchTessellation t =
            Tessellate(Modes(domain, Spacing::kFractionalEven, false, order), {3.3f, 4, 5, 6}, {4.5f, 3}, lower_left);
        const bool positive = (order == Order::kCw) != lower_left;
        ASSERT_FALSE(t.indices.empty());
        for (size_t i = 0; i < t.indices.size(); i += 3) {
          const float* a = &t.coords[t.indices[i] * 3];
          const float* b = &t.coords[t.indices[i + 1] * 3];
          const float* c = &t.coords[t.indices[i + 2] * 3];
          const float cross = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
          if (cross != 0.0f) ASSERT_EQ(cross > 0.0f, positive) << "triangle " << i / 3;
        }
      }
}

}  // namespace
}  // namespace duet::raster

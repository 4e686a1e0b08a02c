// Texture sampling in draws, through the loader: a perspective floor with
// trilinear filtering over mip levels of distinct colours (the blend
// between levels must happen at the depth the level of detail says, and the
// coordinates must interpolate perspective-correctly), cube maps (the face
// of the major axis, seamless filtering across a face edge), and depth
// comparison with sampler2DShadow (every compare op, nearest and linear
// percentage-closer filtering). Expected values are computed on the host.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/cube_array_probe.frag.h"
#include "shaders/cube_probe.frag.h"
#include "shaders/perspective_uv.vert.h"
#include "shaders/shadow_probe.frag.h"
#include "shaders/trilinear.frag.h"

namespace duet_test {
namespace {

using Color = std::array<double, 4>;

class GraphicsSamplingTest : public GraphicsTest {
 protected:
  // Draws a full-screen rect.vert rectangle with `fragment` reading `set`
  // (binding 0: the sampled image, binding 1: one vec4 per pixel) into an
  // RGBA32F target of `extent`; returns its pixels.
  std::vector<std::array<float, 4>> Probe(const uint32_t* code, size_t bytes, VkSampler sampler, VkImageView view,
                                          const std::vector<std::array<float, 4>>& probes, VkExtent2D extent) {
    const DescriptorSet set =
        MakeDescriptorSet({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
    HostBuffer buffer = Upload(probes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    WriteSampler(set, 0, sampler, view);
    WriteBuffer(set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buffer.buffer);
    PipelineDesc desc = RectPipeline(Module(code, bytes), extent, {set.layout});
    desc.color_formats = {VK_FORMAT_R32G32B32A32_SFLOAT};
    const VkPipeline pipeline = MakePipeline(desc);
    const Target target = MakeTarget(VK_FORMAT_R32G32B32A32_SFLOAT, extent);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &set.set, 0, nullptr);
    RectParams rect;
    rect.seed = extent.width;
    DrawRect(cb, desc.layout, rect);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<std::array<float, 4>>(target);
  }

  static VkSamplerCreateInfo SamplerInfo(VkFilter filter, VkSamplerAddressMode address) {
    VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    ci.magFilter = ci.minFilter = filter;
    ci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
    ci.addressModeU = ci.addressModeV = ci.addressModeW = address;
    ci.maxLod = VK_LOD_CLAMP_NONE;
    return ci;
  }
};

// --- trilinear filtering on a perspective floor ----------------------------------------

constexpr uint32_t kFloorSize = 64;    // target and texture
constexpr uint32_t kLevels = 7;        // 64x64 .. 1x1
constexpr double kFar = 8.0;           // the floor runs from w = 1 to w = 8
constexpr double kRepeatU = 1.0, kRepeatV = 4.0;
const Color kLevelColors[kLevels] = {{255, 0, 0, 255},   {0, 255, 0, 255},   {0, 0, 255, 255},    {255, 255, 0, 255},
                                     {0, 255, 255, 255}, {255, 0, 255, 255}, {255, 255, 255, 255}};

// The floor Y = 1 seen from the origin: NDC (nx, ny) is the point at depth
// Z = 1 / ny, X = nx * Z; u = (X + 1) / 2 * kRepeatU, v = (Z - 1) / 7 * kRepeatV.
struct FloorPoint {
  double u, v;
  bool inside;
};
FloorPoint FloorAt(double sx, double sy) {
  const double nx = sx / kFloorSize * 2 - 1, ny = sy / kFloorSize * 2 - 1;
  if (ny <= 0) return {0, 0, false};
  const double z = 1 / ny, x = nx * z;
  return {(x + 1) / 2 * kRepeatU, (z - 1) / (kFar - 1) * kRepeatV, z >= 1 && z <= kFar && std::abs(x) <= 1};
}

// The level of detail at a window position, from the exact derivatives:
// `low` with the smallest scale factor the spec allows (the larger
// component), `high` with the largest (their sum).
void LevelOfDetail(double sx, double sy, double* low, double* high) {
  const double h = 1e-4;
  const FloorPoint c = FloorAt(sx, sy), dx = FloorAt(sx + h, sy), dy = FloorAt(sx, sy + h);
  const double ux = (dx.u - c.u) / h * kFloorSize, vx = (dx.v - c.v) / h * kFloorSize;
  const double uy = (dy.u - c.u) / h * kFloorSize, vy = (dy.v - c.v) / h * kFloorSize;
  const double rho_low = std::max({std::abs(ux), std::abs(vx), std::abs(uy), std::abs(vy)});
  const double rho_high = std::max(std::abs(ux) + std::abs(vx), std::abs(uy) + std::abs(vy));
  *low = std::log2(rho_low);
  *high = std::log2(rho_high);
}

// The colour trilinear filtering gives at level of detail `lod`: each
// level is one colour, so only the blend between two levels matters.
Color ColorAtLod(double lod) {
  if (lod <= 0) return kLevelColors[0];
  if (lod >= kLevels - 1) return kLevelColors[kLevels - 1];
  const int d = int(std::floor(lod));
  const double f = lod - d;
  Color c;
  for (size_t i = 0; i < 4; ++i) c[i] = kLevelColors[d][i] * (1 - f) + kLevelColors[d + 1][i] * f;
  return c;
}

TEST_F(GraphicsSamplingTest, TrilinearFloorBlendsLevelsAtTheExpectedDepth) {
  const uint32_t size = kFloorSize;
  VkImageCreateInfo ici = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {size, size, 1}, kLevels);
  const VkImage texture = MakeGeneralImage(ici);
  for (uint32_t level = 0; level < kLevels; ++level) {
    const uint32_t s = size >> level;
    const Color& c = kLevelColors[level];
    const std::vector<uint32_t> texels(s * s, PackRgba8(uint32_t(c[0]), uint32_t(c[1]), uint32_t(c[2]), 255));
    WriteImage(texture, {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1}, {0, 0, 0}, {s, s, 1}, 4,
               {reinterpret_cast<const uint8_t*>(texels.data()), texels.size() * 4});
  }
  const VkImageView view =
      MakeView(texture, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 1});
  const VkSampler sampler = MakeSampler(SamplerInfo(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT));
  const DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
  WriteSampler(set, 0, sampler, view);

  // The floor as two triangles in clip space (w is the depth).
  struct Vertex {
    float position[4];
    float uv[2];
  };
  auto corner = [](double x, double z) {
    return Vertex{{float(x), 1.0f, 0.5f, float(z)},
                  {float((x + 1) / 2 * kRepeatU), float((z - 1) / (kFar - 1) * kRepeatV)}};
  };
  const std::vector<Vertex> floor = {corner(-1, 1), corner(1, 1),    corner(-1, kFar),
                                     corner(1, 1),  corner(1, kFar), corner(-1, kFar)};
  HostBuffer vb = Upload(floor, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  PipelineDesc desc;
  desc.vertex = Module(kPerspectiveUvVert);
  desc.fragment = Module(kTrilinearFrag);
  desc.layout = MakePipelineLayout({set.layout});
  desc.extent = {size, size};
  desc.bindings = {{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX}};
  desc.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32_SFLOAT, 16}};
  desc.color_formats = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT};
  const VkPipeline pipeline = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, {size, size});
  const Target uv = MakeTarget(VK_FORMAT_R32G32B32A32_SFLOAT, {size, size});
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}, {&uv, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &set.set, 0, nullptr);
  VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &offset);
  vkCmdDraw(cb, 6, 1, 0, 0);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  const std::vector<uint32_t> colors = Read<uint32_t>(color);
  const std::vector<std::array<float, 4>> uvs = Read<std::array<float, 4>>(uv);
  ASSERT_EQ(colors.size(), size * size);

  int checked = 0, failures = 0;
  double lowest = 1e9, highest = -1e9;
  for (uint32_t y = 0; y < size; ++y)
    for (uint32_t x = 0; x < size; ++x) {
      const FloorPoint p = FloorAt(x + 0.5, y + 0.5);
      // Keep off the floor's outline, where coverage decides.
      bool interior = true;
      for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) interior &= FloorAt(x + 0.5 + dx, y + 0.5 + dy).inside;
      if (!interior) continue;
      ++checked;
      // Perspective-correct coordinates.
      const std::array<float, 4>& got_uv = uvs[y * size + x];
      if (std::abs(got_uv[0] - p.u) > 2e-4 || std::abs(got_uv[1] - p.v) > 2e-4) {
        if (failures++ < 8)
          ADD_FAILURE() << "pixel " << x << "," << y << ": uv " << got_uv[0] << "," << got_uv[1] << ", expected "
                        << p.u << "," << p.v;
        continue;
      }
      // The level of detail over the pixel's 2x2 quad (derivatives are
      // differences across it), with the spec's latitude in the scale factor.
      double lod_low = 1e9, lod_high = -1e9;
      for (uint32_t qy = y & ~1u; qy <= (y | 1u); ++qy)
        for (uint32_t qx = x & ~1u; qx <= (x | 1u); ++qx) {
          double lo, hi;
          LevelOfDetail(qx + 0.5, qy + 0.5, &lo, &hi);
          lod_low = std::min(lod_low, lo);
          lod_high = std::max(lod_high, hi);
        }
      lowest = std::min(lowest, lod_low);
      highest = std::max(highest, lod_high);
      lod_low -= 0.05;
      lod_high += 0.05;
      // The colour must lie within what that range of levels of detail gives.
      Color lo{1e9, 1e9, 1e9, 1e9}, hi{-1e9, -1e9, -1e9, -1e9};
      for (int i = 0; i <= 64; ++i) {
        const Color c = ColorAtLod(lod_low + (lod_high - lod_low) * i / 64);
        for (size_t k = 0; k < 4; ++k) {
          lo[k] = std::min(lo[k], c[k]);
          hi[k] = std::max(hi[k], c[k]);
        }
      }
      for (int k = 0; k < 4; ++k) {
        const double got = Channel(colors[y * size + x], k);
        if (got >= lo[size_t(k)] - 3 && got <= hi[size_t(k)] + 3) continue;
        if (failures++ < 8)
          ADD_FAILURE() << "pixel " << x << "," << y << " channel " << k << ": " << got << ", expected "
                        << lo[size_t(k)] << ".." << hi[size_t(k)] << " (level of detail " << lod_low << ".."
                        << lod_high << ")";
      }
    }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(checked, 300);
  // The floor spans several levels, so blends between many pairs were checked.
  EXPECT_LT(lowest, 0.5);
  EXPECT_GT(highest, 3.0);
}

// --- cube maps -----------------------------------------------------------------------

constexpr uint32_t kFace = 4;
const uint32_t kFaceColors[6] = {PackRgba8(255, 0, 0, 255),   PackRgba8(0, 255, 0, 255),
                                 PackRgba8(0, 0, 255, 255),   PackRgba8(255, 255, 0, 255),
                                 PackRgba8(255, 0, 255, 255), PackRgba8(0, 255, 255, 255)};

// The face the spec selects: the major axis (+X, -X, +Y, -Y, +Z, -Z), and
// the face coordinates (s, t) in [0, 1].
int CubeFace(const std::array<float, 4>& d, double* s, double* t) {
  const double ax = std::abs(d[0]), ay = std::abs(d[1]), az = std::abs(d[2]);
  double sc, tc, ma;
  int face;
  if (ax >= ay && ax >= az) {
    face = d[0] > 0 ? 0 : 1;
    sc = d[0] > 0 ? -d[2] : d[2];
    tc = -d[1];
    ma = ax;
  } else if (ay >= az) {
    face = d[1] > 0 ? 2 : 3;
    sc = d[0];
    tc = d[1] > 0 ? d[2] : -d[2];
    ma = ay;
  } else {
    face = d[2] > 0 ? 4 : 5;
    sc = d[2] > 0 ? d[0] : -d[0];
    tc = -d[1];
    ma = az;
  }
  *s = 0.5 * (sc / ma + 1);
  *t = 0.5 * (tc / ma + 1);
  return face;
}

class CubeMapTest : public GraphicsSamplingTest {
 protected:
  void SetUp() override {
    GraphicsSamplingTest::SetUp();
    if (HasFatalFailure()) return;
    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kFace, kFace, 1}, 1, 6);
    ci.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
    cube_ = MakeGeneralImage(ci);
    for (uint32_t f = 0; f < 6; ++f) {
      const std::vector<uint32_t> texels(kFace * kFace, kFaceColors[f]);
      WriteImage(cube_, {VK_IMAGE_ASPECT_COLOR_BIT, 0, f, 1}, {0, 0, 0}, {kFace, kFace, 1}, 4,
                 {reinterpret_cast<const uint8_t*>(texels.data()), texels.size() * 4});
    }
    view_ = MakeView(cube_, VK_IMAGE_VIEW_TYPE_CUBE, VK_FORMAT_R8G8B8A8_UNORM, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 6});
  }

  std::vector<std::array<float, 4>> Sample(VkFilter filter, const std::vector<std::array<float, 4>>& directions) {
    const VkSampler sampler = MakeSampler(SamplerInfo(filter, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE));
    return Probe(kCubeProbeFrag, sizeof kCubeProbeFrag, sampler, view_, directions,
                 {uint32_t(directions.size()), 1});
  }

  VkImage cube_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
};

TEST_F(CubeMapTest, DirectionsSelectTheFaceOfTheMajorAxis) {
  std::vector<std::array<float, 4>> directions = {{1, 0, 0, 0},        {-1, 0, 0, 0},    {0, 1, 0, 0},
                                                  {0, -1, 0, 0},       {0, 0, 1, 0},     {0, 0, -1, 0},
                                                  {2, 1.9f, -1.9f, 0}, {0.3f, -0.5f, 0.52f, 0}};
  // Near edges and corners, but with a clear major axis.
  Random random(9);
  while (directions.size() < 64) {
    std::array<float, 4> d{random.Uniform(-1, 1), random.Uniform(-1, 1), random.Uniform(-1, 1), 0};
    float m[3] = {std::abs(d[0]), std::abs(d[1]), std::abs(d[2])};
    std::sort(m, m + 3);
    if (m[2] > 1.02f * m[1] && m[2] > 0.1f) directions.push_back(d);
  }
  const std::vector<std::array<float, 4>> got = Sample(VK_FILTER_NEAREST, directions);
  ASSERT_EQ(got.size(), directions.size());
  for (size_t i = 0; i < directions.size(); ++i) {
    double s, t;
    const int face = CubeFace(directions[i], &s, &t);
    for (int c = 0; c < 4; ++c)
      EXPECT_EQ(got[i][size_t(c)], float(Channel(kFaceColors[face], c)) / 255.0f)
          << "direction " << directions[i][0] << "," << directions[i][1] << "," << directions[i][2] << " face "
          << face << " channel " << c;
  }
}

TEST_F(CubeMapTest, LinearFilteringIsSeamlessAcrossFaceEdges) {
  // Each direction is just inside one face, half a texel from an edge it
  // shares with a neighbour: the bilinear footprint takes its outer row or
  // column from that face (seamless filtering); far from edges, linear
  // filtering returns the face's colour.
  struct Case {
    std::array<float, 4> direction;
    int face, neighbour;
  };
  const float e = 0.999f;
  const std::vector<Case> cases = {
      {{1, e, 0.3f, 0}, 0, 2},   {{1, -e, -0.2f, 0}, 0, 3}, {{1, 0.1f, e, 0}, 0, 4},  {{-1, 0.2f, e, 0}, 1, 4},
      {{0.3f, 1, e, 0}, 2, 4},   {{-e, 1, 0.1f, 0}, 2, 1},  {{0.2f, -1, -e, 0}, 3, 5}, {{-e, 0.1f, 1, 0}, 4, 1},
      {{0.1f, e, -1, 0}, 5, 2},  {{0.25f, 0.1f, 1, 0}, 4, 4}, {{-1, -0.3f, 0.2f, 0}, 1, 1}};
  std::vector<std::array<float, 4>> directions;
  for (const Case& c : cases) directions.push_back(c.direction);
  const std::vector<std::array<float, 4>> got = Sample(VK_FILTER_LINEAR, directions);
  ASSERT_EQ(got.size(), directions.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    double s, t;
    ASSERT_EQ(CubeFace(cases[i].direction, &s, &t), cases[i].face) << i;
    // The weight of the texels beyond the edge: the coordinate is within
    // half a texel of it, so the footprint straddles the edge.
    const double u = s * kFace - 0.5, v = t * kFace - 0.5;
    const double outside = u < 0 ? -u : u > kFace - 1 ? u - (kFace - 1) : v < 0 ? -v : v > kFace - 1 ? v - (kFace - 1)
                                                                                                      : 0.0;
    for (int c = 0; c < 4; ++c) {
      const double expected = (Channel(kFaceColors[cases[i].face], c) * (1 - outside) +
                               Channel(kFaceColors[cases[i].neighbour], c) * outside) /
                              255.0;
      EXPECT_NEAR(got[i][size_t(c)], expected, 3.0 / 255.0)
          << "direction " << i << " face " << cases[i].face << " neighbour " << cases[i].neighbour << " channel " << c;
    }
  }
}

// imageCubeArray: two cubes in one view (12 layers, cube 1's faces in
// other colours); the fourth coordinate picks the cube, clamped to the
// view's cubes (round to nearest).
TEST_F(CubeMapTest, CubeArraysPickTheCubeByTheFourthCoordinate) {
  if (!features_.imageCubeArray) GTEST_SKIP() << "imageCubeArray is not supported";
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kFace, kFace, 1}, 1, 12);
  ci.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  const VkImage cubes = MakeGeneralImage(ci);
  auto color = [](uint32_t cube, uint32_t face) { return cube == 0 ? kFaceColors[face] : kFaceColors[face] ^ 0x00FFFFFFu; };
  for (uint32_t layer = 0; layer < 12; ++layer) {
    const std::vector<uint32_t> texels(kFace * kFace, color(layer / 6, layer % 6));
    WriteImage(cubes, {VK_IMAGE_ASPECT_COLOR_BIT, 0, layer, 1}, {0, 0, 0}, {kFace, kFace, 1}, 4,
               {reinterpret_cast<const uint8_t*>(texels.data()), texels.size() * 4});
  }
  const VkImageView view =
      MakeView(cubes, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, VK_FORMAT_R8G8B8A8_UNORM, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 12});
  const std::vector<std::array<float, 4>> probes = {{1, 0, 0, 0},  {1, 0, 0, 1},    {0, -1, 0, 1},  {0, 0, -1, 0.4f},
                                                    {0, 0, -1, 0.6f}, {0, 1, 0, 7.0f}, {-1, 0, 0, -3.0f}};
  const uint32_t expected_cube[] = {0, 1, 1, 0, 1, 1, 0};
  const VkSampler sampler = MakeSampler(SamplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE));
  const std::vector<std::array<float, 4>> got =
      Probe(kCubeArrayProbeFrag, sizeof kCubeArrayProbeFrag, sampler, view, probes, {uint32_t(probes.size()), 1});
  ASSERT_EQ(got.size(), probes.size());
  for (size_t i = 0; i < probes.size(); ++i) {
    double s, t;
    const int face = CubeFace(probes[i], &s, &t);
    for (int c = 0; c < 4; ++c)
      EXPECT_EQ(got[i][size_t(c)], float(Channel(color(expected_cube[i], uint32_t(face)), c)) / 255.0f)
          << "probe " << i << " channel " << c;
  }
}

// --- depth comparison ------------------------------------------------------------------

constexpr uint32_t kShadow = 4;  // texels a side

class ShadowTest : public GraphicsSamplingTest {};

TEST_F(ShadowTest, CompareOpsWithNearestAndLinearFiltering) {
  VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_D32_SFLOAT, {kShadow, kShadow, 1});
  const VkImage image = MakeGeneralImage(ci, VK_IMAGE_ASPECT_DEPTH_BIT);
  std::vector<float> depths(kShadow * kShadow);
  for (uint32_t i = 0; i < depths.size(); ++i) depths[i] = float((i * 7) % 16) / 16.0f + 1.0f / 32.0f;
  WriteImage(image, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1}, {0, 0, 0}, {kShadow, kShadow, 1}, 4,
             {reinterpret_cast<const uint8_t*>(depths.data()), depths.size() * 4});
  const VkImageView view =
      MakeView(image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_D32_SFLOAT, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1});
  auto texel = [&](int x, int y) {
    x = std::clamp(x, 0, int(kShadow) - 1);
    y = std::clamp(y, 0, int(kShadow) - 1);
    return depths[size_t(y) * kShadow + size_t(x)];
  };
  // Probes: coordinates away from texel edges (nearest) and centres
  // (linear weights well inside (0, 1)), references at, between and
  // around the stored depths.
  Random random(3);
  std::vector<std::array<float, 4>> probes;
  while (probes.size() < 64) {
    const float u = random.Uniform(0, 1), v = random.Uniform(0, 1);
    const double fu = u * kShadow, fv = v * kShadow;
    if (std::abs(fu - std::round(fu)) < 0.05 || std::abs(fv - std::round(fv)) < 0.05) continue;
    const float on_texel = texel(int(fu), int(fv));
    const float references[] = {on_texel, random.Uniform(0, 1), on_texel + 1e-6f, 0.0f, 1.0f};
    probes.push_back({u, v, references[random.Below(5)], 0});
  }
  for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
    for (VkCompareOp op : kCompareOps) {
      VkSamplerCreateInfo sci = SamplerInfo(filter, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
      sci.compareEnable = VK_TRUE;
      sci.compareOp = op;
      const VkSampler sampler = MakeSampler(sci);
      const std::vector<std::array<float, 4>> got =
          Probe(kShadowProbeFrag, sizeof kShadowProbeFrag, sampler, view, probes, {8, 8});
      ASSERT_EQ(got.size(), probes.size());
      for (size_t i = 0; i < probes.size(); ++i) {
        const float u = probes[i][0], v = probes[i][1], reference = probes[i][2];
        double expected;
        if (filter == VK_FILTER_NEAREST) {
          expected = CompareOpPasses(op, reference, texel(int(u * kShadow), int(v * kShadow))) ? 1 : 0;
        } else {
          // Percentage-closer filtering: the 2x2 comparisons, weighted bilinearly.
          const double x = u * kShadow - 0.5, y = v * kShadow - 0.5;
          const int x0 = int(std::floor(x)), y0 = int(std::floor(y));
          const double a = x - x0, b = y - y0;
          expected = (1 - a) * (1 - b) * CompareOpPasses(op, reference, texel(x0, y0)) +
                     a * (1 - b) * CompareOpPasses(op, reference, texel(x0 + 1, y0)) +
                     (1 - a) * b * CompareOpPasses(op, reference, texel(x0, y0 + 1)) +
                     a * b * CompareOpPasses(op, reference, texel(x0 + 1, y0 + 1));
        }
        EXPECT_NEAR(got[i][0], expected, filter == VK_FILTER_NEAREST ? 0.0 : 0.01)
            << "op " << op << " filter " << filter << " probe " << u << "," << v << " reference " << reference;
      }
    }
}

}  // namespace
}  // namespace duet_test

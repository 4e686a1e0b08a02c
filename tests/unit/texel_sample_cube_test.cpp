// Cube maps: face selection and its tie rules, the face coordinates of the
// spec's (sc, tc, rc) table, cube array layer selection, seamless filtering
// across face edges and corners, clamping for NEAREST, non-seamless cubes,
// and the LOD from transformed derivatives.
#include <gtest/gtest.h>

#include "texel_sample_test_image.h"

namespace duet::texel::sample_test {
namespace {

constexpr uint32_t kFaceSize = 4;
enum Face { kPosX, kNegX, kPosY, kNegY, kPosZ, kNegZ };

// Texel (x, y) of layer `layer`: R names the layer, G and B the position.
uint8_t RedOf(uint32_t layer) { return static_cast<uint8_t>(10 + 20 * layer); }
uint8_t GreenOf(uint32_t x) { return static_cast<uint8_t>(10 + 60 * x); }
uint8_t BlueOf(uint32_t y) { return static_cast<uint8_t>(10 + 60 * y); }

class SampleCube : public ::testing::Test {
 protected:
  SampleCube()
      : image_(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kFaceSize, kFaceSize, 1}, 2, 12,
               VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) {
    for (uint32_t level = 0; level < 2; ++level)
      for (uint32_t layer = 0; layer < 12; ++layer)
        for (uint32_t y = 0; y < (kFaceSize >> level); ++y)
          for (uint32_t x = 0; x < (kFaceSize >> level); ++x)
            image_.SetRgba8(level, layer, x, y, 0, RedOf(layer), GreenOf(x), BlueOf(y), static_cast<uint8_t>(level));
    cube_ = image_.View(VK_IMAGE_VIEW_TYPE_CUBE, VK_FORMAT_UNDEFINED, 0, 2, 0, 6);
  }

  // The texel's colour as the sampler returns it.
  static void ExpectTexel(const TexelValue& got, uint32_t layer, uint32_t x, uint32_t y, const char* what) {
    EXPECT_FLOAT_EQ(got.f[0], Unorm8(RedOf(layer))) << what;
    EXPECT_FLOAT_EQ(got.f[1], Unorm8(GreenOf(x))) << what;
    EXPECT_FLOAT_EQ(got.f[2], Unorm8(BlueOf(y))) << what;
  }

  static TexelValue Direction(const SampledImageState& state, float x, float y, float z, float a = 0.0f) {
    Lane lane;
    lane.coords[0] = x, lane.coords[1] = y, lane.coords[2] = z, lane.coords[3] = a;
    return SampleOne(state, lane);
  }

  // The texel value blended from weighted layer/x/y triples, for R, G and B.
  struct Weighted {
    double weight;
    uint32_t layer, x, y;
  };
  static void ExpectBlend(const TexelValue& got, std::initializer_list<Weighted> texels, const char* what) {
    double rgb[3] = {0, 0, 0};
    for (const Weighted& t : texels) {
      rgb[0] += t.weight * Unorm8(RedOf(t.layer));
      rgb[1] += t.weight * Unorm8(GreenOf(t.x));
      rgb[2] += t.weight * Unorm8(BlueOf(t.y));
    }
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(got.f[c], rgb[c], 2e-6) << what << " component " << c;
  }

  TestImage image_;
  ImageView cube_;
};

TEST_F(SampleCube, MajorAxisSelectsTheFaceAndTheTableGivesItsCoordinates) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  const SampledImageState state = Resolve(cube_, &sampler);
  // s_face = sc / (2 |rc|) + 1/2, t_face = tc / (2 |rc|) + 1/2; i = floor(4 s_face).
  struct Case {
    float direction[3];
    Face face;
    uint32_t i, j;
  };
  const Case cases[] = {
      {{1.0f, 0.3f, -0.6f}, kPosX, 3, 1},   // sc = -rz = 0.6, tc = -ry = -0.3
      {{-1.0f, 0.3f, -0.6f}, kNegX, 0, 1},  // sc = +rz = -0.6, tc = -ry = -0.3
      {{0.3f, 1.0f, -0.6f}, kPosY, 2, 0},   // sc = +rx = 0.3, tc = +rz = -0.6
      {{0.3f, -1.0f, -0.6f}, kNegY, 2, 3},  // sc = +rx = 0.3, tc = -rz = 0.6
      {{0.3f, -0.6f, 1.0f}, kPosZ, 2, 3},   // sc = +rx = 0.3, tc = -ry = 0.6
      {{0.3f, -0.6f, -1.0f}, kNegZ, 1, 3},  // sc = -rx = -0.3, tc = -ry = 0.6
  };
  for (const Case& c : cases) {
    for (float scale : {1.0f, 2.5f}) {  // only the direction matters
      const TexelValue got =
          Direction(state, c.direction[0] * scale, c.direction[1] * scale, c.direction[2] * scale);
      ExpectTexel(got, c.face, c.i, c.j, "face table");
    }
  }
}

TEST_F(SampleCube, TiesPreferZThenY) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  const SampledImageState state = Resolve(cube_, &sampler);
  EXPECT_FLOAT_EQ(Direction(state, 1, 1, 1).f[0], Unorm8(RedOf(kPosZ)));
  EXPECT_FLOAT_EQ(Direction(state, -1, 1, -1).f[0], Unorm8(RedOf(kNegZ)));
  EXPECT_FLOAT_EQ(Direction(state, 1, -1, 0.5f).f[0], Unorm8(RedOf(kNegY)));
  EXPECT_FLOAT_EQ(Direction(state, -0.5f, 0.5f, 0).f[0], Unorm8(RedOf(kPosY)));
}

TEST_F(SampleCube, NearestClampsToTheFaceEdge) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT);
  const SampledImageState state = Resolve(cube_, &sampler);
  // +Z with sc = +1: s_face = 1, u = 4, clamped to column 3 (not wrapped to 0).
  ExpectTexel(Direction(state, 1.0f, 0.0f, 1.0f), kPosZ, 3, 2, "edge");
}

TEST_F(SampleCube, CubeArraysSelectTheCubeByRoundingTheFourthCoordinate) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  const SampledImageState state = Resolve(image_.View(VK_IMAGE_VIEW_TYPE_CUBE_ARRAY), &sampler);
  EXPECT_FLOAT_EQ(Direction(state, 0, 0, -1, 0.4f).f[0], Unorm8(RedOf(kNegZ)));
  EXPECT_FLOAT_EQ(Direction(state, 0, 0, -1, 0.6f).f[0], Unorm8(RedOf(6 + kNegZ)));
  EXPECT_FLOAT_EQ(Direction(state, 0, 0, -1, 7.0f).f[0], Unorm8(RedOf(6 + kNegZ)));
  EXPECT_FLOAT_EQ(Direction(state, 0, 0, -1, -3.0f).f[0], Unorm8(RedOf(kNegZ)));
  // A cube view starting at layer 6 sees the second cube as its first.
  const SampledImageState second =
      Resolve(image_.View(VK_IMAGE_VIEW_TYPE_CUBE, VK_FORMAT_UNDEFINED, 0, 1, 6, 6), &sampler);
  EXPECT_FLOAT_EQ(Direction(second, -1, 0, 0).f[0], Unorm8(RedOf(6 + kNegX)));
}

// +X's left edge (sc = -rz = -1, so rz = +1) is the edge x = +1 of +Z, its
// right column (sc = +rx = +1); both faces have tc = -ry, so rows match.
TEST_F(SampleCube, LinearReadsAcrossAnEdgeFromTheNeighbouringFace) {
  const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  const SampledImageState state = Resolve(cube_, &sampler);
  // sc = -0.99: u = 4 (0.005) = 0.02, u - 0.5 = -0.48: i0 = -1, alpha = 0.52.
  // tc = 0.25: v = 2.5, v - 0.5 = 2: row 2 only.
  const TexelValue got = Direction(state, 1.0f, -0.25f, 0.99f);
  ExpectBlend(got, {{0.48, kPosZ, 3, 2}, {0.52, kPosX, 0, 2}}, "+X left edge");

  // +Y's top row (tc = rz = -1) borders -Z's top row (tc = -ry = -1), and
  // -Z's sc = -rx runs opposite to +Y's sc = +rx: column i maps to 3 - i.
  // sc = -0.25: u = 1.5, column 1 only; tc = -0.99: j0 = -1, beta = 0.52.
  const TexelValue top = Direction(state, -0.25f, 1.0f, -0.99f);
  ExpectBlend(top, {{0.48, kNegZ, 2, 0}, {0.52, kPosY, 1, 0}}, "+Y top edge");
}

// The corner (+1, +1, +1) joins +X texel (0, 0), +Y texel (3, 3) and +Z
// texel (3, 0); the texel past both edges is the average of the three.
TEST_F(SampleCube, LinearAveragesTheThreeTexelsAtACorner) {
  const SamplerState sampler = MakeSampler(VK_FILTER_LINEAR);
  const SampledImageState state = Resolve(cube_, &sampler);
  // +X with sc = -0.99 and tc = -0.99: i0 = j0 = -1, alpha = beta = 0.52.
  const TexelValue got = Direction(state, 1.0f, 0.99f, 0.99f);
  const double a = 0.52, corner = (1 - a) * (1 - a) / 3;
  ExpectBlend(got,
              {{corner, kPosX, 0, 0},
               {corner, kPosY, 3, 3},
               {corner, kPosZ, 3, 0},
               {a * (1 - a), kPosY, 3, 3},  // (i1, j0): past the top edge
               {(1 - a) * a, kPosZ, 3, 0},  // (i0, j1): past the left edge
               {a * a, kPosX, 0, 0}},
              "corner");
}

TEST_F(SampleCube, NonSeamlessCubesWrapEachFaceLikeA2DImage) {
  SamplerState sampler = MakeSampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  sampler.non_seamless_cube = true;
  sampler.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  // The same sample as across +X's left edge, but i0 = -1 is a border texel.
  const TexelValue got = Direction(Resolve(cube_, &sampler), 1.0f, -0.25f, 0.99f);
  EXPECT_NEAR(got.f[0], 0.48 + 0.52 * Unorm8(RedOf(kPosX)), 2e-6);
  EXPECT_NEAR(got.f[1], 0.48 + 0.52 * Unorm8(GreenOf(0)), 2e-6);
  EXPECT_NEAR(got.f[2], 0.48 + 0.52 * Unorm8(BlueOf(2)), 2e-6);
  EXPECT_NEAR(got.f[3], 0.48, 2e-6);  // level 0's alpha is 0
}

// Alpha holds the level number (as a UNORM8 code) in this image.
TEST_F(SampleCube, DerivativesAreTransformedToTheFace) {
  const SamplerState sampler = MakeSampler(VK_FILTER_NEAREST);
  const SampledImageState state = Resolve(cube_, &sampler);
  struct Case {
    float direction[3];
    float ddx[3];
    uint32_t level;
  };
  // d(s_face)/dx = (|rc| d(sc) - sc d(|rc|)) / (2 rc^2), rho = 4 |d(s_face)/dx|.
  const Case cases[] = {
      {{1, 0, 0}, {0, 0, 0.5f}, 0},     // +X centre: d(sc) = -d(rz) = -0.5: rho 1
      {{1, 0, 0}, {0, 0, 1.0f}, 1},     // rho 2
      {{1, 0, -0.5f}, {1, 0, 0}, 0},    // sc = 0.5, d(|rc|) = 1: rho = 4 * 0.25 = 1
      {{1, 0, -0.5f}, {2, 0, 0}, 1},    // rho 2
      {{2, 0, 0}, {0, 0, 1.0f}, 0},     // |rc| = 2 halves the face derivative: rho 1
      {{2, 0, 0}, {0, 0, 2.0f}, 1},     // rho 2
      {{0, -1, 0}, {0, 0, 1.0f}, 1},    // -Y: d(tc) = -d(rz): rho 2
  };
  for (const Case& c : cases) {
    Lane lane;
    for (int k = 0; k < 3; ++k) lane.coords[k] = c.direction[k], lane.ddx[k] = c.ddx[k];
    lane.derivatives = true;
    EXPECT_FLOAT_EQ(SampleOne(state, lane).f[3], Unorm8(c.level))
        << c.direction[0] << "," << c.direction[1] << "," << c.direction[2];
  }
}

}  // namespace
}  // namespace duet::texel::sample_test

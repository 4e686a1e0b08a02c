// Where a sample reads: cube map face selection and coordinates, wrapping,
// and texel replacement (border texels, cube map edges and corners).
#include <algorithm>
#include <cmath>

#include "texel/sample_internal.h"

namespace duet::texel::sampling {
namespace {

// One row of the spec's "Cube map face and coordinate selection" table: the
// major axis of the face and the axes (with signs) that give sc and tc.
struct FaceAxes {
  int32_t ma_axis, ma_sign;
  int32_t sc_axis, sc_sign;
  int32_t tc_axis, tc_sign;
};

// Faces in layer order: +X, -X, +Y, -Y, +Z, -Z (layer = 2 * axis + negative).
constexpr FaceAxes kFaceAxes[6] = {
    {0, +1, 2, -1, 1, -1},  // +X: sc = -rz, tc = -ry
    {0, -1, 2, +1, 1, -1},  // -X: sc = +rz, tc = -ry
    {1, +1, 0, +1, 2, +1},  // +Y: sc = +rx, tc = +rz
    {1, -1, 0, +1, 2, -1},  // -Y: sc = +rx, tc = -rz
    {2, +1, 0, +1, 1, -1},  // +Z: sc = +rx, tc = -ry
    {2, -1, 0, -1, 1, -1},  // -Z: sc = -rx, tc = -ry
};

// The average of three texels (a cube corner) in the value class's arithmetic.
TexelValue AverageOfThree(const TexelValue texels[3], ValueClass value_class) {
  TexelValue out;
  for (int c = 0; c < 4; ++c) {
    if (value_class == ValueClass::kFloat) {
      out.f[c] = (texels[0].f[c] + texels[1].f[c] + texels[2].f[c]) / 3.0f;
    } else if (value_class == ValueClass::kSint) {
      out.i[c] = static_cast<int32_t>((int64_t{texels[0].i[c]} + texels[1].i[c] + texels[2].i[c]) / 3);
    } else {
      out.u[c] = static_cast<uint32_t>((uint64_t{texels[0].u[c]} + texels[1].u[c] + texels[2].u[c]) / 3);
    }
  }
  return out;
}

}  // namespace

CubeFace SelectCubeFace(float rx, float ry, float rz) {
  const float ax = std::fabs(rx), ay = std::fabs(ry), az = std::fabs(rz);
  int32_t face;
  if (az >= ax && az >= ay) face = rz < 0.0f ? 5 : 4;
  else if (ay >= ax) face = ry < 0.0f ? 3 : 2;
  else face = rx < 0.0f ? 1 : 0;
  const float r[3] = {rx, ry, rz};
  const FaceAxes& axes = kFaceAxes[face];
  return {face, static_cast<float>(axes.sc_sign) * r[axes.sc_axis], static_cast<float>(axes.tc_sign) * r[axes.tc_axis],
          std::fabs(r[axes.ma_axis])};
}

void CubeFaceDerivatives(const CubeFace& face, const float d_direction[3], float* ds_face, float* dt_face) {
  const FaceAxes& axes = kFaceAxes[face.face];
  const float dsc = static_cast<float>(axes.sc_sign) * d_direction[axes.sc_axis];
  const float dtc = static_cast<float>(axes.tc_sign) * d_direction[axes.tc_axis];
  // The derivative table's d(rc): the derivative of |rc| on this face.
  const float drc = static_cast<float>(axes.ma_sign) * d_direction[axes.ma_axis];
  const float rc2 = face.rc_abs * face.rc_abs;
  *ds_face = 0.5f * (face.rc_abs * dsc - face.sc * drc) / rc2;
  *dt_face = 0.5f * (face.rc_abs * dtc - face.tc * drc) / rc2;
}

// Texel centres in units of half a texel, relative to the face centre: texel
// i of n is at 2i + 1 - n, the face's plane at +-n. A texel one past an edge
// sits at +-(n + 1) on that axis, which is then the largest: it is the major
// axis of the face it lies on. On that face, the old major axis coordinate
// +-n is the edge itself; the texel there is the one whose centre is at
// +-(n - 1). The other coordinate carries over unchanged, so the mapping is
// exact in integers.
void CubeAdjacentTexel(int32_t face, int32_t i, int32_t j, int32_t n, int32_t* face_out, int32_t* i_out,
                       int32_t* j_out) {
  const FaceAxes& from = kFaceAxes[face];
  int32_t d[3];
  d[from.ma_axis] = from.ma_sign * n;
  d[from.sc_axis] = from.sc_sign * (2 * i + 1 - n);
  d[from.tc_axis] = from.tc_sign * (2 * j + 1 - n);
  const int32_t out_axis = (i < 0 || i >= n) ? from.sc_axis : from.tc_axis;
  const int32_t to_face = 2 * out_axis + (d[out_axis] < 0 ? 1 : 0);
  d[from.ma_axis] = from.ma_sign * (n - 1);
  const FaceAxes& to = kFaceAxes[to_face];
  *face_out = to_face;
  *i_out = (to.sc_sign * d[to.sc_axis] + n - 1) / 2;
  *j_out = (to.tc_sign * d[to.tc_axis] + n - 1) / 2;
}

int32_t WrapOutside(int32_t i, int32_t size, uint8_t mode) {
  switch (mode) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT: {
      if ((size & (size - 1)) == 0) return i & (size - 1);  // a power of two: no division
      const int32_t m = i % size;
      return m < 0 ? m + size : m;
    }
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: {
      int32_t m = i % (2 * size);
      if (m < 0) m += 2 * size;
      return (size - 1) - Mirror(m - size);
    }
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE: return std::clamp(i, 0, size - 1);
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER: return std::clamp(i, -1, size);
    case VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE: return std::clamp(Mirror(i), 0, size - 1);
    default: return i;  // kWrapCubeEdge
  }
}

void ReadReplacedTexel(const SampledImageState& state, const SampledLevel& level, const TexelSpace& space, int32_t i,
                       int32_t j, int32_t k, const float* dref, TexelValue* out) {
  const int32_t width = level.extent[0], height = level.extent[1];
  const bool i_inside = i >= 0 && i < width;
  const bool j_inside = j >= 0 && j < height;
  if (i_inside && j_inside && k >= 0 && k < level.extent[2]) {
    LoadTexel(state, level, space.layer, i, j, k, out);
  } else if (space.face < 0) {
    *out = state.border_texel;
  } else if (i_inside != j_inside) {
    int32_t face, fi, fj;
    CubeAdjacentTexel(space.face, i, j, width, &face, &fi, &fj);
    LoadTexel(state, level, space.cube_layer + face, fi, fj, 0, out);
  } else {
    // A cube corner has no unique neighbour: the spec asks for the average
    // of the three texels that meet there, each compared first when the
    // sample compares (so shadows stay percentage-closer).
    const int32_t ci = std::clamp(i, 0, width - 1), cj = std::clamp(j, 0, height - 1);
    TexelValue texels[3];
    int32_t face, fi, fj;
    LoadTexel(state, level, space.layer, ci, cj, 0, &texels[0]);
    CubeAdjacentTexel(space.face, i, cj, width, &face, &fi, &fj);
    LoadTexel(state, level, space.cube_layer + face, fi, fj, 0, &texels[1]);
    CubeAdjacentTexel(space.face, ci, j, width, &face, &fi, &fj);
    LoadTexel(state, level, space.cube_layer + face, fi, fj, 0, &texels[2]);
    if (dref != nullptr) {
      for (TexelValue& t : texels) t.f[0] = CompareDepth(state.sampler.compare_op, *dref, t.f[0]) ? 1.0f : 0.0f;
    }
    *out = AverageOfThree(texels, state.value_class);
    return;
  }
  if (dref != nullptr) out->f[0] = CompareDepth(state.sampler.compare_op, *dref, out->f[0]) ? 1.0f : 0.0f;
}

}  // namespace duet::texel::sampling

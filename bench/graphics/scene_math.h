// The little matrix math the cube needs: column-major 4x4 matrices, as
// GLSL's mat4 in a std140 uniform block.
#pragma once

#include <cmath>

namespace duet_bench {

struct Mat4 {
  float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // m[column * 4 + row]
  float& at(int row, int column) { return m[column * 4 + row]; }
  float at(int row, int column) const { return m[column * 4 + row]; }
};

inline Mat4 operator*(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int row = 0; row < 4; ++row)
    for (int column = 0; column < 4; ++column) {
      float sum = 0;
      for (int k = 0; k < 4; ++k) sum += a.at(row, k) * b.at(k, column);
      r.at(row, column) = sum;
    }
  return r;
}

inline Mat4 RotateX(float radians) {
  Mat4 r;
  r.at(1, 1) = std::cos(radians);
  r.at(1, 2) = -std::sin(radians);
  r.at(2, 1) = std::sin(radians);
  r.at(2, 2) = std::cos(radians);
  return r;
}

inline Mat4 RotateY(float radians) {
  Mat4 r;
  r.at(0, 0) = std::cos(radians);
  r.at(0, 2) = std::sin(radians);
  r.at(2, 0) = -std::sin(radians);
  r.at(2, 2) = std::cos(radians);
  return r;
}

inline Mat4 Translate(float x, float y, float z) {
  Mat4 r;
  r.at(0, 3) = x;
  r.at(1, 3) = y;
  r.at(2, 3) = z;
  return r;
}

// Right-handed view space (camera looks down -z) to Vulkan clip space:
// y points down in the framebuffer, depth 0 at `near` and 1 at `far`.
inline Mat4 PerspectiveVulkan(float fovy_radians, float aspect, float near, float far) {
  const float f = 1.0f / std::tan(fovy_radians / 2);
  Mat4 r;
  r.at(0, 0) = f / aspect;
  r.at(1, 1) = -f;
  r.at(2, 2) = far / (near - far);
  r.at(2, 3) = near * far / (near - far);
  r.at(3, 2) = -1;
  r.at(3, 3) = 0;
  return r;
}

}  // namespace duet_bench

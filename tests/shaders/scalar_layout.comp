#version 450
#extension GL_EXT_scalar_block_layout : require
// scalarBlockLayout: blocks laid out with scalar alignment (a vec3 on a
// float's boundary, arrays of vec3 with stride 12, a mat3 of packed
// columns) in a uniform buffer, a storage buffer and push constants. Each
// invocation copies one record from the uniform block to the storage block,
// adding the push constants' offset to every float.
layout(local_size_x = 4) in;
struct Record {
  float a;     // offset 0
  vec3 b;      // 4
  vec2 c;      // 16
  mat3 m;      // 24 (columns of 12 bytes)
  vec3 v[2];   // 60 (stride 12)
  float d;     // 84
};             // 88 bytes
layout(scalar, set = 0, binding = 0) uniform In { Record records[4]; } src;
layout(scalar, set = 0, binding = 1) buffer Out { Record records[4]; } dst;
layout(scalar, push_constant) uniform Push { float pad; vec3 offset; } push;  // offset at 4
void main() {
  const uint i = gl_GlobalInvocationID.x;
  Record r = src.records[i];
  const float k = push.offset.y;
  r.a += k;
  r.b += vec3(k);
  r.c += vec2(k);
  r.m += mat3(k, k, k, k, k, k, k, k, k);
  r.v[0] += vec3(k);
  r.v[1] += vec3(k);
  r.d += k;
  dst.records[i] = r;
}

#version 450
// Matrices (determinant, inverse, products), geometric functions,
// packing, swizzles and dynamic component access, one run of output slots
// per invocation; slot layout must match shader_composite_test.cpp.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { mat4 m[]; };      // m[2i]: matrix, m[2i+1]: vectors
layout(set = 0, binding = 1) writeonly buffer Out { float r[]; };
layout(set = 0, binding = 2) writeonly buffer Packed { uint u[]; };
layout(push_constant) uniform Params { uint n; };
const uint kFloats = 96, kPacked = 8;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  mat4 a = m[2 * i];
  mat4 extra = m[2 * i + 1];
  vec4 p = extra[0], q = extra[1], s = extra[2], t = extra[3];
  uint o = i * kFloats;
  r[o + 0] = determinant(mat2(a));
  r[o + 1] = determinant(mat3(a));
  r[o + 2] = determinant(a);
  mat2 i2 = inverse(mat2(a));
  mat3 i3 = inverse(mat3(a));
  mat4 i4 = inverse(a);
  for (int c = 0; c < 2; ++c) for (int k = 0; k < 2; ++k) r[o + 3 + c * 2 + k] = i2[c][k];
  for (int c = 0; c < 3; ++c) for (int k = 0; k < 3; ++k) r[o + 7 + c * 3 + k] = i3[c][k];
  for (int c = 0; c < 4; ++c) for (int k = 0; k < 4; ++k) r[o + 16 + c * 4 + k] = i4[c][k];
  vec4 tv = transpose(a) * p;                       // slots 32..35
  for (int k = 0; k < 4; ++k) r[o + 32 + k] = tv[k];
  mat2x3 op = outerProduct(q.xyz, s.xy);            // slots 36..41
  for (int c = 0; c < 2; ++c) for (int k = 0; k < 3; ++k) r[o + 36 + c * 3 + k] = op[c][k];
  mat3x2 left = mat3x2(a[0].xy, a[1].xy, a[2].xy);
  mat2x3 right = mat2x3(a[3].xyz, p.xyz);
  mat2 product = left * right;                      // slots 42..45
  for (int c = 0; c < 2; ++c) for (int k = 0; k < 2; ++k) r[o + 42 + c * 2 + k] = product[c][k];
  vec3 vm = p.xyz * mat3(a);                        // slots 46..48
  for (int k = 0; k < 3; ++k) r[o + 46 + k] = vm[k];
  r[o + 49] = length(q.xyz);
  r[o + 50] = distance(p, q);
  r[o + 51] = dot(p, q);
  vec3 cr = cross(p.xyz, q.xyz);                    // 52..54
  vec4 nz = normalize(q);                           // 55..58
  vec3 ff = faceforward(p.xyz, q.xyz, s.xyz);       // 59..61
  vec3 rf = reflect(p.xyz, normalize(s.xyz));       // 62..64
  vec3 rr = refract(normalize(p.xyz), normalize(s.xyz), t.x);  // 65..67
  for (int k = 0; k < 3; ++k) {
    r[o + 52 + k] = cr[k];
    r[o + 59 + k] = ff[k];
    r[o + 62 + k] = rf[k];
    r[o + 65 + k] = rr[k];
  }
  for (int k = 0; k < 4; ++k) r[o + 55 + k] = nz[k];
  // Swizzles and shuffles of two vectors.
  vec4 sw = p.wzyx;                                 // 68..71
  vec4 mixed = vec4(q.zw, p.yx);                    // 72..75
  vec3 splat = s.yyy;                               // 76..78
  for (int k = 0; k < 4; ++k) { r[o + 68 + k] = sw[k]; r[o + 72 + k] = mixed[k]; }
  for (int k = 0; k < 3; ++k) r[o + 76 + k] = splat[k];
  // Dynamic component access.
  int index = int(i % 4u);
  r[o + 79] = t[index];
  vec4 inserted = t;
  inserted[index] = -7.5;                           // 80..83
  for (int k = 0; k < 4; ++k) r[o + 80 + k] = inserted[k];
  // Unpacking (of bits taken from the inputs).
  uint bits = floatBitsToUint(s.w);
  vec4 u4 = unpackUnorm4x8(bits), s4 = unpackSnorm4x8(bits);
  vec2 u2 = unpackUnorm2x16(bits), s2 = unpackSnorm2x16(bits), h2 = unpackHalf2x16(bits);
  r[o + 84] = u4.x; r[o + 85] = u4.y; r[o + 86] = u4.z; r[o + 87] = u4.w;
  r[o + 88] = s4.x; r[o + 89] = s4.y; r[o + 90] = s4.z; r[o + 91] = s4.w;
  r[o + 92] = u2.x; r[o + 93] = u2.y; r[o + 94] = s2.x + 4.0 * s2.y; r[o + 95] = h2.x + h2.y;
  uint po = i * kPacked;
  u[po + 0] = packUnorm4x8(t);
  u[po + 1] = packSnorm4x8(t);
  u[po + 2] = packUnorm2x16(t.xy);
  u[po + 3] = packSnorm2x16(t.zw);
  u[po + 4] = packHalf2x16(t.xy);
  u[po + 5] = packHalf2x16(t.zw);
  vec2 hx = unpackHalf2x16(bits);
  u[po + 6] = floatBitsToUint(hx.x);
  u[po + 7] = floatBitsToUint(hx.y);
}

#version 450
// Sums of a product with itself (scalar reflect computes 2 * dot(N, I) as
// d + d), for ir_prepare's multiply-add fusion, which must leave them.
layout(local_size_x = 48) in;
layout(push_constant) uniform Params {
  float s;
} params;
layout(set = 0, binding = 0) buffer Out {
  float v[];
} result;
void main() {
  const uint id = gl_GlobalInvocationID.x;
  const float x = float(id) * 0.37 - params.s, n = 0.6 + params.s * 0.01;
  const float p = x * n;
  result.v[id * 2 + 0] = reflect(x, n);
  result.v[id * 2 + 1] = p + p;
}

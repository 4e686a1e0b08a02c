#version 450
// Products added to something for ir_prepare's multiply-add fusion: a dot
// product the compiler expands into products and sums, in a program with a
// loop (SPIRV-Tools turns the other product-plus-something into Fma).
layout(local_size_x = 48) in;
layout(push_constant) uniform Params {
  float s;
  int n;
} params;
layout(set = 0, binding = 0) buffer Out {
  float v[];
} result;
void main() {
  const uint id = gl_GlobalInvocationID.x;
  const float x = float(id) * 0.37 + params.s;
  const vec3 a = vec3(x, x * 1.5, -x);
  const vec3 b = vec3(0.25, x, 3.0);
  const float d = dot(a, b);
  float acc = 0.0;
  for (int k = 0; k < params.n; ++k) acc = float(k) * x + acc;
  const float square = x * x;
  result.v[id * 4 + 0] = d;
  result.v[id * 4 + 1] = acc;
  result.v[id * 4 + 2] = square + acc;
  result.v[id * 4 + 3] = square * d + square;
}

#version 450
// Double-precision arithmetic: `rounds` rounds of a polynomial, a clamp, a
// square root and an accumulation per component of a dvec2, the kind of
// code scientific and physics kernels run in fp64 (shaderFloat64).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { dvec2 result[]; };
layout(push_constant) uniform Params { uint rounds; };
void main() {
  const uint id = gl_GlobalInvocationID.x;
  dvec2 x = dvec2(double(id & 1023u) / 1024.0lf, double((id * 7u) & 1023u) / 1024.0lf);
  dvec2 acc = dvec2(0.0lf);
  for (uint i = 0u; i < rounds; ++i) {
    x = clamp(x * x * 0.5lf - x * 0.25lf + 0.375lf, dvec2(0.0lf), dvec2(1.0lf));
    acc += sqrt(x) * 0.0625lf;
  }
  result[id] = acc;
}

#version 450
// Inverse trigonometric and hyperbolic functions: `rounds` rounds of a
// polar angle (atan2), the angle between two directions (acos of a dot
// product) and a squashing curve (tanh, asin), the kind of code polar
// effects, geometry and tone or activation curves run.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Params { uint rounds; };
void main() {
  const uint id = gl_GlobalInvocationID.x;
  vec2 p = vec2(float(id & 1023u) - 511.5, float(id >> 10) - 511.5) * (1.0 / 512.0);
  float acc = 0.0;
  for (uint i = 0u; i < rounds; ++i) {
    const float angle = atan(p.y, p.x);
    const float between = acos(clamp(dot(normalize(p), vec2(0.6, 0.8)), -1.0, 1.0));
    acc += tanh(angle - between) + asin(clamp(p.x * p.y * 4.0, -1.0, 1.0));
    p = vec2(p.y, -p.x) * 0.99 + vec2(0.003, -0.002);
  }
  result[id] = acc;
}

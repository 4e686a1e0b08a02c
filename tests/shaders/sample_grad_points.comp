#version 450
// textureGrad at a list of points: each is (u, v, dPdx) then (dPdy, -, -),
// so the footprint (and with anisotropy its long axis) is the test's.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) readonly buffer Points { vec4 points[]; };
layout(set = 0, binding = 2) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Push { uint count; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= count) return;
  const vec4 a = points[2u * i], b = points[2u * i + 1u];
  results[i] = textureGrad(tex, a.xy, a.zw, b.xy);
}

#version 450
// Samples a cube map along a list of directions (xyz) at LOD w.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform samplerCube tex;
layout(set = 0, binding = 1) readonly buffer Points { vec4 points[]; };
layout(set = 0, binding = 2) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Push { uint count; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= count) return;
  results[i] = textureLod(tex, points[i].xyz, points[i].w);
}

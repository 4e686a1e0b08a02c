#version 450
// Reads a 2D texture at a list of points: texelFetch at integer coordinates
// and level when a point's w is 1, textureLod at normalized coordinates and
// LOD (through the sampler's filters) when it is 0.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) readonly buffer Points { vec4 points[]; };  // x, y, level or LOD, fetch
layout(set = 0, binding = 2) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Push { uint count; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= count) return;
  vec4 p = points[i];
  results[i] = p.w != 0.0 ? texelFetch(tex, ivec2(p.xy), int(p.z)) : textureLod(tex, p.xy, p.z);
}

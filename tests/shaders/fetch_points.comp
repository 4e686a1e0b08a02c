#version 450
// texelFetch of a 2D texture at a list of integer points, plain and with
// the constant offsets (1, -1) and (-2, 3) (texelFetchOffset).
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) readonly buffer Points { ivec2 points[]; };
layout(set = 0, binding = 2) writeonly buffer Results { vec4 results[]; };  // 3 per point
layout(push_constant) uniform Push { uint count; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= count) return;
  ivec2 p = points[i];
  results[3 * i] = texelFetch(tex, p, 0);
  results[3 * i + 1] = texelFetchOffset(tex, p, 0, ivec2(1, -1));
  results[3 * i + 2] = texelFetchOffset(tex, p, 0, ivec2(-2, 3));
}

#version 460
// Arrays of buffer descriptors indexed per invocation (nonuniformEXT) and
// by a dynamically uniform value: storage buffers, uniform buffers with
// dynamic offsets, .length() of an element, atomics into an element, and
// stores through an element chosen per lane.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer In { uint d[]; } ins[4];
layout(set = 0, binding = 1) uniform U { uvec4 k[4]; } ubos[3];
layout(set = 0, binding = 2) buffer Out { uint count; uint o[]; } outs[2];
layout(push_constant) uniform Push { uint n; uint pick; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  uint b = i % 4u;
  uint v = ins[nonuniformEXT(b)].d[i / 4u];
  uint u = ubos[nonuniformEXT(i % 3u)].k[i % 4u].y;
  uint len = uint(ins[nonuniformEXT(b)].d.length());
  atomicAdd(outs[nonuniformEXT(i % 2u)].count, 1u);
  outs[pc.pick].o[i] = v + u * 1000u + len * 1000000u;
  ins[nonuniformEXT(3u - b)].d[64u + i / 4u] = i;
}

#version 460
// Runtime-sized descriptor arrays (runtimeDescriptorArray) with variable
// descriptor counts, partially bound: the elements the shader skips are
// never written or hold a destroyed view. Some descriptors are written
// after the set was bound (update after bind).
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint results[]; };
layout(set = 0, binding = 1) uniform sampler2D textures[];
layout(set = 1, binding = 0) buffer Data { uint tag; uint values[]; } datas[];
layout(push_constant) uniform Push { uint n; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  uint e = i % 5u;
  if (e >= 2u) e++;  // element 2 is never written
  results[i] = datas[nonuniformEXT(e)].tag * 1000u + datas[nonuniformEXT(e)].values[i % 8u] +
               uint(datas[nonuniformEXT(e)].values.length()) * 100000u;
  results[pc.n + i] = packUnorm4x8(texelFetch(textures[nonuniformEXT(i % 3u)], ivec2(0), 0));
}

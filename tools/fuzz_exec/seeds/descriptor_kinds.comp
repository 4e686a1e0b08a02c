#version 450
// A fuzzing seed (scripts/fuzz_exec.sh): the descriptors the test shaders
// seldom combine: runtime arrays indexed past their 3 elements, depth
// images through comparison samplers (2D and cube arrays), multisampled
// images sampled and stored.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D textures[];
layout(set = 0, binding = 1, rgba8) uniform image2D images[];
layout(set = 0, binding = 2) buffer Data { uint v[]; } data[];
layout(set = 0, binding = 3) uniform sampler2DShadow shadow;
layout(set = 0, binding = 4) uniform samplerCubeArrayShadow cube_shadow;
layout(set = 0, binding = 5) uniform usampler2DMS ms;
layout(set = 0, binding = 6, r32ui) uniform uimage2DMSArray ms_storage;
void main() {
  uint i = gl_LocalInvocationID.x;
  uint k = data[0].v[i];
  vec4 c = texture(textures[nonuniformEXT(k % 5u)], vec2(i) / 8.0);
  imageStore(images[nonuniformEXT(k % 4u)], ivec2(i % 8u, i / 8u), c);
  float s = texture(shadow, vec3(c.xy, c.z));
  s += texture(cube_shadow, vec4(c.xyz, float(k & 1u)), c.w);
  uvec4 m = texelFetch(ms, ivec2(i % 8u, k % 8u), int(k % 5u));
  imageAtomicAdd(ms_storage, ivec3(i % 8u, 0, k % 3u), int(k % 4u), m.x);
  data[nonuniformEXT(k % 4u)].v[k % 80u] = floatBitsToUint(s) + m.y;
}

#version 450
// Every resource but the results is a null descriptor (nullDescriptor):
// reads, sizes and atomics give 0, writes are dropped.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Null { uint v[]; } null_buffer;
layout(set = 0, binding = 1) uniform NullUniform { uvec4 u; } null_uniform;
layout(set = 0, binding = 2) uniform sampler2D null_texture;
layout(set = 0, binding = 3, r32ui) uniform uimage2D null_image;
layout(set = 0, binding = 4) uniform usamplerBuffer null_texels;
layout(set = 0, binding = 5) buffer Out { uvec4 r[]; } results;
void main() {
  const uint i = gl_LocalInvocationID.x;
  null_buffer.v[i] = 5u;
  imageStore(null_image, ivec2(i, 0), uvec4(9u));
  results.r[i * 4u] = uvec4(null_buffer.v[i], null_uniform.u.x, uint(null_buffer.v.length()),
                            atomicAdd(null_buffer.v[i], 1u));
  results.r[i * 4u + 1u] = floatBitsToUint(textureLod(null_texture, vec2(0.5), 0.0));
  results.r[i * 4u + 2u] = imageLoad(null_image, ivec2(i, 0));
  results.r[i * 4u + 3u] = uvec4(texelFetch(null_texels, int(i)).xyz,
                                 uint(imageSize(null_image).x + textureSize(null_texels) + textureSize(null_texture, 0).x));
}

#version 460
// Arrays of images indexed per invocation: combined image samplers
// (texelFetch, textureLod, textureSize), separate textures with separate
// samplers both picked per lane, uniform and storage texel buffers, and
// storage images (imageLoad, imageStore, imageSize).
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D combined[3];
layout(set = 0, binding = 1) uniform texture2D textures[2];
layout(set = 0, binding = 2) uniform sampler samplers[2];
layout(set = 0, binding = 3) uniform utextureBuffer texels[2];
layout(set = 0, binding = 4, r32ui) uniform uimage2D storage[3];
layout(set = 0, binding = 5) buffer Out { vec4 results[]; };
layout(set = 0, binding = 6, r32ui) uniform uimageBuffer storage_texels[2];
void main() {
  ivec2 p = ivec2(gl_LocalInvocationID.xy);
  uint i = gl_LocalInvocationIndex;
  uint t = i % 3u;
  vec4 fetched = texelFetch(combined[nonuniformEXT(t)], p, 0);
  vec4 sampled = textureLod(combined[nonuniformEXT(t)], (vec2(p) + 0.5) / 8.0, 0.0);
  vec4 separate = textureLod(sampler2D(textures[nonuniformEXT(i % 2u)], samplers[nonuniformEXT((i / 2u) % 2u)]),
                             vec2(0.5), 0.0);
  // The same sample with nonuniformEXT on the combined sampler (glslang
  // copies the sampled image, OpCopyObject, to decorate it); both must agree.
  vec4 copied = textureLod(nonuniformEXT(sampler2D(textures[i % 2u], samplers[(i / 2u) % 2u])), vec2(0.5), 0.0);
  separate = (separate + copied) * 0.5;
  ivec2 size = textureSize(combined[nonuniformEXT(t)], 0);
  uint texel = texelFetch(texels[nonuniformEXT(i % 2u)], int(i)).r;
  uint stored = imageLoad(storage[nonuniformEXT(t)], p).r;
  imageStore(storage[nonuniformEXT(2u - t)], p + ivec2(0, 8), uvec4(i + 100u * t));
  ivec2 image_size = imageSize(storage[nonuniformEXT(t)]);
  imageStore(storage_texels[nonuniformEXT(i % 2u)], int(i), uvec4(texel * 2u + imageLoad(storage_texels[nonuniformEXT(i % 2u)], int(i)).r));
  results[i * 4u] = fetched;
  results[i * 4u + 1u] = sampled;
  results[i * 4u + 2u] = separate;
  results[i * 4u + 3u] = vec4(size.x * 100 + size.y, texel, stored, image_size.x * 100 + image_size.y);
}

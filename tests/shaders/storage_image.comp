#version 450
// Reads an rgba8 storage image, writes a transformed rgba32f one, and
// copies a uniform texel buffer into a storage texel buffer doubled.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
layout(set = 0, binding = 2) uniform usamplerBuffer texels_in;
layout(set = 0, binding = 3, r32ui) uniform writeonly uimageBuffer texels_out;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(src);
  if (p.x < size.x && p.y < size.y) {
    vec4 c = imageLoad(src, p);
    imageStore(dst, p, vec4(c.b, c.g, c.r, 1.0 - c.a) + vec4(p, 0, 0));
  }
  int i = p.y * 16 + p.x;
  if (i < textureSize(texels_in)) imageStore(texels_out, i, uvec4(texelFetch(texels_in, i).r * 2u));
}

#version 450
// A 2D view of one slice of a 3D image (VK_EXT_image_2d_view_of_3d), read
// through a sampler (sampler2DViewOf3D) and then written and read as a
// storage image (image2DViewOf3D), 4x4 texels.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D slice;
layout(set = 0, binding = 1) writeonly buffer Out { uint r[]; };
layout(set = 0, binding = 2) uniform usampler2D sampled_slice;
void main() {
  const ivec2 p = ivec2(gl_LocalInvocationID.xy);
  r[16 + p.y * 4 + p.x] = texelFetch(sampled_slice, p, 0).x;
  barrier();
  imageStore(slice, p, uvec4(uint(p.x + 10 * p.y + 100), 0u, 0u, 0u));
  memoryBarrierImage();
  barrier();
  r[p.y * 4 + p.x] = imageLoad(slice, ivec2(3 - p.x, p.y)).x + (imageSize(slice).x == 4 ? 0u : 1000u);
}

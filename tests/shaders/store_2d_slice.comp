#version 450
// Writes its 4x4 texels through a 2D view of one slice of a 3D image
// (VK_EXT_image_2d_view_of_3d), and reads them back through the same view.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D slice;
layout(set = 0, binding = 1) writeonly buffer Out { uint r[]; };
void main() {
  const ivec2 p = ivec2(gl_LocalInvocationID.xy);
  imageStore(slice, p, uvec4(uint(p.x + 10 * p.y + 100), 0u, 0u, 0u));
  memoryBarrierImage();
  barrier();
  r[p.y * 4 + p.x] = imageLoad(slice, ivec2(3 - p.x, p.y)).x + (imageSize(slice).x == 4 ? 0u : 1000u);
}

#version 450
// Writes 64-bit texels (one BC1/BC4 block each, through an uncompressed
// view of a block-compressed image) from a buffer, row-major over the
// view's imageSize, and reports that size.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rg32ui) uniform writeonly uimage2D blocks;
layout(set = 0, binding = 1) buffer Words { uvec2 size; uvec2 words[]; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 extent = imageSize(blocks);
  if (p == ivec2(0)) size = uvec2(extent);
  if (p.x < extent.x && p.y < extent.y) imageStore(blocks, p, uvec4(words[p.y * extent.x + p.x], 0u, 0u));
}

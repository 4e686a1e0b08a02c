#version 450
// A 5x5 box blur of an RGBA8 picture, and its mean and brightest luminance.
// Each 16x16 workgroup loads the 20x20 texels its pixels need into shared
// memory once (instead of 25 buffer reads per pixel), waits for the whole
// tile, then averages from there. The statistics are reduced within each
// subgroup first (subgroupAdd, subgroupMax) so that only one invocation
// per subgroup touches the global counters.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer Source { uint source[]; };
layout(set = 0, binding = 1) writeonly buffer Blurred { uint blurred[]; };
layout(set = 0, binding = 2) buffer Statistics { uint luminance_sum; uint brightest; };
layout(push_constant) uniform Size { uint width; uint height; };

const int kRadius = 2, kTile = 16 + 2 * kRadius;
shared uvec3 tile[kTile][kTile];

uvec3 Texel(ivec2 p) {  // clamped to the picture's edges
  p = clamp(p, ivec2(0), ivec2(width - 1u, height - 1u));
  const uint packed = source[uint(p.y) * width + uint(p.x)];
  return uvec3(packed & 255u, (packed >> 8) & 255u, (packed >> 16) & 255u);
}

void main() {
  const ivec2 origin = ivec2(gl_WorkGroupID.xy) * 16 - kRadius;
  for (uint i = gl_LocalInvocationIndex; i < uint(kTile * kTile); i += 256u) {
    const ivec2 t = ivec2(i % uint(kTile), i / uint(kTile));
    tile[t.y][t.x] = Texel(origin + t);
  }
  barrier();  // the whole tile is loaded

  const ivec2 local = ivec2(gl_LocalInvocationID.xy);
  uvec3 sum = uvec3(0u);
  for (int dy = 0; dy <= 2 * kRadius; ++dy)
    for (int dx = 0; dx <= 2 * kRadius; ++dx) sum += tile[local.y + dy][local.x + dx];
  const uvec3 average = sum / 25u;

  const uvec2 p = gl_GlobalInvocationID.xy;
  const bool inside = p.x < width && p.y < height;
  if (inside) blurred[p.y * width + p.x] = average.r | (average.g << 8) | (average.b << 16) | (255u << 24);
  const uint luminance = inside ? (average.r * 77u + average.g * 150u + average.b * 29u) >> 8 : 0u;
  const uint subgroup_sum = subgroupAdd(luminance);
  const uint subgroup_max = subgroupMax(luminance);
  if (subgroupElect()) {
    atomicAdd(luminance_sum, subgroup_sum);
    atomicMax(brightest, subgroup_max);
  }
}

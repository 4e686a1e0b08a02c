#version 450
// A multisampled storage image (shaderStorageImageMultisample): each
// invocation writes every sample of its pixel, then reads them back in
// reverse order into the buffer, with the sample count first.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba8ui) uniform uimage2DMS image;
layout(set = 0, binding = 1) buffer Out {
  uint samples;
  uint texels[];  // (pixel * samples + s): sample s's texel packed as bytes
} result;
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const int n = imageSamples(image);
  if (p == ivec2(0)) result.samples = uint(n);
  for (int s = 0; s < n; ++s) imageStore(image, p, s, uvec4(p.x, p.y, s, 200 + s));
  const uint pixel = uint(p.y * 4 + p.x);
  for (int s = n - 1; s >= 0; --s) {
    const uvec4 t = imageLoad(image, p, s);
    result.texels[pixel * uint(n) + uint(s)] = t.x | t.y << 8 | t.z << 16 | t.w << 24;
  }
}

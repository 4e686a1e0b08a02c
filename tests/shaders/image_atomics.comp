#version 450
// Atomics on texels of storage images and a storage texel buffer; 256
// invocations, each with a texel p = (i % 4, (i / 4) % 4, layer (i / 16) % 2).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2DArray counters;  // 4x4, 2 layers, zeroed
layout(set = 0, binding = 1, r32i) uniform iimage2D minimums;        // 4x4, zeroed
layout(set = 0, binding = 2, r32ui) uniform uimage2D swaps;          // 4x4, zeroed
layout(set = 0, binding = 3, r32ui) uniform uimageBuffer bits;       // 16 texels, zeroed
layout(set = 0, binding = 4) writeonly buffer Results { uint results[]; };  // 4 per invocation
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const ivec3 p = ivec3(i % 4u, (i / 4u) % 4u, (i / 16u) % 2u);
  // 8 invocations add 1 to each texel: each sees a distinct old value 0..7.
  results[4u * i] = imageAtomicAdd(counters, p, 1u);
  // The texel's minimum is that of its 16 invocations: int(i) - 100 for the
  // smallest i with i % 16 == the texel's index.
  imageAtomicMin(minimums, p.xy, int(i) - 100);
  // One of each texel's 16 invocations swaps 0 for i + 1.
  results[4u * i + 1u] = imageAtomicCompSwap(swaps, p.xy, 0u, i + 1u);
  // Each of a texel's 16 invocations sets its own bit.
  imageAtomicOr(bits, int(i % 16u), 1u << (i / 16u));
  // Outside the image: no effect, and 0 back.
  results[4u * i + 2u] = imageAtomicAdd(counters, ivec3(4, 0, 0), 1u) + imageAtomicExchange(bits, 16, 5u) + 1u;
  results[4u * i + 3u] = imageAtomicXor(swaps, ivec2(p.x, 9), 3u);
}

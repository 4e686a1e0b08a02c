#version 460
// Buffer device addresses (GL_EXT_buffer_reference): reads and writes
// through pointers in push constants, indexed arrays, a struct laid out by
// Offset / ArrayStride / MatrixStride, pointer values loaded from and stored
// to memory, uvec2 <-> pointer conversions (GL_EXT_buffer_reference_uvec2),
// and an address no allocation holds (reads 0, writes are dropped).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
layout(local_size_x = 64) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint v[]; };
struct Item {
  vec2 xy;      // offset 0
  uint id;      // offset 8
  mat2x3 m;     // offset 16: two vec3 columns 16 bytes apart
};              // 48 bytes
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Items { Item items[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Pointers { Words words[]; };

layout(push_constant) uniform Push {
  Words src;      // n + 8 words
  Words dst;      // 8 * n words
  Items items;    // n items
  Pointers ptrs;  // 2 * n pointers: the first n written by the host
  uvec2 raw;      // src's address as two words
  uvec2 bogus;    // an address inside no allocation
  uint n;
} pc;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  uint n = pc.n;
  pc.dst.v[i] = pc.src.v[i] * 3u + 1u;

  // A pointer made from two words, and one 32 bytes further on.
  Words raw = Words(pc.raw);
  pc.dst.v[n + i] = raw.v[(i + 1u) % n];
  Words shifted = Words(pc.raw + uvec2(32u, 0u));
  pc.dst.v[2u * n + i] = shifted.v[i];

  // A pointer's two words.
  uvec2 a = uvec2(pc.dst);
  pc.dst.v[3u * n + 2u * i] = a.x;
  pc.dst.v[3u * n + 2u * i + 1u] = a.y;

  // A struct with a matrix, read and written in place.
  Item item = pc.items.items[i];
  pc.dst.v[5u * n + i] = item.id + uint(item.xy.x) * 1000u + uint(item.m[1][2]) * 100000u;
  pc.items.items[i].m[0][1] = item.xy.y + float(i);
  pc.items.items[i].xy = vec2(item.m[1][0], float(item.id * 2u));

  // Pointers loaded from memory, and pointer values stored there.
  Words w = pc.ptrs.words[i];
  pc.dst.v[6u * n + i] = w.v[i];
  pc.ptrs.words[n + i] = (i % 3u == 0u) ? pc.src : pc.dst;

  // No allocation is there: 0 is read and the write goes nowhere.
  Words bogus = Words(pc.bogus);
  pc.dst.v[7u * n + i] = bogus.v[i] + 7u;
  bogus.v[i] = 1u;
}

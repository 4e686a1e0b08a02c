#version 460
// Linked lists through buffer device addresses: each invocation walks its
// own list, whose nodes alternate between two buffers, until a null
// pointer; lists have different lengths, so lanes leave the loop apart.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
layout(local_size_x = 32) in;

layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Node {
  Node next;
  uint value;
  uint visits;
};
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Heads { Node heads[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Results { uvec4 r[]; };

layout(push_constant) uniform Push {
  Heads heads;
  Results results;
  uint n;
} pc;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  Node node = pc.heads.heads[i];
  Node last = node;
  uint sum = 0u, count = 0u;
  while (uvec2(node) != uvec2(0u)) {
    sum += node.value;
    node.visits = i + 1u;
    count++;
    last = node;
    node = node.next;
  }
  pc.results.r[i] = uvec4(sum, count, uvec2(last));
}

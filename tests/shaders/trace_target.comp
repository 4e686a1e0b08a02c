#version 450
// A tiny shader for DUET_TRACE_INVOCATION: v[i] = i * 7 + 3.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i] = i * 7u + 3u;
}

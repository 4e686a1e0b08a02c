#version 450
// Loops until data[0] holds a value the test never writes: a runaway shader
// the compiler cannot prove endless (so it is not optimized away).
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  while (data[0] != 0xC0FFEEu) {
    data[1 + i] += 1u;
  }
}

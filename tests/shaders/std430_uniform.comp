#version 450
#extension GL_EXT_scalar_block_layout : require
// A uniform block in std430 layout (uniformBufferStandardLayout): a float
// array with stride 4 and a vec3 at offset 16, then a float packed right
// after it at 28; each invocation copies one word out.
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) uniform Values {
  float values[4];
  vec3 v;
  float tail;
};
layout(std430, set = 0, binding = 1) writeonly buffer Results { float results[]; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  results[i] = i < 4u ? values[i] : (i < 7u ? v[i - 4u] : tail);
}

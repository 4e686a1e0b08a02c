#version 450
// Copies the four words of a uniform block bound as an inline uniform block.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform Inline { uvec4 values; } block;
layout(set = 0, binding = 1) buffer Out { uint r[]; };
void main() { r[gl_LocalInvocationID.x] = block.values[gl_LocalInvocationID.x]; }

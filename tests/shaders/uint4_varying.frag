#version 450
// Writes its flat unsigned integer input.
layout(location = 0) flat in uvec4 ids;
layout(location = 0) out uvec4 color;
void main() { color = ids; }

#version 450
// The fuzzed vertex shaders' fragment stage.
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0, 0.5, 0.25, 1.0); }

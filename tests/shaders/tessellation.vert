#version 450
// Control points for the tessellation tests: the vertex's position, as is.
layout(location = 0) in vec4 position;
layout(location = 0) out vec4 point;
void main() { point = position; }

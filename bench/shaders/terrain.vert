#version 450
// Terrain: a patch corner's (x, z) on the ground plane, as is.
layout(location = 0) in vec2 corner;
layout(location = 0) out vec2 v_corner;
void main() { v_corner = corner; }

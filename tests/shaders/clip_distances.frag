#version 450
// The interpolated clip distances as a colour.
in float gl_ClipDistance[3];
layout(location = 0) out vec4 color;
void main() { color = vec4(gl_ClipDistance[0], gl_ClipDistance[1], gl_ClipDistance[2], 1.0); }

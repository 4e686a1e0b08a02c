#version 450
// Red and green from the geometry shader, blue from PrimitiveId (times 10).
layout(location = 0) in vec4 g_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(g_color.rg, float(gl_PrimitiveID * 10) / 255.0, 1); }

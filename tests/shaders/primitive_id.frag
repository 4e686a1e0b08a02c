#version 450
// PrimitiveId without a geometry shader: the primitive's index in the draw.
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(float(gl_PrimitiveID * 20 + 20) / 255.0, 0, 0, 1); }

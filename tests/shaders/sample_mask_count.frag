#version 450
// How many samples gl_SampleMaskIn holds, as red (a quarter per sample);
// no discard, so the driver may run the depth test before shading, but
// the mask is the rasterizer's coverage, not what passed the test.
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(float(bitCount(gl_SampleMaskIn[0])) / 4.0, 0.0, 0.0, 1.0); }

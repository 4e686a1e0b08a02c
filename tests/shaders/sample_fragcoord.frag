#version 450
// Where in its pixel gl_FragCoord is: the centre, or with sample shading a
// sample position; squared so the resolved average tells them apart.
layout(location = 0) out vec4 out_color;
void main() {
  const vec2 f = fract(gl_FragCoord.xy);
  out_color = vec4(f * f, float(gl_SampleMaskIn[0]) / 15.0, 1.0);
}

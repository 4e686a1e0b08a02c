#version 450
// interpolateAtOffset: the pixel position input moved from the centre by
// (0.25, -0.375) pixels, beside a copy of the input read as it is (at the
// centre).
layout(location = 0) in vec2 pixel;
layout(location = 1) in vec2 pixel_too;
layout(location = 0) out vec4 out_color;
void main() {
  const vec2 at = interpolateAtOffset(pixel, vec2(0.25, -0.375));
  out_color = vec4(fract(at), fract(pixel_too.x), 1.0);
}

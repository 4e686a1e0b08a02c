#version 450
// A `sample` input: interpolated at each sample, one invocation per sample.
layout(location = 0) sample in vec2 pixel;
layout(location = 0) out vec4 out_color;
void main() {
  const vec2 f = fract(pixel);
  out_color = vec4(f * f, 0.0, 1.0);
}

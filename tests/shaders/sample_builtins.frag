#version 450
// Per-sample built-ins: reading gl_SampleID runs one invocation per sample.
// Squares of the sample position make the resolved average differ from the
// pixel centre's.
layout(location = 0) out vec4 out_color;
void main() {
  out_color = vec4(float(gl_SampleID) / 3.0, gl_SamplePosition * gl_SamplePosition, 1.0);
}

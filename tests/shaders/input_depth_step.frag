#version 450
// A depth feedback loop: reads this pixel's depth (input attachment 0, the
// depth attachment being written), writes it as the colour and writes
// depth + 1/64, so in rasterization order N primitives leave depth N/64
// and colour (N - 1)/64.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput depth_in;
layout(location = 0) out float seen;
void main() {
  const float depth = subpassLoad(depth_in).x;
  seen = depth;
  gl_FragDepth = depth + 1.0 / 64.0;
}

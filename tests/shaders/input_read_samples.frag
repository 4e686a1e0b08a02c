#version 450
// Reads the four samples of a multisampled input attachment at this pixel
// and returns each as packed RGBA8.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInputMS color_in;
layout(location = 0) out uvec4 samples;
void main() {
  samples = uvec4(packUnorm4x8(subpassLoad(color_in, 0)), packUnorm4x8(subpassLoad(color_in, 1)),
                  packUnorm4x8(subpassLoad(color_in, 2)), packUnorm4x8(subpassLoad(color_in, 3)));
}

#version 450
// Reads the colour, code and depth input_write.frag wrote in the previous
// subpass at this pixel (and view) and passes them on.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput color_in;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform usubpassInput code_in;
layout(input_attachment_index = 2, set = 0, binding = 2) uniform subpassInput depth_in;
layout(location = 0) out vec4 color_depth;  // colour RGB and depth
layout(location = 1) out uint code;
void main() {
  color_depth = vec4(subpassLoad(color_in).rgb, subpassLoad(depth_in).r);
  code = subpassLoad(code_in).r ^ 0x5A5A5A5Au;
}

#version 450
// A fuzzing seed (scripts/fuzz_exec.sh): subpass inputs of each colour
// kind at input attachment indices 0, 2 and 3, in two sets.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput color_in;
layout(input_attachment_index = 2, set = 0, binding = 1) uniform usubpassInput count_in;
layout(input_attachment_index = 3, set = 1, binding = 0) uniform isubpassInput signed_in;
layout(location = 0) out vec4 color;
void main() {
  color = subpassLoad(color_in) + vec4(subpassLoad(count_in).x & 255u) + vec4(subpassLoad(signed_in) % 7);
}

#version 450
// A feedback loop: reads this pixel of the colour attachment it writes (as
// input attachment 0) and writes it back plus one, so in rasterization
// order (VK_EXT_rasterization_order_attachment_access) N overlapping
// primitives count to N.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform usubpassInput counter;
layout(location = 0) out uint value;
void main() { value = subpassLoad(counter).x + 1u; }

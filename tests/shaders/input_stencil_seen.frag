#version 450
// A stencil feedback loop: reads this pixel's stencil value (input
// attachment 0, the stencil attachment each fragment increments) and
// writes it as the colour, so in rasterization order N primitives leave
// colour N - 1.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform usubpassInput stencil_in;
layout(location = 0) out uint seen;
void main() { seen = subpassLoad(stencil_in).x; }

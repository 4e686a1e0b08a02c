#version 450
// VK_EXT_shader_stencil_export: each pixel's stencil reference is its own,
// (x + 16 y + offset) mod 256, with the offset from the push constants
// in the rectangle parameters' seed (RectParams, rect.vert).
#extension GL_ARB_shader_stencil_export : require
layout(push_constant) uniform Push { layout(offset = 40) int offset; } push;
layout(location = 0) out vec4 color;
void main() {
  const ivec2 p = ivec2(gl_FragCoord.xy);
  gl_FragStencilRefARB = (p.x + 16 * p.y + push.offset) & 255;
  color = vec4(0.0, 1.0, 0.0, 1.0);
}

#version 450
// Gathers with a dynamic offset and with four constant offsets
// (shaderImageGatherExtended), and a plain one, at one point.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer Out { vec4 gathered[3]; } result;
layout(push_constant) uniform Push { vec2 uv; ivec2 offset; } push;
void main() {
  result.gathered[0] = textureGather(tex, push.uv);
  result.gathered[1] = textureGatherOffset(tex, push.uv, push.offset);
  result.gathered[2] = textureGatherOffsets(tex, push.uv, ivec2[4](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(-2, -1)));
}

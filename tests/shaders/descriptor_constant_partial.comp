#version 450
// Two combined image samplers read at constant indices, the second only
// when the push constant asks: in a partially bound set, its descriptor
// may name a destroyed view while the shader leaves it alone.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint result[]; };
layout(set = 0, binding = 1) uniform sampler2D textures[2];
layout(push_constant) uniform Push { uint use_second; };
void main() {
  result[0] = packUnorm4x8(textureLod(textures[0], vec2(0.5), 0.0));
  result[1] = use_second != 0u ? packUnorm4x8(textureLod(textures[1], vec2(0.5), 0.0)) : 7u;
}

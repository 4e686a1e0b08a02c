#version 450
// The mipmapped texture, filtered by the sampler (trilinear, anisotropic).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 pixel;
layout(set = 0, binding = 0) uniform sampler2D ground;
void main() { pixel = texture(ground, uv); }

#version 450
// The texture at the interpolated coordinates (implicit level of detail)
// and the coordinates themselves, to check perspective-correct interpolation.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;
layout(location = 1) out vec4 out_uv;
void main() {
  out_color = texture(tex, v_uv);
  out_uv = vec4(v_uv, 0.0, 1.0);
}

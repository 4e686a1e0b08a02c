#version 450
// Texture times ambient plus diffuse (Lambert) lighting.
layout(push_constant) uniform Scene {
  mat4 mvp;
  vec4 model[3];  // the model matrix's first three columns (128 bytes in all: the minimum limit)
  vec4 light;
} scene;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;
layout(location = 0) out vec4 out_color;
void main() {
  const float diffuse = max(dot(normalize(v_normal), normalize(scene.light.xyz)), 0.0);
  out_color = vec4(texture(tex, v_uv).rgb * (0.25 + 0.75 * diffuse), 1.0);
}

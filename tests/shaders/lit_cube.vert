#version 450
// A lit, textured mesh: positions through a model-view-projection matrix,
// normals through the model matrix (no scaling), texture coordinates.
layout(push_constant) uniform Scene {
  mat4 mvp;
  vec4 model[3];  // the model matrix's first three columns (128 bytes in all: the minimum limit)
  vec4 light;  // direction towards the light, world space
} scene;
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec2 v_uv;
void main() {
  gl_Position = scene.mvp * vec4(position, 1.0);
  v_normal = mat3(scene.model[0].xyz, scene.model[1].xyz, scene.model[2].xyz) * normal;
  v_uv = uv;
}

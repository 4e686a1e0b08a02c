#version 450
// Linear blend skinning: each vertex blends four of 32 bone matrices by
// its weights (mat4 * scalar sums, then two matrix-vector products), as
// animated characters are drawn.
layout(location = 0) in vec3 position;
layout(location = 1) in uvec4 joints;
layout(location = 2) in vec4 weights;
layout(set = 0, binding = 0) uniform Skeleton {
  mat4 view_projection;
  mat4 bones[32];
};
layout(location = 0) flat out vec4 v_color;
void main() {
  mat4 skin = weights.x * bones[joints.x] + weights.y * bones[joints.y] + weights.z * bones[joints.z] +
              weights.w * bones[joints.w];
  gl_Position = view_projection * (skin * vec4(position, 1.0));
  v_color = vec4(0.2 + 0.8 * weights.xyz, 1.0);
}

#version 450
// A full-viewport quad (triangle strip from gl_VertexIndex) per instance,
// sent to viewport `instance` (mode 0), framebuffer layer `instance`
// (mode 1) or viewport `instance % 2` (mode 2) by the vertex shader itself.
#extension GL_ARB_shader_viewport_layer_array : require
layout(push_constant) uniform Push { uint mode; } push;
layout(location = 0) flat out uint v_instance;
void main() {
  const vec2 p = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1) * 2.0 - 1.0;
  gl_Position = vec4(p, 0.0, 1.0);
  v_instance = uint(gl_InstanceIndex);
  if (push.mode == 0u) {
    gl_ViewportIndex = gl_InstanceIndex;
  } else if (push.mode == 2u) {
    gl_ViewportIndex = gl_InstanceIndex % 2;
  } else {
    gl_Layer = gl_InstanceIndex;
  }
}

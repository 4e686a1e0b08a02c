#version 450
#extension GL_EXT_multiview : require
// The triangle domain over the viewport, coloured by the view: red in
// view 0, green in view 1.
layout(triangles, equal_spacing, ccw) in;
layout(location = 0) out vec4 color;
void main() {
  gl_Position = vec4(gl_TessCoord.xy * 2.0 - 1.0, 0.0, 1.0);
  color = gl_ViewIndex == 0 ? vec4(1, 0, 0, 1) : vec4(0, 1, 0, 1);
}

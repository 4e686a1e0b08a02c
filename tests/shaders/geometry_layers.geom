#version 450
// Instanced three times: invocation i draws the triangle into layer i, in a
// colour naming the invocation (red) and the input primitive (green), and
// hands the fragment shader PrimitiveId = 10 + the input primitive.
layout(triangles, invocations = 3) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) out vec4 g_color;
void main() {
  for (int k = 0; k < 3; ++k) {
    gl_Position = gl_in[k].gl_Position;
    gl_Layer = gl_InvocationID;
    gl_PrimitiveID = 10 + gl_PrimitiveIDIn;
    g_color = vec4(float(gl_InvocationID * 40) / 255.0, float(gl_PrimitiveIDIn * 40) / 255.0, 0, 1);
    EmitVertex();
  }
}

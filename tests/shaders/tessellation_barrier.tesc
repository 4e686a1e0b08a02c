#version 450
// Three invocations per patch write their own output, meet at a barrier,
// then read each other's: the last one's patch output holds their sum,
// its neighbour's value, PrimitiveId and PatchVertices.
layout(vertices = 3) out;
layout(location = 0) in vec4 point[];
layout(location = 0) out float value[];
layout(location = 1) patch out vec4 patch_info;
void main() {
  value[gl_InvocationID] = point[gl_InvocationID].x + 100.0 * float(gl_InvocationID) + point[gl_PatchVerticesIn - 1].y;
  barrier();
  if (gl_InvocationID == 2)
    patch_info = vec4(value[0] + value[1] + value[2], value[(gl_InvocationID + 1) % 3], float(gl_PrimitiveID),
                      float(gl_PatchVerticesIn));
  gl_TessLevelOuter[0] = 1.0;
  gl_TessLevelOuter[1] = 1.0;
}

#version 450
// One isoline segment per patch: its u = 0 point writes what the control
// shader made of the patch to records 2 * PrimitiveId and + 1.
layout(isolines, equal_spacing, point_mode) in;
layout(location = 0) in float value[];
layout(location = 1) patch in vec4 patch_info;
layout(std430, binding = 0) buffer Records {
  vec4 records[];
} out_records;
void main() {
  gl_PointSize = 1.0;
  if (gl_TessCoord.x == 0.0) {
    out_records.records[2 * gl_PrimitiveID] = patch_info;
    out_records.records[2 * gl_PrimitiveID + 1] = vec4(value[0], value[1], value[2], float(gl_PatchVerticesIn));
  }
}

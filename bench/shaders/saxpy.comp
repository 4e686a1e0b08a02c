#version 450
// z = a * x + y over n floats; the dispatch is 2D (a 1D one would pass
// the 65535-workgroup minimum limit), one invocation per element.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer Y { float y[]; };
layout(set = 0, binding = 2) writeonly buffer Z { float z[]; };
layout(push_constant) uniform Params { float a; uint n; };
void main() {
  uint i = gl_GlobalInvocationID.y * (gl_NumWorkGroups.x * gl_WorkGroupSize.x) + gl_GlobalInvocationID.x;
  if (i < n) z[i] = a * x[i] + y[i];
}

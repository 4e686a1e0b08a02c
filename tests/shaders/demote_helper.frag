#version 450
// Demotion to helper invocations: demoted lanes keep running (so the
// derivatives of their quad stay defined) but their stores are dropped.
// Also the interpolation functions. Run directly on a wave by
// tests/unit/spirv_exec_wave_test.cpp.
#extension GL_EXT_demote_to_helper_invocation : require
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 result;
layout(set = 0, binding = 0) buffer Stores { uint stores[]; };
void main() {
  if (color.x > 0.5) demote;
  stores[uint(color.y)] = 1u;
  float slope = dFdxFine(color.z);
  result = vec4(helperInvocationEXT() ? 1.0 : 0.0, slope, interpolateAtCentroid(color).w,
                interpolateAtOffset(color, vec2(0.25, -0.25)).w);
}

#version 450
// debugPrintfEXT (NonSemantic.DebugPrintf), logged by the driver: scalars,
// a 64-bit integer, a vector, and a branch that one invocation skips.
#extension GL_EXT_debug_printf : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Values { float v[]; };
void main() {
  const uint i = gl_LocalInvocationIndex;
  const float x = v[i] * 2.0;
  if (i != 2u)
    debugPrintfEXT("lane %u: x=%.2f hex=%x signed=%d big=%lu vec=%v2f", i, x, i * 255u, -int(i), uint64_t(i) << 40,
                   vec2(x, 1.5));
  v[i] = x;
}

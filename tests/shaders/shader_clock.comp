#version 450
// VK_KHR_shader_clock: clock2x32ARB (subgroup scope) and
// clockRealtime2x32EXT (device scope) before and after a loop; each
// invocation writes both readings as (low, high) pairs and a checksum
// of the loop so that it is not removed.
#extension GL_ARB_shader_clock : require
#extension GL_EXT_shader_realtime_clock : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint r[]; };  // 9 per invocation
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uvec2 subgroup_before = clock2x32ARB();
  const uvec2 device_before = clockRealtime2x32EXT();
  uint h = i;
  for (uint k = 0u; k < 2000u; ++k) h = h * 1664525u + 1013904223u;
  const uvec2 subgroup_after = clock2x32ARB();
  const uvec2 device_after = clockRealtime2x32EXT();
  r[9u * i + 0u] = subgroup_before.x;
  r[9u * i + 1u] = subgroup_before.y;
  r[9u * i + 2u] = subgroup_after.x;
  r[9u * i + 3u] = subgroup_after.y;
  r[9u * i + 4u] = device_before.x;
  r[9u * i + 5u] = device_before.y;
  r[9u * i + 6u] = device_after.x;
  r[9u * i + 7u] = device_after.y;
  r[9u * i + 8u] = h;
}

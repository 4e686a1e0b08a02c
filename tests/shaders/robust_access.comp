#version 450
// Robust buffer access: every invocation reads and writes at its index,
// far past the small ranges the test binds; out-of-range reads give 0,
// writes and atomics are dropped. Lengths of runtime arrays come from the
// bound ranges.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) buffer Dst { uint dst[]; };
layout(set = 0, binding = 2) uniform Ubo { uvec4 u[64]; };
layout(set = 0, binding = 3) buffer Results { uint r[]; };
layout(set = 0, binding = 4) buffer WithHeader { uvec2 header; uint data[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;  // 0 .. 127
  uint far = i == 127u ? 0xFFFFFFF0u : i;  // one index near the top of the address range
  r[i] = src[far] + u[i % 64u].y * 1000u;
  dst[far] = i + 1u;
  r[128 + i] = atomicAdd(dst[i + 64u], 5u);
  data[i] = 0xD0D0u + i;
  if (i == 0u) {
    r[256] = uint(src.length());
    r[257] = uint(dst.length());
    r[258] = uint(data.length());
  }
}

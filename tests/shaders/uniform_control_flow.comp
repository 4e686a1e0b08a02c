#version 450
// Values the same in every lane (loop counters, push constants and what is
// computed from them) in code whose lanes diverge: loops left early by some
// lanes, a phi swap, nested loops with a varying outer bound, a continue,
// a return inside a loop; results read after the loops. Each invocation
// writes 8 results (see ExpectedUniformControlFlow in the test).
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) buffer Out { int result[]; };
layout(push_constant) uniform Params { int n; int m; };

void main() {
  int id = int(gl_GlobalInvocationID.x);
  int base = id * 8;
  // A uniform loop some lanes leave early: its counter and last value after it.
  int i = 0, last = -1;
  for (; i < n; ++i) {
    last = i * m;
    if (i == id % 7) break;
  }
  result[base + 0] = i;
  result[base + 1] = last;
  // Phis that swap, in a uniform loop.
  int a = 1, b = 2;
  for (int k = 0; k < n; ++k) {
    int t = a;
    a = b;
    b = t + k;
  }
  result[base + 2] = a * 1000 + b;
  // A uniform inner loop in a loop whose bound varies.
  int s = 0;
  for (int x = 0; x < id % 4; ++x)
    for (int y = 0; y < m; ++y) s += x * y + 1;
  result[base + 3] = s;
  // A uniform value defined in a loop with a varying continue, read after it.
  int u = 0, c = 0;
  for (int k = 0; k < n; ++k) {
    u = k * 3 + m;
    if ((id + k) % 3 == 0) continue;
    c += u;
  }
  result[base + 4] = u * 1000 + c;
  // A uniform accumulator in a loop lanes leave at different iterations.
  int acc = 0, j = 0;
  while (j < n + (id & 3)) {
    acc += j * m;
    ++j;
  }
  result[base + 5] = acc;
  // A loop some lanes return from.
  int r = 0;
  for (int k = 0; k < n; ++k) {
    r += k + m;
    if (id % 5 == 0 && k == 2) {
      result[base + 6] = -r;
      result[base + 7] = -1;
      return;
    }
  }
  result[base + 6] = r;
  result[base + 7] = n * m;
}

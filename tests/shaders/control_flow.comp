#version 450
// Divergent control flow: nested loops with break and continue, a switch,
// an early return and a function call; out[i] is computed per invocation.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { int result[]; };

int collatz_steps(int n) {
  int steps = 0;
  while (n != 1) {
    if (steps > 1000) break;
    n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
    steps++;
  }
  return steps;
}

void main() {
  int i = int(gl_GlobalInvocationID.x);
  if (i == 7) { result[i] = -7; return; }
  int acc = 0;
  for (int a = 0; a < i % 5; ++a) {
    for (int b = 0; b < 4; ++b) {
      if (b == a) continue;
      if (a + b > 5) break;
      acc += a * 10 + b;
    }
  }
  switch (i % 4) {
    case 0: acc += 1000; break;
    case 1: acc += 2000;  // falls through
    case 2: acc += 300; break;
    default: acc -= 1; break;
  }
  result[i] = acc * 100000 + collatz_steps(i + 1);
}

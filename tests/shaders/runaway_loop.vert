#version 450
// Never ends when params.stop is odd: i stays even. The compiler cannot
// prove it, so the loop survives optimization (shader_watchdog tests).
layout(push_constant) uniform Params { uint stop; } params;
void main() {
  uint i = 0u;
  while (i != params.stop) i += 2u;
  gl_Position = vec4(float(i), 0.0, 0.0, 1.0);
}

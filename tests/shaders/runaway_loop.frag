#version 450
// Never ends when params.stop is odd (see runaway_loop.vert).
layout(push_constant) uniform Params { uint stop; } params;
layout(location = 0) out vec4 color;
void main() {
  uint i = 0u;
  while (i != params.stop) i += 2u;
  color = vec4(float(i));
}

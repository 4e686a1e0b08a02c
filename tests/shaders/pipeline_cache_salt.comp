#version 450
// v[i] = a few rounds of an integer hash of (i ^ kSalt): a result that
// shows the program ran whole, with a specialization constant so that each
// test run can make a stage no cache has seen.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint kSalt = 0u;
layout(set = 0, binding = 0) buffer Out { uint v[]; };
uint Hash(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint h = i ^ kSalt;
  for (uint k = 0u; k < (i & 7u); ++k) h = Hash(h + k);
  v[i] = h;
}

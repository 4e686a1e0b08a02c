#version 450
// What the reported float controls promise for 32-bit floats
// (shaderRoundingModeRTEFloat32, shaderDenormPreserveFloat32,
// shaderSignedZeroInfNanPreserveFloat32): ties round to even, denormal
// operands and results are kept, signed zeros and infinities survive.
// The inputs come from a buffer so that nothing is folded at compile time.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) readonly buffer In { float v[]; };  // 1, 2^-24, 2^-23, smallest denormal, -0, +inf
layout(set = 0, binding = 1) writeonly buffer Out { uint r[]; };
void main() {
  const float one = v[0], half_ulp = v[1], ulp = v[2], tiny = v[3], negative_zero = v[4], inf = v[5];
  r[0] = floatBitsToUint(one + half_ulp);          // a tie below: stays 1.0 (even)
  r[1] = floatBitsToUint((one + ulp) + half_ulp);  // a tie above an odd ulp: up to 1 + 2^-22
  r[2] = floatBitsToUint(tiny * 3.0);              // three denormal units
  r[3] = floatBitsToUint(tiny + tiny);             // two
  r[4] = floatBitsToUint(tiny * half_ulp * 0.5);   // far below the smallest denormal: +0
  r[5] = floatBitsToUint(negative_zero * one);     // -0
  r[6] = floatBitsToUint(one / inf);               // +0
  r[7] = floatBitsToUint(-one / negative_zero);    // +inf
}

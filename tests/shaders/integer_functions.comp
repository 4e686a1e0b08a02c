#version 450
// Integer arithmetic, bit operations, conversions and comparisons, one
// output slot each for every input (a, b, c); slot numbers must match
// shader_integer_test.cpp.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uvec4 v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint r[]; };
layout(push_constant) uniform Params { uint n; };
const uint kSlots = 44;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  uint a = v[i].x, b = v[i].y, c = v[i].z;
  int sa = int(a), sb = int(b), sc = int(c);
  // Bit-field operands: offset + count <= 32 (beyond is undefined).
  int offset = int(c & 31u);
  int count = int((c >> 8) % uint(33 - offset));
  uint o = i * kSlots;
  r[o + 0] = uint(bitfieldExtract(sa, offset, count));
  r[o + 1] = bitfieldExtract(a, offset, count);
  r[o + 2] = bitfieldInsert(a, b, offset, count);
  uint carry, borrow, high, low;
  r[o + 3] = uaddCarry(a, b, carry);
  r[o + 4] = carry;
  r[o + 5] = usubBorrow(a, b, borrow);
  r[o + 6] = borrow;
  umulExtended(a, b, high, low);
  r[o + 7] = high;
  r[o + 8] = low;
  int shigh, slow;
  imulExtended(sa, sb, shigh, slow);
  r[o + 9] = uint(shigh);
  r[o + 10] = uint(slow);
  r[o + 11] = uint(bitCount(a));
  r[o + 12] = bitfieldReverse(a);
  r[o + 13] = uint(findLSB(a));
  r[o + 14] = uint(findMSB(sa));
  r[o + 15] = uint(findMSB(a));
  r[o + 16] = uint(abs(sa));
  r[o + 17] = uint(sign(sa));
  r[o + 18] = uint(min(sa, sb));
  r[o + 19] = uint(max(sa, sb));
  r[o + 20] = min(a, b);
  r[o + 21] = max(a, b);
  r[o + 22] = uint(clamp(sa, min(sb, sc), max(sb, sc)));
  r[o + 23] = clamp(a, min(b, c), max(b, c));
  // Division by zero and INT_MIN / -1 are undefined: not asked.
  r[o + 24] = b != 0u ? a / b : 0u;
  r[o + 25] = b != 0u ? a % b : 0u;
  bool defined = sb != 0 && !(sa == int(0x80000000) && sb == -1);
  r[o + 26] = defined ? uint(sa / sb) : 0u;
  r[o + 27] = defined ? uint(sa % sb) : 0u;  // OpSMod: the sign of the divisor
  r[o + 28] = a << (b & 31u);
  r[o + 29] = a >> (b & 31u);
  r[o + 30] = uint(sa >> int(b & 31u));
  r[o + 31] = uint(-sa);
  r[o + 32] = ~a;
  r[o + 33] = a * b;
  r[o + 34] = a + b;
  r[o + 35] = a - b;
  r[o + 36] = floatBitsToUint(float(sa));
  r[o + 37] = floatBitsToUint(float(a));
  // Float to integer: in range only (beyond is undefined).
  float f = uintBitsToFloat(c);
  r[o + 38] = (abs(f) < 2147483520.0) ? uint(int(f)) : 0u;
  r[o + 39] = (f > -1.0 && f < 4294967040.0) ? uint(f) : 0u;
  r[o + 40] = uint(sa < sb) | uint(a < b) << 1 | uint(a == b) << 2 | uint(sa >= sb) << 3 | uint(a >= b) << 4 |
              uint(sa <= sb) << 5 | uint(a <= b) << 6 | uint(sa > sb) << 7 | uint(a > b) << 8 | uint(a != b) << 9;
  bvec3 less = lessThan(uvec3(a, b, c), uvec3(b, c, a));
  r[o + 41] = uint(any(less)) | uint(all(less)) << 1 | uint(any(not(less))) << 2 | uint(all(equal(less, less))) << 3;
  r[o + 42] = (a & b) ^ (a | c);
  r[o + 43] = uint((a < b) != (b < c)) | uint((a < b) == (b < c)) << 1 | uint(!(a < b) && (b < c)) << 2 |
              uint((a < b) || !(b < c)) << 3;
}

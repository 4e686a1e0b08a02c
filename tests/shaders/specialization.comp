#version 450
// Specialization constants: the workgroup size (LocalSizeId from SPIR-V
// 1.6, and gl_WorkGroupSize), scalars of every kind, and a constant derived
// from them (OpSpecConstantOp, folded when the pipeline is made).
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint kScale = 1u;
layout(constant_id = 3) const int kOffset = 0;
layout(constant_id = 4) const bool kNegate = false;
layout(constant_id = 5) const float kFactor = 1.0;
const uint kDerived = kScale * 3u + 1u;
const int kSelected = kNegate ? -kOffset : kOffset;
// More of what OpSpecConstantOp may do: bits, shifts, comparisons, logic,
// conversions, division.
const uint kBits = ((kScale << 3u) | 5u) ^ (kScale >> 1u) & ~2u;
const bool kBig = kScale > 4u && !kNegate;
const int kSigned = int(kScale) / 2 - int(kScale) % 3 + kOffset * 3;
const uint kFromBool = uint(kBig) + uint(kNegate || kScale == 2u) * 10u;
layout(set = 0, binding = 0) buffer Out { uint r[]; };
shared uint group_total;
void main() {
  uint size = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
  uint i = gl_WorkGroupID.x * size + gl_LocalInvocationIndex;
  if (gl_LocalInvocationIndex == 0u) group_total = 0u;
  barrier();
  atomicAdd(group_total, 1u);
  barrier();
  r[i * 8u + 0u] = gl_WorkGroupSize.x;
  r[i * 8u + 1u] = gl_WorkGroupSize.y;
  r[i * 8u + 2u] = kDerived;
  r[i * 8u + 3u] = uint(kSelected);
  r[i * 8u + 4u] = floatBitsToUint(kNegate ? -kFactor : kFactor);
  r[i * 8u + 5u] = group_total;
  r[i * 8u + 6u] = kBits;
  r[i * 8u + 7u] = uint(kSigned) + kFromBool * 100000u;
}

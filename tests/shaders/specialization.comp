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
layout(set = 0, binding = 0) buffer Out { uint r[]; };
shared uint group_total;
void main() {
  uint size = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
  uint i = gl_WorkGroupID.x * size + gl_LocalInvocationIndex;
  if (gl_LocalInvocationIndex == 0u) group_total = 0u;
  barrier();
  atomicAdd(group_total, 1u);
  barrier();
  r[i * 6u + 0u] = gl_WorkGroupSize.x;
  r[i * 6u + 1u] = gl_WorkGroupSize.y;
  r[i * 6u + 2u] = kDerived;
  r[i * 6u + 3u] = uint(kSelected);
  r[i * 6u + 4u] = floatBitsToUint(kNegate ? -kFactor : kFactor);
  r[i * 6u + 5u] = group_total;
}

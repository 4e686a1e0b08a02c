#version 450
// Counts the workgroups of a dispatch and the largest workgroup ID on each
// axis (huge_work_test: dispatches at the advertised maximum counts).
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Counts {
  uint workgroups;
  uint max_id[3];
};

void main() {
  atomicAdd(workgroups, 1u);
  atomicMax(max_id[0], gl_WorkGroupID.x);
  atomicMax(max_id[1], gl_WorkGroupID.y);
  atomicMax(max_id[2], gl_WorkGroupID.z);
}

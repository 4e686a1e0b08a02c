#version 450
// Message passing through an availability/visibility chain of two scopes
// (vulkanMemoryModelAvailabilityVisibilityChains), as in the memory model's
// transitivity: in each workgroup, invocation 0 writes a payload and
// releases it at workgroup scope; invocation 64 (another wave), having
// acquired that, releases at device scope; an invocation of another
// workgroup acquires at device scope and, when it sees the flag, must see
// the payload. Nobody waits: a reader that comes too early records so.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Payload { uint payload[]; };  // per workgroup, zeroed
layout(set = 0, binding = 1) buffer Flags { uint flag[]; };       // per workgroup, zeroed
layout(set = 0, binding = 2) buffer Seen { uvec2 seen[]; };       // per workgroup: (flag, payload) its reader saw
shared uint local_flag;
void main() {
  const uint g = gl_WorkGroupID.x, groups = gl_NumWorkGroups.x;
  const int storage = gl_StorageSemanticsBuffer | gl_StorageSemanticsShared;
  if (gl_LocalInvocationIndex == 0u) {
    payload[g] = g * 7u + 1u;
    atomicStore(local_flag, 1u, gl_ScopeWorkgroup, storage, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
  } else if (gl_LocalInvocationIndex == 64u) {
    if (atomicLoad(local_flag, gl_ScopeWorkgroup, storage, gl_SemanticsAcquire | gl_SemanticsMakeVisible) == 1u)
      atomicStore(flag[g], 1u, gl_ScopeDevice, storage, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
  } else if (gl_LocalInvocationIndex == 127u) {
    const uint source = (g + groups / 2u) % groups;
    const uint f = atomicLoad(flag[source], gl_ScopeDevice, storage, gl_SemanticsAcquire | gl_SemanticsMakeVisible);
    seen[g] = uvec2(f, f == 1u ? payload[source] : 0u);
  }
}

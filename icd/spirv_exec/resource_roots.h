// Resolves the memory roots (descriptor buffers, push constants) and image
// roots of a Program against the descriptor sets and push constants a command
// buffer has bound. Workgroup and per-lane roots are left to the caller.
#pragma once

#include <vector>

#include "spirv_exec/compute_dispatch.h"
#include "spirv_exec/ir.h"
#include "spirv_exec/wave.h"

namespace duet::spirv_exec {

ShaderResources ResolveResources(const Program& program, const ShaderBindings& bindings);

}  // namespace duet::spirv_exec

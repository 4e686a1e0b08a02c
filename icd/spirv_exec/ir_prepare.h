// The last step of compiling a stage (CompileStage): turns the IR into the
// form the interpreter runs, resolved once per pipeline rather than per
// instruction executed.
#pragma once

#include "spirv_exec/ir.h"

namespace duet::spirv_exec {

// Removes the register copies it can (program->code and block_start
// change; blocks keep their indices), then fills program->steps: each
// instruction's lane kernel for the CPU this process runs on, in the
// variant its uniform operands allow, with its registers as word offsets.
void PrepareExecution(Program* program);

}  // namespace duet::spirv_exec

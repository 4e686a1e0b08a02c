// The last step of compiling a stage (CompileStage): turns the IR into the
// form the interpreter runs, resolved once per pipeline rather than per
// instruction executed.
#pragma once

#include "spirv_exec/ir.h"

namespace duet::spirv_exec {

// Fills program->steps: each instruction's lane kernel (for the CPU this
// process runs on) with its registers as word offsets.
void PrepareExecution(Program* program);

}  // namespace duet::spirv_exec

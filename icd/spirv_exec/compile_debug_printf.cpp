// NonSemantic.* extended instructions: debugPrintfEXT (NonSemantic.DebugPrintf)
// becomes a kPrint of its format and argument registers; the other
// non-semantic sets (debug info, reflection) carry nothing to run.
#include "spirv_exec/compiler.h"

namespace duet::spirv_exec {

using SpvOp = spv::Op;

bool Compiler::CompileNonSemantic(const SpirvInstruction& inst, bool* handled) {
  *handled = false;
  if (inst.op != SpvOp::OpExtInst || inst.word_count < 4) return true;
  const auto set = module_.ext_inst_sets.find(inst[2]);
  if (set == module_.ext_inst_sets.end() || (set->second != kDebugPrintfSet && set->second != kNonSemanticSet))
    return true;
  *handled = true;
  constexpr uint32_t kDebugPrintf = 1;
  if (set->second != kDebugPrintfSet || inst[3] != kDebugPrintf) return true;
  const auto format = module_.strings.find(inst.word_count > 4 ? inst[4] : 0);
  if (format == module_.strings.end()) return Fail("DebugPrintf without a format string");
  PrintCall call;
  call.format = format->second;
  for (uint32_t i = 5; i < inst.word_count; ++i) {
    const CompiledValue& value = Value(inst[i]);
    if (!error_.empty()) return false;
    const SpirvType* t = &module_.Type(value.type);
    PrintArgument arg;
    arg.reg = value.reg;
    if (t->kind == SpvOp::OpTypeVector) {
      arg.components = t->count;
      t = &module_.Type(t->element);
    }
    using Kind = PrintArgument::Kind;
    if (t->kind == SpvOp::OpTypeBool) {
      arg.kind = Kind::kBool;
    } else if (t->kind == SpvOp::OpTypeFloat) {
      arg.kind = t->width == 64 ? Kind::kDouble : Kind::kFloat;  // (a half is the float of its value)
    } else if (t->kind == SpvOp::OpTypeInt) {
      arg.kind = t->width == 64 ? (t->is_signed ? Kind::kInt64 : Kind::kUint64) : t->is_signed ? Kind::kInt : Kind::kUint;
      const Narrow narrow = NarrowOf(value.type);
      if (t->is_signed && narrow != Narrow::kNone) {  // narrow integers are held zero-extended
        arg.reg = NewRegisters(arg.components);
        for (uint32_t c = 0; c < arg.components; ++c) EmitSignExtend(narrow, arg.reg + c, value.reg + c);
      }
    } else {
      return Fail("DebugPrintf of a value that is no scalar or vector");
    }
    call.arguments.push_back(arg);
  }
  program_.prints.push_back(std::move(call));
  Emit(Op::kPrint, 0, 0, 0, 0, uint16_t(program_.prints.size() - 1));
  return true;
}

}  // namespace duet::spirv_exec

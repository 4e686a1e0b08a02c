// spv::HasResultAndType (the value types below).
#define SPV_ENABLE_UTILITY_CODE
#include "spirv_exec/spirv_module.h"

#include <cstring>

namespace duet::spirv_exec {
namespace {

using spv::Op;

std::string LiteralString(const uint32_t* words, uint32_t count, uint32_t* used) {
  const char* text = reinterpret_cast<const char*>(words);
  size_t length = strnlen(text, size_t{count} * 4);
  *used = static_cast<uint32_t>(length / 4 + 1);
  return std::string(text, length);
}

void DecorateInterface(spv::Decoration decoration, const uint32_t* operands, InterfaceDecorations* d) {
  switch (decoration) {
    case spv::Decoration::Location: d->location = static_cast<int32_t>(operands[0]); break;
    case spv::Decoration::Component: d->component = operands[0]; break;
    case spv::Decoration::Index: d->index = operands[0]; break;
    case spv::Decoration::Flat: d->flat = true; break;
    case spv::Decoration::NoPerspective: d->noperspective = true; break;
    case spv::Decoration::Centroid: d->centroid = true; break;
    case spv::Decoration::Sample: d->sample = true; break;
    case spv::Decoration::XfbBuffer: d->xfb_buffer = static_cast<int32_t>(operands[0]); break;
    case spv::Decoration::XfbStride: d->xfb_stride = operands[0]; break;
    case spv::Decoration::Offset: d->xfb_offset = static_cast<int32_t>(operands[0]); break;  // of outputs: transform feedback
    case spv::Decoration::Stream: d->stream = static_cast<int32_t>(operands[0]); break;
    case spv::Decoration::Patch: d->patch = true; break;
    default: break;
  }
}

}  // namespace

uint32_t SpirvModule::TypeOf(uint32_t id) const {
  auto t = value_types.find(id);
  return t != value_types.end() ? t->second : 0;
}

const SpirvType& SpirvModule::Type(uint32_t id) const {
  static const SpirvType kNone;
  auto it = types.find(id);
  return it == types.end() ? kNone : it->second;
}

const Decorations* SpirvModule::DecorationsOf(uint32_t id) const {
  auto it = decorations.find(id);
  return it == decorations.end() ? nullptr : &it->second;
}

const SpirvFunction* SpirvModule::Function(uint32_t id) const {
  for (const SpirvFunction& f : functions)
    if (f.id == id) return &f;
  return nullptr;
}

bool SpirvModule::ScalarConstant(uint32_t id, uint32_t* value) const {
  auto it = constants.find(id);
  if (it == constants.end()) return false;
  const SpirvInstruction& c = it->second;
  if (c.op == Op::OpConstant) *value = c[2];
  else if (c.op == Op::OpConstantNull || c.op == Op::OpConstantFalse) *value = 0;
  else if (c.op == Op::OpConstantTrue) *value = 1;
  else return false;
  return true;
}

bool ParseSpirvModule(std::vector<uint32_t> words, SpirvModule* module, std::string* error) {
  module->words = std::move(words);
  const std::vector<uint32_t>& w = module->words;
  if (w.size() < 5 || w[0] != spv::MagicNumber) {
    *error = "not a SPIR-V module";
    return false;
  }
  SpirvFunction* function = nullptr;
  SpirvBlock* block = nullptr;
  auto decorate = [&](uint32_t id) -> Decorations& { return module->decorations[id]; };
  auto member = [&](uint32_t id, uint32_t index) -> MemberDecorations& {
    Decorations& d = decorate(id);
    if (d.members.size() <= index) d.members.resize(index + 1);
    return d.members[index];
  };

  for (size_t at = 5; at < w.size();) {
    const uint32_t count = w[at] >> 16;
    const Op op = static_cast<Op>(w[at] & 0xFFFF);
    if (count == 0 || at + count > w.size()) {
      *error = "truncated instruction";
      return false;
    }
    const SpirvInstruction inst{op, &w[at + 1], count - 1};
    at += count;
    bool has_result = false, has_type = false;
    spv::HasResultAndType(op, &has_result, &has_type);
    if (has_result && has_type && inst.word_count >= 2) module->value_types[inst[1]] = inst[0];

    switch (op) {
      case Op::OpExtInstImport: {
        uint32_t used = 0;
        const std::string name = LiteralString(inst.words + 1, inst.word_count - 1, &used);
        module->ext_inst_sets[inst[0]] = name == "GLSL.std.450"                ? kGlslStd450Set
                                         : name == "NonSemantic.DebugPrintf"  ? kDebugPrintfSet
                                         : name.rfind("NonSemantic.", 0) == 0 ? kNonSemanticSet
                                                                              : 0;
        break;
      }
      case Op::OpString: {
        uint32_t used = 0;
        module->strings[inst[0]] = LiteralString(inst.words + 1, inst.word_count - 1, &used);
        break;
      }
      case Op::OpEntryPoint: {
        SpirvEntryPoint entry;
        entry.model = static_cast<spv::ExecutionModel>(inst[0]);
        entry.function = inst[1];
        uint32_t used = 0;
        entry.name = LiteralString(inst.words + 2, inst.word_count - 2, &used);
        for (uint32_t i = 2 + used; i < inst.word_count; ++i) entry.interface.push_back(inst[i]);
        module->entry_points.push_back(std::move(entry));
        break;
      }
      case Op::OpExecutionMode:
      case Op::OpExecutionModeId:
        for (SpirvEntryPoint& e : module->entry_points) {
          if (e.function != inst[0]) continue;
          const auto mode = static_cast<spv::ExecutionMode>(inst[1]);
          if (mode == spv::ExecutionMode::LocalSize)
            for (int i = 0; i < 3; ++i) e.local_size[i] = inst[2 + i];
          if (mode == spv::ExecutionMode::LocalSizeId)
            for (int i = 0; i < 3; ++i) e.local_size_ids[i] = inst[2 + i];
          if (mode == spv::ExecutionMode::EarlyFragmentTests) e.early_fragment_tests = true;
          if (mode == spv::ExecutionMode::PostDepthCoverage) e.post_depth_coverage = true;
          if (mode == spv::ExecutionMode::DepthReplacing) e.depth_replacing = true;
          if (mode == spv::ExecutionMode::Xfb) e.transform_feedback = true;
          switch (mode) {
            case spv::ExecutionMode::InputPoints: e.input_vertices = 1; break;
            case spv::ExecutionMode::InputLines: e.input_vertices = 2; break;
            case spv::ExecutionMode::InputLinesAdjacency: e.input_vertices = 4; break;
            case spv::ExecutionMode::Triangles:  // a geometry shader's input, a tessellator's domain
              e.input_vertices = 3;
              e.tessellation_domain = mode;
              break;
            case spv::ExecutionMode::InputTrianglesAdjacency: e.input_vertices = 6; break;
            case spv::ExecutionMode::OutputVertices: e.output_vertices = inst[2]; break;
            case spv::ExecutionMode::Invocations: e.invocations = inst[2]; break;
            case spv::ExecutionMode::OutputPoints:
            case spv::ExecutionMode::OutputLineStrip:
            case spv::ExecutionMode::OutputTriangleStrip: e.output_primitive = mode; break;
            case spv::ExecutionMode::Quads:
            case spv::ExecutionMode::Isolines: e.tessellation_domain = mode; break;
            case spv::ExecutionMode::SpacingEqual:
            case spv::ExecutionMode::SpacingFractionalEven:
            case spv::ExecutionMode::SpacingFractionalOdd: e.tessellation_spacing = mode; break;
            case spv::ExecutionMode::VertexOrderCw:
            case spv::ExecutionMode::VertexOrderCcw: e.vertex_order = mode; break;
            case spv::ExecutionMode::PointMode: e.point_mode = true; break;
            case spv::ExecutionMode::DenormFlushToZero: e.flush_widths |= inst[2] / 16; break;
            case spv::ExecutionMode::RoundingModeRTZ: e.toward_zero_widths |= inst[2] / 16; break;
            default: break;
          }
        }
        break;
      case Op::OpDecorate: {
        Decorations& d = decorate(inst[0]);
        switch (static_cast<spv::Decoration>(inst[1])) {
          case spv::Decoration::DescriptorSet: d.set = inst[2]; break;
          case spv::Decoration::Binding: d.binding = inst[2]; break;
          case spv::Decoration::ArrayStride: d.array_stride = inst[2]; break;
          case spv::Decoration::BuiltIn:
            d.builtin = static_cast<int32_t>(inst[2]);
            if (static_cast<spv::BuiltIn>(inst[2]) == spv::BuiltIn::WorkgroupSize)
              module->workgroup_size_builtin = inst[0];
            break;
          case spv::Decoration::Block: d.block = true; break;
          case spv::Decoration::BufferBlock: d.buffer_block = true; break;
          case spv::Decoration::FPRoundingMode: d.rounding_mode = static_cast<int32_t>(inst[2]); break;
          default: DecorateInterface(static_cast<spv::Decoration>(inst[1]), inst.words + 2, &d.interface); break;
        }
        break;
      }
      case Op::OpMemberDecorate: {
        MemberDecorations& m = member(inst[0], inst[1]);
        switch (static_cast<spv::Decoration>(inst[2])) {
          case spv::Decoration::Offset:
            m.offset = inst[3];
            m.interface.xfb_offset = static_cast<int32_t>(inst[3]);  // output blocks: transform feedback
            break;
          case spv::Decoration::MatrixStride: m.matrix_stride = inst[3]; break;
          case spv::Decoration::RowMajor: m.row_major = true; break;
          case spv::Decoration::BuiltIn: m.builtin = static_cast<int32_t>(inst[3]); break;
          default: DecorateInterface(static_cast<spv::Decoration>(inst[2]), inst.words + 3, &m.interface); break;
        }
        break;
      }
      case Op::OpTypeVoid:
      case Op::OpTypeBool:
      case Op::OpTypeSampler:
        module->types[inst[0]] = {op};
        break;
      case Op::OpTypeInt:
        module->types[inst[0]] = {op, inst[1], inst[2] != 0};
        break;
      case Op::OpTypeFloat:
        module->types[inst[0]] = {op, inst[1], true};
        break;
      case Op::OpTypeVector:
      case Op::OpTypeMatrix:
        module->types[inst[0]] = {op, 0, false, inst[1], inst[2]};
        break;
      case Op::OpTypeArray: {
        uint32_t length = 0;
        module->ScalarConstant(inst[2], &length);
        module->types[inst[0]] = {op, 0, false, inst[1], length};
        break;
      }
      case Op::OpTypeRuntimeArray:
        module->types[inst[0]] = {op, 0, false, inst[1], 0};
        break;
      case Op::OpTypeStruct: {
        SpirvType t{op};
        for (uint32_t i = 1; i < inst.word_count; ++i) t.members.push_back(inst[i]);
        module->types[inst[0]] = std::move(t);
        break;
      }
      case Op::OpTypePointer: {
        SpirvType t{op};
        t.storage = static_cast<spv::StorageClass>(inst[1]);
        t.element = inst[2];
        module->types[inst[0]] = t;
        break;
      }
      case Op::OpTypeFunction:
      case Op::OpTypeSampledImage:
        module->types[inst[0]] = {op, 0, false, inst.word_count > 1 ? inst[1] : 0};
        break;
      case Op::OpTypeImage: {
        SpirvType t{op, 0, false, inst[1]};
        t.dim = static_cast<spv::Dim>(inst[2]);
        t.multisampled = inst[5] != 0;
        module->types[inst[0]] = t;
        break;
      }
      case Op::OpConstant:
      case Op::OpConstantTrue:
      case Op::OpConstantFalse:
      case Op::OpConstantNull:
      case Op::OpConstantComposite:
      // A spec constant composite the optimizer could not fold (one with an
      // OpUndef member): its members are frozen constants by now.
      case Op::OpSpecConstantComposite:
      // What the optimizer's folding left of spec constant operations
      // (compiler.cpp evaluates them).
      case Op::OpSpecConstantOp:
      // An undefined value may be anything: the compiler makes it zero,
      // wherever the module declares it.
      case Op::OpUndef:
        module->constants[inst[1]] = inst;
        break;
      case Op::OpVariable:
        if (function == nullptr) module->variables[inst[1]] = inst;
        else if (block != nullptr) block->body.push_back(inst);
        break;
      case Op::OpFunction:
        module->functions.push_back({inst[1], {}});
        function = &module->functions.back();
        block = nullptr;
        break;
      case Op::OpFunctionEnd:
        function = nullptr;
        block = nullptr;
        break;
      case Op::OpLabel:
        if (function == nullptr) break;
        function->blocks.push_back({inst[0]});
        block = &function->blocks.back();
        break;
      case Op::OpSelectionMerge:
        if (block != nullptr) block->merge = inst[0];
        break;
      case Op::OpLoopMerge:
        if (block != nullptr) {
          block->merge = inst[0];
          block->continue_target = inst[1];
          block->loop_header = true;
        }
        break;
      case Op::OpFunctionParameter:
        *error = "function calls remain after inlining";
        return false;
      default:
        if (block != nullptr) block->body.push_back(inst);
        break;
    }
  }
  return true;
}

}  // namespace duet::spirv_exec

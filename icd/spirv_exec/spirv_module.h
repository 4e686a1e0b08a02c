// A read-only view of a prepared SPIR-V module: types, constants,
// decorations, global variables and the blocks of each function, indexed
// by result id. The compiler reads it; nothing here executes.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace duet::spirv_exec {

struct SpirvType {
  spv::Op kind = spv::Op::OpNop;  // OpTypeInt, OpTypeVector, ...
  uint32_t width = 0;             // int/float bits
  bool is_signed = false;
  uint32_t element = 0;           // vector/matrix/array element type, pointer pointee
  uint32_t count = 0;             // vector components, matrix columns, array length (0: runtime)
  std::vector<uint32_t> members;  // struct member types
  spv::StorageClass storage = spv::StorageClass::Max;  // pointers
  spv::Dim dim = spv::Dim::Max;   // images
  bool multisampled = false;      // images
};

// Interpolation and interface decorations, on variables or block members.
struct InterfaceDecorations {
  int32_t location = -1;
  uint32_t component = 0;
  uint32_t index = 0;  // fragment outputs: 1 is the second source of dual-source blending
  bool flat = false, noperspective = false, centroid = false, sample = false;
  bool patch = false;  // a tessellation stage's per-patch input or output
  // Transform feedback (XfbBuffer, XfbStride, Offset of outputs; -1:
  // none) and a geometry shader output's vertex Stream (-1: none given).
  int32_t xfb_buffer = -1, xfb_offset = -1, stream = -1;
  uint32_t xfb_stride = 0;
};

struct MemberDecorations {
  uint32_t offset = 0;
  uint32_t matrix_stride = 0;
  bool row_major = false;
  int32_t builtin = -1;
  InterfaceDecorations interface;
};

struct Decorations {
  uint32_t set = 0, binding = 0;
  uint32_t array_stride = 0;
  int32_t builtin = -1;
  bool block = false, buffer_block = false;
  int32_t rounding_mode = -1;  // FPRoundingMode of a conversion's result, -1: none
  InterfaceDecorations interface;
  std::vector<MemberDecorations> members;
};

// One instruction: its opcode and operand words (result type and id included).
struct SpirvInstruction {
  spv::Op op;
  const uint32_t* words;  // words[0] is the first operand
  uint32_t word_count;
  uint32_t operator[](uint32_t i) const { return words[i]; }
};

struct SpirvBlock {
  uint32_t label;
  std::vector<SpirvInstruction> body;  // OpPhi first, then the rest; the terminator last
  uint32_t merge = 0;                  // selection or loop merge block, if any
  uint32_t continue_target = 0;        // loops
  bool loop_header = false;
};

struct SpirvFunction {
  uint32_t id;
  std::vector<SpirvBlock> blocks;  // in module order; blocks[0] is the entry
};

struct SpirvEntryPoint {
  spv::ExecutionModel model;
  uint32_t function;
  std::string name;
  std::vector<uint32_t> interface;
  uint32_t local_size[3] = {1, 1, 1};
  uint32_t local_size_ids[3] = {0, 0, 0};  // LocalSizeId constants, 0 when absent
  bool early_fragment_tests = false;
  bool post_depth_coverage = false;  // SampleMaskIn after the early tests (SPV_KHR_post_depth_coverage)
  bool depth_replacing = false;
  bool transform_feedback = false;  // the Xfb execution mode
  // Geometry shaders: vertices of the input primitive (Input* / Triangles
  // modes), OutputVertices, Invocations, and the output mode (OutputPoints,
  // OutputLineStrip, OutputTriangleStrip; 0 when none).
  uint32_t input_vertices = 0, output_vertices = 0, invocations = 1;
  spv::ExecutionMode output_primitive{};
  // Tessellation shaders (either stage may give them; 0 when none):
  // Triangles/Quads/Isolines, Spacing*, VertexOrderCw/Ccw, PointMode.
  spv::ExecutionMode tessellation_domain{}, tessellation_spacing{}, vertex_order{};
  bool point_mode = false;
  // Float controls: widths (bit width / 16: 1, 2, 4 for 16, 32, 64) whose
  // denormals flush to zero (DenormFlushToZero) and whose results round
  // toward zero (RoundingModeRTZ).
  uint32_t flush_widths = 0, toward_zero_widths = 0;
};

// What an OpExtInstImport imports (SpirvModule::ext_inst_sets).
inline constexpr uint32_t kGlslStd450Set = 1;
inline constexpr uint32_t kDebugPrintfSet = 2;   // NonSemantic.DebugPrintf: debugPrintfEXT
inline constexpr uint32_t kNonSemanticSet = 3;   // other NonSemantic.*: nothing to run

struct SpirvModule {
  std::vector<uint32_t> words;
  std::unordered_map<uint32_t, SpirvType> types;
  std::unordered_map<uint32_t, SpirvInstruction> constants;  // OpConstant*, OpConstantComposite, OpConstantNull, OpUndef,
                                                             // OpSpecConstantOp
  std::unordered_map<uint32_t, Decorations> decorations;
  std::unordered_map<uint32_t, SpirvInstruction> variables;  // module-scope OpVariable
  std::unordered_map<uint32_t, uint32_t> ext_inst_sets;      // id -> k*Set below, 0 for others
  std::unordered_map<uint32_t, std::string> strings;         // OpString
  std::vector<SpirvEntryPoint> entry_points;
  std::vector<SpirvFunction> functions;
  uint32_t workgroup_size_builtin = 0;  // a constant decorated BuiltIn WorkgroupSize
  std::unordered_map<uint32_t, uint32_t> value_types;  // result id -> its type id, for every typed result

  uint32_t TypeOf(uint32_t id) const;  // the type of value `id` (0: unknown)

  const SpirvType& Type(uint32_t id) const;
  const Decorations* DecorationsOf(uint32_t id) const;
  const SpirvFunction* Function(uint32_t id) const;
  // The 32-bit value of a scalar integer constant; false when `id` is not one.
  bool ScalarConstant(uint32_t id, uint32_t* value) const;
};

// Parses a module; false with a message when it uses something the parser
// does not understand (the module was validated before).
bool ParseSpirvModule(std::vector<uint32_t> words, SpirvModule* module, std::string* error);

}  // namespace duet::spirv_exec

// Shared state of the SPIR-V -> IR compiler. The work is split by topic:
// compiler.cpp (values, blocks, control flow), compile_memory.cpp
// (variables, access chains, loads, stores, atomics), compile_alu.cpp
// (arithmetic, conversions, composites, matrices, integer dot products),
// compile_glsl.cpp (GLSL.std.450), compile_image.cpp (images).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "spirv_exec/ir.h"
#include "spirv_exec/spirv_module.h"

namespace duet::spirv_exec {

inline constexpr uint32_t kNoRegister = UINT32_MAX;

// Where a pointer points: a memory root plus a byte offset, part constant
// and part per lane. Built-in inputs are registers, not memory.
struct PointerValue {
  uint32_t root = 0;                    // index into Program::roots
  uint32_t offset_register = kNoRegister;  // per-lane dynamic part, if any
  uint32_t static_offset = 0;
  uint32_t pointee = 0;                 // SPIR-V type id
  bool explicit_layout = false;         // Offset/ArrayStride/MatrixStride decide the layout
  uint32_t matrix_stride = 0;           // when the pointee is (an array of) matrices
  bool row_major = false;
  uint32_t component_stride = 0;        // vector pointee: bytes between components (0: packed)
  // Stage inputs and outputs are registers, not memory: the first register
  // of what the pointer points to.
  uint32_t builtin_register = kNoRegister;
  // A dynamic index into registers (arrays of inputs or outputs): the
  // register holding each lane's offset from builtin_register, a multiple
  // of register_step, and the registers [register_span_first,
  // + register_span_count) it may reach (what the outermost dynamically
  // indexed array holds). Accesses select among those registers.
  uint32_t register_offset = kNoRegister;
  uint32_t register_step = 0;
  uint32_t register_span_first = 0, register_span_count = 0;
  bool image = false;  // UniformConstant: root indexes Program::images
  // An array of descriptors not indexed yet: its variable (set and
  // binding); the access chain's first index picks the root.
  uint32_t descriptor_variable = 0;
  // An element of such an array picked per lane: the register holding the
  // element; root is then a kDescriptorArray root (buffers) or an ImageRoot
  // at kDynamicElement (images).
  uint32_t descriptor_index = kNoRegister;
  // PhysicalStorageBuffer: the first of two registers holding the 64-bit
  // address (low word first) that static_offset is relative to; root is unused.
  uint32_t address_register = kNoRegister;
  // OpImageTexelPointer: a texel of image root (Program::images; elements
  // per lane in descriptor_index) at the four registers from here: x, y,
  // z or layer, sample; texel_coordinate_count of x, y, z are the image's.
  uint32_t texel_coordinates = kNoRegister;
  uint32_t texel_coordinate_count = 0;
};

struct CompiledValue {
  enum class Kind : uint8_t { kNone, kRegisters, kPointer, kImage } kind = Kind::kNone;
  uint32_t reg = 0;    // first register
  uint32_t count = 0;  // scalar registers
  uint32_t type = 0;
  PointerValue pointer;
  uint32_t image = UINT32_MAX, sampler = UINT32_MAX;  // kImage: Program::images indices
  // kImage from arrays indexed per lane: the registers holding the elements.
  uint32_t image_index = kNoRegister, sampler_index = kNoRegister;
};

// A pointer held as a 64-bit address where it is a value: buffer device
// addresses, and storage buffer and workgroup pointers that selects, phis
// and variables hold (variable pointers).
inline bool IsAddressPointer(const SpirvType& t) {
  return t.kind == spv::Op::OpTypePointer &&
         (t.storage == spv::StorageClass::PhysicalStorageBuffer || t.storage == spv::StorageClass::StorageBuffer ||
          t.storage == spv::StorageClass::Workgroup);
}

class Compiler {
 public:
  Compiler(const SpirvModule& module, Program* program) : module_(module), program_(*program) {}

  bool Compile(const SpirvEntryPoint& entry, std::string* error);

  // --- shared helpers (compiler.cpp) ---
  // Registers per lane a program may have (a wave's registers are 256 bytes each).
  static constexpr uint32_t kMaxRegisters = 1u << 18;
  uint32_t NewRegisters(uint32_t count);
  uint32_t ConstantRegister(uint32_t value);  // a register holding `value` in every lane
  const CompiledValue& Value(uint32_t id);
  CompiledValue& Define(uint32_t id, uint32_t type, uint32_t count);  // registers for a result
  uint32_t ScalarCount(uint32_t type) const;
  // Where a pointer value points: a kPointer value, or a PhysicalStorageBuffer
  // pointer held in registers (loaded, phi, bitcast...). Fails otherwise.
  PointerValue PointerOf(uint32_t id);
  // The first of two registers holding pointer `id` as a 64-bit address
  // (variable pointers into storage buffers), emitting what computes it.
  uint32_t PointerRegisters(uint32_t id);
  // The index of a memory root or image root equal to `root`, added when new.
  uint32_t MemoryRootIndex(const MemoryRoot& root);
  uint32_t ImageRootIndex(const ImageRoot& root);
  void Emit(Op op, uint32_t dst = 0, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0, uint16_t aux = 0,
            uint32_t ext = 0);
  bool Fail(const std::string& message);
  // Grows *size by `bytes` rounded up to `align`; fails the compilation
  // (false) when that passes `limit` ("the shader's <what> need more...").
  bool Reserve(uint32_t* size, uint64_t bytes, uint32_t align, uint32_t limit, const char* what);
  const SpirvModule& module() const { return module_; }
  Program& program() { return program_; }

  // --- topics ---
  bool CompileMemoryInstruction(const SpirvInstruction& inst, bool* handled);  // compile_memory.cpp
  bool CompileAluInstruction(const SpirvInstruction& inst, bool* handled);     // compile_alu.cpp
  bool CompileWideInstruction(const SpirvInstruction& inst, bool* handled);    // compile_alu.cpp
  bool IsWide(uint32_t type) const;  // a 64-bit scalar or vector of them
  bool IsWideInteger(uint32_t type) const;  // a 64-bit integer scalar or vector
  bool CompileInt64Instruction(const SpirvInstruction& inst);                  // compile_wide.cpp
  void EmitConstantShift(WideOp op, uint32_t shift, uint32_t dst, uint32_t src);  // compile_wide.cpp
  // The type of a compiled value or a constant (0: neither, e.g. a literal).
  uint32_t TypeOfId(uint32_t id) const;
  // 64-bit floats (compile_double.cpp).
  bool IsDouble(uint32_t type) const;  // a 64-bit float scalar, vector or matrix
  bool CompileDoubleInstruction(const SpirvInstruction& inst, bool* handled);
  bool CompileDoubleMatrixInstruction(const SpirvInstruction& inst);
  bool CompileDoubleGlslInstruction(const SpirvInstruction& inst);
  uint32_t EmitDouble(DoubleOp op, uint32_t a, uint32_t b = kNoOperand, uint32_t c = kNoOperand, uint32_t ext = 0);
  void EmitDoubleInto(uint32_t dst, DoubleOp op, uint32_t a, uint32_t b = kNoOperand, uint32_t c = kNoOperand,
                      uint32_t ext = 0);
  uint32_t EmitDoubleDot(uint32_t a, uint32_t b, uint32_t n);
  void MovePair(uint32_t dst, uint32_t src);
  uint32_t ConstantDouble(double value);
  // 8- and 16-bit values (compile_narrow.cpp): what a register of a type holds.
  enum class Narrow : uint8_t { kNone, kInt8, kInt16, kHalf };
  Narrow NarrowOf(uint32_t type) const;  // of a scalar or vector type
  // Per register of any type; `is_signed` (if given) says which are signed.
  void NarrowRegisters(uint32_t type, std::vector<Narrow>* out, std::vector<bool>* is_signed = nullptr) const;
  void CanonicalizeInterfaceLoad(uint32_t type, uint32_t first);
  uint32_t InterfaceStoreValue(uint32_t type, uint32_t first);  // `first` or sign-extended copies
  void EmitCanonical(Narrow narrow, uint32_t reg);  // masks or rounds reg in place
  void EmitSignExtend(Narrow narrow, uint32_t dst, uint32_t src);
  bool CompileNarrowInstruction(const SpirvInstruction& inst, bool* handled);
  bool CompileNarrowBitcast(const SpirvInstruction& inst);
  bool CompileMatrixInstruction(const SpirvInstruction& inst);                 // compile_alu.cpp
  bool CompileIntegerDot(const SpirvInstruction& inst);                        // compile_alu.cpp
  bool CompileGlslInstruction(const SpirvInstruction& inst);                   // compile_glsl.cpp
  bool CompileImageInstruction(const SpirvInstruction& inst, bool* handled);   // compile_image.cpp
  bool CompileGroupInstruction(const SpirvInstruction& inst, bool* handled);   // compile_group.cpp
  bool CompileNonSemantic(const SpirvInstruction& inst, bool* handled);        // compile_debug_printf.cpp
  // Float controls (compile_float_mode.cpp): the bit width of a float (or
  // vector or matrix of them) type, 0 for others; the MXCSR `inst` runs
  // under (0: the default).
  uint32_t FloatWidthOf(uint32_t type) const;
  uint32_t FloatModeOf(const SpirvInstruction& inst) const;
  // After each step of a half dot or matrix product under RoundingModeRTZ:
  // every product and sum rounds toward zero, as separate instructions would.
  void EmitHalfStepRounding(uint32_t reg);
  // DenormFlushToZero of a result that bit operations or libm computed
  // (FAbs, FMin...), which MXCSR does not flush, and of halves, which are
  // normal floats to it: their results, and copies of their operands that
  // stand in for them while `inst` compiles (FlushHalfOperands returns the
  // values to put back).
  void EmitFlushDenormal(uint32_t width, uint32_t reg);
  void EmitFlushDenormals(const SpirvInstruction& inst);
  std::vector<std::pair<uint32_t, CompiledValue>> FlushHalfOperands(const SpirvInstruction& inst);
  // Subgroup built-ins that depend on the lane only: computed at the entry
  // block's start rather than filled by the stage (compile_group.cpp).
  bool DeclareLaneBuiltin(uint32_t builtin, uint32_t reg);
  void EmitLaneBuiltins();
  // Before an image instruction on `image`: the kImageArray that picks its
  // elements per lane, when it comes from arrays indexed per lane.
  void EmitImageArray(const CompiledValue& image, bool sampling);             // compile_image.cpp
  bool DeclareGlobals(const SpirvEntryPoint& entry);                           // compile_memory.cpp
  // Stores the initializers of module-scope variables (at the entry block's start).
  bool EmitGlobalInitializers();                                               // compile_memory.cpp
  // Loads what `p` points to (as `type`) into registers from `first`, or
  // stores registers from `first` there (compile_memory.cpp).
  bool LoadThrough(const PointerValue& p, uint32_t type, uint32_t first);
  struct Access {
    Op op;             // kLoad/kStore/kAtomic or its *Indexed / *Address form
    uint32_t address;  // its `a` register: the offset, or the first address register
  };
  Access AccessThrough(const PointerValue& p, Op plain);
  bool StoreThrough(const PointerValue& p, uint32_t first);
  bool DeclareInterface(uint32_t type, uint32_t reg, bool input, const Decorations* d);
  // Tessellation stages: whether an input or output lives in patch memory
  // (RootKind::kPatch), and its declaration there (compile_memory.cpp).
  bool InPatchMemory(bool input, const Decorations* d) const;
  bool DeclarePatchVariable(PointerValue& p, bool input, const Decorations* d);
  // What transform feedback captures of an output variable (compile_memory.cpp).
  void DeclareXfbOutputs(uint32_t type, uint32_t reg, const Decorations* d);
  uint32_t LocationCount(uint32_t type) const;
  void RecordComputeBuiltin(uint32_t builtin, uint32_t reg);

 private:
  bool CompileConstant(uint32_t id);
  bool EvaluateCompositeSpecConstantOp(const SpirvInstruction& k, const std::function<bool(uint32_t)>& flatten,
                                       std::vector<uint32_t>* scalars);
  bool CompileBlock(const SpirvBlock& block);
  bool CompileTerminator(const SpirvBlock& block, const SpirvInstruction& inst);
  void EmitPhiMoves(uint32_t from_label, uint32_t to_label, uint16_t edge);
  bool OrderBlocks(const SpirvFunction& function);
  void FindDataUses(const SpirvFunction& function);
  bool CompileAccessChain(const SpirvInstruction& inst);  // compile_memory.cpp
  bool SelectDescriptor(PointerValue& p, uint32_t index_id);
  // A dynamic index into registers of `element_registers` each (compile_memory.cpp).
  void AddRegisterIndex(PointerValue& p, uint32_t index_id, uint32_t element_registers);
  std::vector<std::pair<uint32_t, uint32_t>> RegisterCandidates(const PointerValue& p, uint32_t j,
                                                                std::unordered_map<uint32_t, uint32_t>* conds);
  void AddScaledIndex(PointerValue& p, uint32_t index_id, uint32_t stride);

  const SpirvModule& module_;
  Program& program_;
  uint32_t flush_widths_ = 0, toward_zero_widths_ = 0;  // the entry point's (SpirvEntryPoint)
  // OpSelect between arrays of storage buffers: result id -> condition, the
  // two pointers; access chains into one are compiled on both and selected.
  struct DescriptorSelect {
    uint32_t condition, if_true, if_false;
  };
  std::unordered_map<uint32_t, DescriptorSelect> descriptor_selects_;
  uint32_t next_internal_id_ = 0;  // ids past the module's bound, for those access chains
  std::unordered_map<uint32_t, CompiledValue> values_;
  std::unordered_map<uint32_t, uint32_t> constant_registers_;  // value -> register
  std::unordered_map<uint32_t, uint32_t> block_index_;          // label -> structured position
  std::vector<const SpirvBlock*> order_;
  // Ids used other than as the pointer operand of a memory instruction: a
  // PhysicalStorageBuffer access chain among them gets its address computed
  // in registers, the others fold their constant offsets into the accesses.
  std::unordered_set<uint32_t> data_uses_;
  std::vector<uint32_t> global_initializers_;  // module-scope variables with an initializer
  std::vector<std::pair<uint32_t, uint32_t>> lane_builtins_;  // (BuiltIn, register): DeclareLaneBuiltin
  std::string error_;
  bool too_many_registers_ = false;  // NewRegisters went past kMaxRegisters
  bool compiling_narrow_ = false;    // CompileNarrowInstruction runs an instruction's 32-bit form
};

// A constant's literal word in the canonical register form of `narrow`
// (compile_narrow.cpp): SPIR-V gives 16-bit floats as their bits, and
// signed narrow integers sign-extended.
uint32_t CanonicalNarrow(Compiler::Narrow narrow, uint32_t word);

// Operands an opcode reads as signed integers: bit i for operand i (after
// the result type and id), which compile_narrow sign-extends.
uint32_t SignedOperandsOf(spv::Op op);

}  // namespace duet::spirv_exec

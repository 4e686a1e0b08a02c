// The compiled form of a shader stage: scalar instructions over waves.
//
// Every SPIR-V value is split into 32-bit scalar registers (a vec4 is four
// registers, a mat4 sixteen). A register holds one value per lane of the
// wave (struct of arrays), so each instruction is one tight loop over
// kWaveWidth lanes that the compiler vectorizes.
//
// Control flow uses a lane mask per block, taken from SPIR-V's structured
// control flow. Blocks are laid out in structured order (a loop's blocks
// after its header and before its merge block). A block starts with
// kBlockBegin, which takes the lanes that branched to it and skips the
// block when none did. Branches add the active lanes to their targets'
// masks; a back edge jumps to the loop header while any lane goes around
// again, and lanes leaving a loop wait in its merge block's mask until the
// loop is done. A branch on which all lanes agree costs the same as a jump.
// Phis become masked moves on each incoming edge.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace duet::spirv_exec {

// Lanes per wave: the interpreter's loops are this many lanes long, so its
// per-instruction cost is shared by this many invocations (fragment waves
// hold kWaveWidth / 4 quads). A subgroup is the whole wave unless a pipeline
// asks for a smaller one (VK_EXT_subgroup_size_control): then it is each
// aligned run of Program::subgroup_size lanes.
inline constexpr uint32_t kWaveWidth = 64;
inline constexpr uint32_t kMinSubgroupSize = 8;
using LaneMask = uint64_t;  // bit l: lane l
inline constexpr LaneMask kAllLanes = ~LaneMask{0};

enum class Op : uint16_t {
  // Data movement.
  kMove,          // dst = a
  kEdgeMove,      // dst = a in the lanes of the last branch's edge `aux` (0: true/only, 1: false)
  kSelect,        // dst = a ? b : c

  // 32-bit integer arithmetic and bits.
  kIAdd, kISub, kIMul, kSDiv, kUDiv, kSRem, kSMod, kUMod, kSNegate,
  kShiftLeft, kShiftRightLogical, kShiftRightArithmetic,
  kBitAnd, kBitOr, kBitXor, kBitNot, kBitReverse, kBitCount,
  kBitFieldInsert,   // dst = insert(a, b, offset = register c, count = register ext)
  kBitFieldSExtract, kBitFieldUExtract,  // dst = extract(a, offset b, count c); count 0 gives 0
  kIMulHighU, kIMulHighS,  // high 32 bits of the 64-bit product
  kIAddCarry, kISubBorrow,  // dst = carry/borrow out of a op b
  kXorShiftLeft, kXorShiftRight,  // dst = a ^ (a << b), a ^ (a >> b) (logical): fused by ir_prepare
  // dst = (a >> c) | (b << (32 - c)) for c in 1..31: a word of a 64-bit
  // value (b:a) shifted by a constant (compile_wide.cpp).
  kFunnelShiftRight,
  kIMulAdd,  // dst = a * b + c (low 32 bits): fused by ir_prepare
  // Integer hash steps, fused by ir_prepare: dst = (a * b) ^ c and
  // dst = (a ^ (a >> b)) * c (low 32 bits, a logical shift).
  kIMulXor, kXorShiftRightMul,
  kXorFunnelShiftRight,  // dst = a ^ FunnelShiftRight(a, b, c): fused by ir_prepare

  // 32-bit float arithmetic.
  kFAdd, kFSub, kFMul, kFDiv, kFRem, kFMod, kFNegate,
  kFMulAdd,  // dst = a * b + c rounded twice, as an FMul then an FAdd (fused by ir_prepare)

  // Comparisons: dst = 1 or 0.
  kIEqual, kINotEqual, kSLess, kSLessEqual, kSGreater, kSGreaterEqual,
  kULess, kULessEqual, kUGreater, kUGreaterEqual,
  kFOrdEqual, kFOrdNotEqual, kFOrdLess, kFOrdLessEqual, kFOrdGreater, kFOrdGreaterEqual,
  kFUnordEqual, kFUnordNotEqual, kFUnordLess, kFUnordLessEqual, kFUnordGreater, kFUnordGreaterEqual,
  kIsNan, kIsInf,
  kLogicalNot,  // dst = a == 0

  // Conversions.
  kConvertFToS, kConvertFToU, kConvertSToF, kConvertUToF,

  // GLSL.std.450 and friends, one scalar at a time (aux: the GLSL opcode for
  // the generic unary/binary/ternary forms).
  kGlslUnary,    // dst = f(a)
  kGlslBinary,   // dst = f(a, b)
  kGlslTernary,  // dst = f(a, b, c)

  // Memory. `aux` names a memory root (Program::roots); `a` is the per-lane
  // byte offset register, `b` a constant byte offset added to it.
  kLoad,    // dst = 32-bit load; out-of-range reads give 0 (robust buffer access)
  kStore,   // store register c; out-of-range writes are dropped
  kAtomic,  // dst = old value; operand in register c (compare-exchange: comparator in c+1); SPIR-V opcode in ext
            // (with kAtomicWide: 64-bit, dst and the operands pairs: c, c+1 value, c+2, c+3 comparator)
  kArrayLength,  // dst = (root range - a) / b: elements of a runtime array at byte offset a, stride b

  // Control flow.
  kBlockBegin,   // a = block index: active = mask[a]; mask[a] = 0; skip to block a+1 when empty
  kBranch,       // mask[a] |= active
  kBranchCond,   // cond register a: mask[b] |= lanes true, mask[c] |= lanes false (edges 0 and 1)
  kSwitch,       // selector a, table Program::switches[b]
  kLoopBack,     // a = header block: jump to it while mask[a] has lanes
  kReturn,       // active lanes finish
  kKill,         // active lanes finish and are marked killed (fragment discard)
  kBarrier,      // workgroup barrier: the wave yields until the workgroup arrives

  // Images. aux = index into Program::images; coordinates in consecutive
  // registers from a (b of them: x, y, z-or-layer); 4 result/value registers.
  kImageRead,        // dst = texel at integer coordinates (storage images, texel buffers, fetches, input
                     // attachments); c = lod register or kNoOperand; ext = sample register or kNoOperand
  kImageWrite,       // store the 4 registers from c; ext = sample register or kNoOperand
  kImageQuerySize,   // dst.. = size (b components) at lod register a (kNone: 0)
  kImageQueryLevels, // dst = mip levels of the view
  kImageQuerySamples,  // dst = samples of the image
  kImageSample,      // dst = filtered sample; a = coordinates, b = SampleOperands index, aux = Program::sampled_images index,
                     // c = results nobody reads (bit k: dst + k; ir_prepare), which sampling may skip

  // Fragment quads: lanes 4q..4q+3 are pixels (0,0) (1,0) (0,1) (1,1) of quad q.
  kDerivX,       // dst = d(a)/dx; aux 1: fine (per row), 0: coarse (the quad's top row)
  kDerivY,       // dst = d(a)/dy; aux 1: fine (per column), 0: coarse

  // --- appended after the first release of the IR; order is not meaningful ---
  kQuantizeToF16,   // dst = a rounded to half precision (too large: +-Inf; half denormals flush to 0)
  kIAddSatS, kIAddSatU,  // dst = a + b saturated (the *DotAccSat accumulation)
  kFrexpExponent,   // dst = exponent of frexp(a) (the significand is kGlslUnary Frexp)
  kGlslPack,        // dst = GLSL pack `aux` of the b registers from a
  kGlslUnpack,      // dst.. = GLSL unpack `aux` of a (2 or 4 registers)
  kDeterminant,     // dst = determinant of the b x b column-major matrix in registers from a
  kMatrixInverse,   // dst.. (b*b registers) = inverse of that matrix
  kDemote,          // active lanes become helpers: they go on running, their outputs and stores are dropped
  kIsHelper,        // dst = 1 in helper lanes (WaveState::helpers, or demoted)
  kElect,           // dst = 1 in the lowest active lane of the wave (subgroup = wave)

  // Dynamically indexed arrays of buffer descriptors: `aux` is a
  // kDescriptorArray root, the element comes per lane from a register; an
  // element past the array (or unbound) reads 0 and drops writes.
  kLoadIndexed,         // dst = 32-bit load at offset register a + b of element register ext
  kStoreIndexed,        // store register c at a + b of element register ext
  kAtomicIndexed,       // as kAtomic; the element register is c + 2 (kAtomicWide: c + 4)
  kArrayLengthIndexed,  // as kArrayLength (offset a, stride b) of element register c
  // Buffer device addresses (PhysicalStorageBuffer): a 64-bit address is two
  // registers, low word first. Offsets added to it are signed. Addresses
  // outside every live memory allocation read 0 and drop writes.
  kAddressAdd,    // dst.. = address a.. + register b (kNoOperand: 0) + constant c
  kLoadAddress,   // dst = 32-bit load at address a.. + b
  kStoreAddress,  // store register c at address a.. + b
  kAtomicAddress, // as kAtomic at address a.. + b
  // Dynamically indexed arrays of images, samplers and texel buffers: runs
  // the next instruction (an image op) once per distinct element among the
  // active lanes. aux = kImageArray root; a = image element register, b =
  // sampler element register (kNoOperand: the use's constant element).
  kImageArray,
  // An atomic on a texel of a storage image or storage texel buffer
  // (OpImageTexelPointer): aux = Program::images index, a = 4 registers
  // (x, y, z or layer, sample), b = how many of x, y, z the image has;
  // operand in register c (compare-exchange: comparator in c+1); SPIR-V
  // opcode in ext. Outside the image: no effect, result 0.
  kImageAtomic,
  // A subgroup (= wave) operation (interpreter_group.cpp): aux = GroupKind.
  // Lanes of the wave read each other's registers; helper lanes take part
  // in quad operations only.
  kGroup,
  // OpReadClockKHR: dst, dst + 1 = low and high words of a nanosecond
  // counter (steady clock), the same for the subgroup and device scopes.
  kReadClock,
  // 64-bit integer arithmetic beyond what expands into 32-bit ops
  // (interpreter_wide.cpp): aux = WideOp. A 64-bit value is two registers,
  // low word first; see WideOp for each one's operands.
  kWide,
  // 64-bit float arithmetic (interpreter_double.cpp): aux = DoubleOp. A
  // double is two registers, low word first; DoubleShapeOf gives each
  // operation's operands.
  kDouble,
  // 16-bit floats live in registers as the 32-bit floats of the same value
  // (compile_narrow.cpp); these convert at the edges.
  kHalfToFloat,   // dst = the float of the half bits in a's low 16 bits
  kFloatToHalf,   // dst = the half bits of float a, rounded to nearest even (too large: +-Inf)
  kRoundToF16,    // dst = float a rounded to the nearest half value (denormals kept, too large: +-Inf)
  kRoundToF16TowardZero,  // dst = float a rounded toward zero to a half value (too large: +-65504)
  // dst = RoundToF16(a op b): a 16-bit float operation and the rounding of
  // its result, fused by ir_prepare.
  kFAddToF16, kFSubToF16, kFMulToF16, kFDivToF16,
  kFmaToF16,  // dst = RoundToF16(fma(a, b, c)) (GLSL.std.450 Fma, then the rounding)
  // 8- and 16-bit loads and stores in buffers and push constants (explicit
  // layouts; elsewhere narrow scalars take 32 bits). `c` of a load, `dst`
  // of a store (which writes no register) holds NarrowAccess: the bytes (1
  // or 2) and how the address is formed, as by kLoad (a, b, aux),
  // kLoadIndexed (+ element register ext) or kLoadAddress (a pair, b). A
  // load zero-extends; a store writes the low bytes of register c.
  kLoadNarrow,
  kStoreNarrow,
  // Geometry shaders (OpEmit*Vertex, OpEnd*Primitive): the wave yields
  // (WaveStatus::kEmit) so the stage can take the active lanes' outputs as
  // a vertex (ext 0) or end their strips (ext 1); aux = the stream.
  kEmit,
  // Variable pointers into storage buffers and workgroup memory: dst, dst + 1
  // = the address (as buffer device addresses are) of byte `b` + register a
  // (kNoOperand: 0) of memory root `aux`; of a kDescriptorArray root, of the
  // element in register c (0 outside the array or the element's range).
  kRootAddress,
  // Float controls (DenormFlushToZero, RoundingModeRTZ): the float
  // environment (MXCSR) of the instructions up to the next kFloatMode.
  // c != 0: save the current one and set c; c == 0: restore the saved one.
  kFloatMode,
  // debugPrintfEXT (NonSemantic.DebugPrintf): each active invocation logs
  // Program::prints[aux] formatted with its values (debug_printf.cpp).
  kPrint,
};

// One debugPrintfEXT: its format and, per argument, its registers.
struct PrintArgument {
  enum class Kind : uint8_t { kUint, kInt, kFloat, kDouble, kUint64, kInt64, kBool };
  uint32_t reg = 0;
  uint32_t components = 1;  // a vector's (64-bit components take two registers each)
  Kind kind = Kind::kUint;
};
struct PrintCall {
  std::string format;
  std::vector<PrintArgument> arguments;
};

// The MXCSR of a kFloatMode: all exceptions masked, plus these.
inline constexpr uint32_t kMxcsrDefault = 0x1F80;
inline constexpr uint32_t kMxcsrDenormalsAreZero = 0x0040;  // denormal operands read as zero
inline constexpr uint32_t kMxcsrFlushToZero = 0x8000;       // denormal results become zero
inline constexpr uint32_t kMxcsrRoundTowardZero = 0x6000;

// The addressing of a kLoadNarrow / kStoreNarrow.
enum class NarrowAddressing : uint8_t { kRoot, kIndexed, kAddress };
inline uint32_t NarrowAccess(uint32_t bytes, NarrowAddressing addressing) { return bytes | uint32_t(addressing) << 8; }
inline uint32_t NarrowAccessBytes(uint32_t access) { return access & 0xFF; }
inline NarrowAddressing NarrowAccessAddressing(uint32_t access) { return NarrowAddressing(access >> 8); }

// The kWide operations. Unless said otherwise a and b are 64-bit pairs and
// dst is a pair.
enum class WideOp : uint16_t {
  kUDiv, kSDiv, kUMod, kSRem, kSMod,  // division by zero gives 0 (the result is undefined)
  kMulHighU, kMulHighS,  // the high 64 bits of the 128-bit product
  kShiftLeft, kShiftRightLogical, kShiftRightArithmetic,  // b: one register, the shift (mod 64)
  kSMin, kSMax, kUMin, kUMax,
  kSAbs, kSSign, kBitReverse,  // of a
  kBitFieldUExtract, kBitFieldSExtract,  // of a; b: offset register, c: count register
  kBitFieldInsert,  // a base, b insert; c: offset register, ext: count register
  // dst: one register.
  kSLess, kSLessEqual, kSGreater, kSGreaterEqual, kULess, kULessEqual, kUGreater, kUGreaterEqual,
  kBitCount, kFindLsb, kFindUMsb, kFindSMsb,  // of a (-1: none)
  kUToF, kSToF,  // a to a 32-bit float, rounded to nearest
  // a: one register (a 32-bit float), dst: a pair.
  kFToU, kFToS,
};

// The kDouble operations. Operands a, b, c and the result are register
// pairs (doubles, or 64-bit integers where named) or single registers, as
// DoubleShapeOf says. Conversions to narrower floats round to nearest
// even, or toward zero when ext is 1.
enum class DoubleOp : uint16_t {
  // pair, pair -> pair
  kAdd, kSub, kMul, kDiv, kRem, kMod, kMin, kMax, kNMin, kNMax, kStep,
  // pair, pair, pair -> pair
  kFma, kClamp, kNClamp, kMix, kSmoothStep,
  // pair -> pair
  kNegate, kAbs, kSign, kFloor, kCeil, kTrunc, kRound, kRoundEven, kFract, kSqrt, kInverseSqrt,
  kFrexpSignificand, kModfFraction,
  kFromInt64, kFromUint64,  // a: a 64-bit integer
  kToInt64, kToUint64,      // dst: a 64-bit integer (NaN: 0, out of range: saturated)
  // pair, one register (a 32-bit integer) -> pair
  kLdexp,
  // pair, pair -> one register (0 or 1)
  kOrdEqual, kOrdNotEqual, kOrdLess, kOrdLessEqual, kOrdGreater, kOrdGreaterEqual,
  kUnordEqual, kUnordNotEqual, kUnordLess, kUnordLessEqual, kUnordGreater, kUnordGreaterEqual,
  // pair -> one register
  kIsNan, kIsInf, kToFloat, kToHalf /* the float of the half */, kToInt32, kToUint32, kFrexpExponent,
  // one register -> pair
  kFromFloat, kFromInt32, kFromUint32,
  // a: ext x ext column-major pairs (ext = 2..4) -> one pair / ext x ext pairs
  kDeterminant, kMatrixInverse,
};

// Registers of a kDouble's result and of operands a, b, c (0: unused).
struct DoubleShape {
  uint32_t result, a, b, c;
};
constexpr DoubleShape DoubleShapeOf(DoubleOp op, uint32_t ext) {
  if (op <= DoubleOp::kStep) return {2, 2, 2, 0};
  if (op <= DoubleOp::kSmoothStep) return {2, 2, 2, 2};
  if (op <= DoubleOp::kToUint64) return {2, 2, 0, 0};
  if (op == DoubleOp::kLdexp) return {2, 2, 1, 0};
  if (op <= DoubleOp::kUnordGreaterEqual) return {1, 2, 2, 0};
  if (op <= DoubleOp::kFrexpExponent) return {1, 2, 0, 0};
  if (op <= DoubleOp::kFromUint32) return {2, 1, 0, 0};
  if (op == DoubleOp::kDeterminant) return {2, 2 * ext * ext, 0, 0};
  return {2 * ext * ext, 2 * ext * ext, 0, 0};  // kMatrixInverse
}

// The kGroup operations and their operands (registers unless said).
enum class GroupKind : uint16_t {
  // Built-ins that depend on the lane only, written to every lane.
  kLaneIndex,   // SubgroupLocalInvocationId
  kLaneMask,    // Subgroup{Eq,Ge,Gt,Le,Lt}Mask word c (constant 0..3); ext = LaneMaskRelation
  // Vote.
  kAll, kAny, kAllEqual,  // of a
  // Ballot. A ballot value is a uvec4 in registers a..a+3; waves have 64
  // lanes, so only a and a+1 hold bits.
  kBroadcast,        // a of the lane in register b (read in the first active lane)
  kBroadcastFirst,   // a of the first active lane
  kBallot,           // word c (constant) of the mask of active lanes where a != 0
  kInverseBallot,    // bit (lane) of ballot a
  kBallotBitExtract, // bit b of ballot a
  kBallotBitCount,   // bits of ballot a: c = GroupOperation (reduce, inclusive, exclusive)
  kBallotFindLsb, kBallotFindMsb,
  // Shuffles: a of another lane.
  kShuffle,      // lane b
  kShuffleXor,   // lane ^ b
  kShuffleUp,    // lane - b
  kShuffleDown,  // lane + b
  kQuadBroadcast,  // lane b of the quad
  kQuadSwap,       // c (constant): 0 horizontal, 1 vertical, 2 diagonal
  // Arithmetic over a: c = GroupOperation, ext = cluster size (clustered),
  // plus kGroupWide for 64-bit values (a and dst are pairs; the float
  // kinds then work on doubles).
  kIAdd, kFAdd, kIMul, kFMul, kSMin, kUMin, kFMin, kSMax, kUMax, kFMax,
  kBitAnd, kBitOr, kBitXor, kLogicalAnd, kLogicalOr, kLogicalXor,
};

inline constexpr uint32_t kGroupWide = 1u << 31;
// In a kAtomic*'s ext, beside the SPIR-V opcode: a 64-bit atomic, or one on
// a 16-bit float (whose registers hold it as the float of its value) that
// memory holds in 2 bytes (explicit layouts) or, as registers do, in 4.
inline constexpr uint32_t kAtomicWide = 1u << 31;
inline constexpr uint32_t kAtomicHalf = 1u << 30;
inline constexpr uint32_t kAtomicHalfInWord = 1u << 29;
inline constexpr uint32_t kAtomicFlags = kAtomicWide | kAtomicHalf | kAtomicHalfInWord;

enum class LaneMaskRelation : uint8_t { kEq, kGe, kGt, kLe, kLt };

// Registers of a kWide's result and first operand, and whether b is a
// second 64-bit operand.
inline uint32_t WideResultRegisters(WideOp op) { return op >= WideOp::kSLess && op <= WideOp::kSToF ? 1 : 2; }
inline uint32_t WideSourceRegisters(WideOp op) { return op == WideOp::kFToU || op == WideOp::kFToS ? 1 : 2; }
inline bool WideBinary(WideOp op) {
  return op <= WideOp::kMulHighS || (op >= WideOp::kSMin && op <= WideOp::kUMax) ||
         (op >= WideOp::kSLess && op <= WideOp::kUGreaterEqual);
}

// SPIR-V's GroupOperation values that kGroup takes.
enum class GroupOperation : uint8_t { kReduce = 0, kInclusiveScan = 1, kExclusiveScan = 2, kClusteredReduce = 3 };

// A short name for traces and dumps ("IAdd", "BlockBegin"...).
const char* OpName(Op op);
// Whether the op writes register dst (the trace prints it after the op).
bool OpWritesDst(Op op);

// dst, a, b, c are register indices unless the op says otherwise.
struct Inst {
  Op op;
  uint16_t aux = 0;
  uint32_t dst = 0, a = 0, b = 0, c = 0;
  uint32_t ext = 0;
};

// Registers of a kGroup's value operand and result: a pair for 64-bit arithmetic.
inline uint32_t GroupValueRegisters(const Inst& in) {
  return (in.ext & kGroupWide) != 0 && static_cast<GroupKind>(in.aux) >= GroupKind::kIAdd ? 2 : 1;
}

enum class RootKind : uint8_t {
  kDescriptorBuffer,  // uniform/storage buffer binding: set, binding, array element
  kPushConstants,
  kWorkgroup,         // shared memory of the workgroup
  kPrivate,           // per-lane memory (Function and Private storage)
  kDescriptorArray,   // every element of a buffer descriptor binding (set, binding): the k*Indexed ops
  kImageArray,        // Program::image_arrays[element]: kImageArray
  // A tessellation stage's patch memory (a control shader's outputs, an
  // evaluation shader's inputs): offset = the variable's start in a patch's
  // record; the stage gives the records of all patches as one root, and
  // each lane's accesses start at its patch's record
  // (Program::patch_base_register).
  kPatch,
};

struct MemoryRoot {
  RootKind kind;
  uint32_t set = 0, binding = 0, element = 0;  // kDescriptorBuffer, kDescriptorArray (no element), kImageArray (use)
  uint32_t offset = 0;                         // kWorkgroup / kPrivate: start in that memory
  bool operator==(const MemoryRoot&) const = default;
};

inline constexpr uint32_t kNoOperand = UINT32_MAX;

// A descriptor holding an image, sampler or texel buffer, by set, binding
// and array element.
struct ImageRoot {
  uint32_t set = 0, binding = 0, element = 0;
  bool operator==(const ImageRoot&) const = default;
};

// ImageRoot::element of an array indexed per lane (kImageArray).
inline constexpr uint32_t kDynamicElement = UINT32_MAX;

// What a kImageArray reaches: an image (or texel buffer) binding and, for
// sampling, a sampler binding; either indexed per lane (element
// kDynamicElement) or at a constant element. A combined image sampler
// indexed per lane has the same root and register for both.
struct ImageArrayUse {
  ImageRoot image;
  ImageRoot sampler;
  bool has_sampler = false;
  bool combined = false;  // the sampler is the image descriptor's own, at the same element
  bool operator==(const ImageArrayUse&) const = default;
};

// The operands of one kImageSample besides the coordinates (registers or kNoOperand).
struct SampleOperands {
  uint32_t coordinate_count = 2;   // including the array layer / cube face vector
  uint32_t lod = kNoOperand;       // explicit lod
  uint32_t bias = kNoOperand;
  uint32_t grad_x = kNoOperand, grad_y = kNoOperand;  // first registers of the derivatives
  uint32_t offset = kNoOperand;    // ConstOffset / Offset: first register
  uint32_t dref = kNoOperand;      // depth comparison reference
  uint32_t min_lod = kNoOperand;
  bool projective = false;         // divide coordinates by the last component
  bool gather = false;
  uint32_t gather_component = 0;
  bool has_const_offsets = false;  // ConstOffsets (gathers): texel k from const_offsets[k]
  int32_t const_offsets[4][2] = {};
  bool query_lod = false;          // OpImageQueryLod: dst = (lod, lambda)
};

struct SwitchTable {
  uint32_t default_block;
  std::vector<std::pair<uint32_t, uint32_t>> cases;  // literal, block
};

// Where built-in inputs live: each is a run of registers filled per wave.
struct BuiltinRegisters {
  uint32_t global_invocation_id = UINT32_MAX;  // 3 registers
  uint32_t local_invocation_id = UINT32_MAX;   // 3
  uint32_t workgroup_id = UINT32_MAX;          // 3
  uint32_t num_workgroups = UINT32_MAX;        // 3
  uint32_t local_invocation_index = UINT32_MAX;
  uint32_t subgroup_id = UINT32_MAX;
  uint32_t num_subgroups = UINT32_MAX;
};

enum class ShaderStage : uint8_t { kCompute, kVertex, kFragment, kGeometry, kTessControl, kTessEvaluation };

// A user-defined input or output at one location: `count` registers (one
// per component, starting at `component`) from `reg`.
struct InterfaceSlot {
  uint32_t location = 0;
  uint32_t component = 0;
  uint32_t reg = 0;
  uint32_t count = 0;
  uint32_t index = 0;  // fragment outputs: 1 for the second source colour of dual-source blending
  bool flat = false, noperspective = false, centroid = false, sample = false;
  bool integer = false;  // integer components (never interpolated)
  // Per-vertex inputs of a geometry or tessellation control shader (arrays
  // over the input primitive's or patch's vertices): registers from one
  // vertex to the next (`reg` is vertex 0's), and the array's length. 0 for
  // everything else.
  uint32_t vertex_stride = 0;
  uint32_t vertex_count = 0;
};

// A built-in input or output (SPIR-V BuiltIn value) held in `count` registers.
struct BuiltinSlot {
  uint32_t builtin = 0;
  uint32_t reg = 0;
  uint32_t count = 0;
  uint32_t vertex_stride = 0, vertex_count = 0;  // as InterfaceSlot's (gl_in[])
};

// An output transform feedback captures (Xfb execution mode): `count`
// registers from `reg`, written 4 bytes each from byte `offset` of a
// vertex's record in `buffer`, on vertex stream `stream`.
struct XfbOutput {
  uint32_t reg = 0, count = 0;
  uint32_t buffer = 0, offset = 0, stream = 0;
};

// What a geometry shader takes and makes (its execution modes).
struct GeometryModes {
  uint32_t input_vertices = 1;   // 1 points, 2 lines, 4 lines with adjacency, 3 triangles, 6 with adjacency
  uint32_t output_vertices = 0;  // OutputVertices: the most one invocation emits
  uint32_t invocations = 1;
  enum class Output : uint8_t { kPoints, kLineStrip, kTriangleStrip } output = Output::kPoints;
};

// What the tessellator makes of a patch: the execution modes of both
// tessellation shaders, merged (MergeTessellationModes).
struct TessellationModes {
  enum class Domain : uint8_t { kNone, kTriangles, kQuads, kIsolines } domain = Domain::kNone;
  enum class Spacing : uint8_t { kNone, kEqual, kFractionalEven, kFractionalOdd } spacing = Spacing::kNone;
  enum class Order : uint8_t { kNone, kCw, kCcw } order = Order::kNone;
  bool point_mode = false;
  uint32_t output_vertices = 0;  // a control shader's OutputVertices: the patch it makes
};

// Modes either tessellation shader gives (the other may leave them out):
// `a`'s, completed by `b`'s; an unset vertex order is counter-clockwise.
TessellationModes MergeTessellationModes(const TessellationModes& a, const TessellationModes& b);

// A piece of a tessellation stage's patch memory (RootKind::kPatch): the
// 4-byte scalars of one location's components, or of a built-in, of a
// variable a control shader writes or an evaluation shader reads. Per-vertex
// variables (arrays over the patch's vertices) have a field per element
// type, repeated `vertices` times `vertex_stride` bytes apart.
struct PatchField {
  uint32_t location = 0, component = 0;  // of a user-defined variable
  uint32_t builtin = UINT32_MAX;         // or of a built-in (SPIR-V BuiltIn)
  uint32_t count = 0;                    // scalars
  uint32_t offset = 0;                   // bytes into a patch's record (of vertex 0)
  uint32_t vertex_stride = 0;            // per-vertex fields: bytes between vertices; 0: per patch
  uint32_t vertices = 1;
};

// How the interpreter runs one instruction, prepared once per program
// (PrepareExecution, ir_prepare.h): a lane kernel (lane_kernels.h) over
// the registers at these word offsets (register index * kWaveWidth), or
// none: the interpreter's switch runs the instruction.
struct ExecStep {
  void (*kernel)(uint32_t* dst, const uint32_t* a, const uint32_t* b, const uint32_t* c, LaneMask active) = nullptr;
  uint32_t dst = 0, a = 0, b = 0, c = 0;
  // The instruction runs once for the wave (ir_prepare.cpp): a kLoad whose
  // result is uniform (one load, written to every lane), a kBranchCond or
  // kSwitch on a uniform register (read in lane 0).
  bool uniform = false;
};

// A fresh Program::serial.
uint64_t NewProgramSerial();

struct Program {
  uint64_t serial = 0;  // unique per compilation (copies share it): waves reuse registers across runs of one
  ShaderStage stage = ShaderStage::kCompute;
  uint32_t subgroup_size = kWaveWidth;  // a power of two from kMinSubgroupSize to kWaveWidth
  std::vector<InterfaceSlot> inputs, outputs;
  std::vector<BuiltinSlot> builtin_inputs, builtin_outputs;
  bool uses_derivatives = false;
  bool early_fragment_tests = false;
  bool post_depth_coverage = false;  // SampleMaskIn holds the samples that passed the early tests
  bool uses_kill = false;
  // Writes memory other than its own (storage buffers and images, through
  // addresses too, and atomics).
  bool writes_memory = false;

  // First register of a built-in, or UINT32_MAX when the stage does not use it.
  uint32_t BuiltinInput(uint32_t builtin) const {
    for (const BuiltinSlot& b : builtin_inputs)
      if (b.builtin == builtin) return b.reg;
    return UINT32_MAX;
  }
  uint32_t BuiltinOutput(uint32_t builtin) const {
    for (const BuiltinSlot& b : builtin_outputs)
      if (b.builtin == builtin) return b.reg;
    return UINT32_MAX;
  }

  std::vector<Inst> code;
  std::vector<ExecStep> steps;  // per instruction, and an empty one after the last (PrepareExecution)
  std::vector<uint32_t> block_start;  // per block: index of its kBlockBegin; one extra entry = end
  uint32_t register_count = 0;
  std::vector<std::pair<uint32_t, uint32_t>> constants;  // (register, value) set in every lane at wave start
  // Output registers every lane ends with the same value in (register,
  // value): written once, by a move of a constant, in the entry block
  // (PrepareExecution finds them, unless DUET_IR_PREPARE=plain).
  std::vector<std::pair<uint32_t, uint32_t>> constant_outputs;
  std::vector<MemoryRoot> roots;
  std::vector<ImageRoot> images;
  // (image, sampler) pairs that kImageSample reads, as indices into images
  // (the same index twice for a combined image sampler).
  std::vector<std::pair<uint32_t, uint32_t>> sampled_images;
  std::vector<SampleOperands> sample_operands;
  std::vector<SwitchTable> switches;
  std::vector<ImageArrayUse> image_arrays;  // kImageArray roots' uses
  BuiltinRegisters builtins;
  uint32_t workgroup_memory_size = 0;
  uint32_t private_memory_size = 0;  // per lane
  uint32_t local_size[3] = {1, 1, 1};
  bool uses_barrier = false;
  GeometryModes geometry;  // kGeometry
  // Tessellation shaders: their modes, and their patch memory (a control
  // shader's outputs, an evaluation shader's inputs): the fields, the bytes
  // of one patch's record, and the register the stage fills with each
  // lane's record's byte offset (UINT32_MAX: no patch memory).
  TessellationModes tessellation;
  std::vector<PatchField> patch_fields;
  uint32_t patch_record_size = 0;
  uint32_t patch_base_register = UINT32_MAX;
  // Transform feedback (vertex and geometry shaders in Xfb mode): the
  // captured outputs and each buffer's vertex stride (XfbStride).
  bool transform_feedback = false;
  std::vector<XfbOutput> xfb_outputs;
  std::vector<PrintCall> prints;  // kPrint's
  uint32_t xfb_strides[4] = {};
};

// The host memory a program's arrays hold (their capacity), nested ones too.
size_t ProgramHostBytes(const Program& program);

// Translates the entry point `entry` of prepared SPIR-V (see spirv_ingest.h)
// for `stage`, with subgroups of `subgroup_size` lanes, into a Program;
// CompileStage also prepares it to run (PrepareExecution). On failure
// both return false with a message.
bool TranslateStage(const std::vector<uint32_t>& words, const char* entry, ShaderStage stage, Program* program,
                    std::string* error, uint32_t subgroup_size = kWaveWidth);
bool CompileStage(const std::vector<uint32_t>& words, const char* entry, ShaderStage stage, Program* program,
                  std::string* error, uint32_t subgroup_size = kWaveWidth);

}  // namespace duet::spirv_exec

// Names of the IR ops, for DUET_TRACE_INVOCATION and debugging.
#include "spirv_exec/ir.h"

namespace duet::spirv_exec {

const char* OpName(Op op) {
  switch (op) {
    case Op::kMove: return "Move";
    case Op::kEdgeMove: return "EdgeMove";
    case Op::kSelect: return "Select";
    case Op::kIAdd: return "IAdd";
    case Op::kISub: return "ISub";
    case Op::kIMul: return "IMul";
    case Op::kSDiv: return "SDiv";
    case Op::kUDiv: return "UDiv";
    case Op::kSRem: return "SRem";
    case Op::kSMod: return "SMod";
    case Op::kUMod: return "UMod";
    case Op::kSNegate: return "SNegate";
    case Op::kShiftLeft: return "ShiftLeft";
    case Op::kShiftRightLogical: return "ShiftRightLogical";
    case Op::kShiftRightArithmetic: return "ShiftRightArithmetic";
    case Op::kBitAnd: return "BitAnd";
    case Op::kBitOr: return "BitOr";
    case Op::kBitXor: return "BitXor";
    case Op::kXorShiftLeft: return "XorShiftLeft";
    case Op::kXorShiftRight: return "XorShiftRight";
    case Op::kFunnelShiftRight: return "FunnelShiftRight";
    case Op::kIMulAdd: return "IMulAdd";
    case Op::kIMulXor: return "IMulXor";
    case Op::kXorShiftRightMul: return "XorShiftRightMul";
    case Op::kXorFunnelShiftRight: return "XorFunnelShiftRight";
    case Op::kBitNot: return "BitNot";
    case Op::kBitReverse: return "BitReverse";
    case Op::kBitCount: return "BitCount";
    case Op::kBitFieldInsert: return "BitFieldInsert";
    case Op::kBitFieldSExtract: return "BitFieldSExtract";
    case Op::kBitFieldUExtract: return "BitFieldUExtract";
    case Op::kIMulHighU: return "IMulHighU";
    case Op::kIMulHighS: return "IMulHighS";
    case Op::kIAddCarry: return "IAddCarry";
    case Op::kISubBorrow: return "ISubBorrow";
    case Op::kFAdd: return "FAdd";
    case Op::kFSub: return "FSub";
    case Op::kFMul: return "FMul";
    case Op::kFMulAdd: return "FMulAdd";
    case Op::kFDiv: return "FDiv";
    case Op::kFRem: return "FRem";
    case Op::kFMod: return "FMod";
    case Op::kFNegate: return "FNegate";
    case Op::kIEqual: return "IEqual";
    case Op::kINotEqual: return "INotEqual";
    case Op::kSLess: return "SLess";
    case Op::kSLessEqual: return "SLessEqual";
    case Op::kSGreater: return "SGreater";
    case Op::kSGreaterEqual: return "SGreaterEqual";
    case Op::kULess: return "ULess";
    case Op::kULessEqual: return "ULessEqual";
    case Op::kUGreater: return "UGreater";
    case Op::kUGreaterEqual: return "UGreaterEqual";
    case Op::kFOrdEqual: return "FOrdEqual";
    case Op::kFOrdNotEqual: return "FOrdNotEqual";
    case Op::kFOrdLess: return "FOrdLess";
    case Op::kFOrdLessEqual: return "FOrdLessEqual";
    case Op::kFOrdGreater: return "FOrdGreater";
    case Op::kFOrdGreaterEqual: return "FOrdGreaterEqual";
    case Op::kFUnordEqual: return "FUnordEqual";
    case Op::kFUnordNotEqual: return "FUnordNotEqual";
    case Op::kFUnordLess: return "FUnordLess";
    case Op::kFUnordLessEqual: return "FUnordLessEqual";
    case Op::kFUnordGreater: return "FUnordGreater";
    case Op::kFUnordGreaterEqual: return "FUnordGreaterEqual";
    case Op::kIsNan: return "IsNan";
    case Op::kIsInf: return "IsInf";
    case Op::kLogicalNot: return "LogicalNot";
    case Op::kConvertFToS: return "ConvertFToS";
    case Op::kConvertFToU: return "ConvertFToU";
    case Op::kConvertSToF: return "ConvertSToF";
    case Op::kConvertUToF: return "ConvertUToF";
    case Op::kGlslUnary: return "GlslUnary";
    case Op::kGlslBinary: return "GlslBinary";
    case Op::kGlslTernary: return "GlslTernary";
    case Op::kLoad: return "Load";
    case Op::kStore: return "Store";
    case Op::kAtomic: return "Atomic";
    case Op::kArrayLength: return "ArrayLength";
    case Op::kBlockBegin: return "BlockBegin";
    case Op::kBranch: return "Branch";
    case Op::kBranchCond: return "BranchCond";
    case Op::kSwitch: return "Switch";
    case Op::kLoopBack: return "LoopBack";
    case Op::kReturn: return "Return";
    case Op::kKill: return "Kill";
    case Op::kBarrier: return "Barrier";
    case Op::kFloatMode: return "FloatMode";
    case Op::kPrint: return "Print";
    case Op::kEmit: return "Emit";
    case Op::kRootAddress: return "RootAddress";
    case Op::kImageRead: return "ImageRead";
    case Op::kImageWrite: return "ImageWrite";
    case Op::kImageQuerySize: return "ImageQuerySize";
    case Op::kImageQueryLevels: return "ImageQueryLevels";
    case Op::kImageQuerySamples: return "ImageQuerySamples";
    case Op::kImageSample: return "ImageSample";
    case Op::kDerivX: return "DerivX";
    case Op::kDerivY: return "DerivY";
    case Op::kQuantizeToF16: return "QuantizeToF16";
    case Op::kIAddSatS: return "IAddSatS";
    case Op::kIAddSatU: return "IAddSatU";
    case Op::kFrexpExponent: return "FrexpExponent";
    case Op::kGlslPack: return "GlslPack";
    case Op::kGlslUnpack: return "GlslUnpack";
    case Op::kDeterminant: return "Determinant";
    case Op::kMatrixInverse: return "MatrixInverse";
    case Op::kDemote: return "Demote";
    case Op::kIsHelper: return "IsHelper";
    case Op::kElect: return "Elect";
    case Op::kGroup: return "Group";
    case Op::kReadClock: return "ReadClock";
    case Op::kWide: return "Wide";
    case Op::kDouble: return "Double";
    case Op::kHalfToFloat: return "HalfToFloat";
    case Op::kFloatToHalf: return "FloatToHalf";
    case Op::kRoundToF16: return "RoundToF16";
    case Op::kRoundToF16TowardZero: return "RoundToF16TowardZero";
    case Op::kFAddToF16: return "FAddToF16";
    case Op::kFSubToF16: return "FSubToF16";
    case Op::kFMulToF16: return "FMulToF16";
    case Op::kFDivToF16: return "FDivToF16";
    case Op::kFmaToF16: return "FmaToF16";
    case Op::kLoadNarrow: return "LoadNarrow";
    case Op::kStoreNarrow: return "StoreNarrow";
    case Op::kLoadIndexed: return "LoadIndexed";
    case Op::kStoreIndexed: return "StoreIndexed";
    case Op::kAtomicIndexed: return "AtomicIndexed";
    case Op::kImageAtomic: return "ImageAtomic";
    case Op::kArrayLengthIndexed: return "ArrayLengthIndexed";
    case Op::kAddressAdd: return "AddressAdd";
    case Op::kLoadAddress: return "LoadAddress";
    case Op::kStoreAddress: return "StoreAddress";
    case Op::kAtomicAddress: return "AtomicAddress";
    case Op::kImageArray: return "ImageArray";
  }
  return "?";
}

bool OpWritesDst(Op op) {
  switch (op) {
    case Op::kStore:
    case Op::kStoreIndexed:
    case Op::kStoreAddress:
    case Op::kStoreNarrow:
    case Op::kImageArray:
    case Op::kBlockBegin:
    case Op::kBranch:
    case Op::kBranchCond:
    case Op::kSwitch:
    case Op::kLoopBack:
    case Op::kReturn:
    case Op::kKill:
    case Op::kBarrier:
    case Op::kEmit:
    case Op::kImageWrite:
    case Op::kDemote:
    case Op::kFloatMode:
    case Op::kPrint:
      return false;
    default:
      return true;
  }
}

}  // namespace duet::spirv_exec

// Image instructions: combining images and samplers, reads and writes at
// integer coordinates, size queries, and sampling with its image operands.
#include "spirv_exec/compiler.h"

namespace duet::spirv_exec {

using SpvOp = spv::Op;

namespace {

// Image operand bits (SPIR-V "Image Operands").
constexpr uint32_t kBias = 0x1, kLod = 0x2, kGrad = 0x4, kConstOffset = 0x8, kOffset = 0x10, kConstOffsets = 0x20,
                   kSample = 0x40, kMinLod = 0x80;

bool IsSample(SpvOp op) {
  switch (op) {
    case SpvOp::OpImageSampleImplicitLod:
    case SpvOp::OpImageSampleExplicitLod:
    case SpvOp::OpImageSampleDrefImplicitLod:
    case SpvOp::OpImageSampleDrefExplicitLod:
    case SpvOp::OpImageSampleProjImplicitLod:
    case SpvOp::OpImageSampleProjExplicitLod:
    case SpvOp::OpImageSampleProjDrefImplicitLod:
    case SpvOp::OpImageSampleProjDrefExplicitLod:
    case SpvOp::OpImageGather:
    case SpvOp::OpImageDrefGather:
    case SpvOp::OpImageQueryLod:
      return true;
    default:
      return false;
  }
}

// The register of a built-in input of the stage, declared when the shader
// does not declare it itself (the rasterizer fills every declared one).
uint32_t BuiltinInputRegister(Compiler& c, spv::BuiltIn builtin, uint32_t count) {
  Program& p = c.program();
  uint32_t reg = p.BuiltinInput(uint32_t(builtin));
  if (reg == UINT32_MAX) {
    reg = c.NewRegisters(count);
    p.builtin_inputs.push_back({uint32_t(builtin), reg, count});
  }
  return reg;
}

// An input attachment (Dim SubpassData) is read at the fragment's pixel
// plus the coordinate operand, in the layer of the view being rendered
// (layer 0 without multiview): three integer coordinates from the result.
uint32_t SubpassCoordinates(Compiler& c, uint32_t offset) {
  const uint32_t frag_coord = BuiltinInputRegister(c, spv::BuiltIn::FragCoord, 4);
  const uint32_t view_index = BuiltinInputRegister(c, spv::BuiltIn::ViewIndex, 1);
  const uint32_t at = c.NewRegisters(3);
  for (uint32_t i = 0; i < 2; ++i) {
    const uint32_t pixel = c.NewRegisters(1);
    c.Emit(Op::kConvertFToS, pixel, frag_coord + i);  // pixel centres: truncation gives the pixel
    c.Emit(Op::kIAdd, at + i, pixel, offset + i);
  }
  c.Emit(Op::kMove, at + 2, view_index);
  return at;
}

}  // namespace

void Compiler::EmitImageArray(const CompiledValue& image, bool sampling) {
  if (image.image_index == kNoRegister && (!sampling || image.sampler_index == kNoRegister)) return;
  ImageArrayUse use;
  use.image = program_.images[image.image];
  if (sampling) {
    use.has_sampler = true;
    use.sampler = program_.images[image.sampler];
    use.combined = image.image == image.sampler && image.image_index == image.sampler_index;
  }
  uint32_t index = 0;
  while (index < program_.image_arrays.size() && !(program_.image_arrays[index] == use)) ++index;
  if (index == program_.image_arrays.size()) program_.image_arrays.push_back(use);
  const uint32_t root = MemoryRootIndex({RootKind::kImageArray, 0, 0, index});
  const uint32_t sampler = sampling && !use.combined ? image.sampler_index : kNoRegister;
  Emit(Op::kImageArray, 0, image.image_index != kNoRegister ? image.image_index : kNoOperand,
       sampler != kNoRegister ? sampler : kNoOperand, 0, uint16_t(root));
}

bool Compiler::CompileImageInstruction(const SpirvInstruction& inst, bool* handled) {
  *handled = true;
  switch (inst.op) {
    case SpvOp::OpSampledImage: {
      CompiledValue& v = values_[inst[1]];
      v.kind = CompiledValue::Kind::kImage;
      v.type = inst[0];
      v.image = Value(inst[2]).image;
      v.image_index = Value(inst[2]).image_index;
      v.sampler = Value(inst[3]).sampler;
      v.sampler_index = Value(inst[3]).sampler_index;
      return true;
    }
    case SpvOp::OpImage: {
      CompiledValue& v = values_[inst[1]];
      v.kind = CompiledValue::Kind::kImage;
      v.type = inst[0];
      v.image = Value(inst[2]).image;
      v.image_index = Value(inst[2]).image_index;
      return true;
    }
    case SpvOp::OpImageRead:
    case SpvOp::OpImageFetch: {
      const CompiledValue& image = Value(inst[2]);
      const CompiledValue& coords = Value(inst[3]);
      uint32_t lod = kNoOperand, sample = kNoOperand;
      const CompiledValue* offset = nullptr;
      if (inst.word_count > 4) {
        const uint32_t mask = inst[4];
        uint32_t next = 5;
        if (mask & kLod) lod = Value(inst[next++]).reg;
        if (mask & (kConstOffset | kOffset)) offset = &Value(inst[next++]);  // texelFetchOffset
        if (mask & kSample) sample = Value(inst[next++]).reg;
        // Memory-model and sign-extension operands change nothing here.
        constexpr uint32_t kIgnored = 0x100 | 0x200 | 0x400 | 0x800 | 0x1000 | 0x2000 | 0x4000;
        if (mask & ~(kLod | kConstOffset | kOffset | kSample | kIgnored))
          return Fail("unsupported image operands on a read");
      }
      uint32_t coordinates = coords.reg, coordinate_count = coords.count;
      if (offset != nullptr) {
        // The offset moves the texel coordinates (not an array layer).
        const uint32_t moved = NewRegisters(coordinate_count);
        for (uint32_t c = 0; c < coordinate_count; ++c) {
          if (c < offset->count) Emit(Op::kIAdd, moved + c, coordinates + c, offset->reg + c);
          else Emit(Op::kMove, moved + c, coordinates + c);
        }
        coordinates = moved;
      }
      if (module_.Type(image.type).dim == spv::Dim::SubpassData) {
        if (program_.stage != ShaderStage::kFragment) return Fail("an input attachment read outside a fragment shader");
        coordinates = SubpassCoordinates(*this, coords.reg);
        coordinate_count = 3;
      }
      const uint32_t result = NewRegisters(4);
      EmitImageArray(image, false);
      Emit(Op::kImageRead, result, coordinates, coordinate_count, lod, uint16_t(image.image), sample);
      const CompiledValue& v = Define(inst[1], inst[0], ScalarCount(inst[0]));
      for (uint32_t c = 0; c < v.count; ++c) Emit(Op::kMove, v.reg + c, result + c);
      return true;
    }
    case SpvOp::OpImageWrite: {
      const CompiledValue& image = Value(inst[0]);
      const CompiledValue& coords = Value(inst[1]);
      const CompiledValue& texel = Value(inst[2]);
      uint32_t sample = kNoOperand;
      if (inst.word_count > 3) {
        const uint32_t mask = inst[3];
        if (mask & kSample) sample = Value(inst[4]).reg;  // the only operand before it is Lod, not allowed here
        constexpr uint32_t kIgnored = 0x100 | 0x200 | 0x400 | 0x800 | 0x1000 | 0x2000 | 0x4000;
        if (mask & ~(kSample | kIgnored)) return Fail("unsupported image operands on a write");
      }
      const uint32_t value = NewRegisters(4);
      for (uint32_t c = 0; c < 4; ++c) Emit(Op::kMove, value + c, c < texel.count ? texel.reg + c : ConstantRegister(0));
      EmitImageArray(image, false);
      Emit(Op::kImageWrite, 0, coords.reg, coords.count, value, uint16_t(image.image), sample);
      return true;
    }
    case SpvOp::OpImageTexelPointer: {
      // A pointer the atomics take: the image and four coordinate registers.
      PointerValue p = PointerOf(inst[2]);
      if (!error_.empty()) return false;
      if (!p.image || p.descriptor_variable != 0) return Fail("OpImageTexelPointer of something other than an image");
      const CompiledValue& coords = Value(inst[3]);
      const CompiledValue& sample = Value(inst[4]);
      if (coords.count > 3) return Fail("OpImageTexelPointer with more than 3 coordinates");
      p.texel_coordinates = NewRegisters(4);
      p.texel_coordinate_count = coords.count;
      for (uint32_t c = 0; c < 3; ++c)
        Emit(Op::kMove, p.texel_coordinates + c, c < coords.count ? coords.reg + c : ConstantRegister(0));
      Emit(Op::kMove, p.texel_coordinates + 3, sample.reg);
      p.pointee = module_.Type(inst[0]).element;
      CompiledValue& v = values_[inst[1]];
      v.kind = CompiledValue::Kind::kPointer;
      v.type = inst[0];
      v.pointer = p;
      return true;
    }
    case SpvOp::OpImageQuerySize:
    case SpvOp::OpImageQuerySizeLod: {
      const CompiledValue& image = Value(inst[2]);
      const uint32_t lod = inst.op == SpvOp::OpImageQuerySizeLod ? Value(inst[3]).reg : kNoOperand;
      const CompiledValue& v = Define(inst[1], inst[0], ScalarCount(inst[0]));
      EmitImageArray(image, false);
      Emit(Op::kImageQuerySize, v.reg, lod, v.count, 0, uint16_t(image.image));
      return true;
    }
    case SpvOp::OpImageQueryLevels:
    case SpvOp::OpImageQuerySamples: {
      const CompiledValue& image = Value(inst[2]);
      const CompiledValue& v = Define(inst[1], inst[0], 1);
      EmitImageArray(image, false);
      Emit(inst.op == SpvOp::OpImageQueryLevels ? Op::kImageQueryLevels : Op::kImageQuerySamples, v.reg, 0, 0, 0,
           uint16_t(image.image));
      return true;
    }
    default:
      break;
  }
  if (!IsSample(inst.op)) {
    *handled = false;
    return true;
  }

  const CompiledValue& image = Value(inst[2]);
  const CompiledValue& coords = Value(inst[3]);
  if (image.kind != CompiledValue::Kind::kImage) return Fail("sampling a value that is not a sampled image");
  SampleOperands ops;
  ops.coordinate_count = coords.count;
  uint32_t next = 4;
  const bool dref = inst.op == SpvOp::OpImageSampleDrefImplicitLod || inst.op == SpvOp::OpImageSampleDrefExplicitLod ||
                    inst.op == SpvOp::OpImageSampleProjDrefImplicitLod ||
                    inst.op == SpvOp::OpImageSampleProjDrefExplicitLod || inst.op == SpvOp::OpImageDrefGather;
  ops.projective = inst.op == SpvOp::OpImageSampleProjImplicitLod || inst.op == SpvOp::OpImageSampleProjExplicitLod ||
                   inst.op == SpvOp::OpImageSampleProjDrefImplicitLod ||
                   inst.op == SpvOp::OpImageSampleProjDrefExplicitLod;
  ops.gather = inst.op == SpvOp::OpImageGather || inst.op == SpvOp::OpImageDrefGather;
  ops.query_lod = inst.op == SpvOp::OpImageQueryLod;
  if (inst.op == SpvOp::OpImageGather) {
    uint32_t component = 0;
    module_.ScalarConstant(inst[next++], &component);
    ops.gather_component = component;
  }
  if (dref) ops.dref = Value(inst[next++]).reg;
  if (next < inst.word_count) {
    const uint32_t mask = inst[next++];
    if (mask & kBias) ops.bias = Value(inst[next++]).reg;
    if (mask & kLod) ops.lod = Value(inst[next++]).reg;
    if (mask & kGrad) {
      ops.grad_x = Value(inst[next++]).reg;
      ops.grad_y = Value(inst[next++]).reg;
    }
    if (mask & (kConstOffset | kOffset)) ops.offset = Value(inst[next++]).reg;
    if (mask & kConstOffsets) {
      // textureGatherOffsets: four constant ivec2 (a constant array).
      const auto it = module_.constants.find(inst[next++]);
      bool ok = ops.gather && it != module_.constants.end() && it->second.word_count == 2 + 4;
      for (uint32_t k = 0; ok && k < 4; ++k) {
        const auto element = module_.constants.find(it->second[2 + k]);
        ok = element != module_.constants.end() && element->second.word_count == 2 + 2;
        for (uint32_t c = 0; ok && c < 2; ++c) {
          uint32_t value = 0;
          ok = module_.ScalarConstant(element->second[2 + c], &value);
          ops.const_offsets[k][c] = int32_t(value);
        }
      }
      if (!ok) return Fail("ConstOffsets that are not four constant offsets of a gather");
      ops.has_const_offsets = true;
    }
    if (mask & kSample) next++;
    if (mask & kMinLod) ops.min_lod = Value(inst[next++]).reg;
  }
  const bool implicit = ops.lod == kNoOperand && ops.grad_x == kNoOperand;
  if (implicit) program_.uses_derivatives = true;
  const uint32_t result = NewRegisters(4);
  uint32_t pair = 0;  // with arrays indexed per lane, kImageArray passes the state
  if (image.image_index == kNoRegister && image.sampler_index == kNoRegister) {
    const std::pair<uint32_t, uint32_t> wanted{image.image, image.sampler};
    while (pair < program_.sampled_images.size() && program_.sampled_images[pair] != wanted) ++pair;
    if (pair == program_.sampled_images.size()) program_.sampled_images.push_back(wanted);
  }
  EmitImageArray(image, true);
  Emit(Op::kImageSample, result, coords.reg, uint32_t(program_.sample_operands.size()), 0, uint16_t(pair));
  program_.sample_operands.push_back(ops);
  const CompiledValue& v = Define(inst[1], inst[0], ScalarCount(inst[0]));
  for (uint32_t c = 0; c < v.count; ++c) Emit(Op::kMove, v.reg + c, result + c);
  return true;
}

}  // namespace duet::spirv_exec

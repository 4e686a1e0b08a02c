// Variables, access chains, loads, stores and atomics. A pointer is a memory
// root (a descriptor's buffer, push constants, workgroup or per-lane
// memory) plus a byte offset; composite loads and stores become one access
// per scalar at offsets from the type's layout: the Offset, ArrayStride and
// MatrixStride decorations where the storage class has an explicit layout
// (8- and 16-bit scalars take 1 and 2 bytes there: kLoadNarrow,
// kStoreNarrow), tightly packed 4-byte scalars otherwise (8 bytes for
// 64-bit ones; narrow ones widened to 4).
//
// Two kinds of pointer are resolved per lane: an element of an array of
// descriptors picked by a non-constant index (the k*Indexed ops over a
// kDescriptorArray root; kImageArray for images), and a buffer device
// address (PhysicalStorageBuffer), a 64-bit value in two registers that the
// k*Address ops follow. An access chain folds its constant offset into the
// accesses through it and adds its per-lane offset to the address; only a
// pointer that is itself used as a value gets its whole address computed.
#include <algorithm>
#include <functional>
#include <numeric>
#include <unordered_map>

#include "objects/device_limits.h"
#include "spirv_exec/compiler.h"

namespace duet::spirv_exec {

using SpvOp = spv::Op;
using spv::StorageClass;

namespace {

bool HasExplicitLayout(StorageClass storage) {
  return storage == StorageClass::Uniform || storage == StorageClass::StorageBuffer ||
         storage == StorageClass::PushConstant || storage == StorageClass::PhysicalStorageBuffer;
}

// Sizes saturate at UINT32_MAX: a hostile array of arrays must not wrap
// to something small (Reserve refuses anything that large anyway).
uint32_t ImplicitSize(const SpirvModule& m, uint32_t type_id) {
  const SpirvType& t = m.Type(type_id);
  switch (t.kind) {
    case SpvOp::OpTypeBool:
    case SpvOp::OpTypeInt:
    case SpvOp::OpTypeFloat: return t.width == 64 ? 8 : 4;
    case SpvOp::OpTypeVector:
    case SpvOp::OpTypeMatrix:
    case SpvOp::OpTypeArray:
      return static_cast<uint32_t>(std::min<uint64_t>(uint64_t{t.count} * ImplicitSize(m, t.element), UINT32_MAX));
    case SpvOp::OpTypeStruct: {
      uint64_t size = 0;
      for (uint32_t member : t.members) size = std::min<uint64_t>(size + ImplicitSize(m, member), UINT32_MAX);
      return static_cast<uint32_t>(size);
    }
    case SpvOp::OpTypePointer: return IsAddressPointer(t) ? 8 : 0;
    default: return 0;
  }
}

uint32_t ImplicitMemberOffset(const SpirvModule& m, const SpirvType& s, uint32_t index) {
  uint32_t offset = 0;
  for (uint32_t i = 0; i < index; ++i) offset += ImplicitSize(m, s.members[i]);
  return offset;
}

// Layout facts that travel down a type: a matrix's stride and order come
// from the struct member that holds it.
struct LayoutContext {
  bool explicit_layout;
  uint32_t matrix_stride;
  bool row_major;
  uint32_t component_stride;  // for a vector reached as a row-major matrix column; 0: packed
};

// Bytes of a scalar (or one column element) in memory of that layout:
// narrow scalars are widened to a register's 4 bytes where the layout is ours.
uint32_t ScalarBytes(const SpirvModule& m, uint32_t type_id, const LayoutContext& ctx) {
  const SpirvType& t = m.Type(type_id);
  if (ctx.explicit_layout && (t.kind == SpvOp::OpTypeInt || t.kind == SpvOp::OpTypeFloat) && t.width < 32)
    return t.width / 8;
  return ImplicitSize(m, type_id);
}

uint32_t ArrayStride(const SpirvModule& m, uint32_t array_type, const LayoutContext& ctx) {
  const SpirvType& t = m.Type(array_type);
  if (ctx.explicit_layout) {
    const Decorations* d = m.DecorationsOf(array_type);
    if (d != nullptr && d->array_stride != 0) return d->array_stride;
  }
  return ImplicitSize(m, t.element);
}

// Bytes between a vector's components: a row-major matrix column's are the
// matrix stride apart, others are packed.
uint32_t ComponentStride(const SpirvModule& m, const SpirvType& vector, const LayoutContext& ctx) {
  return ctx.component_stride != 0 ? ctx.component_stride : ScalarBytes(m, vector.element, ctx);
}

// A matrix's column stride where no MatrixStride gives one, and the bytes of an element.
uint32_t MatrixStride(const SpirvModule& m, const SpirvType& matrix, const LayoutContext& ctx, uint32_t* element) {
  const SpirvType& column = m.Type(matrix.element);
  *element = ScalarBytes(m, column.element, ctx);
  return ctx.explicit_layout && ctx.matrix_stride != 0 ? ctx.matrix_stride : column.count * *element;
}

// One register's worth of memory: a scalar (a 64-bit one is two of these)
// at `offset`, of `bytes` (1, 2 or 4); half: a 16-bit float.
struct ScalarAccess {
  uint32_t offset;
  uint32_t bytes;
  bool half;
};

// Calls fn for every register's scalar of `type`, in the order the
// compiler flattens values.
void ForEachScalar(const SpirvModule& m, uint32_t type_id, const LayoutContext& ctx, uint32_t base,
                   const std::function<void(const ScalarAccess&)>& fn) {
  const SpirvType& t = m.Type(type_id);
  switch (t.kind) {
    case SpvOp::OpTypeBool:
    case SpvOp::OpTypeInt:
    case SpvOp::OpTypeFloat: {
      const uint32_t bytes = std::min(ScalarBytes(m, type_id, ctx), 4u);
      fn({base, bytes, bytes == 2 && t.kind == SpvOp::OpTypeFloat});
      if (t.width == 64) fn({base + 4, 4, false});
      return;
    }
    case SpvOp::OpTypePointer:
      if (IsAddressPointer(t)) {
        fn({base, 4, false});
        fn({base + 4, 4, false});
      }
      return;
    case SpvOp::OpTypeVector:
      for (uint32_t i = 0; i < t.count; ++i)
        ForEachScalar(m, t.element, ctx, base + i * ComponentStride(m, t, ctx), fn);
      return;
    case SpvOp::OpTypeMatrix: {
      const uint32_t rows = m.Type(t.element).count;
      uint32_t element = 4;
      const uint32_t stride = MatrixStride(m, t, ctx, &element);
      const LayoutContext scalar{ctx.explicit_layout, 0, false, 0};
      for (uint32_t c = 0; c < t.count; ++c)
        for (uint32_t r = 0; r < rows; ++r)
          ForEachScalar(m, m.Type(t.element).element, scalar,
                        base + (ctx.row_major ? r * stride + c * element : c * stride + r * element), fn);
      return;
    }
    case SpvOp::OpTypeArray: {
      const uint32_t stride = ArrayStride(m, type_id, ctx);
      for (uint32_t i = 0; i < t.count; ++i) ForEachScalar(m, t.element, ctx, base + i * stride, fn);
      return;
    }
    case SpvOp::OpTypeStruct: {
      const Decorations* d = m.DecorationsOf(type_id);
      for (uint32_t i = 0; i < t.members.size(); ++i) {
        LayoutContext inner{ctx.explicit_layout, 0, false, 0};
        uint32_t offset = ImplicitMemberOffset(m, t, i);
        if (ctx.explicit_layout && d != nullptr && i < d->members.size()) {
          offset = d->members[i].offset;
          inner.matrix_stride = d->members[i].matrix_stride;
          inner.row_major = d->members[i].row_major;
        }
        ForEachScalar(m, t.members[i], inner, base + offset, fn);
      }
      return;
    }
    default: return;
  }
}

LayoutContext ContextOf(const PointerValue& p) {
  return {p.explicit_layout, p.matrix_stride, p.row_major, p.component_stride};
}

NarrowAddressing NarrowAddressingOf(Op access) {
  return access == Op::kLoadIndexed || access == Op::kStoreIndexed   ? NarrowAddressing::kIndexed
         : access == Op::kLoadAddress || access == Op::kStoreAddress ? NarrowAddressing::kAddress
                                                                     : NarrowAddressing::kRoot;
}

}  // namespace

// Records where a stage input/output variable of type `type` (whose
// registers start at `reg`) sits in the interface: built-ins by name,
// user variables by location, one slot per location.
bool Compiler::DeclareInterface(uint32_t type, uint32_t reg, bool input, const Decorations* d) {
  const SpirvModule& m = module_;
  std::vector<BuiltinSlot>& builtins = input ? program_.builtin_inputs : program_.builtin_outputs;
  std::vector<InterfaceSlot>& slots = input ? program_.inputs : program_.outputs;
  if (d != nullptr && d->builtin >= 0) {
    if (input && DeclareLaneBuiltin(uint32_t(d->builtin), reg)) return true;
    builtins.push_back({uint32_t(d->builtin), reg, ScalarCount(type)});
    RecordComputeBuiltin(uint32_t(d->builtin), reg);
    return true;
  }
  const SpirvType& t = m.Type(type);
  if (t.kind == SpvOp::OpTypeStruct) {
    // A block: gl_PerVertex (built-in members) or user members with locations.
    const Decorations* sd = m.DecorationsOf(type);
    int32_t next_location = d != nullptr ? d->interface.location : -1;
    for (uint32_t i = 0; i < t.members.size(); ++i) {
      const MemberDecorations* md = sd != nullptr && i < sd->members.size() ? &sd->members[i] : nullptr;
      const uint32_t count = ScalarCount(t.members[i]);
      if (md != nullptr && md->builtin >= 0) {
        builtins.push_back({uint32_t(md->builtin), reg, count});
      } else {
        if (md != nullptr && md->interface.location >= 0) next_location = md->interface.location;
        if (next_location < 0) return Fail("interface block member without a location");
        Decorations member{};
        member.interface = md != nullptr ? md->interface : InterfaceDecorations{};
        member.interface.location = next_location;
        if (!DeclareInterface(t.members[i], reg, input, &member)) return false;
        next_location += int32_t(LocationCount(t.members[i]));
      }
      reg += count;
    }
    return true;
  }
  if (d == nullptr || d->interface.location < 0) return Fail("stage interface variable without a location");
  // Arrays and matrices take one location per element or column.
  uint32_t element = type;
  uint32_t locations = 1;
  if (t.kind == SpvOp::OpTypeArray || t.kind == SpvOp::OpTypeMatrix) {
    element = t.element;
    locations = t.count;
  }
  const uint32_t per_location = ScalarCount(element);
  uint32_t scalar = element;
  while (m.Type(scalar).kind == SpvOp::OpTypeVector || m.Type(scalar).kind == SpvOp::OpTypeArray)
    scalar = m.Type(scalar).element;
  const uint32_t element_locations = LocationCount(element);
  // (Before a slot per location is made: a hostile array may have billions.)
  if (uint64_t(d->interface.location) + uint64_t(locations) * element_locations > limits::kMaxInterfaceLocations) {
    return Fail("an interface variable past location " + std::to_string(limits::kMaxInterfaceLocations));
  }
  for (uint32_t i = 0; i < locations; ++i) {
    InterfaceSlot slot;
    slot.location = uint32_t(d->interface.location) + i * element_locations;
    slot.component = d->interface.component;
    slot.index = d->interface.index;
    slot.reg = reg + i * per_location;
    slot.count = per_location;
    slot.flat = d->interface.flat;
    slot.noperspective = d->interface.noperspective;
    slot.centroid = d->interface.centroid;
    slot.sample = d->interface.sample;
    slot.integer = m.Type(scalar).kind == SpvOp::OpTypeInt || m.Type(scalar).kind == SpvOp::OpTypeBool;
    slots.push_back(slot);
  }
  return true;
}

// A tessellation control shader's outputs are memory its invocations
// share (one reads what another wrote); an evaluation shader's inputs
// other than the built-ins the tessellator gives are the same memory's
// contents, per patch, as the stage hands them on.
bool Compiler::InPatchMemory(bool input, const Decorations* d) const {
  if (program_.stage == ShaderStage::kTessControl) return !input;
  if (program_.stage != ShaderStage::kTessEvaluation || !input) return false;
  if (d == nullptr || d->builtin < 0) return true;
  // Built-ins a control shader writes (standalone arrays, as HLSL makes
  // them, as well as gl_in's members); the others are the stage's own.
  switch (spv::BuiltIn(d->builtin)) {
    case spv::BuiltIn::Position:
    case spv::BuiltIn::PointSize:
    case spv::BuiltIn::ClipDistance:
    case spv::BuiltIn::CullDistance:
    case spv::BuiltIn::TessLevelOuter:
    case spv::BuiltIn::TessLevelInner: return true;
    default: return false;
  }
}

bool Compiler::DeclarePatchVariable(PointerValue& p, bool input, const Decorations* d) {
  const SpirvModule& m = module_;
  if (program_.patch_base_register == UINT32_MAX) program_.patch_base_register = NewRegisters(1);
  const uint32_t start = program_.patch_record_size;
  // Per-vertex variables are arrays over the patch's vertices; built-in
  // tessellation levels and Patch variables are the patch's own.
  const bool per_patch = d != nullptr && (d->interface.patch || d->builtin == int32_t(spv::BuiltIn::TessLevelOuter) ||
                                          d->builtin == int32_t(spv::BuiltIn::TessLevelInner));
  const SpirvType& t = m.Type(p.pointee);
  uint32_t element = p.pointee, vertices = 1, stride = 0;
  if (!per_patch && t.kind == SpvOp::OpTypeArray) {
    element = t.element;
    vertices = t.count;
    stride = ImplicitSize(m, element);
    if (vertices > limits::kMaxTessellationPatchSize)
      return Fail("a per-vertex patch variable of " + std::to_string(vertices) + " vertices");
  }
  // Every patch of a draw holds a record: bounded like other memory.
  if (!Reserve(&program_.patch_record_size, ImplicitSize(m, p.pointee), 4, limits::kMaxPatchRecordSize,
               "patch variables"))
    return false;
  p.root = static_cast<uint32_t>(program_.roots.size());
  program_.roots.push_back({RootKind::kPatch, 0, 0, 0, start});
  p.offset_register = program_.patch_base_register;
  // The fields are the interface slots of one element, declared at
  // register 0: memory holds registers 4 bytes each, in the same order.
  std::vector<InterfaceSlot>& slots = input ? program_.inputs : program_.outputs;
  std::vector<BuiltinSlot>& builtins = input ? program_.builtin_inputs : program_.builtin_outputs;
  const size_t first_slot = slots.size(), first_builtin = builtins.size();
  if (!DeclareInterface(element, 0, input, d)) return false;
  for (size_t i = first_slot; i < slots.size(); ++i) {
    const InterfaceSlot& slot = slots[i];
    program_.patch_fields.push_back(
        {slot.location, slot.component, UINT32_MAX, slot.count, start + 4 * slot.reg, stride, vertices});
  }
  for (size_t i = first_builtin; i < builtins.size(); ++i) {
    const BuiltinSlot& b = builtins[i];
    program_.patch_fields.push_back({0, 0, b.builtin, b.count, start + 4 * b.reg, stride, vertices});
  }
  slots.resize(first_slot);
  builtins.resize(first_builtin);
  return true;
}

void Compiler::DeclareXfbOutputs(uint32_t type, uint32_t reg, const Decorations* d) {
  const SpirvModule& m = module_;
  const InterfaceDecorations none{};
  const InterfaceDecorations& v = d != nullptr ? d->interface : none;
  // Whether a type holds 64-bit values: it is then aligned to 8 bytes.
  std::function<bool(uint32_t)> wide = [&](uint32_t id) {
    const SpirvType& t = m.Type(id);
    if (t.kind == SpvOp::OpTypeStruct) {
      for (uint32_t member : t.members)
        if (wide(member)) return true;
      return false;
    }
    if (t.kind == SpvOp::OpTypeArray || t.kind == SpvOp::OpTypeVector || t.kind == SpvOp::OpTypeMatrix)
      return wide(t.element);
    return t.width == 64;
  };
  // The registers of `id` from `first`, packed from byte *offset as the
  // spec lays them out (64-bit values, and what holds them, 8-aligned): one
  // XfbOutput per run of scalars, vectors or matrices.
  std::function<void(uint32_t, uint32_t, uint32_t*, uint32_t, uint32_t)> runs =
      [&](uint32_t id, uint32_t first, uint32_t* offset, uint32_t buffer, uint32_t stream) {
        const SpirvType& t = m.Type(id);
        if (wide(id)) *offset = (*offset + 7) & ~7u;
        if (t.kind == SpvOp::OpTypeStruct || t.kind == SpvOp::OpTypeArray) {
          const bool is_struct = t.kind == SpvOp::OpTypeStruct;
          const uint32_t n = is_struct ? uint32_t(t.members.size()) : t.count;
          for (uint32_t i = 0; i < n; ++i) {
            const uint32_t element = is_struct ? t.members[i] : t.element;
            runs(element, first, offset, buffer, stream);
            first += ScalarCount(element);
          }
          return;
        }
        const uint32_t count = ScalarCount(id);
        program_.xfb_outputs.push_back({first, count, buffer, *offset, stream});
        *offset += 4 * count;
      };
  // One output (or member) at its Offset.
  auto add = [&](const InterfaceDecorations& x, uint32_t id, uint32_t first) {
    const uint32_t buffer = x.xfb_buffer >= 0 ? uint32_t(x.xfb_buffer) : 0;
    if (buffer >= 4) return;  // beyond maxTransformFeedbackBuffers (invalid)
    if (x.xfb_stride != 0) program_.xfb_strides[buffer] = x.xfb_stride;
    if (x.xfb_offset < 0 || ScalarCount(id) == 0) return;
    uint32_t offset = uint32_t(x.xfb_offset);
    runs(id, first, &offset, buffer, x.stream >= 0 ? uint32_t(x.stream) : 0);
  };
  // A block's members: their own Offset, the block's buffer, stride and
  // stream unless they have their own.
  auto block = [&](uint32_t block_type, uint32_t first, const InterfaceDecorations& outer) {
    const SpirvType& t = m.Type(block_type);
    const Decorations* bd = m.DecorationsOf(block_type);
    for (uint32_t i = 0; i < t.members.size(); ++i) {
      InterfaceDecorations own = bd != nullptr && i < bd->members.size() ? bd->members[i].interface : none;
      if (own.xfb_buffer < 0) own.xfb_buffer = outer.xfb_buffer;
      if (own.xfb_stride == 0) own.xfb_stride = outer.xfb_stride;
      if (own.stream < 0) own.stream = outer.stream;
      add(own, t.members[i], first);
      first += ScalarCount(t.members[i]);
    }
  };
  const SpirvType& t = m.Type(type);
  if (t.kind == SpvOp::OpTypeStruct) return block(type, reg, v);
  if (t.kind == SpvOp::OpTypeArray && m.Type(t.element).kind == SpvOp::OpTypeStruct) {
    // An array of blocks: element i goes to buffer XfbBuffer + i, at the same offsets.
    for (uint32_t i = 0; i < t.count; ++i) {
      InterfaceDecorations element = v;
      element.xfb_buffer = (v.xfb_buffer >= 0 ? v.xfb_buffer : 0) + int32_t(i);
      block(t.element, reg + i * ScalarCount(t.element), element);
    }
    return;
  }
  add(v, type, reg);
}

uint32_t Compiler::LocationCount(uint32_t type) const {
  const SpirvType& t = module_.Type(type);
  if (t.kind == SpvOp::OpTypeArray || t.kind == SpvOp::OpTypeMatrix) return t.count * LocationCount(t.element);
  if (t.kind == SpvOp::OpTypeStruct) {
    uint32_t n = 0;
    for (uint32_t member : t.members) n += LocationCount(member);
    return n;
  }
  // A 64-bit vector of three or four components takes two locations.
  return t.kind == SpvOp::OpTypeVector && t.count > 2 && IsWide(type) ? 2 : 1;
}

void Compiler::RecordComputeBuiltin(uint32_t builtin, uint32_t reg) {
  BuiltinRegisters& b = program_.builtins;
  switch (static_cast<spv::BuiltIn>(builtin)) {
    case spv::BuiltIn::GlobalInvocationId: b.global_invocation_id = reg; break;
    case spv::BuiltIn::LocalInvocationId: b.local_invocation_id = reg; break;
    case spv::BuiltIn::WorkgroupId: b.workgroup_id = reg; break;
    case spv::BuiltIn::NumWorkgroups: b.num_workgroups = reg; break;
    case spv::BuiltIn::LocalInvocationIndex: b.local_invocation_index = reg; break;
    case spv::BuiltIn::SubgroupId: b.subgroup_id = reg; break;
    case spv::BuiltIn::NumSubgroups: b.num_subgroups = reg; break;
    default: break;
  }
}

bool Compiler::Reserve(uint32_t* size, uint64_t bytes, uint32_t align, uint32_t limit, const char* what) {
  const uint64_t end = uint64_t{*size} + (bytes + align - 1) / align * align;
  if (end > limit)
    return Fail(std::string("the shader's ") + what + " need more than " + std::to_string(limit) + " bytes");
  *size = static_cast<uint32_t>(end);
  return true;
}

bool Compiler::DeclareGlobals(const SpirvEntryPoint& entry) {
  const SpirvModule& m = module_;
  for (int i = 0; i < 3; ++i) {
    program_.local_size[i] = entry.local_size[i];
    uint32_t value = 0;
    if (entry.local_size_ids[i] != 0 && m.ScalarConstant(entry.local_size_ids[i], &value))
      program_.local_size[i] = value;
  }
  if (m.workgroup_size_builtin != 0) {
    const SpirvInstruction& c = m.constants.at(m.workgroup_size_builtin);
    for (int i = 0; i < 3 && 2u + i < c.word_count; ++i) {
      uint32_t value = 0;
      if (m.ScalarConstant(c[2 + i], &value)) program_.local_size[i] = value;
    }
  }
  // A workgroup past the device's limits is invalid; refusing it keeps a
  // hostile module from sizing the dispatch's per-invocation state.
  if (program_.stage == ShaderStage::kCompute) {
    uint64_t invocations = 1;
    for (int i = 0; i < 3; ++i) {
      if (program_.local_size[i] == 0 || program_.local_size[i] > limits::kMaxComputeWorkGroupSize[i]) {
        return Fail("LocalSize " + std::to_string(program_.local_size[i]) + " is outside the device's limits");
      }
      invocations *= program_.local_size[i];
    }
    if (invocations > limits::kMaxComputeWorkGroupInvocations) {
      return Fail("a workgroup of " + std::to_string(invocations) + " invocations is over the device's limit");
    }
  }

  for (const auto& [id, var] : m.variables) {
    const SpirvType& pointer_type = m.Type(var[0]);
    const StorageClass storage = static_cast<StorageClass>(var[2]);
    CompiledValue value;
    value.kind = CompiledValue::Kind::kPointer;
    value.type = var[0];
    PointerValue& p = value.pointer;
    p.pointee = pointer_type.element;
    p.explicit_layout = HasExplicitLayout(storage);
    const Decorations* d = m.DecorationsOf(id);
    switch (storage) {
      case StorageClass::Uniform:
      case StorageClass::StorageBuffer: {
        // An array of blocks gets its roots from the access chains' first
        // indices (CompileAccessChain).
        const SpirvType& pointee = m.Type(p.pointee);
        if (pointee.kind == SpvOp::OpTypeArray || pointee.kind == SpvOp::OpTypeRuntimeArray) {
          p.descriptor_variable = id;
          break;
        }
        p.root = MemoryRootIndex({RootKind::kDescriptorBuffer, d ? d->set : 0, d ? d->binding : 0, 0});
        break;
      }
      case StorageClass::PushConstant:
        p.root = static_cast<uint32_t>(program_.roots.size());
        program_.roots.push_back({RootKind::kPushConstants});
        break;
      case StorageClass::Workgroup:
        p.root = static_cast<uint32_t>(program_.roots.size());
        program_.roots.push_back({RootKind::kWorkgroup, 0, 0, 0, program_.workgroup_memory_size});
        if (!Reserve(&program_.workgroup_memory_size, ImplicitSize(m, p.pointee), 16,
                     limits::kMaxComputeSharedMemorySize, "workgroup variables"))
          return false;
        break;
      case StorageClass::Private:
        p.root = static_cast<uint32_t>(program_.roots.size());
        program_.roots.push_back({RootKind::kPrivate, 0, 0, 0, program_.private_memory_size});
        if (!Reserve(&program_.private_memory_size, ImplicitSize(m, p.pointee), 4,
                     limits::kMaxPrivateMemoryPerInvocation, "Private and Function variables"))
          return false;
        break;
      case StorageClass::Input:
      case StorageClass::Output:
        // Another entry point's interface is not this stage's.
        if (std::find(entry.interface.begin(), entry.interface.end(), id) == entry.interface.end()) continue;
        if (InPatchMemory(storage == StorageClass::Input, d)) {
          if (!DeclarePatchVariable(p, storage == StorageClass::Input, d)) return false;
          break;
        }
        if (storage == StorageClass::Input &&
            (program_.stage == ShaderStage::kGeometry || program_.stage == ShaderStage::kTessControl) &&
            m.Type(p.pointee).kind == SpvOp::OpTypeArray) {
          // Per-vertex inputs: arrays over the input primitive's vertices,
          // declared as vertex 0's element with the stride to the next.
          // (No primitive or patch has more vertices than a patch may.)
          const uint32_t element = m.Type(p.pointee).element, length = m.Type(p.pointee).count;
          if (length > limits::kMaxTessellationPatchSize)
            return Fail("a per-vertex input of " + std::to_string(length) + " vertices");
          p.builtin_register = NewRegisters(ScalarCount(p.pointee));
          std::vector<InterfaceSlot>& slots = program_.inputs;
          std::vector<BuiltinSlot>& builtins = program_.builtin_inputs;
          const size_t first_slot = slots.size(), first_builtin = builtins.size();
          if (!DeclareInterface(element, p.builtin_register, true, d)) return false;
          for (size_t i = first_slot; i < slots.size(); ++i) {
            slots[i].vertex_stride = ScalarCount(element);
            slots[i].vertex_count = length;
          }
          for (size_t i = first_builtin; i < builtins.size(); ++i) {
            builtins[i].vertex_stride = ScalarCount(element);
            builtins[i].vertex_count = length;
          }
          break;
        }
        // Stage inputs and outputs live in registers, not memory.
        p.builtin_register = NewRegisters(ScalarCount(p.pointee));
        if (!DeclareInterface(p.pointee, p.builtin_register, storage == StorageClass::Input, d)) return false;
        if (storage == StorageClass::Output) DeclareXfbOutputs(p.pointee, p.builtin_register, d);
        break;
      case StorageClass::UniformConstant: {
        // Images, samplers and texel buffers: an image root per element used.
        const SpirvType& pointee = m.Type(p.pointee);
        p.image = true;
        if (pointee.kind == SpvOp::OpTypeArray || pointee.kind == SpvOp::OpTypeRuntimeArray) {
          p.descriptor_variable = id;
          break;
        }
        p.root = ImageRootIndex({d ? d->set : 0, d ? d->binding : 0, 0});
        break;
      }
      default:
        continue;
    }
    values_[id] = value;
    // Private variables and outputs may start with a value (workgroup
    // memory starts zeroed, the only initializer it may have).
    if (var.word_count > 3 && (storage == StorageClass::Private || storage == StorageClass::Output))
      global_initializers_.push_back(id);
  }
  return true;
}

bool Compiler::EmitGlobalInitializers() {
  for (uint32_t id : global_initializers_) {
    const PointerValue p = values_.at(id).pointer;
    const CompiledValue& init = Value(module_.variables.at(id)[3]);
    if (init.kind != CompiledValue::Kind::kRegisters) return Fail("unsupported initializer of %" + std::to_string(id));
    if (!StoreThrough(p, init.reg)) return false;
  }
  return true;
}

// The memory op of `plain` kind (kLoad, kStore or kAtomic) through `p` and
// the register it addresses from: a root-relative offset, an element of a
// descriptor array picked per lane, or a buffer device address.
Compiler::Access Compiler::AccessThrough(const PointerValue& p, Op plain) {
  static constexpr Op kIndexed[] = {Op::kLoadIndexed, Op::kStoreIndexed, Op::kAtomicIndexed};
  static constexpr Op kAddress[] = {Op::kLoadAddress, Op::kStoreAddress, Op::kAtomicAddress};
  const uint32_t kind = plain == Op::kLoad ? 0 : plain == Op::kStore ? 1 : 2;
  if (p.address_register != kNoRegister) return {kAddress[kind], p.address_register};
  const uint32_t offset = p.offset_register != kNoRegister ? p.offset_register : ConstantRegister(0);
  return {p.descriptor_index != kNoRegister ? kIndexed[kind] : plain, offset};
}

void Compiler::AddRegisterIndex(PointerValue& p, uint32_t index_id, uint32_t element_registers) {
  if (p.register_offset == kNoRegister) {
    p.register_span_first = p.builtin_register;
    p.register_span_count = ScalarCount(p.pointee);
    p.register_step = element_registers;
  } else {
    p.register_step = std::gcd(p.register_step, element_registers);
  }
  const uint32_t scaled = NewRegisters(1);
  Emit(Op::kIMul, scaled, Value(index_id).reg, ConstantRegister(element_registers));
  if (p.register_offset != kNoRegister) {
    const uint32_t sum = NewRegisters(1);
    Emit(Op::kIAdd, sum, p.register_offset, scaled);
    p.register_offset = sum;
  } else {
    p.register_offset = scaled;
  }
}

// The offsets (multiples of the step) at which scalar `j` of an access
// through `p` stays inside the span, with a register that holds, per lane,
// whether the lane's offset is that one.
std::vector<std::pair<uint32_t, uint32_t>> Compiler::RegisterCandidates(const PointerValue& p, uint32_t j,
                                                                        std::unordered_map<uint32_t, uint32_t>* conds) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  const uint32_t step = std::max(p.register_step, 1u);
  for (uint32_t offset = 0; p.builtin_register + offset + j < p.register_span_first + p.register_span_count;
       offset += step) {
    if (p.builtin_register + offset + j < p.register_span_first) continue;
    auto [it, fresh] = conds->try_emplace(offset, 0);
    if (fresh) {
      it->second = NewRegisters(1);
      Emit(Op::kIEqual, it->second, p.register_offset, ConstantRegister(offset));
    }
    out.emplace_back(offset, it->second);
  }
  return out;
}

bool Compiler::LoadThrough(const PointerValue& p, uint32_t type, uint32_t first) {
  if (p.image) return Fail("load of an image through a data pointer");
  if (p.descriptor_variable != 0) return Fail("load of a whole array of descriptors");
  if (p.register_offset != kNoRegister) {
    // Each scalar is the register the lane's offset picks (0 outside the array).
    std::unordered_map<uint32_t, uint32_t> conds;
    for (uint32_t j = 0; j < ScalarCount(type); ++j) {
      Emit(Op::kMove, first + j, ConstantRegister(0));
      for (const auto& [offset, cond] : RegisterCandidates(p, j, &conds))
        Emit(Op::kSelect, first + j, cond, p.builtin_register + offset + j, first + j);
    }
    CanonicalizeInterfaceLoad(type, first);
    return true;
  }
  if (p.builtin_register != kNoRegister) {
    const uint32_t count = ScalarCount(type);
    for (uint32_t i = 0; i < count; ++i) Emit(Op::kMove, first + i, p.builtin_register + i);
    CanonicalizeInterfaceLoad(type, first);
    return true;
  }
  const Access access = AccessThrough(p, Op::kLoad);
  uint32_t i = 0;
  ForEachScalar(module_, type, ContextOf(p), p.static_offset, [&](const ScalarAccess& s) {
    const uint32_t dst = first + i++;
    if (s.bytes == 4) {
      Emit(access.op, dst, access.address, s.offset, 0, uint16_t(p.root), p.descriptor_index);
      return;
    }
    Emit(Op::kLoadNarrow, dst, access.address, s.offset, NarrowAccess(s.bytes, NarrowAddressingOf(access.op)),
         uint16_t(p.root), p.descriptor_index);
    if (s.half) Emit(Op::kHalfToFloat, dst, dst);
  });
  return true;
}

bool Compiler::StoreThrough(const PointerValue& p, uint32_t first) {
  if (p.image) return Fail("store of an image through a data pointer");
  if (p.descriptor_variable != 0) return Fail("store of a whole array of descriptors");
  if (p.builtin_register != kNoRegister) first = InterfaceStoreValue(p.pointee, first);
  if (p.register_offset != kNoRegister) {
    // Each register the offset may pick takes the value in the lanes that pick it.
    std::unordered_map<uint32_t, uint32_t> conds;
    for (uint32_t j = 0; j < ScalarCount(p.pointee); ++j)
      for (const auto& [offset, cond] : RegisterCandidates(p, j, &conds))
        Emit(Op::kSelect, p.builtin_register + offset + j, cond, first + j, p.builtin_register + offset + j);
    return true;
  }
  if (p.builtin_register != kNoRegister) {
    const uint32_t count = ScalarCount(p.pointee);
    for (uint32_t i = 0; i < count; ++i) Emit(Op::kMove, p.builtin_register + i, first + i);
    return true;
  }
  const Access access = AccessThrough(p, Op::kStore);
  uint32_t i = 0;
  ForEachScalar(module_, p.pointee, ContextOf(p), p.static_offset, [&](const ScalarAccess& s) {
    uint32_t value = first + i++;
    if (s.bytes == 4) {
      Emit(access.op, 0, access.address, s.offset, value, uint16_t(p.root), p.descriptor_index);
      return;
    }
    if (s.half) {
      const uint32_t bits = NewRegisters(1);
      Emit(Op::kFloatToHalf, bits, value);
      value = bits;
    }
    Emit(Op::kStoreNarrow, NarrowAccess(s.bytes, NarrowAddressingOf(access.op)), access.address, s.offset, value,
         uint16_t(p.root), p.descriptor_index);
  });
  return true;
}

// Adds `index` (a constant or a per-lane register) times `stride` bytes to
// the pointer's offset.
void Compiler::AddScaledIndex(PointerValue& p, uint32_t index_id, uint32_t stride) {
  uint32_t constant_index = 0;
  if (module_.ScalarConstant(index_id, &constant_index)) {
    p.static_offset += constant_index * stride;
    return;
  }
  const uint32_t scaled = NewRegisters(1);
  Emit(Op::kIMul, scaled, Value(index_id).reg, ConstantRegister(stride));
  if (p.offset_register == kNoRegister) {
    p.offset_register = scaled;
  } else {
    const uint32_t sum = NewRegisters(1);
    Emit(Op::kIAdd, sum, p.offset_register, scaled);
    p.offset_register = sum;
  }
}

// The first index into an array of descriptors picks the descriptor: a root
// of its own at a constant element, the whole binding and the lane's
// element otherwise (whatever the index, a per-lane one is safe: an element
// past the binding reads as unbound).
bool Compiler::SelectDescriptor(PointerValue& p, uint32_t index_id) {
  const SpirvModule& m = module_;
  const Decorations* d = m.DecorationsOf(p.descriptor_variable);
  const uint32_t set = d != nullptr ? d->set : 0, binding = d != nullptr ? d->binding : 0;
  const uint32_t element_type = m.Type(p.pointee).element;
  const SpvOp element_kind = m.Type(element_type).kind;
  if (element_kind == SpvOp::OpTypeArray || element_kind == SpvOp::OpTypeRuntimeArray)
    return Fail("arrays of arrays of descriptors are not supported");
  uint32_t element = 0;
  if (m.ScalarConstant(index_id, &element)) {
    p.root = p.image ? ImageRootIndex({set, binding, element})
                     : MemoryRootIndex({RootKind::kDescriptorBuffer, set, binding, element});
  } else {
    p.root = p.image ? ImageRootIndex({set, binding, kDynamicElement})
                     : MemoryRootIndex({RootKind::kDescriptorArray, set, binding, 0});
    p.descriptor_index = Value(index_id).reg;
  }
  p.descriptor_variable = 0;
  p.pointee = element_type;
  return true;
}

bool Compiler::CompileAccessChain(const SpirvInstruction& inst) {
  const SpirvModule& m = module_;
  if (auto it = descriptor_selects_.find(inst[2]); it != descriptor_selects_.end()) {
    // The same chain on both pointers of the select, then a select between
    // the resulting addresses.
    const DescriptorSelect select = it->second;
    if (next_internal_id_ == 0) next_internal_id_ = m.words.size() > 3 ? m.words[3] : 1u << 22;
    uint32_t chosen[2] = {0, 0};
    const uint32_t bases[2] = {select.if_true, select.if_false};
    for (int k = 0; k < 2; ++k) {
      std::vector<uint32_t> words(inst.words, inst.words + inst.word_count);
      words[1] = next_internal_id_++;
      words[2] = bases[k];
      if (!CompileAccessChain(SpirvInstruction{inst.op, words.data(), inst.word_count})) return false;
      chosen[k] = PointerRegisters(words[1]);
      if (!error_.empty()) return false;
    }
    if (ScalarCount(inst[0]) != 2) return Fail("an access chain into a select of storage buffer arrays that is no storage buffer pointer");
    const CompiledValue& cond = Value(select.condition);
    const CompiledValue& v = Define(inst[1], inst[0], 2);
    for (uint32_t i = 0; i < 2; ++i) Emit(Op::kSelect, v.reg + i, cond.reg, chosen[0] + i, chosen[1] + i);
    return true;
  }
  const CompiledValue& base = Value(inst[2]);
  PointerValue p = PointerOf(inst[2]);
  if (!error_.empty()) return false;
  LayoutContext ctx = ContextOf(p);
  uint32_t first_index = 3;
  if (inst.op == SpvOp::OpPtrAccessChain || inst.op == SpvOp::OpInBoundsPtrAccessChain) {
    // The Element operand steps over whole pointees, by the pointer type's ArrayStride.
    const bool workgroup = p.root < program_.roots.size() && program_.roots[p.root].kind == RootKind::kWorkgroup;
    if (p.address_register == kNoRegister && ((!p.explicit_layout && !workgroup) || p.descriptor_variable != 0 || p.image))
      return Fail("OpPtrAccessChain is supported on buffer and workgroup pointers only");
    const Decorations* d = m.DecorationsOf(base.type);
    AddScaledIndex(p, inst[3], d != nullptr && d->array_stride != 0 ? d->array_stride : ImplicitSize(m, p.pointee));
    first_index = 4;
  }
  for (uint32_t i = first_index; i < inst.word_count; ++i) {
    const uint32_t index_id = inst[i];
    if (p.descriptor_variable != 0) {
      if (!SelectDescriptor(p, index_id)) return false;
      continue;
    }
    uint32_t constant_index = 0;
    const bool is_constant = m.ScalarConstant(index_id, &constant_index);
    const SpirvType& t = m.Type(p.pointee);
    if (p.image) return Fail("access chain into an image descriptor");
    uint32_t stride = 0;
    uint32_t next = 0;
    if (t.kind == SpvOp::OpTypeStruct) {
      const Decorations* d = m.DecorationsOf(p.pointee);
      next = t.members[constant_index];
      uint32_t offset = ImplicitMemberOffset(m, t, constant_index);
      ctx.matrix_stride = 0;
      ctx.row_major = false;
      if (p.explicit_layout && d != nullptr && constant_index < d->members.size()) {
        offset = d->members[constant_index].offset;
        ctx.matrix_stride = d->members[constant_index].matrix_stride;
        ctx.row_major = d->members[constant_index].row_major;
      }
      if (p.builtin_register != kNoRegister) {
        for (uint32_t k = 0; k < constant_index; ++k) p.builtin_register += ScalarCount(t.members[k]);
        p.pointee = next;
        continue;
      }
      p.static_offset += offset;
      p.pointee = next;
      continue;
    }
    if (t.kind == SpvOp::OpTypeArray || t.kind == SpvOp::OpTypeRuntimeArray) {
      stride = ArrayStride(m, p.pointee, ctx);
      next = t.element;
    } else if (t.kind == SpvOp::OpTypeMatrix) {
      uint32_t element = 4;
      const uint32_t mstride = MatrixStride(m, t, ctx, &element);
      stride = ctx.row_major ? element : mstride;
      ctx.component_stride = ctx.row_major ? mstride : 0;
      next = t.element;
    } else if (t.kind == SpvOp::OpTypeVector) {
      stride = ComponentStride(m, t, ctx);
      next = t.element;
    } else {
      return Fail("access chain through an unsupported type");
    }
    if (p.builtin_register != kNoRegister) {
      const uint32_t element_registers = ScalarCount(next);
      if (is_constant) {
        p.builtin_register += constant_index * element_registers;
      } else {
        AddRegisterIndex(p, index_id, element_registers);
      }
    } else {
      AddScaledIndex(p, index_id, stride);
    }
    p.pointee = next;
    if (m.Type(next).kind != SpvOp::OpTypeVector) ctx.component_stride = 0;
  }
  p.matrix_stride = ctx.matrix_stride;
  p.row_major = ctx.row_major;
  p.component_stride = ctx.component_stride;
  // A buffer device address takes its per-lane offset now (accesses add only
  // constants to it), and all of it when the pointer is used as a value.
  const bool whole = p.static_offset != 0 && data_uses_.count(inst[1]) != 0;
  if (p.address_register != kNoRegister && (p.offset_register != kNoRegister || whole)) {
    const uint32_t address = NewRegisters(2);
    const uint32_t offset = p.offset_register != kNoRegister ? p.offset_register : kNoOperand;
    Emit(Op::kAddressAdd, address, p.address_register, offset, whole ? p.static_offset : 0);
    p.address_register = address;
    p.offset_register = kNoRegister;
    if (whole) p.static_offset = 0;
  }
  CompiledValue& v = values_[inst[1]];
  v.kind = CompiledValue::Kind::kPointer;
  v.type = inst[0];
  v.pointer = p;
  if (p.address_register != kNoRegister) {
    v.reg = p.address_register;
    v.count = 2;
  }
  return true;
}

bool Compiler::CompileMemoryInstruction(const SpirvInstruction& inst, bool* handled) {
  const SpirvModule& m = module_;
  *handled = true;
  switch (inst.op) {
    case SpvOp::OpVariable: {
      // Function-scope variables live in per-lane memory.
      CompiledValue value;
      value.kind = CompiledValue::Kind::kPointer;
      value.type = inst[0];
      value.pointer.pointee = m.Type(inst[0]).element;
      value.pointer.root = static_cast<uint32_t>(program_.roots.size());
      program_.roots.push_back({RootKind::kPrivate, 0, 0, 0, program_.private_memory_size});
      if (!Reserve(&program_.private_memory_size, ImplicitSize(m, value.pointer.pointee), 4,
                   limits::kMaxPrivateMemoryPerInvocation, "Private and Function variables"))
        return false;
      values_[inst[1]] = value;
      if (inst.word_count > 3) {
        const CompiledValue& init = Value(inst[3]);
        uint32_t i = 0;
        ForEachScalar(m, value.pointer.pointee, ContextOf(value.pointer), 0, [&](const ScalarAccess& s) {
          Emit(Op::kStore, 0, ConstantRegister(0), s.offset, init.reg + i++, uint16_t(value.pointer.root));
        });
      }
      return true;
    }
    case SpvOp::OpAccessChain:
    case SpvOp::OpInBoundsAccessChain:
    case SpvOp::OpPtrAccessChain:
    case SpvOp::OpInBoundsPtrAccessChain:
      return CompileAccessChain(inst);
    case SpvOp::OpLoad: {
      const PointerValue p = PointerOf(inst[2]);
      if (!error_.empty()) return false;
      if (p.image) {
        if (p.descriptor_variable != 0) return Fail("load of a whole array of descriptors");
        CompiledValue& v = values_[inst[1]];
        v.kind = CompiledValue::Kind::kImage;
        v.type = inst[0];
        v.image = v.sampler = p.root;
        v.image_index = v.sampler_index = p.descriptor_index;
        return true;
      }
      CompiledValue& v = Define(inst[1], inst[0], ScalarCount(inst[0]));
      if (!LoadThrough(p, inst[0], v.reg)) return false;
      if (p.builtin_register != kNoRegister &&
          p.builtin_register == program_.BuiltinInput(uint32_t(spv::BuiltIn::HelperInvocation))) {
        // A lane that demoted itself is a helper from then on (the built-in
        // is Volatile when the module demotes).
        const uint32_t demoted = NewRegisters(1);
        Emit(Op::kIsHelper, demoted);
        Emit(Op::kBitOr, v.reg, v.reg, demoted);
      }
      return true;
    }
    case SpvOp::OpStore: {
      const PointerValue p = PointerOf(inst[0]);
      // A pointer stored in a variable (variable pointers) is its address.
      const CompiledValue& value = Value(inst[1]);
      const uint32_t from = value.kind == CompiledValue::Kind::kPointer ? PointerRegisters(inst[1]) : value.reg;
      return error_.empty() && StoreThrough(p, from);
    }
    case SpvOp::OpCopyMemory: {
      // Both sides have the same type; their layouts may differ (e.g. a
      // block in a buffer and a function variable), so go through registers.
      const PointerValue target = PointerOf(inst[0]);
      const PointerValue source = PointerOf(inst[1]);
      if (!error_.empty()) return false;
      const uint32_t temp = NewRegisters(ScalarCount(source.pointee));
      return LoadThrough(source, source.pointee, temp) && StoreThrough(target, temp);
    }
    case SpvOp::OpArrayLength: {
      // Length of the runtime array that is member `inst[3]` of the block.
      const PointerValue p = PointerOf(inst[2]);
      const SpirvType& block = m.Type(p.pointee);
      const Decorations* d = m.DecorationsOf(p.pointee);
      const uint32_t member = inst[3];
      const uint32_t offset = d != nullptr && member < d->members.size() ? d->members[member].offset : 0;
      const Decorations* ad = m.DecorationsOf(block.members[member]);
      const uint32_t stride = ad != nullptr && ad->array_stride != 0 ? ad->array_stride : 4;
      CompiledValue& v = Define(inst[1], inst[0], 1);
      if (p.descriptor_index != kNoRegister)
        Emit(Op::kArrayLengthIndexed, v.reg, offset, stride, p.descriptor_index, uint16_t(p.root));
      else
        Emit(Op::kArrayLength, v.reg, offset, stride, 0, uint16_t(p.root));
      return true;
    }
    case SpvOp::OpAtomicLoad:
    case SpvOp::OpAtomicStore:
    case SpvOp::OpAtomicExchange:
    case SpvOp::OpAtomicCompareExchange:
    case SpvOp::OpAtomicIIncrement:
    case SpvOp::OpAtomicIDecrement:
    case SpvOp::OpAtomicIAdd:
    case SpvOp::OpAtomicISub:
    case SpvOp::OpAtomicSMin:
    case SpvOp::OpAtomicUMin:
    case SpvOp::OpAtomicSMax:
    case SpvOp::OpAtomicUMax:
    case SpvOp::OpAtomicAnd:
    case SpvOp::OpAtomicOr:
    case SpvOp::OpAtomicXor:
    case SpvOp::OpAtomicFAddEXT:
    case SpvOp::OpAtomicFMinEXT:
    case SpvOp::OpAtomicFMaxEXT: {
      const bool store = inst.op == SpvOp::OpAtomicStore;
      // 64-bit integers: every operand and the result a register pair (kAtomicWide).
      const bool wide = IsWide(store ? Value(inst[3]).type : inst[0]);
      const bool half = NarrowOf(store ? Value(inst[3]).type : inst[0]) == Narrow::kHalf;
      const uint32_t w = wide ? 2 : 1;
      const PointerValue p = PointerOf(store ? inst[0] : inst[2]);
      if (!error_.empty()) return false;
      if (p.builtin_register != kNoRegister) return Fail("atomic on a built-in");
      if (p.image && p.texel_coordinates == kNoRegister) return Fail("atomic on an image pointer");
      if ((wide || half) && p.texel_coordinates != kNoRegister) return Fail("64- or 16-bit image atomics");
      const Access access = AccessThrough(p, Op::kAtomic);
      // Operands: value (and comparator for compare-exchange) in consecutive
      // registers, then a descriptor array's element.
      const uint32_t operands = NewRegisters(2 * w + 1);
      auto move = [&](uint32_t to, uint32_t from) {
        for (uint32_t k = 0; k < w; ++k) Emit(Op::kMove, to + k, from + k);
      };
      if (p.descriptor_index != kNoRegister) Emit(Op::kMove, operands + 2 * w, p.descriptor_index);
      if (store) {
        move(operands, Value(inst[3]).reg);
      } else if (inst.op == SpvOp::OpAtomicCompareExchange) {
        move(operands, Value(inst[6]).reg);
        move(operands + w, Value(inst[7]).reg);
      } else if (inst.op == SpvOp::OpAtomicIIncrement || inst.op == SpvOp::OpAtomicIDecrement) {
        Emit(Op::kMove, operands, ConstantRegister(1));
        if (wide) Emit(Op::kMove, operands + 1, ConstantRegister(0));
      } else if (inst.op != SpvOp::OpAtomicLoad) {
        move(operands, Value(inst[5]).reg);
      }
      const uint32_t dst = store ? NewRegisters(w) : Define(inst[1], inst[0], w).reg;
      const uint32_t half_flag = !half ? 0 : p.explicit_layout ? kAtomicHalf : kAtomicHalfInWord;
      const uint32_t opcode = static_cast<uint32_t>(inst.op) | (wide ? kAtomicWide : 0) | half_flag;
      if (p.texel_coordinates != kNoRegister) {
        CompiledValue image;
        image.image = p.root;
        image.image_index = p.descriptor_index;
        EmitImageArray(image, false);
        Emit(Op::kImageAtomic, dst, p.texel_coordinates, p.texel_coordinate_count, operands, uint16_t(p.root),
             static_cast<uint32_t>(inst.op));
        return true;
      }
      Emit(access.op, dst, access.address, p.static_offset, operands, uint16_t(p.root), opcode);
      return true;
    }
    case SpvOp::OpConvertUToPtr:
    case SpvOp::OpConvertPtrToU: {
      // Buffer device addresses are 64-bit; a narrower integer is zero-extended or truncated.
      const CompiledValue& source = Value(inst[2]);
      const uint32_t count = ScalarCount(inst[0]);
      if (count == 0 || source.count == 0) return Fail("pointer conversion other than of a buffer device address");
      const CompiledValue& v = Define(inst[1], inst[0], count);
      for (uint32_t i = 0; i < count; ++i)
        Emit(Op::kMove, v.reg + i, i < source.count ? source.reg + i : ConstantRegister(0));
      return true;
    }
    case SpvOp::OpPtrDiff: {
      // Elements between two pointers into one buffer: the bytes (their
      // low words suffice) over the element size.
      const uint32_t a = PointerRegisters(inst[2]);
      const uint32_t b = PointerRegisters(inst[3]);
      if (!error_.empty()) return false;
      const uint32_t pointer_type = TypeOfId(inst[2]);
      const Decorations* d = m.DecorationsOf(pointer_type);
      const uint32_t element = m.Type(pointer_type).element;
      const uint32_t stride = d != nullptr && d->array_stride != 0 ? d->array_stride : ImplicitSize(m, element);
      const uint32_t bytes = NewRegisters(1);
      Emit(Op::kISub, bytes, a, b);
      Emit(Op::kSDiv, Define(inst[1], inst[0], 1).reg, bytes, ConstantRegister(std::max(stride, 1u)));
      return true;
    }
    case SpvOp::OpPtrEqual:
    case SpvOp::OpPtrNotEqual: {
      const uint32_t a = PointerRegisters(inst[2]);
      const uint32_t b = PointerRegisters(inst[3]);
      if (!error_.empty()) return false;
      const bool equal = inst.op == SpvOp::OpPtrEqual;
      const uint32_t low = NewRegisters(1), high = NewRegisters(1);
      Emit(equal ? Op::kIEqual : Op::kINotEqual, low, a, b);
      Emit(equal ? Op::kIEqual : Op::kINotEqual, high, a + 1, b + 1);
      Emit(equal ? Op::kBitAnd : Op::kBitOr, Define(inst[1], inst[0], 1).reg, low, high);
      return true;
    }
    case SpvOp::OpControlBarrier: {
      uint32_t scope = 0;
      m.ScalarConstant(inst[0], &scope);
      if (static_cast<spv::Scope>(scope) == spv::Scope::Workgroup) {
        Emit(Op::kBarrier);
        program_.uses_barrier = true;
      }
      return true;
    }
    case SpvOp::OpMemoryBarrier:
      // Waves of a workgroup run on one thread; atomics are real atomics.
      return true;
    case SpvOp::OpEmitVertex:
    case SpvOp::OpEndPrimitive:
    case SpvOp::OpEmitStreamVertex:
    case SpvOp::OpEndStreamPrimitive: {
      if (program_.stage != ShaderStage::kGeometry) return Fail("vertex emission outside a geometry shader");
      uint32_t stream = 0;
      const bool streamed = inst.op == SpvOp::OpEmitStreamVertex || inst.op == SpvOp::OpEndStreamPrimitive;
      if (streamed && !m.ScalarConstant(inst[0], &stream)) return Fail("a vertex stream that is not a constant");
      const bool end = inst.op == SpvOp::OpEndPrimitive || inst.op == SpvOp::OpEndStreamPrimitive;
      Emit(Op::kEmit, 0, 0, 0, 0, uint16_t(stream), end ? 1 : 0);
      return true;
    }
    default:
      *handled = false;
      return true;
  }
}

}  // namespace duet::spirv_exec

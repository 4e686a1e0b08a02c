#include "spirv_exec/program_codec.h"

#include <cstring>
#include <string>
#include <type_traits>

namespace duet::spirv_exec {
namespace {

// Each struct's fields, one by one (no padding bytes reach the output), in
// one list both directions share. The size checks fail when a field is
// added: add it here too.
template <class C> void Visit(C& c, Inst& v) {
  static_assert(sizeof(Inst) == 24, "a new Inst field: add it here");
  c(v.op, v.aux, v.dst, v.a, v.b, v.c, v.ext);
}
template <class C> void Visit(C& c, InterfaceSlot& v) {
  static_assert(sizeof(InterfaceSlot) == 36, "a new InterfaceSlot field: add it here");
  c(v.location, v.component, v.reg, v.count, v.index, v.flat, v.noperspective, v.centroid, v.sample, v.integer,
    v.vertex_stride, v.vertex_count);
}
template <class C> void Visit(C& c, BuiltinSlot& v) {
  static_assert(sizeof(BuiltinSlot) == 20, "a new BuiltinSlot field: add it here");
  c(v.builtin, v.reg, v.count, v.vertex_stride, v.vertex_count);
}
template <class C> void Visit(C& c, MemoryRoot& v) {
  static_assert(sizeof(MemoryRoot) == 20, "a new MemoryRoot field: add it here");
  c(v.kind, v.set, v.binding, v.element, v.offset);
}
template <class C> void Visit(C& c, ImageRoot& v) {
  static_assert(sizeof(ImageRoot) == 12, "a new ImageRoot field: add it here");
  c(v.set, v.binding, v.element);
}
template <class C> void Visit(C& c, ImageArrayUse& v) {
  static_assert(sizeof(ImageArrayUse) == 28, "a new ImageArrayUse field: add it here");
  c(v.image, v.sampler, v.has_sampler, v.combined);
}
template <class C> void Visit(C& c, SampleOperands& v) {
  static_assert(sizeof(SampleOperands) == 80, "a new SampleOperands field: add it here");
  c(v.coordinate_count, v.lod, v.bias, v.grad_x, v.grad_y, v.offset, v.dref, v.min_lod, v.projective, v.gather,
    v.gather_component, v.has_const_offsets, v.const_offsets, v.query_lod);
}
template <class C> void Visit(C& c, SwitchTable& v) {
  static_assert(sizeof(SwitchTable) == 32, "a new SwitchTable field: add it here");
  c(v.default_block, v.cases);
}
template <class C> void Visit(C& c, BuiltinRegisters& v) {
  static_assert(sizeof(BuiltinRegisters) == 28, "a new BuiltinRegisters field: add it here");
  c(v.global_invocation_id, v.local_invocation_id, v.workgroup_id, v.num_workgroups, v.local_invocation_index,
    v.subgroup_id, v.num_subgroups);
}
template <class C> void Visit(C& c, XfbOutput& v) {
  static_assert(sizeof(XfbOutput) == 20, "a new XfbOutput field: add it here");
  c(v.reg, v.count, v.buffer, v.offset, v.stream);
}
template <class C> void Visit(C& c, GeometryModes& v) {
  static_assert(sizeof(GeometryModes) == 16, "a new GeometryModes field: add it here");
  c(v.input_vertices, v.output_vertices, v.invocations, v.output);
}
template <class C> void Visit(C& c, TessellationModes& v) {
  static_assert(sizeof(TessellationModes) == 8, "a new TessellationModes field: add it here");
  c(v.domain, v.spacing, v.order, v.point_mode, v.output_vertices);
}
template <class C> void Visit(C& c, PatchField& v) {
  static_assert(sizeof(PatchField) == 28, "a new PatchField field: add it here");
  c(v.location, v.component, v.builtin, v.count, v.offset, v.vertex_stride, v.vertices);
}
template <class C> void Visit(C& c, PrintArgument& v) {
  static_assert(sizeof(PrintArgument) == 12, "a new PrintArgument field: add it here");
  c(v.reg, v.components, v.kind);
}
template <class C> void Visit(C& c, PrintCall& v) {
  static_assert(sizeof(PrintCall) == sizeof(std::string) + 24, "a new PrintCall field: add it here");
  c(v.format, v.arguments);
}
// (serial is not kept: each load is a compilation of its own; steps come
// from PrepareExecution.)
template <class C> void Visit(C& c, Program& v) {
  c(v.stage, v.subgroup_size, v.inputs, v.outputs, v.builtin_inputs, v.builtin_outputs, v.uses_derivatives,
    v.early_fragment_tests, v.post_depth_coverage, v.uses_kill, v.writes_memory, v.code, v.block_start,
    v.register_count, v.constants, v.constant_outputs, v.roots, v.images, v.sampled_images, v.sample_operands,
    v.switches, v.image_arrays, v.builtins, v.workgroup_memory_size, v.private_memory_size, v.local_size,
    v.uses_barrier, v.geometry, v.tessellation, v.patch_fields, v.patch_record_size, v.patch_base_register,
    v.transform_feedback, v.xfb_outputs, v.prints, v.xfb_strides);
}

template <class T> constexpr bool kScalar = std::is_arithmetic_v<T> || std::is_enum_v<T>;

class Writer {
 public:
  explicit Writer(std::vector<uint8_t>* out) : out_(out) {}

  template <class... T> void operator()(const T&... values) { (Put(values), ...); }

 private:
  template <class T> void Put(const T& v) {
    if constexpr (kScalar<T>) {
      const auto* p = reinterpret_cast<const uint8_t*>(&v);
      out_->insert(out_->end(), p, p + sizeof v);
    } else if constexpr (std::is_array_v<T>) {
      for (const auto& e : v) Put(e);
    } else {
      Visit(*this, const_cast<T&>(v));
    }
  }
  template <class A, class B> void Put(const std::pair<A, B>& v) { (*this)(v.first, v.second); }
  template <class T> void Put(const std::vector<T>& v) {
    Put(uint32_t(v.size()));
    for (const T& e : v) Put(e);
  }
  void Put(const std::string& v) {
    Put(uint32_t(v.size()));
    out_->insert(out_->end(), v.begin(), v.end());
  }

  std::vector<uint8_t>* out_;
};

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  template <class... T> void operator()(T&... values) { (Get(values), ...); }
  bool ok() const { return ok_; }
  bool at_end() const { return at_ == bytes_.size(); }

 private:
  template <class T> void Get(T& v) {
    if constexpr (kScalar<T>) {
      if (!Has(sizeof v)) return;
      std::memcpy(&v, bytes_.data() + at_, sizeof v);
      at_ += sizeof v;
    } else if constexpr (std::is_array_v<T>) {
      for (auto& e : v) Get(e);
    } else {
      Visit(*this, v);
    }
  }
  template <class A, class B> void Get(std::pair<A, B>& v) { (*this)(v.first, v.second); }
  template <class T> void Get(std::vector<T>& v) {
    uint32_t n = 0;
    Get(n);
    // Every element takes at least a byte: a count past the bytes left is
    // a broken blob, not an allocation to attempt.
    if (!ok_ || !Has(n)) return;
    v.resize(n);
    for (T& e : v) Get(e);
  }
  void Get(std::string& v) {
    uint32_t n = 0;
    Get(n);
    if (!ok_ || !Has(n)) return;
    v.assign(reinterpret_cast<const char*>(bytes_.data() + at_), n);
    at_ += n;
  }
  bool Has(size_t n) {
    if (ok_ && bytes_.size() - at_ >= n) return true;
    ok_ = false;
    at_ = bytes_.size();
    return false;
  }

  std::span<const uint8_t> bytes_;
  size_t at_ = 0;
  bool ok_ = true;
};

// What the interpreter indexes by without checking, checked once here.
bool Consistent(const Program& p) {
  if (uint8_t(p.stage) > uint8_t(ShaderStage::kTessEvaluation)) return false;
  if (p.subgroup_size < kMinSubgroupSize || p.subgroup_size > kWaveWidth) return false;
  if (p.code.empty() || p.block_start.empty()) return false;
  for (uint32_t start : p.block_start)
    if (start > p.code.size()) return false;
  for (const auto& [reg, value] : p.constants)
    if (reg >= p.register_count) return false;
  for (const auto& [reg, value] : p.constant_outputs)
    if (reg >= p.register_count) return false;
  for (const auto& [image, sampler] : p.sampled_images)
    if (image >= p.images.size() || sampler >= p.images.size()) return false;
  for (const SwitchTable& s : p.switches) {
    if (s.default_block >= p.block_start.size()) return false;
    for (const auto& [literal, block] : s.cases)
      if (block >= p.block_start.size()) return false;
  }
  return true;
}

}  // namespace

void EncodeProgram(const Program& program, std::vector<uint8_t>* out) {
  Writer writer(out);
  writer(program);
}

bool DecodeProgram(std::span<const uint8_t> bytes, Program* program) {
  Reader reader(bytes);
  Program p;
  reader(p);
  if (!reader.ok() || !reader.at_end() || !Consistent(p)) return false;
  *program = std::move(p);
  return true;
}

}  // namespace duet::spirv_exec

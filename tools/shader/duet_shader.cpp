// duet-shader: runs a SPIR-V binary through the driver's shader path
// (validation, specialization-free optimization, compilation to wave IR)
// and says where it stops, or prints the compiled program.
//
//   duet-shader [--stage comp|vert|tesc|tese|geom|frag] [--entry main] [--prepared out.spv] [--ir] module.spv
//
// --prepared writes the module as the optimizer left it (what the compiler
// reads; spirv-dis shows it), --ir lists the compiled instructions.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "spirv_exec/ir.h"
#include "spirv_exec/spirv_ingest.h"

using namespace duet::spirv_exec;

namespace {

int Usage() {
  std::fprintf(stderr, "usage: duet-shader [--stage comp|vert|tesc|tese|geom|frag] [--entry name] [--prepared out.spv] [--ir] module.spv\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path, entry = "main", prepared_path;
  ShaderStage stage = ShaderStage::kCompute;
  bool print_ir = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--stage" && i + 1 < argc) {
      const std::string s = argv[++i];
      stage = s == "vert"   ? ShaderStage::kVertex
              : s == "tesc" ? ShaderStage::kTessControl
              : s == "tese" ? ShaderStage::kTessEvaluation
              : s == "geom" ? ShaderStage::kGeometry
              : s == "frag" ? ShaderStage::kFragment
                            : ShaderStage::kCompute;
    } else if (arg == "--entry" && i + 1 < argc) {
      entry = argv[++i];
    } else if (arg == "--prepared" && i + 1 < argc) {
      prepared_path = argv[++i];
    } else if (arg == "--ir") {
      print_ir = true;
    } else if (!arg.empty() && arg[0] != '-') {
      path = arg;
    } else {
      return Usage();
    }
  }
  if (path.empty()) return Usage();
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty() || bytes.size() % 4 != 0) {
    std::fprintf(stderr, "%s: not a SPIR-V binary\n", path.c_str());
    return 1;
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());

  // Every layout rule a device can enable.
  ValidationRules rules;
  rules.uniform_buffer_standard_layout = rules.scalar_block_layout = rules.workgroup_scalar_block_layout = true;
  std::vector<uint32_t> prepared;
  std::string error;
  if (!PrepareModule(words, nullptr, rules, &prepared, &error)) {
    std::printf("ingest failed: %s\n", error.c_str());
    return 1;
  }
  if (!prepared_path.empty()) {
    std::ofstream out(prepared_path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(prepared.data()), std::streamsize(prepared.size() * 4));
  }
  Program program;
  if (!CompileStage(prepared, entry.c_str(), stage, &program, &error)) {
    std::printf("compile failed: %s\n", error.c_str());
    return 1;
  }
  std::printf("compiled: %zu instructions, %u registers, %zu roots\n", program.code.size(), program.register_count,
              program.roots.size());
  auto print_slots = [](const char* what, const std::vector<InterfaceSlot>& slots) {
    for (const InterfaceSlot& s : slots)
      std::printf("%s location %u component %u: r%u x%u%s%s\n", what, s.location, s.component, s.reg, s.count,
                  s.flat ? " flat" : "", s.integer ? " integer" : "");
  };
  print_slots("input", program.inputs);
  print_slots("output", program.outputs);
  // Tessellation stages: the patch memory's fields (bytes into a patch's record).
  for (const duet::spirv_exec::PatchField& f : program.patch_fields) {
    if (f.builtin != UINT32_MAX)
      std::printf("patch built-in %u: byte %u x%u", f.builtin, f.offset, f.count);
    else
      std::printf("patch location %u component %u: byte %u x%u", f.location, f.component, f.offset, f.count);
    if (f.vertex_stride != 0) std::printf(", %u vertices %u bytes apart", f.vertices, f.vertex_stride);
    std::printf("\n");
  }
  if (print_ir) {
    for (size_t i = 0; i < program.code.size(); ++i) {
      const Inst& inst = program.code[i];
      std::printf("%5zu %-16s dst %u a %u b %u c %u aux %u ext %u\n", i, OpName(inst.op), inst.dst, inst.a, inst.b,
                  inst.c, inst.aux, inst.ext);
    }
  }
  return 0;
}

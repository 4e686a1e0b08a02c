#include "spirv_exec/spirv_ingest.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <bit>
#include <cstring>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "spirv_exec/narrow_vector_bitcast.h"
#include "spirv_exec/spirv_extra_validation.h"
#include "texel/float_formats.h"

namespace duet::spirv_exec {
namespace {

constexpr spv_target_env kTargetEnvironment = SPV_ENV_VULKAN_1_3;

// Collects SPIRV-Tools diagnostics into one message.
spvtools::MessageConsumer Collect(std::string* sink) {
  return [sink](spv_message_level_t level, const char*, const spv_position_t& position, const char* message) {
    if (level > SPV_MSG_WARNING) return;
    if (!sink->empty()) *sink += "; ";
    *sink += "word " + std::to_string(position.index) + ": " + message;
  };
}

// The compiler takes one function: every call must be inlined, also those
// to functions marked DontInline (a hint a driver may ignore).
std::vector<uint32_t> WithoutDontInline(const std::vector<uint32_t>& words) {
  constexpr uint32_t kOpFunction = 54, kDontInline = 0x2;
  std::vector<uint32_t> out = words;
  for (size_t at = 5; at < out.size();) {
    const uint32_t count = out[at] >> 16;
    if (count == 0) break;
    if ((out[at] & 0xFFFF) == kOpFunction && count >= 5 && at + 3 < out.size()) out[at + 3] &= ~kDontInline;
    at += count;
  }
  return out;
}

}  // namespace

bool CheckSpirvStructure(const uint32_t* words, size_t word_count, std::string* error) {
  constexpr size_t kHeaderWords = 5;
  if (words == nullptr || word_count < kHeaderWords || words[0] != spv::MagicNumber) {
    *error = "not a SPIR-V binary (no header, or not the magic number)";
    return false;
  }
  for (size_t at = kHeaderWords; at < word_count;) {
    const uint32_t count = words[at] >> 16;
    if (count == 0 || count > word_count - at) {
      *error = "the instruction at word " + std::to_string(at) + " has a word count of " + std::to_string(count) +
               ", " + std::to_string(word_count - at) + " words remain";
      return false;
    }
    at += count;
  }
  return true;
}

bool ValidateSpirv(const uint32_t* words, size_t word_count, const ValidationRules& rules, std::string* error) {
  spvtools::SpirvTools tools(kTargetEnvironment);
  tools.SetMessageConsumer(Collect(error));
  spvtools::ValidatorOptions options;
  // Vulkan 1.1 made the relaxed block layout (VK_KHR_relaxed_block_layout) core.
  options.SetRelaxBlockLayout(true);
  options.SetUniformBufferStandardLayout(rules.uniform_buffer_standard_layout);
  options.SetScalarBlockLayout(rules.scalar_block_layout);
  options.SetWorkgroupScalarBlockLayout(rules.workgroup_scalar_block_layout);
  return tools.Validate(words, word_count, options) && CheckBeyondValidator(words, word_count, error);
}

namespace {

// OpSpecConstantOp QuantizeToF16 of a 32-bit float constant as the
// OpConstant of its value: SPIRV-Tools' folding keeps half denormals, which
// the instruction flushes to zero. (Run once the specialization constants
// are frozen into constants.)
std::vector<uint32_t> QuantizeSpecConstants(const std::vector<uint32_t>& words) {
  constexpr uint32_t kOpTypeFloat = 22, kOpConstant = 43, kOpSpecConstantOp = 52, kOpQuantizeToF16 = 116;
  std::vector<uint32_t> out(words.begin(), words.begin() + std::min<size_t>(words.size(), 5));
  std::unordered_set<uint32_t> float32_types;
  std::unordered_map<uint32_t, uint32_t> float32_constants;  // id -> bits
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xFFFF;
    if (count == 0 || at + count > words.size()) return words;  // (not valid: left as it was)
    if (opcode == kOpTypeFloat && count == 3 && words[at + 2] == 32) float32_types.insert(words[at + 1]);
    if (opcode == kOpConstant && count == 4 && float32_types.count(words[at + 1]) != 0)
      float32_constants[words[at + 2]] = words[at + 3];
    if (opcode == kOpSpecConstantOp && count == 5 && words[at + 3] == kOpQuantizeToF16 &&
        float32_types.count(words[at + 1]) != 0 && float32_constants.count(words[at + 4]) != 0) {
      const uint32_t bits =
          std::bit_cast<uint32_t>(texel::QuantizeToHalf(std::bit_cast<float>(float32_constants[words[at + 4]])));
      out.insert(out.end(), {4u << 16 | kOpConstant, words[at + 1], words[at + 2], bits});
      float32_constants[words[at + 2]] = bits;
    } else {
      out.insert(out.end(), words.begin() + ptrdiff_t(at), words.begin() + ptrdiff_t(at + count));
    }
    at += count;
  }
  return out;
}

// What a module says of non-semantic instructions, read in one pass over
// its instructions (nothing but `valid` false when the stream is malformed).
struct NonSemanticUse {
  bool valid = true;
  bool debug_printf = false;   // imports NonSemantic.DebugPrintf (debugPrintfEXT)
  bool any_import = false;     // imports some NonSemantic.* set
  bool extension = false;      // declares SPV_KHR_non_semantic_info
  size_t after_capabilities = 5;
};

NonSemanticUse ReadNonSemanticUse(std::span<const uint32_t> words) {
  constexpr uint32_t kOpExtension = 10, kOpExtInstImport = 11, kOpCapability = 17;
  auto string_at = [&](size_t at, uint32_t count, uint32_t first) {
    const char* text = reinterpret_cast<const char*>(&words[at + first]);
    return std::string(text, strnlen(text, size_t(count - first) * 4));
  };
  NonSemanticUse use;
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xFFFF;
    if (count == 0 || at + count > words.size()) return {.valid = false};
    if (opcode == kOpCapability) use.after_capabilities = at + count;
    if (opcode == kOpExtension && count > 1) use.extension |= string_at(at, count, 1) == "SPV_KHR_non_semantic_info";
    if (opcode == kOpExtInstImport && count > 2) {
      const std::string name = string_at(at, count, 2);
      use.any_import |= name.starts_with("NonSemantic.");
      use.debug_printf |= name == "NonSemantic.DebugPrintf";
    }
    at += count;
  }
  return use;
}

// `words` declaring SPV_KHR_non_semantic_info when it imports a NonSemantic.*
// instruction set without it (SPIR-V 1.6 made the extension core). SPIRV-Tools
// 2023.1 only treats such instructions as non-semantic when the extension is
// declared; otherwise its passes strip the OpStrings they reference and then
// crash on the dangling ids.
std::vector<uint32_t> WithNonSemanticExtension(std::span<const uint32_t> words, const NonSemanticUse& use) {
  constexpr uint32_t kOpExtension = 10;
  static constexpr char kExtension[] = "SPV_KHR_non_semantic_info";
  if (!use.valid || !use.any_import || use.extension || words.size() < 5) return {words.begin(), words.end()};
  std::vector<uint32_t> extension((sizeof kExtension + 3) / 4 + 1, 0);
  extension[0] = uint32_t(extension.size()) << 16 | kOpExtension;
  std::memcpy(&extension[1], kExtension, sizeof kExtension);
  std::vector<uint32_t> out(words.begin(), words.begin() + ptrdiff_t(use.after_capabilities));
  out.insert(out.end(), extension.begin(), extension.end());
  out.insert(out.end(), words.begin() + ptrdiff_t(use.after_capabilities), words.end());
  return out;
}

// Whether the module declares a struct type without members. SPIRV-Tools
// 2023.1's dead-insert elimination crashes on one (a SIGSEGV in
// DeadInsertElimPass::MarkInsertChain: dEQP-VK.spirv_assembly.instruction.
// compute.empty_struct.*), so such modules take the performance passes
// without it.
bool DeclaresEmptyStruct(const std::vector<uint32_t>& words) {
  constexpr uint32_t kOpTypeStruct = 30;
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    if (count == 0) return false;
    if ((words[at] & 0xFFFF) == kOpTypeStruct && count == 2) return true;
    at += count;
  }
  return false;
}

void RegisterPerformancePasses(spvtools::Optimizer& optimizer, bool without_dead_inserts) {
  if (!without_dead_inserts) {
    optimizer.RegisterPerformancePasses();
    return;
  }
  spvtools::Optimizer list(kTargetEnvironment);
  list.RegisterPerformancePasses();
  for (const char* name : list.GetPassNames())
    if (std::strcmp(name, "eliminate-dead-inserts") != 0) optimizer.RegisterPassFromFlag(std::string("--") + name);
}

}  // namespace

bool PrepareModule(std::span<const uint32_t> words, const VkSpecializationInfo* specialization,
                   const ValidationRules& rules, std::vector<uint32_t>* out, std::string* error) {
  if (!ValidateSpirv(words.data(), words.size(), rules, error)) return false;

  std::unordered_map<uint32_t, std::vector<uint32_t>> spec_values;
  if (specialization != nullptr) {
    const auto* data = static_cast<const uint8_t*>(specialization->pData);
    for (uint32_t i = 0; i < specialization->mapEntryCount; ++i) {
      const VkSpecializationMapEntry& e = specialization->pMapEntries[i];
      std::vector<uint32_t> bits((e.size + 3) / 4, 0);
      std::memcpy(bits.data(), data + e.offset, e.size);
      spec_values[e.constantID] = std::move(bits);
    }
  }

  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  // Specialization constants frozen into constants first.
  spvtools::Optimizer specialize(kTargetEnvironment);
  specialize.SetMessageConsumer(Collect(error));
  if (!spec_values.empty()) specialize.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(spec_values));
  // Non-semantic instructions (debug info, reflection) carry nothing to run,
  // but debugPrintfEXT's do: with them, the compiler skips the others.
  const NonSemanticUse non_semantic = ReadNonSemanticUse(words);
  if (!non_semantic.debug_printf) specialize.RegisterPass(spvtools::CreateStripNonSemanticInfoPass());
  specialize.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass());
  const std::vector<uint32_t> inlinable =
      WithoutDontInline(SpellOutNarrowVectorBitcasts(WithNonSemanticExtension(words, non_semantic)));
  std::vector<uint32_t> specialized;
  if (!specialize.Run(inlinable.data(), inlinable.size(), &specialized, options)) return false;
  specialized = QuantizeSpecConstants(specialized);

  spvtools::Optimizer optimizer(kTargetEnvironment);
  optimizer.SetMessageConsumer(Collect(error));
  optimizer.RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass())
      .RegisterPass(spvtools::CreateStripDebugInfoPass());
  RegisterPerformancePasses(optimizer, DeclaresEmptyStruct(specialized));
  // The performance passes leave OpSwitch and structure intact; the
  // compiler relies on structured control flow and single-entry functions.
  optimizer.RegisterPass(spvtools::CreateInlineExhaustivePass())
      .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass())
      .RegisterPass(spvtools::CreateCompactIdsPass());
  return optimizer.Run(specialized.data(), specialized.size(), out, options);
}

}  // namespace duet::spirv_exec

// Shader ingestion on hostile input: modules the SPIRV-Tools validator
// accepts but its optimizer would crash on are rejected at validation
// (regressions found by tools/fuzz/fuzz_spirv_ingest).
#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "shaders/debug_printf.comp.h"
#include "shaders/huge_private_array.spvasm.h"
#include "shaders/std430_uniform.comp.h"
#include "shaders/workgroup_size_builtin.spvasm.h"
#include "spirv_exec/ir.h"
#include "spirv_exec/spirv_ingest.h"

namespace duet::spirv_exec {
namespace {

constexpr uint32_t kOpSpecConstantOp = 52, kOpCompositeExtract = 81;

// The module's OpSpecConstantOp CompositeExtract instructions: index of their last word.
std::vector<size_t> SpecCompositeExtracts(const std::vector<uint32_t>& words) {
  std::vector<size_t> found;
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    const uint32_t count = words[at] >> 16;
    if (count == 0) break;
    if ((words[at] & 0xFFFF) == kOpSpecConstantOp && count >= 6 && words[at + 3] == kOpCompositeExtract)
      found.push_back(at + count - 1);
  }
  return found;
}

TEST(SpirvExecIngestTest, SpecConstantExtractOutOfRangeIsRejected) {
  std::vector<uint32_t> words(std::begin(kWorkgroupSizeBuiltinSpvasm), std::end(kWorkgroupSizeBuiltinSpvasm));
  std::string error;
  ASSERT_TRUE(ValidateSpirv(words.data(), words.size(), {}, &error)) << error;
  const std::vector<size_t> extracts = SpecCompositeExtracts(words);
  ASSERT_FALSE(extracts.empty());
  words[extracts.back()] = 2883585;  // the index the fuzzer found: far past a 3-component vector
  error.clear();
  EXPECT_FALSE(ValidateSpirv(words.data(), words.size(), {}, &error));
  EXPECT_NE(error.find("out of range"), std::string::npos) << error;
  std::vector<uint32_t> prepared;
  error.clear();
  EXPECT_FALSE(PrepareModule(words, nullptr, {}, &prepared, &error));  // validates first; must not crash
  words[extracts.back()] = 3;  // one past the end
  EXPECT_FALSE(ValidateSpirv(words.data(), words.size(), {}, &error));
  words[extracts.back()] = 2;  // the last component: fine
  error.clear();
  EXPECT_TRUE(ValidateSpirv(words.data(), words.size(), {}, &error)) << error;
}

// A program with a huge private array is refused (and quickly: nothing is
// allocated per register or byte before that), by the register limit or,
// first, by the bound on Private and Function memory.
TEST(SpirvExecIngestTest, ProgramsPastTheRegisterLimitAreRefused) {
  std::vector<uint32_t> words(std::begin(kHugePrivateArraySpvasm), std::end(kHugePrivateArraySpvasm));
  std::string error;
  ASSERT_TRUE(ValidateSpirv(words.data(), words.size(), {}, &error)) << error;
  Program program;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(CompileStage(words, "main", ShaderStage::kCompute, &program, &error));
  EXPECT_TRUE(error.find("registers") != std::string::npos || error.find("need more than") != std::string::npos)
      << error;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

// The words of `module` without its instructions of `opcode` whose word
// `word` is `value` (or all of them when `word` is 0).
std::vector<uint32_t> Without(std::vector<uint32_t> module, uint32_t opcode, size_t word = 0, uint32_t value = 0) {
  for (size_t at = 5; at < module.size();) {
    const uint32_t count = module[at] >> 16;
    if (count == 0) break;
    if ((module[at] & 0xFFFF) == opcode && (word == 0 || (word < count && module[at + word] == value))) {
      module.erase(module.begin() + ptrdiff_t(at), module.begin() + ptrdiff_t(at + count));
    } else {
      at += count;
    }
  }
  return module;
}

// SPIR-V 1.6 modules may import NonSemantic.* sets without declaring
// SPV_KHR_non_semantic_info (it became core); SPIRV-Tools' passes then
// dropped the OpStrings debugPrintfEXT reads and crashed (a find of the
// execution fuzzer). The driver declares the extension for them.
TEST(SpirvExecIngestTest, NonSemanticImportsNeedNoExtensionDeclaration) {
  const std::vector<uint32_t> declared(std::begin(kDebugPrintfComp), std::end(kDebugPrintfComp));
  constexpr uint32_t kOpExtension = 10;
  const std::vector<uint32_t> words = Without(declared, kOpExtension);
  ASSERT_LT(words.size(), declared.size());
  std::string error;
  ASSERT_TRUE(ValidateSpirv(words.data(), words.size(), {}, &error)) << error;
  std::vector<uint32_t> prepared;
  ASSERT_TRUE(PrepareModule(words, nullptr, {}, &prepared, &error)) << error;
  Program program;
  ASSERT_TRUE(CompileStage(prepared, "main", ShaderStage::kCompute, &program, &error)) << error;
  EXPECT_FALSE(program.prints.empty()) << "debugPrintfEXT kept";
}

// The words of SPIR-V assembly `text` (a test failure when it does not assemble).
std::vector<uint32_t> AssembleText(const std::string& text) {
  std::vector<uint32_t> words;
  EXPECT_TRUE(spvtools::SpirvTools(SPV_ENV_VULKAN_1_3).Assemble(text, &words)) << text;
  return words;
}

// Whether `words` compiles for `stage`, as expected (the error when not).
void ExpectCompiles(const std::vector<uint32_t>& words, ShaderStage stage, bool ok) {
  Program program;
  std::string error;
  EXPECT_EQ(CompileStage(words, "main", stage, &program, &error), ok) << error;
}

// Workgroups past maxComputeWorkGroupSize / Invocations are refused at
// compilation: a hostile module must not size the dispatch's state (the
// execution fuzzer's first find asked for 80 x 393217 x 393217 invocations).
TEST(SpirvExecIngestTest, WorkgroupsPastTheDeviceLimitsAreRefused) {
  auto with_local_size = [](uint32_t x, uint32_t y, uint32_t z) {
    const std::string text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
                             "OpEntryPoint GLCompute %main \"main\"\n"
                             "OpExecutionMode %main LocalSize " +
                             std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(z) +
                             "\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
                             "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
    return AssembleText(text);
  };
  ExpectCompiles(with_local_size(1024, 1, 1), ShaderStage::kCompute, true);
  ExpectCompiles(with_local_size(32, 32, 1), ShaderStage::kCompute, true);
  ExpectCompiles(with_local_size(1, 1, 64), ShaderStage::kCompute, true);
  ExpectCompiles(with_local_size(2048, 1, 1), ShaderStage::kCompute, false);
  ExpectCompiles(with_local_size(64, 32, 1), ShaderStage::kCompute, false);
  ExpectCompiles(with_local_size(1, 1, 65), ShaderStage::kCompute, false);
  ExpectCompiles(with_local_size(0, 1, 1), ShaderStage::kCompute, false);
}

// Clip and cull distances past the device's limits are refused too: every
// clipped triangle pays for every plane (the fuzzer's third find declared
// 63489 clip distances, and one triangle took minutes to clip).
TEST(SpirvExecIngestTest, ClipDistancesPastTheDeviceLimitsAreRefused) {
  auto with_distances = [](uint32_t clip, uint32_t cull) {
    std::string text =
        "OpCapability Shader\nOpCapability ClipDistance\nOpCapability CullDistance\n"
        "OpMemoryModel Logical GLSL450\nOpEntryPoint Vertex %main \"main\" %out\n"
        "OpMemberDecorate %PerVertex 0 BuiltIn Position\nOpMemberDecorate %PerVertex 1 BuiltIn ClipDistance\n"
        "OpMemberDecorate %PerVertex 2 BuiltIn CullDistance\nOpDecorate %PerVertex Block\n"
        "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n%v4 = OpTypeVector %float 4\n"
        "%uint = OpTypeInt 32 0\n%clip_n = OpConstant %uint " + std::to_string(clip) +
        "\n%cull_n = OpConstant %uint " + std::to_string(cull) +
        "\n%clips = OpTypeArray %float %clip_n\n%culls = OpTypeArray %float %cull_n\n"
        "%PerVertex = OpTypeStruct %v4 %clips %culls\n%ptr = OpTypePointer Output %PerVertex\n"
        "%out = OpVariable %ptr Output\n%int = OpTypeInt 32 1\n%zero = OpConstant %int 0\n"
        "%f0 = OpConstant %float 0\n%origin = OpConstantComposite %v4 %f0 %f0 %f0 %f0\n"
        "%ptr_v4 = OpTypePointer Output %v4\n"
        "%main = OpFunction %void None %fn\n%entry = OpLabel\n%p = OpAccessChain %ptr_v4 %out %zero\n"
        "OpStore %p %origin\nOpReturn\nOpFunctionEnd\n";
    return AssembleText(text);
  };
  ExpectCompiles(with_distances(4, 4), ShaderStage::kVertex, true);
  ExpectCompiles(with_distances(7, 1), ShaderStage::kVertex, true);
  ExpectCompiles(with_distances(8, 1), ShaderStage::kVertex, false);  // 9 combined
  ExpectCompiles(with_distances(9, 1), ShaderStage::kVertex, false);
  ExpectCompiles(with_distances(1, 9), ShaderStage::kVertex, false);
  ExpectCompiles(with_distances(63489, 1), ShaderStage::kVertex, false);
}

// Private, Function and Workgroup variables past their bounds too: a wave
// holds Private and Function memory for each lane (the execution fuzzer's
// sixth find: a fragment shader's array of 2 GiB per invocation), a
// workgroup its Workgroup memory (maxComputeSharedMemorySize).
TEST(SpirvExecIngestTest, VariableMemoryPastItsBoundIsRefused) {
  auto with_array = [](const std::string& storage, uint32_t floats) {
    const bool global = storage != "Function";
    const std::string text =
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
        "OpEntryPoint GLCompute %main \"main\" %lid %out" + std::string(global ? " %var" : "") +
        "\nOpExecutionMode %main LocalSize 1 1 1\nOpDecorate %lid BuiltIn LocalInvocationIndex\n"
        "OpDecorate %Out Block\nOpMemberDecorate %Out 0 Offset 0\nOpDecorate %out DescriptorSet 0\n"
        "OpDecorate %out Binding 0\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n"
        "%float = OpTypeFloat 32\n%n = OpConstant %uint " + std::to_string(floats) +
        "\n%arr = OpTypeArray %float %n\n%ptr_arr = OpTypePointer " + storage + " %arr\n"
        "%ptr_f = OpTypePointer " + storage + " %float\n%ptr_in = OpTypePointer Input %uint\n"
        "%lid = OpVariable %ptr_in Input\n%Out = OpTypeStruct %float\n%ptr_sb = OpTypePointer StorageBuffer %Out\n"
        "%ptr_sb_f = OpTypePointer StorageBuffer %float\n%out = OpVariable %ptr_sb StorageBuffer\n"
        "%zero = OpConstant %uint 0\n%one = OpConstant %float 1\n" +
        std::string(global ? "%var = OpVariable %ptr_arr " + storage + "\n" : "") +
        "%main = OpFunction %void None %fn\n%entry = OpLabel\n" +
        std::string(global ? "" : "%var = OpVariable %ptr_arr Function\n") +
        "%i = OpLoad %uint %lid\n%p = OpAccessChain %ptr_f %var %i\nOpStore %p %one\n"
        "%q = OpAccessChain %ptr_f %var %zero\n%v = OpLoad %float %q\n%o = OpAccessChain %ptr_sb_f %out %zero\n"
        "OpStore %o %v\nOpReturn\nOpFunctionEnd\n";
    return AssembleText(text);
  };
  for (const char* storage : {"Function", "Private"}) {
    SCOPED_TRACE(storage);
    ExpectCompiles(with_array(storage, 1024), ShaderStage::kCompute, true);
    ExpectCompiles(with_array(storage, 1u << 18), ShaderStage::kCompute, true);  // 1 MiB
    ExpectCompiles(with_array(storage, (1u << 18) + 1), ShaderStage::kCompute, false);
    ExpectCompiles(with_array(storage, 1u << 29), ShaderStage::kCompute, false);  // 2 GiB
  }
  ExpectCompiles(with_array("Workgroup", 8192), ShaderStage::kCompute, true);  // 32 KiB
  ExpectCompiles(with_array("Workgroup", 8193), ShaderStage::kCompute, false);
  ExpectCompiles(with_array("Workgroup", 0x40000001), ShaderStage::kCompute, false);  // wraps in 32 bits
}

// A control shader's outputs are a record per patch of a draw: per-vertex
// arrays past the largest patch and records past their bound are refused
// (the execution fuzzer's find: `out float value[503316481]` sized 2 GB
// records).
TEST(SpirvExecIngestTest, PatchVariablesPastTheirBoundAreRefused) {
  auto control = [](const std::string& per_vertex, const std::string& per_patch) {
    const std::string text =
        "OpCapability Tessellation\nOpMemoryModel Logical GLSL450\n"
        "OpEntryPoint TessellationControl %main \"main\" %value %info %id\n"
        "OpExecutionMode %main OutputVertices 3\n"
        "OpDecorate %value Location 0\nOpDecorate %info Location 1\nOpDecorate %info Patch\n"
        "OpDecorate %id BuiltIn InvocationId\n"
        "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n%uint = OpTypeInt 32 0\n"
        "%int = OpTypeInt 32 1\n%v4 = OpTypeVector %float 4\n%nv = OpConstant %uint " + per_vertex +
        "\n%np = OpConstant %uint " + per_patch +
        "\n%arr = OpTypeArray %float %nv\n%info_t = OpTypeArray %v4 %np\n"
        "%ptr_arr = OpTypePointer Output %arr\n%ptr_info = OpTypePointer Output %info_t\n"
        "%ptr_f = OpTypePointer Output %float\n%ptr_in = OpTypePointer Input %int\n"
        "%value = OpVariable %ptr_arr Output\n%info = OpVariable %ptr_info Output\n"
        "%id = OpVariable %ptr_in Input\n%one = OpConstant %float 1\n"
        "%main = OpFunction %void None %fn\n%entry = OpLabel\n%i = OpLoad %int %id\n"
        "%p = OpAccessChain %ptr_f %value %i\nOpStore %p %one\nOpReturn\nOpFunctionEnd\n";
    return AssembleText(text);
  };
  ExpectCompiles(control("3", "1"), ShaderStage::kTessControl, true);
  ExpectCompiles(control("32", "30"), ShaderStage::kTessControl, true);
  ExpectCompiles(control("33", "1"), ShaderStage::kTessControl, false);
  ExpectCompiles(control("503316481", "1"), ShaderStage::kTessControl, false);  // the find
  // Variables within the locations, but (overlapping) past 64 KiB together.
  auto overlapping = [](int variables) {
    std::string text =
        "OpCapability Tessellation\nOpMemoryModel Logical GLSL450\nOpEntryPoint TessellationControl %main \"main\"";
    for (int i = 0; i < variables; ++i) text += " %v" + std::to_string(i);
    text += "\nOpExecutionMode %main OutputVertices 32\n";
    for (int i = 0; i < variables; ++i) text += "OpDecorate %v" + std::to_string(i) + " Location 0\n";
    text +=
        "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n%uint = OpTypeInt 32 0\n"
        "%v4 = OpTypeVector %float 4\n%n64 = OpConstant %uint 64\n%n32 = OpConstant %uint 32\n"
        "%locs = OpTypeArray %v4 %n64\n%arr = OpTypeArray %locs %n32\n%ptr = OpTypePointer Output %arr\n";
    for (int i = 0; i < variables; ++i) text += "%v" + std::to_string(i) + " = OpVariable %ptr Output\n";
    text += "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
    return AssembleText(text);
  };
  ExpectCompiles(overlapping(2), ShaderStage::kTessControl, true);   // 2 x 32 KiB
  ExpectCompiles(overlapping(3), ShaderStage::kTessControl, false);  // 96 KiB
}

// A control shader's per-vertex inputs (gl_in[]) are registers of every
// vertex: arrays past the largest patch are refused (the execution fuzzer's
// find: `in vec4 point[2952790048]` took minutes to compile).
TEST(SpirvExecIngestTest, PerVertexInputsPastThePatchAreRefused) {
  auto control = [](const std::string& vertices) {
    return AssembleText(
        "OpCapability Tessellation\nOpMemoryModel Logical GLSL450\n"
        "OpEntryPoint TessellationControl %main \"main\" %point %id\nOpExecutionMode %main OutputVertices 3\n"
        "OpDecorate %point Location 0\nOpDecorate %id BuiltIn InvocationId\n"
        "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n%uint = OpTypeInt 32 0\n"
        "%int = OpTypeInt 32 1\n%v4 = OpTypeVector %float 4\n%n = OpConstant %uint " + vertices +
        "\n%arr = OpTypeArray %v4 %n\n%ptr_arr = OpTypePointer Input %arr\n%ptr_v4 = OpTypePointer Input %v4\n"
        "%ptr_id = OpTypePointer Input %int\n%point = OpVariable %ptr_arr Input\n%id = OpVariable %ptr_id Input\n"
        "%main = OpFunction %void None %fn\n%entry = OpLabel\n%i = OpLoad %int %id\n"
        "%p = OpAccessChain %ptr_v4 %point %i\n%v = OpLoad %v4 %p\nOpReturn\nOpFunctionEnd\n");
  };
  ExpectCompiles(control("32"), ShaderStage::kTessControl, true);
  ExpectCompiles(control("33"), ShaderStage::kTessControl, false);
  ExpectCompiles(control("2952790048"), ShaderStage::kTessControl, false);  // the find
}

// So are interface arrays reaching past the locations any stage may use,
// before a slot is made for each element (the fourth find: an output of
// 134217732 vec4s asked for gigabytes of slots).
TEST(SpirvExecIngestTest, InterfaceArraysPastTheLocationsAreRefused) {
  auto with_output_array = [](uint32_t length) {
    const std::string text =
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint Vertex %main \"main\" %out\n"
        "OpDecorate %out Location 0\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n"
        "%v4 = OpTypeVector %float 4\n%uint = OpTypeInt 32 0\n%n = OpConstant %uint " +
        std::to_string(length) +
        "\n%array = OpTypeArray %v4 %n\n%ptr = OpTypePointer Output %array\n%out = OpVariable %ptr Output\n"
        "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
    return AssembleText(text);
  };
  ExpectCompiles(with_output_array(16), ShaderStage::kVertex, true);
  ExpectCompiles(with_output_array(65), ShaderStage::kVertex, false);
  const auto start = std::chrono::steady_clock::now();
  ExpectCompiles(with_output_array(134217732), ShaderStage::kVertex, false);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

// Block layouts follow the device's enabled features: a std430 uniform block
// needs uniformBufferStandardLayout.
TEST(SpirvExecIngestTest, Std430UniformBlocksNeedTheStandardLayoutRule) {
  const std::vector<uint32_t> words(std::begin(kStd430UniformComp), std::end(kStd430UniformComp));
  std::string error;
  EXPECT_FALSE(ValidateSpirv(words.data(), words.size(), {}, &error));
  EXPECT_NE(error.find("layout"), std::string::npos) << error;
  ValidationRules rules;
  rules.uniform_buffer_standard_layout = true;
  error.clear();
  EXPECT_TRUE(ValidateSpirv(words.data(), words.size(), rules, &error)) << error;
  ValidationRules scalar;
  scalar.scalar_block_layout = true;
  error.clear();
  EXPECT_TRUE(ValidateSpirv(words.data(), words.size(), scalar, &error)) << error;
}

}  // namespace
}  // namespace duet::spirv_exec

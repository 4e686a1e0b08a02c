// Shader ingestion on hostile input: modules the SPIRV-Tools validator
// accepts but its optimizer would crash on are rejected at validation
// (regressions found by tools/fuzz/fuzz_spirv_ingest).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

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

// A program that would need more registers than a wave may hold is refused
// (and quickly: nothing is allocated per register before that).
TEST(SpirvExecIngestTest, ProgramsPastTheRegisterLimitAreRefused) {
  std::vector<uint32_t> words(std::begin(kHugePrivateArraySpvasm), std::end(kHugePrivateArraySpvasm));
  std::string error;
  ASSERT_TRUE(ValidateSpirv(words.data(), words.size(), {}, &error)) << error;
  Program program;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(CompileStage(words, "main", ShaderStage::kCompute, &program, &error));
  EXPECT_NE(error.find("registers"), std::string::npos) << error;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
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

// Compiled programs as bytes (pipeline caches): every test shader survives
// the round trip, and broken bytes are refused rather than trusted.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "shaders/all_glsl_shaders.h"
#include "spirv_exec/ir_prepare.h"
#include "spirv_exec/program_codec.h"
#include "spirv_exec/spirv_ingest.h"

namespace duet::spirv_exec {
namespace {

bool StageOf(const std::string& extension, ShaderStage* stage) {
  if (extension == ".comp") *stage = ShaderStage::kCompute;
  else if (extension == ".vert") *stage = ShaderStage::kVertex;
  else if (extension == ".frag") *stage = ShaderStage::kFragment;
  else if (extension == ".geom") *stage = ShaderStage::kGeometry;
  else if (extension == ".tesc") *stage = ShaderStage::kTessControl;
  else if (extension == ".tese") *stage = ShaderStage::kTessEvaluation;
  else return false;
  return true;
}

// The translated program of a test shader, or false.
bool Translate(const GlslTestShader& shader, Program* program) {
  ShaderStage stage{};
  if (!StageOf(shader.extension, &stage)) return false;
  const std::vector<uint32_t> words(shader.words, shader.words + shader.word_count);
  ValidationRules rules;
  rules.uniform_buffer_standard_layout = rules.scalar_block_layout = rules.workgroup_scalar_block_layout = true;
  std::vector<uint32_t> prepared;
  std::string error;
  return PrepareModule(words, nullptr, rules, &prepared, &error) &&
         TranslateStage(prepared, "main", stage, program, &error);
}

TEST(ProgramCodecTest, EveryTestShaderRoundTrips) {
  size_t round_trips = 0;
  for (const GlslTestShader& shader : kAllGlslShaders) {
    SCOPED_TRACE(shader.name);
    Program program;
    if (!Translate(shader, &program)) continue;
    std::vector<uint8_t> bytes;
    EncodeProgram(program, &bytes);
    Program decoded;
    ASSERT_TRUE(DecodeProgram(bytes, &decoded));
    // Every field the encoding holds came back: encoding again gives the
    // same bytes (the static_asserts in the codec keep the field lists whole).
    std::vector<uint8_t> again;
    EncodeProgram(decoded, &again);
    EXPECT_EQ(again, bytes);
    EXPECT_EQ(decoded.code.size(), program.code.size());
    EXPECT_EQ(decoded.register_count, program.register_count);
    // ... and it prepares to the same steps.
    PrepareExecution(&program);
    PrepareExecution(&decoded);
    ASSERT_EQ(decoded.steps.size(), program.steps.size());
    for (size_t i = 0; i < program.steps.size(); ++i) {
      EXPECT_EQ(decoded.steps[i].kernel, program.steps[i].kernel);
      EXPECT_EQ(decoded.steps[i].uniform, program.steps[i].uniform);
    }
    ++round_trips;
  }
  // (A few test shaders need a specialization or another entry point.)
  EXPECT_GE(round_trips, std::size(kAllGlslShaders) * 9 / 10);
}

// Bytes that end early or run on are refused, at every length; bytes
// flipped at random decode to nothing or to a program the checks accept,
// never reading past the buffer or allocating what a count claims.
TEST(ProgramCodecTest, BrokenBytesAreRefused) {
  Program program;
  const GlslTestShader* shader = nullptr;
  for (const GlslTestShader& s : kAllGlslShaders)
    if (std::string(s.name) == "debug_printf.comp") shader = &s;
  ASSERT_NE(shader, nullptr);
  ASSERT_TRUE(Translate(*shader, &program));
  ASSERT_FALSE(program.prints.empty());  // a string and nested vectors to cut through
  std::vector<uint8_t> bytes;
  EncodeProgram(program, &bytes);
  Program decoded;
  for (size_t length = 0; length < bytes.size(); ++length)
    ASSERT_FALSE(DecodeProgram(std::span(bytes.data(), length), &decoded)) << length;
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  EXPECT_FALSE(DecodeProgram(longer, &decoded));
  // (Flipped bits are the stores' checksums' to catch; here only that the
  // decoder survives them and refuses most.)
  std::mt19937 random(7);
  size_t accepted = 0;
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint8_t> flipped = bytes;
    for (int k = 0; k < 4; ++k) flipped[random() % flipped.size()] ^= uint8_t(1u << (random() % 8));
    accepted += DecodeProgram(flipped, &decoded) ? 1 : 0;
  }
  EXPECT_LT(accepted, 2000u);
}

}  // namespace
}  // namespace duet::spirv_exec

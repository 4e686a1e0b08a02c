// What ir_prepare does to a program (copy propagation, phi coalescing,
// vector copies, output moves, uniform registers and the kernel variants
// they allow) must not change any result: shaders with divergent control
// flow run as prepared and as compiled (DUET_IR_PREPARE=plain) give the
// same bits, and the uniformity shader gives what C++ computes for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "shaders/control_flow.comp.h"
#include "shaders/half_rounding.comp.h"
#include "shaders/lit_cube.frag.h"
#include "shaders/loop_breaks.comp.h"
#include "shaders/multiply_add.comp.h"
#include "shaders/xor_shift_hash.comp.h"
#include "shaders/output_history.vert.h"
#include "shaders/pixel_position.vert.h"
#include "shaders/scalar_reflect.comp.h"
#include "shaders/textured.frag.h"
#include "shaders/uniform_control_flow.comp.h"
#include "shaders/wide_hash_steps.comp.h"
#include "shaders/zero_tests.comp.h"
#include "spirv_exec/ir.h"
#include "spirv_exec/spirv_ingest.h"
#include "spirv_exec/wave.h"

namespace duet::spirv_exec {
namespace {

template <size_t N>
Program Compile(const uint32_t (&code)[N], bool plain, ShaderStage stage = ShaderStage::kCompute) {
  std::vector<uint32_t> words(code, code + N), prepared;
  std::string error;
  EXPECT_TRUE(PrepareModule(words, nullptr, {}, &prepared, &error)) << error;
  if (plain) setenv("DUET_IR_PREPARE", "plain", 1);
  Program program;
  EXPECT_TRUE(CompileStage(prepared, "main", stage, &program, &error)) << error;
  if (plain) unsetenv("DUET_IR_PREPARE");
  return program;
}

// Runs `invocations` invocations of a one-dimensional compute program
// (workgroups of its local size) writing `out_words` words to the buffer at
// binding 0, with `push` as push constants.
std::vector<uint32_t> RunCompute(const Program& p, uint32_t invocations, std::vector<uint32_t> push, size_t out_words) {
  std::vector<uint32_t> out(out_words, 0xDEADBEEFu);
  std::vector<RootMemory> roots(p.roots.size());
  for (size_t i = 0; i < p.roots.size(); ++i) {
    if (p.roots[i].kind == RootKind::kPushConstants)
      roots[i] = {reinterpret_cast<std::byte*>(push.data()), uint32_t(push.size() * 4)};
    if (p.roots[i].kind == RootKind::kDescriptorBuffer)
      roots[i] = {reinterpret_cast<std::byte*>(out.data()), uint32_t(out.size() * 4)};
  }
  const uint32_t group = p.local_size[0];
  for (uint32_t first_group = 0; first_group < invocations; first_group += group) {
    for (uint32_t first = 0; first < group; first += kWaveWidth) {
      const uint32_t lanes = std::min(kWaveWidth, group - first);
      WaveState wave;
      ResetWave(p, lanes == kWaveWidth ? kAllLanes : (LaneMask{1} << lanes) - 1, &wave);
      for (uint32_t c = 0; c < 3; ++c)
        for (uint32_t l = 0; l < kWaveWidth; ++l)
          wave.Register(p.builtins.global_invocation_id + c)[l] = c == 0 ? first_group + first + l : 0;
      EXPECT_EQ(RunWave(p, roots.data(), nullptr, nullptr, &wave), WaveStatus::kFinished);
    }
  }
  return out;
}

void ExpectedUniformControlFlow(int id, int n, int m, int* r) {
  int i = 0, last = -1;
  for (; i < n; ++i) {
    last = i * m;
    if (i == id % 7) break;
  }
  r[0] = i;
  r[1] = last;
  int a = 1, b = 2;
  for (int k = 0; k < n; ++k) {
    const int t = a;
    a = b;
    b = t + k;
  }
  r[2] = a * 1000 + b;
  int s = 0;
  for (int x = 0; x < id % 4; ++x)
    for (int y = 0; y < m; ++y) s += x * y + 1;
  r[3] = s;
  int u = 0, c = 0;
  for (int k = 0; k < n; ++k) {
    u = k * 3 + m;
    if ((id + k) % 3 == 0) continue;
    c += u;
  }
  r[4] = u * 1000 + c;
  int acc = 0;
  for (int j = 0; j < n + (id & 3); ++j) acc += j * m;
  r[5] = acc;
  int sum = 0;
  for (int k = 0; k < n; ++k) {
    sum += k + m;
    if (id % 5 == 0 && k == 2) {
      r[6] = -sum;
      r[7] = -1;
      return;
    }
  }
  r[6] = sum;
  r[7] = n * m;
}

TEST(SpirvExecPrepareTest, UniformValuesInDivergentCode) {
  const Program prepared = Compile(kUniformControlFlowComp, false);
  const Program plain = Compile(kUniformControlFlowComp, true);
  EXPECT_LT(prepared.code.size(), plain.code.size()) << "no copy was removed";
  constexpr uint32_t kInvocations = 96;  // two workgroups of 48: partial waves
  for (const auto& [n, m] : {std::pair{5, 3}, std::pair{0, 4}, std::pair{9, -2}}) {
    const std::vector<uint32_t> push = {uint32_t(n), uint32_t(m)};
    const std::vector<uint32_t> got = RunCompute(prepared, kInvocations, push, kInvocations * 8);
    EXPECT_EQ(got, RunCompute(plain, kInvocations, push, kInvocations * 8)) << "n " << n << ", m " << m;
    for (int id = 0; id < int(kInvocations); ++id) {
      int want[8];
      ExpectedUniformControlFlow(id, n, m, want);
      for (int k = 0; k < 8; ++k)
        ASSERT_EQ(int32_t(got[id * 8 + k]), want[k]) << "invocation " << id << " result " << k << ", n " << n;
    }
  }
}

TEST(SpirvExecPrepareTest, DivergentControlFlowUnchanged) {
  const Program prepared = Compile(kControlFlowComp, false);
  const Program plain = Compile(kControlFlowComp, true);
  constexpr uint32_t kInvocations = 96;
  EXPECT_EQ(RunCompute(prepared, kInvocations, {}, kInvocations), RunCompute(plain, kInvocations, {}, kInvocations));
}

TEST(SpirvExecPrepareTest, MultiplyAddsGiveTheBitsOfTheirTwoInstructions) {
  const Program prepared = Compile(kMultiplyAddComp, false);
  const Program plain = Compile(kMultiplyAddComp, true);
  size_t fused = 0;
  for (const Inst& in : prepared.code) fused += in.op == Op::kFMulAdd;
  EXPECT_EQ(fused, 2u) << "dot(a, b)'s two adds (the optimizer already made the other products Fma)";
  constexpr uint32_t kInvocations = 96;
  for (const auto& [s, n] : {std::pair{0.1f, 5}, std::pair{-3.7f, 0}, std::pair{1e20f, 3}}) {
    const std::vector<uint32_t> push = {std::bit_cast<uint32_t>(s), uint32_t(n)};
    EXPECT_EQ(RunCompute(prepared, kInvocations, push, kInvocations * 4),
              RunCompute(plain, kInvocations, push, kInvocations * 4))
        << "s " << s << ", n " << n;
  }
}

uint32_t XorShiftHashReference(uint32_t h, uint32_t k) {
  h ^= h >> 16;
  h *= 0x7FEB352Du;
  h ^= h >> 15;
  h *= 0x846CA68Bu;
  h ^= h >> (k & 31);
  return h;
}

TEST(SpirvExecPrepareTest, XorShiftsFuseAndKeepTheirBits) {
  const Program prepared = Compile(kXorShiftHashComp, false);
  const Program plain = Compile(kXorShiftHashComp, true);
  size_t right = 0, left = 0, shifts = 0, multiplied = 0, multiply_xors = 0;
  for (const Inst& in : prepared.code) {
    right += in.op == Op::kXorShiftRight;
    multiplied += in.op == Op::kXorShiftRightMul;
    multiply_xors += in.op == Op::kIMulXor;
    left += in.op == Op::kXorShiftLeft;
    shifts += in.op == Op::kShiftRightLogical || in.op == Op::kShiftLeft;
  }
  EXPECT_EQ(right + multiplied, 5u) << "the hash's three, the loop's one and (id * 7) ^ ((id * 7) >> 2)";
  EXPECT_EQ(multiplied, 2u) << "the hash's two xor-shifts followed by a multiply";
  EXPECT_EQ(multiply_xors, 0u) << "no product is xored here";
  EXPECT_EQ(left, 2u) << "the loop's two";
  EXPECT_GE(shifts, 2u) << "the shift read twice and the shift of another value stay";
  constexpr uint32_t kInvocations = 96;
  for (const auto& [rounds, k] : {std::pair{0u, 13u}, std::pair{5u, 7u}, std::pair{3u, 31u}}) {
    const std::vector<uint32_t> push = {rounds, k};
    const std::vector<uint32_t> got = RunCompute(prepared, kInvocations, push, kInvocations * 4);
    EXPECT_EQ(got, RunCompute(plain, kInvocations, push, kInvocations * 4)) << "rounds " << rounds << ", k " << k;
    for (uint32_t id = 0; id < kInvocations; ++id) {
      uint32_t x = id * 0x9E3779B9u + 1u;
      for (uint32_t i = 0; i < rounds; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
      }
      const uint32_t s = id >> 3;
      ASSERT_EQ(got[id * 4 + 0], XorShiftHashReference(id, k)) << id;
      ASSERT_EQ(got[id * 4 + 1], x) << id;
      ASSERT_EQ(got[id * 4 + 2], (s ^ id) + s + ((id * 7u) ^ ((id * 7u) >> 2))) << id;
      ASSERT_EQ(got[id * 4 + 3], (id + 1u) ^ (id >> 1)) << id;
    }
  }
}

// What wide_hash_steps.comp computes, in C++.
void WideHashReference(uint32_t id, uint32_t rounds, uint32_t stride, uint64_t out[7]) {
  uint64_t x = uint64_t{id} * 0x9E3779B97F4A7C15ull + 1, h = 0;
  for (uint32_t i = 0; i < rounds; ++i) {
    x += 0x9E3779B97F4A7C15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    h ^= z ^ (z >> 31);
  }
  uint64_t s = x | 1;
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  const int64_t n = int64_t(h);
  out[0] = h;
  out[1] = s;
  out[2] = (x << 1) ^ (x >> 32) ^ (x << 33) ^ (x >> 63) ^ uint64_t(n >> 5) ^ uint64_t(n >> 40);
  out[3] = x * h - s;
  out[4] = id * stride + 7u;
  const uint32_t a = id * 0x9E3779B9u;
  out[5] = uint64_t{(a << 7) | (a >> 25)} | uint64_t{(a << 3) | (a >> 28)} << 32;
  out[6] = (id * 0x8DA6B343u) ^ ((id + stride) * 0xD8163841u);
}

// 64-bit shifts by constants are a shift and a funnel shift (no copies);
// x ^ (x >> k)'s low word fuses into XorFunnelShiftRight, every multiply
// whose product is added once into IMulAdd (the high word of each 64-bit
// product: two each), a 32-bit rotate into one FunnelShiftRight and an
// xor of a product into IMulXor, with the bits of the plain program.
TEST(SpirvExecPrepareTest, WideHashStepsFuseAndKeepTheirBits) {
  const Program prepared = Compile(kWideHashStepsComp, false);
  const Program plain = Compile(kWideHashStepsComp, true);
  size_t xor_funnels = 0, multiply_adds = 0, moves = 0, plain_moves = 0, rotates = 0, multiply_xors = 0;
  for (const Inst& in : prepared.code) {
    multiply_xors += in.op == Op::kIMulXor;
    xor_funnels += in.op == Op::kXorFunnelShiftRight;
    rotates += in.op == Op::kFunnelShiftRight && in.a == in.b;
    multiply_adds += in.op == Op::kIMulAdd;
    moves += in.op == Op::kMove;
  }
  for (const Inst& in : plain.code) plain_moves += in.op == Op::kMove;
  EXPECT_EQ(xor_funnels, 4u) << "splitmix's three and xorshift's >> 7";
  EXPECT_GE(multiply_adds, 7u) << "two per 64-bit product (three; the constant ones may fold), the index";
  EXPECT_LE(moves, plain_moves);
  EXPECT_EQ(rotates, 1u) << "(a << 7) | (a >> 25); (a << 3) | (a >> 28) is no rotate";
  EXPECT_EQ(multiply_xors, 1u) << "the 32-bit hash's xor of two products";
  constexpr uint32_t kInvocations = 96;
  for (const auto& [rounds, stride] : {std::pair{0u, 3u}, std::pair{1u, 0u}, std::pair{9u, 0xFFFFFFF1u}}) {
    const std::vector<uint32_t> push = {rounds, stride};
    const std::vector<uint32_t> got = RunCompute(prepared, kInvocations, push, kInvocations * 14);
    EXPECT_EQ(got, RunCompute(plain, kInvocations, push, kInvocations * 14)) << "rounds " << rounds;
    for (uint32_t id = 0; id < kInvocations; ++id) {
      uint64_t want[7];
      WideHashReference(id, rounds, stride, want);
      for (uint32_t k = 0; k < 7; ++k) {
        const uint64_t value = uint64_t{got[id * 14 + 2 * k]} | uint64_t{got[id * 14 + 2 * k + 1]} << 32;
        ASSERT_EQ(value, want[k]) << "invocation " << id << " value " << k << ", rounds " << rounds;
      }
    }
  }
}

// Phis of loops left by a break too: coalesced when the break comes before
// their value is recomputed, kept when it comes after. The Collatz step's
// if/else becomes a Select (which then writes the loop's phi) and the
// blocks after it run on without branches. The bits stay those of the
// plain program and of C++.
TEST(SpirvExecPrepareTest, PhisOfLoopsWithBreaksCoalesceOnlyBeforeTheBreak) {
  const Program prepared = Compile(kLoopBreaksComp, false);
  const Program plain = Compile(kLoopBreaksComp, true);
  auto count = [](const Program& p, Op op) {
    size_t n = 0;
    for (const Inst& in : p.code) n += in.op == op;
    return n;
  };
  EXPECT_LT(count(prepared, Op::kEdgeMove), count(plain, Op::kEdgeMove)) << "the first loop's phis";
  EXPECT_EQ(count(plain, Op::kSelect), 0u);
  EXPECT_EQ(count(prepared, Op::kSelect), 1u) << "the Collatz step";
  EXPECT_EQ(count(prepared, Op::kBranchCond), count(plain, Op::kBranchCond) - 1);
  EXPECT_LE(count(prepared, Op::kBlockBegin), count(plain, Op::kBlockBegin) - 4)
      << "the arms, their merge block and the loop's continue block";
  constexpr uint32_t kInvocations = 96;
  for (const uint32_t limit : {0u, 1u, 7u, 200u}) {
    const std::vector<uint32_t> got = RunCompute(prepared, kInvocations, {limit}, kInvocations * 4);
    EXPECT_EQ(got, RunCompute(plain, kInvocations, {limit}, kInvocations * 4)) << "limit " << limit;
    for (uint32_t id = 0; id < kInvocations; ++id) {
      uint32_t n = id + 1, steps = 0;
      for (; steps < limit; ++steps) {
        if (n == 1) break;
        n = (n & 1) != 0 ? 3 * n + 1 : n >> 1;
      }
      uint32_t c = id, i = 0;
      for (;;) {
        const uint32_t next = c * 3 + 1;
        if (i >= limit || (next & 3) == 0) break;
        c = next;
        ++i;
      }
      const uint32_t want[4] = {n, steps, c, i};
      for (uint32_t k = 0; k < 4; ++k)
        ASSERT_EQ(got[id * 4 + k], want[k]) << "invocation " << id << " value " << k << ", limit " << limit;
    }
  }
}

// 16-bit float operations (and Fma) round their own results, and a
// conversion's rounding reads its source (no move and RoundToF16 after
// each), with the bits of the plain program: overflow to infinity,
// denormals and ties included.
TEST(SpirvExecPrepareTest, HalfOperationsRoundTheirOwnResults) {
  const Program prepared = Compile(kHalfRoundingComp, false);
  const Program plain = Compile(kHalfRoundingComp, true);
  size_t fused = 0, rounds = 0, plain_rounds = 0;
  for (const Inst& in : prepared.code) {
    fused += in.op == Op::kFAddToF16 || in.op == Op::kFSubToF16 || in.op == Op::kFMulToF16 ||
             in.op == Op::kFDivToF16 || in.op == Op::kFmaToF16;
    fused += in.op == Op::kRoundToF16 && in.a != in.dst;  // a conversion's move and rounding
    rounds += in.op == Op::kRoundToF16 && in.a == in.dst;
  }
  for (const Inst& in : plain.code) plain_rounds += in.op == Op::kRoundToF16;
  EXPECT_GE(fused, 8u) << "x * y, x - ..., x / y, the loop's divide, the optimizer's Fmas, the conversions";
  EXPECT_EQ(rounds + fused, plain_rounds) << "each rounding either fused or kept";
  constexpr uint32_t kInvocations = 96;
  for (const float scale : {0.37f, 1000.0f, 3e-6f, -0.001f}) {
    for (const uint32_t rounds_pushed : {0u, 9u}) {
      const std::vector<uint32_t> push = {std::bit_cast<uint32_t>(scale), rounds_pushed};
      EXPECT_EQ(RunCompute(prepared, kInvocations, push, kInvocations * 4),
                RunCompute(plain, kInvocations, push, kInvocations * 4))
          << "scale " << scale << ", rounds " << rounds_pushed;
    }
  }
}

// Comparisons with zero read by one Select or branch fold into it (the
// operands, targets and phi edges swapped for == 0), with the bits of the
// plain program and of C++.
TEST(SpirvExecPrepareTest, ZeroTestsFoldIntoTheirSelectOrBranch) {
  const Program prepared = Compile(kZeroTestsComp, false);
  const Program plain = Compile(kZeroTestsComp, true);
  auto compares = [](const Program& p) {
    size_t n = 0;
    for (const Inst& in : p.code) n += in.op == Op::kIEqual || in.op == Op::kINotEqual;
    return n;
  };
  EXPECT_LE(compares(prepared) + 3, compares(plain));
  constexpr uint32_t kInvocations = 96;
  for (const auto& [mask, rounds] : {std::pair{0u, 0u}, std::pair{5u, 3u}, std::pair{0xFFu, 11u}}) {
    const std::vector<uint32_t> push = {mask, rounds};
    const std::vector<uint32_t> got = RunCompute(prepared, kInvocations, push, kInvocations * 4);
    EXPECT_EQ(got, RunCompute(plain, kInvocations, push, kInvocations * 4)) << "mask " << mask;
    for (uint32_t id = 0; id < kInvocations; ++id) {
      const uint32_t bits = id & mask;
      uint32_t c = 0, d = id;
      for (uint32_t i = 0; i < rounds; ++i) {
        if (((id >> (i & 7)) & 1) == 0) {
          c += i * 9 + d;
          d = d * 5 + 1;
        } else {
          d ^= c + i;
          c = c * 3 + 2;
        }
      }
      uint32_t n = bits, steps = 0;
      while (n != 0 && steps < 40) {
        n &= n - 1;
        ++steps;
      }
      uint32_t m = 0, k = id;
      for (uint32_t i = 0; i < rounds; ++i) {
        k = k * 3 + 1;
        if ((k & 16) == 0) {
          m = k;
          break;
        }
      }
      const uint32_t want[4] = {(bits != 0 ? id * 3 : id + 100) ^ (m << 8), (id & 4) == 0 ? 7 : id, c ^ d, steps};
      for (uint32_t k = 0; k < 4; ++k)
        ASSERT_EQ(got[id * 4 + k], want[k]) << "invocation " << id << " value " << k << ", mask " << mask;
    }
  }
}

TEST(SpirvExecPrepareTest, ProductsAddedToThemselvesStay) {
  const Program prepared = Compile(kScalarReflectComp, false);
  const Program plain = Compile(kScalarReflectComp, true);
  constexpr uint32_t kInvocations = 96;
  for (const float s : {0.1f, -3.7f, 12.5f}) {
    const std::vector<uint32_t> push = {std::bit_cast<uint32_t>(s)};
    const std::vector<uint32_t> got = RunCompute(prepared, kInvocations, push, kInvocations * 2);
    EXPECT_EQ(got, RunCompute(plain, kInvocations, push, kInvocations * 2)) << "s " << s;
  }
}

// The outputs of a vertex program for vertices 0..3, every component.
std::vector<uint32_t> RunVertices(const Program& p) {
  WaveState wave;
  ResetWave(p, (LaneMask{1} << 4) - 1, &wave);
  const uint32_t index = p.BuiltinInput(uint32_t(spv::BuiltIn::VertexIndex));
  EXPECT_NE(index, UINT32_MAX);
  for (uint32_t l = 0; l < kWaveWidth; ++l) wave.Register(index)[l] = l;
  EXPECT_EQ(RunWave(p, nullptr, nullptr, nullptr, &wave), WaveStatus::kFinished);
  std::vector<uint32_t> out;
  auto take = [&](uint32_t reg, uint32_t count) {
    for (uint32_t r = reg; r < reg + count; ++r) out.insert(out.end(), wave.Register(r), wave.Register(r) + 4);
  };
  for (const InterfaceSlot& s : p.outputs) take(s.reg, s.count);
  take(p.BuiltinOutput(uint32_t(spv::BuiltIn::Position)), 4);
  return out;
}

TEST(SpirvExecPrepareTest, CopiesOfOutputsKeepTheirValues) {
  const Program program = Compile(kOutputHistoryVert, false, ShaderStage::kVertex);
  const std::vector<uint32_t> prepared = RunVertices(program);
  EXPECT_EQ(prepared, RunVertices(Compile(kOutputHistoryVert, true, ShaderStage::kVertex)));
  // trail (location 1) of vertex v: the sum over i = 1..3 of 10 (v + i - 1) + (i - 1) / 2.
  const InterfaceSlot* trail = nullptr;
  size_t at = 0;
  for (const InterfaceSlot& s : program.outputs) {
    if (s.location == 1) trail = &s;
    if (trail == nullptr) at += 4 * s.count;
  }
  ASSERT_NE(trail, nullptr);
  ASSERT_GT(prepared.size(), at + 3);
  for (uint32_t v = 0; v < 4; ++v) EXPECT_EQ(std::bit_cast<float>(prepared[at + v]), 30.0f * float(v) + 31.5f);
}

TEST(SpirvExecPrepareTest, ConstantOutputsAreKnown) {
  // out_color = vec4(lit colour, 1.0): alpha is the same in every lane.
  const Program p = Compile(kLitCubeFrag, false, ShaderStage::kFragment);
  ASSERT_EQ(p.outputs.size(), 1u);
  ASSERT_EQ(p.outputs[0].count, 4u);
  const std::pair<uint32_t, uint32_t> alpha{p.outputs[0].reg + 3, std::bit_cast<uint32_t>(1.0f)};
  const std::vector<std::pair<uint32_t, uint32_t>> expected = {alpha};
  EXPECT_EQ(p.constant_outputs, expected);
}

// The sample's results nobody reads are marked (Inst::c): lit_cube.frag
// uses texture(...).rgb, textured.frag writes all four to its output.
TEST(SpirvExecPrepareTest, UnreadSampleResultsAreMarked) {
  auto sample_marks = [](const Program& p) {
    std::vector<uint32_t> marks;
    for (const Inst& in : p.code)
      if (in.op == Op::kImageSample) marks.push_back(in.c);
    return marks;
  };
  EXPECT_EQ(sample_marks(Compile(kLitCubeFrag, false, ShaderStage::kFragment)), std::vector<uint32_t>{0x8u});
  EXPECT_EQ(sample_marks(Compile(kTexturedFrag, false, ShaderStage::kFragment)), std::vector<uint32_t>{0u});
  // DUET_IR_PREPARE=plain leaves them all in use.
  EXPECT_EQ(sample_marks(Compile(kLitCubeFrag, true, ShaderStage::kFragment)), std::vector<uint32_t>{0u});
}

// Moves whose destination is one of the stage's outputs.
size_t OutputMoves(const Program& p) {
  size_t moves = 0;
  for (const Inst& in : p.code) {
    if (in.op != Op::kMove) continue;
    for (const InterfaceSlot& s : p.outputs) moves += in.dst >= s.reg && in.dst < s.reg + s.count;
    for (const BuiltinSlot& s : p.builtin_outputs) moves += in.dst >= s.reg && in.dst < s.reg + s.count;
  }
  return moves;
}

TEST(SpirvExecPrepareTest, OutputsAreWrittenWhereTheyAreComputed) {
  // gl_Position and `pixel` are computed (their moves go), `pixel_too` is
  // a copy of an output (its moves stay); the outputs keep their values.
  const Program prepared = Compile(kPixelPositionVert, false, ShaderStage::kVertex);
  const Program plain = Compile(kPixelPositionVert, true, ShaderStage::kVertex);
  EXPECT_LT(OutputMoves(prepared), OutputMoves(plain));
  std::vector<float> push = {-0.5f, -0.25f, 0.75f, 1.0f, 640.0f, 480.0f, 0.0f, 0.0f, 0.5f};
  push.resize(16, 0.0f);
  auto run = [&](const Program& p) {
    std::vector<RootMemory> roots(p.roots.size());
    for (size_t i = 0; i < p.roots.size(); ++i)
      if (p.roots[i].kind == RootKind::kPushConstants)
        roots[i] = {reinterpret_cast<std::byte*>(push.data()), uint32_t(push.size() * 4)};
    WaveState wave;
    ResetWave(p, (LaneMask{1} << 4) - 1, &wave);
    const uint32_t index = p.BuiltinInput(uint32_t(spv::BuiltIn::VertexIndex));
    EXPECT_NE(index, UINT32_MAX);
    for (uint32_t l = 0; l < kWaveWidth; ++l) wave.Register(index)[l] = l;
    EXPECT_EQ(RunWave(p, roots.data(), nullptr, nullptr, &wave), WaveStatus::kFinished);
    std::vector<uint32_t> out;  // every output component of the four vertices
    auto take = [&](uint32_t reg, uint32_t count) {
      for (uint32_t r = reg; r < reg + count; ++r) out.insert(out.end(), wave.Register(r), wave.Register(r) + 4);
    };
    for (const InterfaceSlot& s : p.outputs) take(s.reg, s.count);
    take(p.BuiltinOutput(uint32_t(spv::BuiltIn::Position)), 4);
    return out;
  };
  const std::vector<uint32_t> a = run(prepared), b = run(plain);
  EXPECT_EQ(a, b);
  ASSERT_EQ(a.size(), 4u * 8);
  // Vertex 3 (bounds' far corner): pixel = (ndc * 0.5 + 0.5) * (640, 480), copied to pixel_too.
  EXPECT_FLOAT_EQ(std::bit_cast<float>(a[3]), (0.75f * 0.5f + 0.5f) * 640.0f);
  EXPECT_EQ(a[3], a[2 * 4 + 3]);
}

TEST(SpirvExecPrepareTest, SamplesReadAndWriteTheInterfaceRegisters) {
  // out_color = texture(tex, v_uv): the sample reads the input's registers
  // and writes the output's, with no move left.
  const Program p = Compile(kTexturedFrag, false, ShaderStage::kFragment);
  ASSERT_EQ(p.inputs.size(), 1u);
  ASSERT_EQ(p.outputs.size(), 1u);
  size_t samples = 0;
  for (const Inst& in : p.code) {
    EXPECT_NE(in.op, Op::kMove);
    if (in.op != Op::kImageSample) continue;
    ++samples;
    EXPECT_EQ(in.a, p.inputs[0].reg);
    EXPECT_EQ(in.dst, p.outputs[0].reg);
  }
  EXPECT_EQ(samples, 1u);
}

}  // namespace
}  // namespace duet::spirv_exec

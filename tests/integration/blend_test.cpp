// Colour blending through the loader: every blend factor and blend op, on
// UNORM (clamped) and float (unclamped) attachments, separate colour and
// alpha equations, blend constants from the pipeline and from dynamic
// state, colour write masks, two attachments blended differently, colour
// writes switched per attachment (VK_EXT_color_write_enable) and alpha
// replaced by one (alphaToOne).
//
// Each configuration blends a full-screen rectangle into one 16x16 cell of
// a 64x64 target whose every pixel starts with its own colour; the source
// colour is also different at every pixel (blend_pattern.frag hashes the
// position). The expected image is the spec's blend equations evaluated on
// the host in double precision.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/blend_dual_source.frag.h"
#include "shaders/blend_pattern.frag.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 64, kCell = 16, kCellsPerRow = kSize / kCell, kCellsPerImage = kCellsPerRow * kCellsPerRow;

// blend_pattern.frag's hash.
uint32_t Hash(uint32_t x, uint32_t y, uint32_t seed) {
  uint32_t h = x * 0x9E3779B1u ^ y * 0x85EBCA77u ^ seed * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  h *= 0x297A2D39u;
  h ^= h >> 15;
  return h;
}

// The colour a hash stands for: k/255 for UNORM attachments, k/64 - 1 for float ones.
std::array<double, 4> Pattern(uint32_t h, bool unorm) {
  std::array<double, 4> c;
  for (int i = 0; i < 4; ++i) {
    const double byte = double((h >> (8 * i)) & 0xFF);
    c[size_t(i)] = unorm ? double(float(byte) / 255.0f) : byte / 64.0 - 1.0;
  }
  return c;
}

constexpr VkBlendFactor kFactors[] = {
    VK_BLEND_FACTOR_ZERO,           VK_BLEND_FACTOR_ONE,
    VK_BLEND_FACTOR_SRC_COLOR,      VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR,
    VK_BLEND_FACTOR_DST_COLOR,      VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR,
    VK_BLEND_FACTOR_SRC_ALPHA,      VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
    VK_BLEND_FACTOR_DST_ALPHA,      VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA,
    VK_BLEND_FACTOR_CONSTANT_COLOR, VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR,
    VK_BLEND_FACTOR_CONSTANT_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA,
    VK_BLEND_FACTOR_SRC_ALPHA_SATURATE};
constexpr VkBlendFactor kDualSourceFactors[] = {VK_BLEND_FACTOR_SRC1_COLOR, VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR,
                                                VK_BLEND_FACTOR_SRC1_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA};
constexpr VkBlendOp kOps[] = {VK_BLEND_OP_ADD, VK_BLEND_OP_SUBTRACT, VK_BLEND_OP_REVERSE_SUBTRACT, VK_BLEND_OP_MIN,
                              VK_BLEND_OP_MAX};

// The spec's blend factor for component c (s1: the second source colour).
double Factor(VkBlendFactor f, const std::array<double, 4>& s, const std::array<double, 4>& s1,
              const std::array<double, 4>& d, const std::array<double, 4>& k, size_t c) {
  switch (f) {
    case VK_BLEND_FACTOR_ZERO: return 0;
    case VK_BLEND_FACTOR_ONE: return 1;
    case VK_BLEND_FACTOR_SRC_COLOR: return s[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1 - s[c];
    case VK_BLEND_FACTOR_DST_COLOR: return d[c];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1 - d[c];
    case VK_BLEND_FACTOR_SRC_ALPHA: return s[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1 - s[3];
    case VK_BLEND_FACTOR_DST_ALPHA: return d[3];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 1 - d[3];
    case VK_BLEND_FACTOR_CONSTANT_COLOR: return k[c];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 1 - k[c];
    case VK_BLEND_FACTOR_CONSTANT_ALPHA: return k[3];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 1 - k[3];
    case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return c == 3 ? 1 : std::min(s[3], 1 - d[3]);
    case VK_BLEND_FACTOR_SRC1_COLOR: return s1[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return 1 - s1[c];
    case VK_BLEND_FACTOR_SRC1_ALPHA: return s1[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return 1 - s1[3];
    default: ADD_FAILURE() << "factor " << f; return 0;
  }
}

double Apply(VkBlendOp op, double s, double sf, double d, double df) {
  switch (op) {
    case VK_BLEND_OP_ADD: return s * sf + d * df;
    case VK_BLEND_OP_SUBTRACT: return s * sf - d * df;
    case VK_BLEND_OP_REVERSE_SUBTRACT: return d * df - s * sf;
    case VK_BLEND_OP_MIN: return std::min(s, d);
    case VK_BLEND_OP_MAX: return std::max(s, d);
    default: ADD_FAILURE() << "op " << op; return 0;
  }
}

// The blended (and write-masked) value of one pixel, before conversion.
std::array<double, 4> Blend(const VkPipelineColorBlendAttachmentState& b, std::array<double, 4> s,
                            std::array<double, 4> s1, const std::array<double, 4>& d, std::array<double, 4> k,
                            bool unorm, bool alpha_to_one = false) {
  if (alpha_to_one) s[3] = s1[3] = 1.0;
  if (unorm)  // fixed-point attachments clamp the source colours and the constants
    for (size_t c = 0; c < 4; ++c) {
      s[c] = std::clamp(s[c], 0.0, 1.0);
      s1[c] = std::clamp(s1[c], 0.0, 1.0);
      k[c] = std::clamp(k[c], 0.0, 1.0);
    }
  std::array<double, 4> out = s;
  if (b.blendEnable)
    for (size_t c = 0; c < 4; ++c) {
      const bool alpha = c == 3;
      const VkBlendFactor sf = alpha ? b.srcAlphaBlendFactor : b.srcColorBlendFactor;
      const VkBlendFactor df = alpha ? b.dstAlphaBlendFactor : b.dstColorBlendFactor;
      out[c] = Apply(alpha ? b.alphaBlendOp : b.colorBlendOp, s[c], Factor(sf, s, s1, d, k, c), d[c],
                     Factor(df, s, s1, d, k, c));
    }
  for (size_t c = 0; c < 4; ++c)
    if ((b.colorWriteMask & (1u << c)) == 0) out[c] = d[c];
  return out;
}

std::string Describe(const VkPipelineColorBlendAttachmentState& b) {
  return "blend " + std::to_string(b.blendEnable) + " colour " + std::to_string(b.srcColorBlendFactor) + "," +
         std::to_string(b.dstColorBlendFactor) + " op " + std::to_string(b.colorBlendOp) + " alpha " +
         std::to_string(b.srcAlphaBlendFactor) + "," + std::to_string(b.dstAlphaBlendFactor) + " op " +
         std::to_string(b.alphaBlendOp) + " mask " + std::to_string(b.colorWriteMask);
}

// One configuration: the blend state of each attachment and the constants.
struct Config {
  std::vector<VkPipelineColorBlendAttachmentState> blend;
  std::array<float, 4> constants{0.25f, 0.5f, 0.75f, 0.625f};
  bool dynamic_constants = false;  // vkCmdSetBlendConstants instead of the pipeline's
  // VK_EXT_color_write_enable, per attachment (empty: all written), from the
  // pipeline or from vkCmdSetColorWriteEnableEXT.
  std::vector<VkBool32> write_enables;
  bool dynamic_write_enables = false;
  bool alpha_to_one = false;  // source alphas replaced by one before blending
};

VkPipelineColorBlendAttachmentState Equation(VkBlendFactor sc, VkBlendFactor dc, VkBlendOp cop, VkBlendFactor sa,
                                             VkBlendFactor da, VkBlendOp aop, VkColorComponentFlags mask = 0xF) {
  return BlendState(true, sc, dc, cop, sa, da, aop, mask);
}

class BlendTest : public GraphicsTest {
 protected:
  BlendTest() {
    device_options_.extensions = {VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME};
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&color_write_)};
  }
  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    set_color_write_enable_ = DeviceProc<PFN_vkCmdSetColorWriteEnableEXT>("vkCmdSetColorWriteEnableEXT");
    ASSERT_NE(set_color_write_enable_, nullptr);
  }

  // Draws each configuration into its own cell of fresh targets of
  // `formats` (RGBA8 UNORM or RGBA32 float) and compares every pixel with
  // the host's blend. `fragment` writes the source colours (two outputs).
  void Check(const std::vector<VkFormat>& formats, const std::vector<Config>& configs,
             const uint32_t* fragment_code = kBlendPatternFrag, size_t fragment_bytes = sizeof kBlendPatternFrag) {
    const VkShaderModule fragment = Module(fragment_code, fragment_bytes);
    for (size_t first = 0; first < configs.size(); first += kCellsPerImage) {
      const size_t count = std::min<size_t>(kCellsPerImage, configs.size() - first);
      const uint32_t seed = uint32_t(first) * 7 + 1;
      // Values k/255 when the first attachment is UNORM, else k/64 - 1.
      const bool unorm_pattern = IsUnorm(formats[0]);
      std::vector<Target> targets;
      for (size_t a = 0; a < formats.size(); ++a) {
        targets.push_back(MakeTarget(formats[a], {kSize, kSize}));
        ASSERT_NO_FATAL_FAILURE(FillDestination(targets.back(), seed + 100 + uint32_t(a), unorm_pattern));
      }
      std::vector<AttachmentUse> uses;
      for (const Target& t : targets) uses.push_back({&t});
      VkCommandBuffer cb = BeginCommands();
      BeginRendering(cb, uses);
      for (size_t i = 0; i < count; ++i) {
        const Config& config = configs[first + i];
        PipelineDesc desc = RectPipeline(fragment, {kSize, kSize});
        desc.color_formats = formats;
        desc.blend = config.blend;
        std::copy(config.constants.begin(), config.constants.end(), desc.blend_constants);
        desc.dynamic_states = {VK_DYNAMIC_STATE_SCISSOR};
        if (config.dynamic_constants) {
          desc.dynamic_states.push_back(VK_DYNAMIC_STATE_BLEND_CONSTANTS);
          std::fill(desc.blend_constants, desc.blend_constants + 4, 0.0f);  // must not be used
        }
        desc.alpha_to_one = config.alpha_to_one;
        const VkPipelineColorWriteCreateInfoEXT write_enables{VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT,
                                                              nullptr, uint32_t(config.write_enables.size()),
                                                              config.write_enables.data()};
        if (config.dynamic_write_enables)
          desc.dynamic_states.push_back(VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT);
        else if (!config.write_enables.empty())
          desc.color_blend_next = &write_enables;
        const VkPipeline pipeline = MakePipeline(desc);
        ASSERT_NE(pipeline, VK_NULL_HANDLE);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        if (config.dynamic_constants) vkCmdSetBlendConstants(cb, config.constants.data());
        if (config.dynamic_write_enables)
          set_color_write_enable_(cb, uint32_t(config.write_enables.size()), config.write_enables.data());
        const VkRect2D cell = Cell(i);
        vkCmdSetScissor(cb, 0, 1, &cell);
        RectParams rect;
        rect.seed = seed;
        rect.mode = unorm_pattern ? 0 : 1;
        DrawRect(cb, desc.layout, rect);
      }
      vkCmdEndRendering(cb);
      ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
      for (size_t a = 0; a < formats.size(); ++a)
        ASSERT_NO_FATAL_FAILURE(Compare(targets[a], uint32_t(a), seed, unorm_pattern, &configs[first], count));
    }
  }

  static VkRect2D Cell(size_t i) {
    return {{int32_t(i % kCellsPerRow * kCell), int32_t(i / kCellsPerRow * kCell)}, {kCell, kCell}};
  }

  static bool IsUnorm(VkFormat format) { return format == VK_FORMAT_R8G8B8A8_UNORM; }

  void FillDestination(const Target& t, uint32_t seed, bool unorm_pattern) {
    if (IsUnorm(t.format)) {
      std::vector<uint32_t> texels(kSize * kSize);
      for (uint32_t i = 0; i < texels.size(); ++i) texels[i] = Hash(i % kSize, i / kSize, seed);
      Fill(t, VK_IMAGE_ASPECT_COLOR_BIT, texels);
    } else {
      std::vector<std::array<float, 4>> texels(kSize * kSize);
      for (uint32_t i = 0; i < texels.size(); ++i) {
        const std::array<double, 4> c = Pattern(Hash(i % kSize, i / kSize, seed), unorm_pattern);
        for (size_t k = 0; k < 4; ++k) texels[i][k] = float(c[k]);
      }
      Fill(t, VK_IMAGE_ASPECT_COLOR_BIT, texels);
    }
  }

  // Attachment `a` against the host's blend of each configuration's cell.
  void Compare(const Target& t, uint32_t a, uint32_t seed, bool unorm_pattern, const Config* configs, size_t count) {
    const bool unorm = IsUnorm(t.format);
    std::vector<std::array<double, 4>> got(kSize * kSize);
    if (unorm) {
      const std::vector<uint32_t> pixels = Read<uint32_t>(t);
      for (size_t i = 0; i < got.size(); ++i)
        for (int c = 0; c < 4; ++c) got[i][size_t(c)] = Channel(pixels[i], c);
    } else {
      const std::vector<std::array<float, 4>> pixels = Read<std::array<float, 4>>(t);
      for (size_t i = 0; i < got.size(); ++i)
        for (size_t c = 0; c < 4; ++c) got[i][c] = pixels[i][c];
    }
    ASSERT_EQ(got.size(), size_t(kSize * kSize));
    int failures = 0;
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const size_t cell = y / kCell * kCellsPerRow + x / kCell;
        const std::array<double, 4> d = Pattern(Hash(x, y, seed + 100 + a), unorm_pattern);
        std::array<double, 4> expected = d;  // where no configuration drew
        const VkPipelineColorBlendAttachmentState* state = cell < count ? &configs[cell].blend[a] : nullptr;
        if (state != nullptr) {
          // Output location a is the attachment's source; dual-source blending
          // takes its second colour from location 0, index 1.
          const std::array<double, 4> s = Pattern(Hash(x, y, seed + a), unorm_pattern);
          const std::array<double, 4> s1 = Pattern(Hash(x, y, seed + 1), unorm_pattern);
          std::array<double, 4> k;
          for (size_t c = 0; c < 4; ++c) k[c] = configs[cell].constants[c];
          const bool written = a >= configs[cell].write_enables.size() || configs[cell].write_enables[a];
          if (written) expected = Blend(*state, s, s1, d, k, unorm, configs[cell].alpha_to_one);
        }
        for (size_t c = 0; c < 4; ++c) {
          const double e = unorm ? std::round(std::clamp(expected[c], 0.0, 1.0) * 255.0) : double(float(expected[c]));
          const double tolerance = unorm ? 1.0 : 1e-5 * std::max(1.0, std::abs(e));
          if (std::abs(got[y * kSize + x][c] - e) <= tolerance) continue;
          if (failures++ < 8)
            ADD_FAILURE() << "attachment " << a << " pixel " << x << "," << y << " channel " << c << ": got "
                          << got[y * kSize + x][c] << ", expected " << e << " ("
                          << (state != nullptr ? Describe(*state) : "not drawn") << ", dst " << d[c] << ")";
        }
      }
    EXPECT_EQ(failures, 0) << "attachment " << a;
  }

  VkPhysicalDeviceColorWriteEnableFeaturesEXT color_write_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT, nullptr, VK_TRUE};
  PFN_vkCmdSetColorWriteEnableEXT set_color_write_enable_ = nullptr;

  // Every factor in each of the four slots, its partner factor ZERO and the
  // op ADD, so the result is the factor times one colour (RandomEquations
  // pairs factors with non-zero partners).
  static std::vector<Config> EveryFactor(bool dual_source = false) {
    std::vector<Config> configs;
    auto add = [&](VkBlendFactor f) {
      constexpr VkBlendFactor Z = VK_BLEND_FACTOR_ZERO;
      constexpr VkBlendOp A = VK_BLEND_OP_ADD;
      configs.push_back({{Equation(f, Z, A, f, Z, A)}});
      configs.push_back({{Equation(Z, f, A, Z, f, A)}});
    };
    if (dual_source)
      for (VkBlendFactor f : kDualSourceFactors) add(f);
    else
      for (VkBlendFactor f : kFactors) add(f);
    return configs;
  }

  // Every op with factors that are not ONE (MIN and MAX must ignore them),
  // colour and alpha with different ops.
  static std::vector<Config> EveryOp() {
    std::vector<Config> configs;
    for (size_t i = 0; i < std::size(kOps); ++i) {
      configs.push_back({{Equation(VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_CONSTANT_COLOR, kOps[i],
                                   VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, kOps[(i + 2) % std::size(kOps)])}});
      configs.push_back({{Equation(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, kOps[i], VK_BLEND_FACTOR_DST_COLOR,
                                   VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR, kOps[(i + 3) % std::size(kOps)])}});
    }
    return configs;
  }

  // Random equations, separate for colour and alpha.
  static std::vector<Config> RandomEquations(uint64_t seed, size_t count) {
    Random random(seed);
    std::vector<Config> configs;
    auto factor = [&] { return kFactors[random.Below(uint32_t(std::size(kFactors)))]; };
    auto op = [&] { return kOps[random.Below(uint32_t(std::size(kOps)))]; };
    for (size_t i = 0; i < count; ++i) {
      Config c;
      c.blend = {Equation(factor(), factor(), op(), factor(), factor(), op())};
      for (float& k : c.constants) k = float(random.Below(256)) / 255.0f;
      c.dynamic_constants = i % 2 == 1;
      configs.push_back(c);
    }
    return configs;
  }
};

TEST_F(BlendTest, EveryFactorOnUnorm) { Check({VK_FORMAT_R8G8B8A8_UNORM}, EveryFactor()); }

TEST_F(BlendTest, EveryFactorOnFloat) {
  // Constants outside [0, 1] stay as they are on a float attachment.
  std::vector<Config> configs = EveryFactor();
  for (Config& c : configs) c.constants = {1.5f, -0.25f, 0.75f, 2.0f};
  Check({VK_FORMAT_R32G32B32A32_SFLOAT}, configs);
}

TEST_F(BlendTest, EveryOpOnUnormAndFloat) {
  Check({VK_FORMAT_R8G8B8A8_UNORM}, EveryOp());
  Check({VK_FORMAT_R32G32B32A32_SFLOAT}, EveryOp());
}

TEST_F(BlendTest, SeparateColorAndAlphaEquations) {
  Check({VK_FORMAT_R8G8B8A8_UNORM}, RandomEquations(11, 16));
  Check({VK_FORMAT_R32G32B32A32_SFLOAT}, RandomEquations(12, 16));
}

TEST_F(BlendTest, ConstantsFromPipelineAndDynamicState) {
  std::vector<Config> configs;
  for (VkBlendFactor f : {VK_BLEND_FACTOR_CONSTANT_COLOR, VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR,
                          VK_BLEND_FACTOR_CONSTANT_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA})
    for (bool dynamic : {false, true}) {
      Config c{{Equation(f, f, VK_BLEND_OP_ADD, f, f, VK_BLEND_OP_ADD)}};
      c.constants = dynamic ? std::array<float, 4>{0.125f, 0.875f, 0.5f, 0.375f}
                            : std::array<float, 4>{0.75f, 0.25f, 1.0f, 0.0f};
      c.dynamic_constants = dynamic;
      configs.push_back(c);
    }
  Check({VK_FORMAT_R8G8B8A8_UNORM}, configs);
}

TEST_F(BlendTest, ColorWriteMasks) {
  // Every mask, with blending off (even masks) or on (odd ones): masked
  // components keep the destination.
  std::vector<Config> configs;
  for (VkColorComponentFlags mask = 0; mask < 16; ++mask)
    configs.push_back({{Equation(VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
                                 VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_MAX, mask)}});
  for (Config& c : configs) c.blend[0].blendEnable = c.blend[0].colorWriteMask % 2;
  Check({VK_FORMAT_R8G8B8A8_UNORM}, configs);
}

TEST_F(BlendTest, TwoAttachmentsBlendIndependently) {
  if (!features_.independentBlend) GTEST_SKIP() << "independentBlend is not advertised";
  // Attachment 0 (UNORM) and attachment 1 (float) each with their own
  // equation and write mask, in every cell.
  std::vector<Config> configs;
  Random random(5);
  for (size_t i = 0; i < kCellsPerImage; ++i) {
    auto factor = [&] { return kFactors[random.Below(uint32_t(std::size(kFactors)))]; };
    auto op = [&] { return kOps[random.Below(uint32_t(std::size(kOps)))]; };
    Config c;
    c.blend = {Equation(factor(), factor(), op(), factor(), factor(), op(), VkColorComponentFlags(15 - i % 4)),
               Equation(factor(), factor(), op(), factor(), factor(), op(), VkColorComponentFlags(1 + i % 15))};
    if (i % 5 == 0) c.blend[1].blendEnable = VK_FALSE;
    if (i % 7 == 0) c.blend[0].blendEnable = VK_FALSE;
    configs.push_back(c);
  }
  Check({VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT}, configs);
}

TEST_F(BlendTest, TwoAttachmentsShareOneBlendState) {
  // Without independentBlend every attachment has the same state; each
  // still blends its own source colour with its own destination.
  std::vector<Config> configs;
  for (const Config& c : RandomEquations(21, kCellsPerImage)) configs.push_back({{c.blend[0], c.blend[0]}});
  Check({VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}, configs);
}

// VK_EXT_color_write_enable: an attachment whose write is disabled keeps
// its contents, whatever its blend state, from the pipeline and as dynamic
// state (which replaces the pipeline's).
TEST_F(BlendTest, ColorWriteEnables) {
  const VkPipelineColorBlendAttachmentState add = Equation(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD,
                                                           VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD);
  const VkPipelineColorBlendAttachmentState plain = BlendState(false, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
                                                               VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                                                               VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD);
  std::vector<Config> configs;
  for (bool dynamic : {false, true})
    for (std::vector<VkBool32> enables : {std::vector<VkBool32>{VK_TRUE, VK_FALSE}, {VK_FALSE, VK_TRUE},
                                          {VK_FALSE, VK_FALSE}, {VK_TRUE, VK_TRUE}}) {
      Config c{{add, plain}};
      c.write_enables = enables;
      c.dynamic_write_enables = dynamic;
      configs.push_back(c);
    }
  Check({VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}, configs);
}

// alphaToOne: every colour output's alpha becomes one before blending.
TEST_F(BlendTest, AlphaToOne) {
  ASSERT_EQ(features_.alphaToOne, VK_TRUE);
  std::vector<Config> configs;
  for (VkBlendFactor f : {VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA}) {
    Config c{{Equation(f, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                       VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD),
              Equation(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                       VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD)}};
    c.alpha_to_one = true;
    configs.push_back(c);
  }
  Check({VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT}, configs);
}

TEST_F(BlendTest, DualSourceFactors) {
  if (!features_.dualSrcBlend) GTEST_SKIP() << "dualSrcBlend is not advertised";
  Check({VK_FORMAT_R8G8B8A8_UNORM}, EveryFactor(true), kBlendDualSourceFrag, sizeof kBlendDualSourceFrag);
  Check({VK_FORMAT_R32G32B32A32_SFLOAT}, EveryFactor(true), kBlendDualSourceFrag, sizeof kBlendDualSourceFrag);
}

}  // namespace
}  // namespace duet_test

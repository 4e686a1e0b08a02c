// Depth and stencil tests through the loader: every stencil op on the
// stencil-fail, pass and depth-fail paths, every compare op for stencil
// and depth, compare and write masks, references, separate front and back
// state, depth writes on and off; on every depth/stencil format the device
// supports, with state from the pipeline and from dynamic state.
//
// Each configuration draws one rectangle into its own 16x16 cell of 64x64
// attachments whose every pixel starts with its own depth and stencil
// value (around the rectangle's depth and reference, and the extremes).
// The expected depth, stencil and colour are the spec's per-sample tests
// evaluated on the host.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"

namespace duet_test {
namespace {

constexpr uint32_t kSize = 64, kCell = 16, kCellsPerRow = kSize / kCell, kCells = kCellsPerRow * kCellsPerRow;

constexpr VkStencilOp kStencilOps[] = {
    VK_STENCIL_OP_KEEP,      VK_STENCIL_OP_ZERO,   VK_STENCIL_OP_REPLACE,
    VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_STENCIL_OP_DECREMENT_AND_CLAMP, VK_STENCIL_OP_INVERT,
    VK_STENCIL_OP_INCREMENT_AND_WRAP,  VK_STENCIL_OP_DECREMENT_AND_WRAP};

uint8_t StencilOp(VkStencilOp op, uint8_t value, uint8_t reference) {
  switch (op) {
    case VK_STENCIL_OP_KEEP: return value;
    case VK_STENCIL_OP_ZERO: return 0;
    case VK_STENCIL_OP_REPLACE: return reference;
    case VK_STENCIL_OP_INCREMENT_AND_CLAMP: return value == 255 ? 255 : uint8_t(value + 1);
    case VK_STENCIL_OP_DECREMENT_AND_CLAMP: return value == 0 ? 0 : uint8_t(value - 1);
    case VK_STENCIL_OP_INVERT: return uint8_t(~value);
    case VK_STENCIL_OP_INCREMENT_AND_WRAP: return uint8_t(value + 1);
    case VK_STENCIL_OP_DECREMENT_AND_WRAP: return uint8_t(value - 1);
    default: ADD_FAILURE() << "stencil op " << op; return value;
  }
}

// Depth values in the attachment's own terms: the integer of a UNORM
// format, the bits of a float; `Unit` apart is the smallest step.
struct DepthFormat {
  VkFormat format;
  uint32_t bytes;  // per texel in a buffer copy of the depth aspect (0: no depth)
  uint32_t bits;   // UNORM bits (0: float)

  // The fragment depth for stored value `q` (exact: quantizes back to q).
  float ToFloat(uint32_t q) const {
    if (bits == 0) {
      float f;
      std::memcpy(&f, &q, 4);
      return f;
    }
    return float(double(q) / double((1ull << bits) - 1));
  }
  uint32_t FromFloat(float z) const {
    if (bits == 0) {
      uint32_t q;
      std::memcpy(&q, &z, 4);
      return q;
    }
    return uint32_t(std::lround(double(z) * double((1ull << bits) - 1)));
  }
  // Ordered like the depths they stand for (non-negative floats order as their bits).
  uint32_t Mask() const { return bits == 0 ? ~0u : uint32_t((1ull << bits) - 1); }
};

DepthFormat DepthOf(VkFormat format) {
  switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT: return {format, 2, 16};
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: return {format, 4, 24};
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT: return {format, 4, 0};
    default: return {format, 0, 0};
  }
}

// One cell's state.
struct Config {
  bool stencil_test = true;
  VkStencilOpState front{VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF,
                         0xFF, 0};
  VkStencilOpState back = front;
  bool depth_test = true, depth_write = true;
  VkCompareOp depth_compare = VK_COMPARE_OP_LESS;
  bool back_facing = false;
  bool dynamic = false;  // the state comes from vkCmdSet* on a pipeline that declares it dynamic
};

std::string Describe(const VkStencilOpState& s) {
  return "fail " + std::to_string(s.failOp) + " pass " + std::to_string(s.passOp) + " depthFail " +
         std::to_string(s.depthFailOp) + " compare " + std::to_string(s.compareOp) + " masks " +
         std::to_string(s.compareMask) + "/" + std::to_string(s.writeMask) + " reference " +
         std::to_string(s.reference);
}

std::string Describe(const Config& c) {
  return (c.back_facing ? "back-facing, " : "front-facing, ") + std::string(c.dynamic ? "dynamic" : "static") +
         " stencil " + std::to_string(c.stencil_test) + " front " + Describe(c.front) + " back " + Describe(c.back) +
         " depth test " + std::to_string(c.depth_test) + " write " + std::to_string(c.depth_write) + " compare " +
         std::to_string(c.depth_compare);
}

class DepthStencilTest : public GraphicsTest {
 protected:
  // Draws each configuration into its cell on fresh attachments of
  // `format` and checks depth, stencil and colour at every pixel.
  void Check(VkFormat format, const std::vector<Config>& configs) {
    if (!Supports(format, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)) {
      std::printf("%s: format %d is not a depth/stencil attachment format here: skipped\n",
                  CurrentTestName().c_str(), format);
      return;
    }
    const DepthFormat depth = DepthOf(format);
    const bool has_stencil = HasStencil(format);
    const VkShaderModule fragment = Module(kFlatColorFrag);
    PipelineDesc dynamic_desc = RectPipeline(fragment, {kSize, kSize});
    dynamic_desc.depth_format = depth.bytes != 0 ? format : VK_FORMAT_UNDEFINED;
    dynamic_desc.stencil_format = has_stencil ? format : VK_FORMAT_UNDEFINED;
    dynamic_desc.dynamic_states = {VK_DYNAMIC_STATE_SCISSOR};
    PipelineDesc static_desc = dynamic_desc;
    dynamic_desc.dynamic_states.insert(
        dynamic_desc.dynamic_states.end(),
        {VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
         VK_DYNAMIC_STATE_STENCIL_REFERENCE, VK_DYNAMIC_STATE_STENCIL_OP, VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
         VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE, VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
         VK_DYNAMIC_STATE_DEPTH_COMPARE_OP});
    // Pipeline values the dynamic state must override.
    dynamic_desc.depth_stencil.depthTestEnable = VK_FALSE;
    dynamic_desc.depth_stencil.stencilTestEnable = VK_FALSE;
    dynamic_desc.depth_stencil.front = {VK_STENCIL_OP_INVERT, VK_STENCIL_OP_INVERT, VK_STENCIL_OP_INVERT,
                                        VK_COMPARE_OP_NEVER, 0, 0, 0};
    const VkPipeline dynamic_pipeline = MakePipeline(dynamic_desc);
    ASSERT_NE(dynamic_pipeline, VK_NULL_HANDLE);

    for (size_t first = 0; first < configs.size(); first += kCells) {
      const size_t count = std::min<size_t>(kCells, configs.size() - first);
      const Config* cells = &configs[first];
      Random random(first * 31 + format);
      // Each cell's fragment depth, then every pixel's starting values.
      std::vector<uint32_t> z(count);
      for (uint32_t& q : z)
        q = depth.bits == 0 ? depth.FromFloat(random.Uniform(0.25f, 0.75f))
                            : uint32_t((1ull << (depth.bits - 2)) + random.Below(1u << (depth.bits - 1)));
      std::vector<uint32_t> stored_depth(kSize * kSize);
      std::vector<uint8_t> stored_stencil(kSize * kSize);
      for (uint32_t i = 0; i < kSize * kSize; ++i) {
        const size_t cell = CellOf(i % kSize, i / kSize);
        const uint32_t zc = cell < count ? z[cell] : depth.FromFloat(0.5f);
        const uint32_t depths[] = {zc - 1, zc, zc + 1, depth.FromFloat(0.0f), depth.FromFloat(1.0f)};
        stored_depth[i] = depths[random.Below(5)];
        const VkStencilOpState& face =
            cell < count ? (cells[cell].back_facing ? cells[cell].back : cells[cell].front) : cells[0].front;
        const uint8_t reference = uint8_t(face.reference);
        const uint8_t stencils[] = {0, 1, 254, 255, reference, uint8_t(reference + 1), uint8_t(reference - 1),
                                    uint8_t(random.Next())};
        stored_stencil[i] = stencils[random.Below(8)];
      }
      const Target target = MakeTarget(format, {kSize, kSize});
      const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, {kSize, kSize});
      if (depth.bytes == 2) ASSERT_NO_FATAL_FAILURE(Fill(target, VK_IMAGE_ASPECT_DEPTH_BIT, Narrow16(stored_depth)));
      if (depth.bytes == 4) ASSERT_NO_FATAL_FAILURE(Fill(target, VK_IMAGE_ASPECT_DEPTH_BIT, stored_depth));
      if (has_stencil) ASSERT_NO_FATAL_FAILURE(Fill(target, VK_IMAGE_ASPECT_STENCIL_BIT, stored_stencil));

      VkCommandBuffer cb = BeginCommands();
      VkClearValue black{};
      BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, black}}, {&target});
      for (size_t i = 0; i < count; ++i) {
        const Config& c = cells[i];
        VkPipeline pipeline = dynamic_pipeline;
        if (c.dynamic) {
          vkCmdSetStencilTestEnable(cb, c.stencil_test);
          for (auto [face, s] : {std::pair{VK_STENCIL_FACE_FRONT_BIT, &c.front},
                                 std::pair{VK_STENCIL_FACE_BACK_BIT, &c.back}}) {
            vkCmdSetStencilOp(cb, face, s->failOp, s->passOp, s->depthFailOp, s->compareOp);
            vkCmdSetStencilCompareMask(cb, face, s->compareMask);
            vkCmdSetStencilWriteMask(cb, face, s->writeMask);
            vkCmdSetStencilReference(cb, face, s->reference);
          }
          vkCmdSetDepthTestEnable(cb, c.depth_test);
          vkCmdSetDepthWriteEnable(cb, c.depth_write);
          vkCmdSetDepthCompareOp(cb, c.depth_compare);
        } else {
          PipelineDesc desc = static_desc;
          desc.depth_stencil.stencilTestEnable = c.stencil_test;
          desc.depth_stencil.front = c.front;
          desc.depth_stencil.back = c.back;
          desc.depth_stencil.depthTestEnable = c.depth_test;
          desc.depth_stencil.depthWriteEnable = c.depth_write;
          desc.depth_stencil.depthCompareOp = c.depth_compare;
          pipeline = MakePipeline(desc);
          ASSERT_NE(pipeline, VK_NULL_HANDLE);
        }
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        const VkRect2D cell{{int32_t(i % kCellsPerRow * kCell), int32_t(i / kCellsPerRow * kCell)}, {kCell, kCell}};
        vkCmdSetScissor(cb, 0, 1, &cell);
        RectParams rect;
        rect.z = depth.bits != 0 || depth.bytes != 0 ? depth.ToFloat(z[i]) : 0.5f;
        rect.back = c.back_facing;
        rect.color[0] = float(i + 1) / 255.0f;
        DrawRect(cb, dynamic_desc.layout, rect);
      }
      vkCmdEndRendering(cb);
      ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

      const std::vector<uint32_t> colors = Read<uint32_t>(color);
      std::vector<uint32_t> depths;
      if (depth.bytes == 4) depths = Read<uint32_t>(target, VK_IMAGE_ASPECT_DEPTH_BIT);
      if (depth.bytes == 2)
        for (uint16_t d : Read<uint16_t>(target, VK_IMAGE_ASPECT_DEPTH_BIT)) depths.push_back(d);
      const std::vector<uint8_t> stencils =
          has_stencil ? Read<uint8_t>(target, VK_IMAGE_ASPECT_STENCIL_BIT) : std::vector<uint8_t>{};
      int failures = 0;
      for (uint32_t i = 0; i < kSize * kSize; ++i) {
        const size_t cell = CellOf(i % kSize, i / kSize);
        uint32_t expected_depth = stored_depth[i];
        uint8_t expected_stencil = stored_stencil[i];
        uint32_t expected_color = 0;
        if (cell < count) {
          const Config& c = cells[cell];
          const VkStencilOpState& face = c.back_facing ? c.back : c.front;
          const uint8_t reference = uint8_t(face.reference);
          const bool stencil_on = c.stencil_test && has_stencil;
          auto update = [&](VkStencilOp op) {
            const uint8_t mask = uint8_t(face.writeMask);
            if (stencil_on)
              expected_stencil = uint8_t((stored_stencil[i] & ~mask) | (StencilOp(op, stored_stencil[i], reference) & mask));
          };
          const uint8_t cmask = uint8_t(face.compareMask);
          if (stencil_on && !CompareOpPasses(face.compareOp, uint8_t(reference & cmask), uint8_t(stored_stencil[i] & cmask))) {
            update(face.failOp);
          } else if (c.depth_test && depth.bytes != 0 &&
                     !CompareOpPasses(c.depth_compare, z[cell] & depth.Mask(), stored_depth[i] & depth.Mask())) {
            update(face.depthFailOp);
          } else {
            update(face.passOp);
            if (c.depth_test && c.depth_write && depth.bytes != 0) expected_depth = z[cell];
            expected_color = PackRgba8(uint32_t(cell + 1), 0, 0, 0);
          }
        }
        const bool depth_ok = depth.bytes == 0 || (depths[i] & depth.Mask()) == (expected_depth & depth.Mask());
        const bool stencil_ok = !has_stencil || stencils[i] == expected_stencil;
        const bool color_ok = (colors[i] & 0xFF) == (expected_color & 0xFF);
        if (depth_ok && stencil_ok && color_ok) continue;
        if (failures++ < 6)
          ADD_FAILURE() << "format " << format << " pixel " << i % kSize << "," << i / kSize << ": depth "
                        << (depth.bytes != 0 ? depths[i] & depth.Mask() : 0) << " expected "
                        << (expected_depth & depth.Mask()) << " (was " << (stored_depth[i] & depth.Mask())
                        << ", fragment " << (cell < count ? z[cell] : 0) << "), stencil "
                        << (has_stencil ? int(stencils[i]) : -1) << " expected " << int(expected_stencil)
                        << " (was " << int(stored_stencil[i]) << "), colour " << (colors[i] & 0xFF) << " expected "
                        << (expected_color & 0xFF) << "; " << (cell < count ? Describe(cells[cell]) : "not drawn");
      }
      EXPECT_EQ(failures, 0) << "format " << format;
    }
  }

  static size_t CellOf(uint32_t x, uint32_t y) { return y / kCell * kCellsPerRow + x / kCell; }

  static std::vector<uint16_t> Narrow16(const std::vector<uint32_t>& v) {
    std::vector<uint16_t> out;
    for (uint32_t d : v) out.push_back(uint16_t(d));
    return out;
  }

  // Every stencil op once on each path (fail, depth fail, pass), under
  // compare ops that let both outcomes happen; then every compare op with
  // random ops, masks and references; front and back faces alternate, with
  // the other face's state set to something that would show.
  static std::vector<Config> StencilConfigs(uint64_t seed) {
    Random random(seed);
    auto random_state = [&] {
      VkStencilOpState s{};
      s.failOp = kStencilOps[random.Below(8)];
      s.passOp = kStencilOps[random.Below(8)];
      s.depthFailOp = kStencilOps[random.Below(8)];
      s.compareOp = kCompareOps[random.Below(8)];
      const uint32_t masks[] = {0xFF, 0x0F, 0xF0, 0x3C, 0x00, random.Next() & 0xFF};
      s.compareMask = masks[random.Below(6)];
      s.writeMask = masks[random.Below(6)];
      const uint32_t references[] = {0, 255, 0x80, random.Next() & 0xFF};
      s.reference = references[random.Below(4)];
      return s;
    };
    std::vector<Config> configs;
    for (uint32_t i = 0; i < 32; ++i) {
      Config c;
      VkStencilOpState s = random_state();
      if (i < 8) {
        s.failOp = kStencilOps[i];
        s.passOp = kStencilOps[(i + 3) % 8];
        s.depthFailOp = kStencilOps[(i + 6) % 8];
        s.compareOp = i % 2 == 0 ? VK_COMPARE_OP_LESS : VK_COMPARE_OP_GREATER_OR_EQUAL;
        s.compareMask = 0xFF;
        s.writeMask = 0xFF;
        c.depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
      } else if (i < 16) {
        s.compareOp = kCompareOps[i - 8];
        c.depth_compare = kCompareOps[(i + 3) % 8];
      } else {
        c.depth_compare = kCompareOps[random.Below(8)];
        c.depth_write = random.Below(2) == 1;
        c.depth_test = random.Below(4) != 0;
      }
      c.back_facing = i % 2 == 1;
      (c.back_facing ? c.back : c.front) = s;
      (c.back_facing ? c.front : c.back) = random_state();
      c.dynamic = (i / 2) % 4 != 0;  // pipeline state for both faces once in each group of 8
      configs.push_back(c);
    }
    return configs;
  }
};

TEST_F(DepthStencilTest, StencilOpsCompareOpsAndMasksOnD24S8) {
  Check(VK_FORMAT_D24_UNORM_S8_UINT, StencilConfigs(1));
}

TEST_F(DepthStencilTest, StencilOpsCompareOpsAndMasksOnD32S8) {
  Check(VK_FORMAT_D32_SFLOAT_S8_UINT, StencilConfigs(2));
}

TEST_F(DepthStencilTest, StencilOpsCompareOpsAndMasksOnS8AndD16S8) {
  Check(VK_FORMAT_S8_UINT, StencilConfigs(3));
  Check(VK_FORMAT_D16_UNORM_S8_UINT, StencilConfigs(4));
}

TEST_F(DepthStencilTest, StencilTestDisabledWritesNoStencil) {
  std::vector<Config> configs = StencilConfigs(5);
  for (Config& c : configs) c.stencil_test = false;
  Check(VK_FORMAT_D24_UNORM_S8_UINT, configs);
}

TEST_F(DepthStencilTest, EveryDepthCompareOpWithWritesOnAndOff) {
  std::vector<Config> configs;
  for (bool write : {true, false})
    for (VkCompareOp op : kCompareOps) {
      Config c;
      c.stencil_test = false;
      c.depth_compare = op;
      c.depth_write = write;
      c.dynamic = configs.size() % 3 != 0;
      configs.push_back(c);
    }
  Config disabled;  // writes need the depth test enabled
  disabled.stencil_test = false;
  disabled.depth_test = false;
  configs.push_back(disabled);
  for (VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32}) {
    SCOPED_TRACE(format);
    Check(format, configs);
  }
}

}  // namespace
}  // namespace duet_test

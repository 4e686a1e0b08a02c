// VK_EXT_conditional_rendering: dispatches, draws and vkCmdClearAttachments
// between vkCmdBeginConditionalRenderingEXT and its end run only when the
// 32-bit predicate is non-zero (zero with the inverted flag), in secondary
// command buffers executed there too; other commands always run.
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"
#include "shaders/saxpy.comp.h"

namespace duet_test {
namespace {

// Predicates at byte offsets 0 (zero) and 4 (non-zero).
constexpr VkDeviceSize kZero = 0, kNonZero = 4;

template <typename Base>
class ConditionalRendering : public Base {
 protected:
  ConditionalRendering() {
    this->device_options_.extensions = {VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME};
    this->device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&features_)};
  }

  void SetUp() override {
    Base::SetUp();
    if (this->HasFatalFailure()) return;
    begin_ = reinterpret_cast<PFN_vkCmdBeginConditionalRenderingEXT>(
        vkGetDeviceProcAddr(this->device_, "vkCmdBeginConditionalRenderingEXT"));
    end_ = reinterpret_cast<PFN_vkCmdEndConditionalRenderingEXT>(
        vkGetDeviceProcAddr(this->device_, "vkCmdEndConditionalRenderingEXT"));
    ASSERT_NE(begin_, nullptr);
    ASSERT_NE(end_, nullptr);
    predicates_ = this->MakeHostBuffer(8, VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT);
    ASSERT_NE(predicates_.data, nullptr);
    const uint32_t values[2] = {0, 7};
    std::memcpy(predicates_.data, values, sizeof values);
  }

  void Begin(VkCommandBuffer cb, VkDeviceSize offset, bool inverted) {
    VkConditionalRenderingBeginInfoEXT info{VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT};
    info.buffer = predicates_.buffer;
    info.offset = offset;
    info.flags = inverted ? VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT : 0;
    begin_(cb, &info);
  }

  VkPhysicalDeviceConditionalRenderingFeaturesEXT features_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT, nullptr, VK_TRUE, VK_TRUE};
  PFN_vkCmdBeginConditionalRenderingEXT begin_ = nullptr;
  PFN_vkCmdEndConditionalRenderingEXT end_ = nullptr;
  typename Base::HostBuffer predicates_;
};

using ConditionalDraws = ConditionalRendering<GraphicsTest>;

class ConditionalCompute : public ConditionalRendering<ComputeFixture> {
 protected:
  static constexpr uint32_t kCount = 64;
  struct Push {
    float a;
    uint32_t n;
  };
  // saxpy over x = 1 and y = 0: each dispatch adds 1 to every y.
  struct Saxpy {
    HostBuffer x, y;
    Kernel kernel;
  };
  Saxpy MakeSaxpy() {
    Saxpy s{StorageBuffer(kCount * 4), StorageBuffer(kCount * 4), {}};
    for (uint32_t i = 0; i < kCount; ++i) {
      s.x.as<float>()[i] = 1.0f;
      s.y.as<float>()[i] = 0.0f;
    }
    s.kernel = MakeKernel(kSaxpyComp, {s.x.buffer, s.y.buffer}, sizeof(Push));
    return s;
  }
  void Bind(VkCommandBuffer cb, const Kernel& k) {
    const Push push = {1.0f, kCount};
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, nullptr);
    vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  }
};

// saxpy (y += x, x = 1) dispatched under each predicate and inversion, and
// once outside: three of the five run.
TEST_F(ConditionalCompute, DispatchesFollowThePredicate) {
  const Saxpy s = MakeSaxpy();
  VkCommandBuffer cb = BeginCommands();
  Bind(cb, s.kernel);
  const std::pair<VkDeviceSize, bool> cases[] = {{kZero, false}, {kNonZero, false}, {kZero, true}, {kNonZero, true}};
  for (const auto& [offset, inverted] : cases) {
    Begin(cb, offset, inverted);
    vkCmdDispatch(cb, 1, 1, 1);
    end_(cb);
  }
  vkCmdDispatch(cb, 1, 1, 1);
  EndSubmitWait(cb);
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(s.y.as<float>()[i], 3.0f) << i;
}

// A secondary command buffer's dispatch inherits the primary's predicate.
TEST_F(ConditionalCompute, SecondaryCommandBuffersInheritThePredicate) {
  const Saxpy s = MakeSaxpy();
  VkCommandBuffer secondary = AllocateCommandBuffer(VK_NULL_HANDLE, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  VkCommandBufferInheritanceConditionalRenderingInfoEXT conditional{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_CONDITIONAL_RENDERING_INFO_EXT, nullptr, VK_TRUE};
  VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO, &conditional};
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;  // executed twice below
  bi.pInheritanceInfo = &inheritance;
  ASSERT_EQ(vkBeginCommandBuffer(secondary, &bi), VK_SUCCESS);
  Bind(secondary, s.kernel);
  vkCmdDispatch(secondary, 1, 1, 1);
  ASSERT_EQ(vkEndCommandBuffer(secondary), VK_SUCCESS);

  VkCommandBuffer cb = BeginCommands();
  Begin(cb, kZero, false);
  vkCmdExecuteCommands(cb, 1, &secondary);  // discarded
  end_(cb);
  Begin(cb, kNonZero, false);
  vkCmdExecuteCommands(cb, 1, &secondary);  // runs
  end_(cb);
  EndSubmitWait(cb);
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(s.y.as<float>()[i], 1.0f) << i;
}

// A discarded draw and a discarded vkCmdClearAttachments leave the target as
// it was; the same commands with a non-zero predicate draw and clear.
TEST_F(ConditionalDraws, DrawsAndAttachmentClearsFollowThePredicate) {
  constexpr VkExtent2D kExtent{16, 16};
  const PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent);
  const VkPipeline pipeline = MakePipeline(desc);
  for (const VkDeviceSize predicate : {kZero, kNonZero}) {
    SCOPED_TRACE(predicate == kZero ? "zero predicate" : "non-zero predicate");
    const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    Begin(cb, predicate, false);
    RectParams rect;
    rect.bounds[2] = 0.0f;  // the left half, red
    rect.color[1] = rect.color[2] = 0.0f;
    DrawRect(cb, desc.layout, rect);
    VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
    clear.clearValue.color = {{0.0f, 0.0f, 1.0f, 1.0f}};  // the right half, blue
    const VkClearRect rect_clear{{{8, 0}, {8, 16}}, 0, 1};
    vkCmdClearAttachments(cb, 1, &clear, 1, &rect_clear);
    end_(cb);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    const std::vector<uint32_t> pixels = Read<uint32_t>(target);
    ASSERT_EQ(pixels.size(), 16u * 16u);
    const bool runs = predicate == kNonZero;
    EXPECT_EQ(pixels[4 * 16 + 3], runs ? PackRgba8(255, 0, 0, 255) : 0u);
    EXPECT_EQ(pixels[4 * 16 + 12], runs ? PackRgba8(0, 0, 255, 255) : 0u);
  }
}

}  // namespace
}  // namespace duet_test

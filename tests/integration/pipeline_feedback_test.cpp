// VkPipelineCreationFeedbackCreateInfo (Vulkan 1.3,
// VK_EXT_pipeline_creation_feedback): the pipeline's and each stage's
// creation time, marked valid.
#include <gtest/gtest.h>

#include "compute_fixture.h"
#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"
#include "shaders/rect.vert.h"
#include "shaders/saxpy.comp.h"

namespace duet_test {
namespace {

class PipelineFeedbackTest : public GraphicsTest {};

TEST_F(PipelineFeedbackTest, GraphicsPipelineAndStages) {
  VkPipelineCreationFeedback pipeline{}, stages[3]{};
  stages[2].flags = 0x40000000;  // past the two stages: untouched
  VkPipelineCreationFeedbackCreateInfo feedback{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
  feedback.pPipelineCreationFeedback = &pipeline;
  feedback.pipelineStageCreationFeedbackCount = 2;
  feedback.pPipelineStageCreationFeedbacks = stages;
  PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), {8, 8});
  desc.next = &feedback;
  ASSERT_NE(MakePipeline(desc), VK_NULL_HANDLE);
  EXPECT_TRUE(pipeline.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
  EXPECT_GT(pipeline.duration, 0u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE(stages[i].flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) << "stage " << i;
    EXPECT_GT(stages[i].duration, 0u) << "stage " << i;
    EXPECT_LE(stages[i].duration, pipeline.duration) << "stage " << i;
  }
  EXPECT_EQ(stages[2].flags, 0x40000000u);
}

class ComputeFeedbackTest : public ComputeFixture {};

TEST_F(ComputeFeedbackTest, ComputePipelineAndItsStage) {
  VkPipelineCreationFeedback pipeline{}, stage{};
  VkPipelineCreationFeedbackCreateInfo feedback{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
  feedback.pPipelineCreationFeedback = &pipeline;
  feedback.pipelineStageCreationFeedbackCount = 1;
  feedback.pPipelineStageCreationFeedbacks = &stage;
  VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mci.codeSize = sizeof kSaxpyComp;
  mci.pCode = kSaxpyComp;
  VkShaderModule module = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateShaderModule(device_, &mci, nullptr, &module), VK_SUCCESS);
  Defer([this, module] { vkDestroyShaderModule(device_, module, nullptr); });
  HostBuffer x = StorageBuffer(64), y = StorageBuffer(64);
  const Kernel saxpy = MakeKernel(kSaxpyComp, {x.buffer, y.buffer}, 8);  // for its layout
  VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, &feedback};
  ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module,
              "main", nullptr};
  ci.layout = saxpy.layout;
  VkPipeline p = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &ci, nullptr, &p), VK_SUCCESS);
  vkDestroyPipeline(device_, p, nullptr);
  EXPECT_TRUE(pipeline.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
  EXPECT_TRUE(stage.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
  EXPECT_GT(stage.duration, 0u);
  EXPECT_LE(stage.duration, pipeline.duration);
}

}  // namespace
}  // namespace duet_test

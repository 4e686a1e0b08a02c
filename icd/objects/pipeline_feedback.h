// VkPipelineCreationFeedbackCreateInfo (Vulkan 1.3, VK_EXT_pipeline_creation_
// feedback): how long creating a pipeline and each of its stages took. The
// driver has no pipeline cache yet, so no feedback says a cache was hit.
#pragma once

#include <vulkan/vulkan_core.h>

#include <chrono>

namespace duet {

class PipelineFeedback {
 public:
  // `next`: the create info's pNext chain; `stage_count` its stageCount.
  PipelineFeedback(const void* next, uint32_t stage_count);

  // Call around the work on stage `index` of pStages.
  void BeginStage() { stage_start_ = Clock::now(); }
  void EndStage(uint32_t index);
  // Writes the whole pipeline's time; call once the pipeline is created.
  void Finish();

 private:
  using Clock = std::chrono::steady_clock;
  const VkPipelineCreationFeedbackCreateInfo* info_ = nullptr;
  uint32_t stage_count_ = 0;
  Clock::time_point start_, stage_start_;
};

}  // namespace duet

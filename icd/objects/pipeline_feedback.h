// VkPipelineCreationFeedbackCreateInfo (Vulkan 1.3, VK_EXT_pipeline_creation_
// feedback): how long creating a pipeline and each of its stages took, and
// which came from the application's pipeline cache.
#pragma once

#include <vulkan/vulkan_core.h>

#include <chrono>

namespace duet {

// A duration in nanoseconds, as feedback reports it.
uint64_t Nanoseconds(std::chrono::steady_clock::duration d);

class PipelineFeedback {
 public:
  // `next`: the create info's pNext chain; `stage_count` its stageCount.
  PipelineFeedback(const void* next, uint32_t stage_count);

  // Call around the work on stage `index` of pStages.
  void BeginStage() { stage_start_ = Clock::now(); }
  // `app_hit`: the stage came from the application's pipeline cache.
  void EndStage(uint32_t index, bool app_hit = false);
  // The time stage `index` took, measured by the caller (stages made at once).
  void SetStage(uint32_t index, uint64_t nanoseconds, bool app_hit);
  // Writes the whole pipeline's time; call once the pipeline is created.
  // `app_hit`: every stage came from the application's pipeline cache.
  void Finish(bool app_hit = false);

 private:
  using Clock = std::chrono::steady_clock;
  const VkPipelineCreationFeedbackCreateInfo* info_ = nullptr;
  uint32_t stage_count_ = 0;
  Clock::time_point start_, stage_start_;
};

}  // namespace duet

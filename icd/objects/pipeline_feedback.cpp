#include "objects/pipeline_feedback.h"

#include "util/vk_util.h"

namespace duet {
namespace {

VkPipelineCreationFeedbackFlags Flags(bool app_hit) {
  return VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
         (app_hit ? VkPipelineCreationFeedbackFlags(VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT)
                  : 0u);
}

}  // namespace

uint64_t Nanoseconds(std::chrono::steady_clock::duration d) {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
}

PipelineFeedback::PipelineFeedback(const void* next, uint32_t stage_count)
    : info_(FindInChain<VkPipelineCreationFeedbackCreateInfo>(
          next, VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO)),
      stage_count_(stage_count),
      start_(Clock::now()) {
  if (info_ == nullptr) return;
  if (info_->pPipelineCreationFeedback != nullptr) *info_->pPipelineCreationFeedback = {};
  // Stages the driver does not reach (creation failed early) stay invalid.
  for (uint32_t i = 0; i < info_->pipelineStageCreationFeedbackCount && info_->pPipelineStageCreationFeedbacks; ++i)
    info_->pPipelineStageCreationFeedbacks[i] = {};
}

void PipelineFeedback::EndStage(uint32_t index, bool app_hit) {
  SetStage(index, Nanoseconds(Clock::now() - stage_start_), app_hit);
}

void PipelineFeedback::SetStage(uint32_t index, uint64_t nanoseconds, bool app_hit) {
  if (info_ == nullptr || info_->pPipelineStageCreationFeedbacks == nullptr ||
      index >= info_->pipelineStageCreationFeedbackCount || index >= stage_count_)
    return;
  info_->pPipelineStageCreationFeedbacks[index] = {Flags(app_hit), nanoseconds};
}

void PipelineFeedback::Finish(bool app_hit) {
  if (info_ == nullptr || info_->pPipelineCreationFeedback == nullptr) return;
  *info_->pPipelineCreationFeedback = {
      Flags(app_hit),
      Nanoseconds(Clock::now() - start_)};
}

}  // namespace duet

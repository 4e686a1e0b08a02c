// Full-screen fragment shaders: one triangle covering the target
// (positions from gl_VertexIndex, no vertex buffer, no depth), each pixel
// running the row's shader: 64 rounds of sin and cos (alu_heavy.frag),
// domain-warped value-noise fbm (noise.frag), divergent branches and
// early-exit loops (branchy.frag), eight dependent texture samples
// (texture_heavy.frag).
#include <cmath>
#include <span>

#include "graphics_pipeline.h"
#include "graphics_workloads.h"
#include "shaders/alu_heavy.frag.h"
#include "shaders/branchy.frag.h"
#include "shaders/fullscreen.vert.h"
#include "shaders/noise.frag.h"
#include "shaders/texture_heavy.frag.h"
#include "sampled_texture.h"
#include "vk_bench_device.h"

namespace duet_bench {
namespace {

class FullscreenShader final : public GraphicsWorkload {
 public:
  // `push`: the fragment shader's push constants (empty: none);
  // `texture`: a combined image sampler at set 0, binding 0 (or none).
  FullscreenShader(BenchDevice& device, std::string_view name, std::span<const uint32_t> fragment,
                   std::span<const uint32_t> push = {}, const SampledTexture* texture = nullptr)
      : GraphicsWorkload(device, name, false, {.min_coverage = 1.0, .max_coverage = 1.0}),
        push_(push.begin(), push.end()) {
    const VkPushConstantRange range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, uint32_t(push.size_bytes())};
    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                               VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
    const SetLayout layout =
        CreateSetLayout(device, texture != nullptr ? std::span(&binding, 1) : std::span<const VkDescriptorSetLayoutBinding>{},
                        push.empty() ? std::span<const VkPushConstantRange>{} : std::span(&range, 1));
    layout_ = layout.pipeline_layout;
    if (texture != nullptr) {
      const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
      set_ = AllocateSet(device, layout.set_layout, std::span(&size, 1));
      const VkDescriptorImageInfo image{texture->sampler, texture->view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
      WriteDescriptor(device, set_, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, nullptr, &image);
    }
    GraphicsPipelineDesc desc;
    desc.vertex_spirv = kFullscreenVert;
    desc.fragment_spirv = fragment;
    desc.layout = layout_;
    pipeline_ = CreateGraphicsPipeline(device, desc);
  }

 protected:
  void RecordDraw(VkCommandBuffer cb) override {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    if (set_ != VK_NULL_HANDLE)
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &set_, 0, nullptr);
    if (!push_.empty())
      vkCmdPushConstants(cb, layout_, VK_SHADER_STAGE_FRAGMENT_BIT, 0, uint32_t(push_.size() * 4), push_.data());
    vkCmdDraw(cb, 3, 1, 0, 0);
  }

 private:
  std::vector<uint32_t> push_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace

std::unique_ptr<BenchWorkload> MakeFullscreenAlu(BenchDevice& device) {
  return std::make_unique<FullscreenShader>(device, "fullscreen_alu", kAluHeavyFrag);
}

std::unique_ptr<BenchWorkload> MakeNoise(BenchDevice& device) {
  static constexpr uint32_t kOctaves[] = {6};
  return std::make_unique<FullscreenShader>(device, "noise", kNoiseFrag, kOctaves);
}

std::unique_ptr<BenchWorkload> MakeBranchy(BenchDevice& device) {
  return std::make_unique<FullscreenShader>(device, "branchy", kBranchyFrag);
}

std::unique_ptr<BenchWorkload> MakeTextureHeavy(BenchDevice& device) {
  // Smooth waves in every channel (no edges for the samples to fall off).
  const SampledTexture texture = CreateSampledTexture(device, 256, [](uint32_t x, uint32_t y) {
    const float fx = float(x) * (6.2831853f / 256.0f), fy = float(y) * (6.2831853f / 256.0f);
    const auto channel = [](float v) { return uint32_t(127.5f + 127.0f * v); };
    return channel(std::sin(fx)) | channel(std::cos(fy)) << 8 | channel(std::sin(fx + fy)) << 16 | 0xFFu << 24;
  });
  return std::make_unique<FullscreenShader>(device, "texture_heavy", kTextureHeavyFrag, std::span<const uint32_t>{},
                                            &texture);
}

}  // namespace duet_bench

// A full-screen ALU-heavy fragment shader: one triangle covering the
// target (positions from gl_VertexIndex, no vertex buffer, no depth), 64
// rounds of sin and cos per pixel (alu_heavy.frag).
#include "graphics_pipeline.h"
#include "graphics_workloads.h"
#include "shaders/alu_heavy.frag.h"
#include "shaders/fullscreen.vert.h"
#include "vk_bench_device.h"

namespace duet_bench {
namespace {

class FullscreenAlu final : public GraphicsWorkload {
 public:
  explicit FullscreenAlu(BenchDevice& device)
      : GraphicsWorkload(device, "fullscreen_alu", false, {.min_coverage = 1.0, .max_coverage = 1.0}) {
    layout_ = CreateSetLayout(device, {}).pipeline_layout;
    GraphicsPipelineDesc desc;
    desc.vertex_spirv = kFullscreenVert;
    desc.fragment_spirv = kAluHeavyFrag;
    desc.layout = layout_;
    pipeline_ = CreateGraphicsPipeline(device, desc);
  }

 protected:
  void RecordDraw(VkCommandBuffer cb) override {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    vkCmdDraw(cb, 3, 1, 0, 0);
  }

 private:
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace

std::unique_ptr<BenchWorkload> MakeFullscreenAlu(BenchDevice& device) {
  return std::make_unique<FullscreenAlu>(device);
}

}  // namespace duet_bench

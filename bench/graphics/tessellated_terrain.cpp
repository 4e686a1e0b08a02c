// A terrain of 24x24 quad patches on the ground plane, tessellated by
// distance to the camera (levels 1..32, fractional-even spacing), raised
// by a sum of waves in the evaluation shader and lit per fragment, depth
// test LESS: one draw of 576 patches.
#include <cstdint>
#include <vector>

#include "graphics_pipeline.h"
#include "graphics_workloads.h"
#include "shaders/terrain.frag.h"
#include "shaders/terrain.tesc.h"
#include "shaders/terrain.tese.h"
#include "shaders/terrain.vert.h"
#include "vk_bench_device.h"

namespace duet_bench {
namespace {

constexpr int kPatches = 24;

struct Corner {
  float x, z;
};

// Each patch's corners: (u 0, v 0), (u 1, v 0), (u 0, v 1), (u 1, v 1),
// over x -2..2 and z 0..6.
std::vector<Corner> PatchCorners() {
  std::vector<Corner> corners;
  auto x = [](int i) { return -2.0f + 4.0f * float(i) / kPatches; };
  auto z = [](int j) { return 6.0f * float(j) / kPatches; };
  for (int j = 0; j < kPatches; ++j)
    for (int i = 0; i < kPatches; ++i)
      for (int c = 0; c < 4; ++c) corners.push_back({x(i + c % 2), z(j + c / 2)});
  return corners;
}

class TessellatedTerrain final : public GraphicsWorkload {
 public:
  explicit TessellatedTerrain(BenchDevice& device)
      : GraphicsWorkload(device, "tessellated_terrain", true, {.min_coverage = 0.30, .max_coverage = 1.0}) {
    const std::vector<Corner> corners = PatchCorners();
    count_ = uint32_t(corners.size());
    vertices_ = device.Upload(corners.data(), corners.size() * sizeof(Corner), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);

    layout_ = CreateSetLayout(device, {}).pipeline_layout;
    GraphicsPipelineDesc desc;
    desc.vertex_spirv = kTerrainVert;
    desc.tess_control_spirv = kTerrainTesc;
    desc.tess_evaluation_spirv = kTerrainTese;
    desc.fragment_spirv = kTerrainFrag;
    desc.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    desc.patch_control_points = 4;
    desc.bindings = {{0, sizeof(Corner), VK_VERTEX_INPUT_RATE_VERTEX}};
    desc.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}};
    desc.layout = layout_;
    desc.depth_format = target_.depth_format();
    pipeline_ = CreateGraphicsPipeline(device, desc);
  }

 protected:
  void RecordDraw(VkCommandBuffer cb) override {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vertices_.buffer, &offset);
    vkCmdDraw(cb, count_, 1, 0, 0);
  }

 private:
  MappedBuffer vertices_;
  uint32_t count_ = 0;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace

std::unique_ptr<BenchWorkload> MakeTessellatedTerrain(BenchDevice& device) {
  return std::make_unique<TessellatedTerrain>(device);
}

}  // namespace duet_bench

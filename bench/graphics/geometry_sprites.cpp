// 20,000 points expanded by a geometry shader into camera-facing squares
// (billboards) in perspective, each shaded round, depth test LESS: one draw
// of 20,000 points, 80,000 emitted vertices.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "graphics_pipeline.h"
#include "graphics_workloads.h"
#include "shaders/sprites.frag.h"
#include "shaders/sprites.geom.h"
#include "shaders/sprites.vert.h"
#include "vk_bench_device.h"

namespace duet_bench {
namespace {

constexpr uint32_t kSprites = 20000;

struct Sprite {
  float centre[4];
  float color[4];
};

std::vector<Sprite> SpriteCentres() {
  uint64_t state = 0x2545f4914f6cdd1dull;
  auto next = [&state](float lo, float hi) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * float(uint32_t(state >> 40)) / float(1u << 24);
  };
  std::vector<Sprite> sprites(kSprites);
  for (Sprite& s : sprites) {
    s.centre[0] = next(-1.5f, 1.5f);
    s.centre[1] = next(-1.5f, 1.5f);
    s.centre[2] = next(-1.5f, 1.5f);
    s.centre[3] = 1.0f;
    s.color[0] = next(0.2f, 1.0f);
    s.color[1] = next(0.2f, 1.0f);
    s.color[2] = next(0.2f, 1.0f);
    s.color[3] = 1.0f;
  }
  return sprites;
}

class GeometrySprites final : public GraphicsWorkload {
 public:
  explicit GeometrySprites(BenchDevice& device)
      : GraphicsWorkload(device, "geometry_sprites", true, {.min_coverage = 0.30, .max_coverage = 1.0}) {
    const std::vector<Sprite> sprites = SpriteCentres();
    vertices_ = device.Upload(sprites.data(), sprites.size() * sizeof(Sprite), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);

    layout_ = CreateSetLayout(device, {}).pipeline_layout;
    GraphicsPipelineDesc desc;
    desc.vertex_spirv = kSpritesVert;
    desc.geometry_spirv = kSpritesGeom;
    desc.fragment_spirv = kSpritesFrag;
    desc.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    desc.bindings = {{0, sizeof(Sprite), VK_VERTEX_INPUT_RATE_VERTEX}};
    desc.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Sprite, centre)},
                       {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Sprite, color)}};
    desc.layout = layout_;
    desc.depth_format = target_.depth_format();
    pipeline_ = CreateGraphicsPipeline(device, desc);
  }

 protected:
  void RecordDraw(VkCommandBuffer cb) override {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vertices_.buffer, &offset);
    vkCmdDraw(cb, kSprites, 1, 0, 0);
  }

 private:
  MappedBuffer vertices_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace

std::unique_ptr<BenchWorkload> MakeGeometrySprites(BenchDevice& device) {
  return std::make_unique<GeometrySprites>(device);
}

}  // namespace duet_bench

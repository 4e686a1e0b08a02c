// 20,000 small triangles at random places and depths, each one colour
// (flat), depth test LESS: one non-indexed draw of 60,000 vertices.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "graphics_pipeline.h"
#include "graphics_workloads.h"
#include "shaders/flat_triangles.frag.h"
#include "shaders/flat_triangles.vert.h"
#include "vk_bench_device.h"

namespace duet_bench {
namespace {

constexpr uint32_t kTriangles = 20000;
constexpr float kRadius = 0.03f;  // vertex offsets from the centre, in NDC: about 8 pixels

struct Vertex {
  float position[4];
  float color[4];
};

// A fixed pseudo-random sequence (the same scene on every driver).
class Random {
 public:
  float Next01() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return float(uint32_t(state_ >> 40)) / float(1u << 24);
  }
  float Range(float lo, float hi) { return lo + (hi - lo) * Next01(); }

 private:
  uint64_t state_ = 0x853c49e6748fea9bull;
};

std::vector<Vertex> TriangleVertices() {
  Random random;
  std::vector<Vertex> vertices(size_t(kTriangles) * 3);
  for (uint32_t t = 0; t < kTriangles; ++t) {
    const float cx = random.Range(-1.0f, 1.0f), cy = random.Range(-1.0f, 1.0f);
    const float z = random.Range(0.05f, 0.95f);
    const float color[4] = {random.Range(0.1f, 1.0f), random.Range(0.1f, 1.0f), random.Range(0.1f, 1.0f), 1.0f};
    for (uint32_t i = 0; i < 3; ++i) {
      Vertex& v = vertices[size_t(t) * 3 + i];
      v.position[0] = cx + random.Range(-kRadius, kRadius);
      v.position[1] = cy + random.Range(-kRadius, kRadius);
      v.position[2] = z;
      v.position[3] = 1.0f;
      std::memcpy(v.color, color, sizeof color);
    }
  }
  return vertices;
}

class SmallTriangles final : public GraphicsWorkload {
 public:
  explicit SmallTriangles(BenchDevice& device)
      : GraphicsWorkload(device, "small_triangles", true, {.min_coverage = 0.30, .max_coverage = 1.0}) {
    const std::vector<Vertex> vertices = TriangleVertices();
    vertices_ = device.Upload(vertices.data(), vertices.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);

    layout_ = CreateSetLayout(device, {}).pipeline_layout;
    GraphicsPipelineDesc desc;
    desc.vertex_spirv = kFlatTrianglesVert;
    desc.fragment_spirv = kFlatTrianglesFrag;
    desc.bindings = {{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX}};
    desc.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Vertex, position)},
                       {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Vertex, color)}};
    desc.layout = layout_;
    desc.depth_format = target_.depth_format();
    pipeline_ = CreateGraphicsPipeline(device, desc);
  }

 protected:
  void RecordDraw(VkCommandBuffer cb) override {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vertices_.buffer, &offset);
    vkCmdDraw(cb, kTriangles * 3, 1, 0, 0);
  }

 private:
  MappedBuffer vertices_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace

std::unique_ptr<BenchWorkload> MakeSmallTriangles(BenchDevice& device) {
  return std::make_unique<SmallTriangles>(device);
}

}  // namespace duet_bench

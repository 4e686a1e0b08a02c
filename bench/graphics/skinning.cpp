// Vertex-heavy: 100,002 vertices (33,334 tiny triangles over a cylinder,
// a few pixels each) skinned by four of 32 bones in the vertex shader
// (skinning.vert), one flat colour per triangle, depth test LESS.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "graphics_pipeline.h"
#include "graphics_workloads.h"
#include "scene_math.h"
#include "shaders/flat_triangles.frag.h"
#include "shaders/skinning.vert.h"
#include "vk_bench_device.h"

namespace duet_bench {
namespace {

constexpr uint32_t kTriangles = 33334;
constexpr uint32_t kBones = 32;

struct Vertex {
  float position[3];
  uint8_t joints[4];
  uint8_t weights[4];  // UNORM8, summing to 255
};

struct Skeleton {
  Mat4 view_projection;
  Mat4 bones[kBones];
};

// A fixed value in [0, 1) per (triangle, salt): the same scene on every driver.
float Unit(uint32_t triangle, uint32_t salt) {
  uint32_t h = triangle * 0x9E3779B9u ^ salt * 0x85EBCA6Bu;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return float(h >> 8) / float(1u << 24);
}

std::vector<Vertex> CylinderVertices() {
  std::vector<Vertex> vertices(size_t(kTriangles) * 3);
  for (uint32_t t = 0; t < kTriangles; ++t) {
    const float angle = Unit(t, 1) * 6.2831853f, height = Unit(t, 2) * 2.0f - 1.0f;
    // The bone under the triangle and its neighbours, nearest weighted most.
    const uint32_t bone = std::min(uint32_t((height + 1.0f) * 0.5f * kBones), kBones - 1);
    const uint8_t joints[4] = {uint8_t(bone), uint8_t(std::min(bone + 1, kBones - 1)), uint8_t(bone > 0 ? bone - 1 : 0),
                               uint8_t((bone + 2) % kBones)};
    const uint8_t weights[4] = {140, 64, 38, 13};
    for (uint32_t i = 0; i < 3; ++i) {
      Vertex& v = vertices[size_t(t) * 3 + i];
      const float a = angle + (Unit(t, 3 + i) - 0.5f) * 0.1f, y = height + (Unit(t, 6 + i) - 0.5f) * 0.05f;
      v.position[0] = 0.35f * std::cos(a);
      v.position[1] = y;
      v.position[2] = 0.35f * std::sin(a);
      std::memcpy(v.joints, joints, 4);
      std::memcpy(v.weights, weights, 4);
    }
  }
  return vertices;
}

class Skinning final : public GraphicsWorkload {
 public:
  explicit Skinning(BenchDevice& device)
      : GraphicsWorkload(device, "skinning", true, {.min_coverage = 0.04, .max_coverage = 0.5}) {
    const std::vector<Vertex> vertices = CylinderVertices();
    vertices_ = device.Upload(vertices.data(), vertices.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);

    Skeleton skeleton;
    skeleton.view_projection = PerspectiveVulkan(1.0f, 1.0f, 0.5f, 10.0f) * Translate(0, 0, -3.0f);
    for (uint32_t k = 0; k < kBones; ++k) skeleton.bones[k] = RotateX(0.02f * float(k)) * RotateY(0.06f * float(k));
    skeleton_ = device.Upload(&skeleton, sizeof skeleton, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);

    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT,
                                               nullptr};
    const SetLayout layout = CreateSetLayout(device, std::span(&binding, 1));
    layout_ = layout.pipeline_layout;
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1};
    set_ = AllocateSet(device, layout.set_layout, std::span(&size, 1));
    const VkDescriptorBufferInfo buffer{skeleton_.buffer, 0, VK_WHOLE_SIZE};
    WriteDescriptor(device, set_, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &buffer, nullptr);

    GraphicsPipelineDesc desc;
    desc.vertex_spirv = kSkinningVert;
    desc.fragment_spirv = kFlatTrianglesFrag;
    desc.bindings = {{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX}};
    desc.attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, position)},
                       {1, 0, VK_FORMAT_R8G8B8A8_UINT, offsetof(Vertex, joints)},
                       {2, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(Vertex, weights)}};
    desc.layout = layout_;
    desc.depth_format = target_.depth_format();
    pipeline_ = CreateGraphicsPipeline(device, desc);
  }

 protected:
  void RecordDraw(VkCommandBuffer cb) override {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &set_, 0, nullptr);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vertices_.buffer, &offset);
    vkCmdDraw(cb, kTriangles * 3, 1, 0, 0);
  }

 private:
  MappedBuffer vertices_, skeleton_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace

std::unique_ptr<BenchWorkload> MakeSkinning(BenchDevice& device) { return std::make_unique<Skinning>(device); }

}  // namespace duet_bench

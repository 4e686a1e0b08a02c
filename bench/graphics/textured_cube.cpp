// A lit textured cube: 36 vertices (position, normal, uv), a UBO with the
// MVP and model matrices read by the vertex shader, a 256x256 RGBA8
// texture sampled (linear, repeat) by the fragment shader, back faces
// culled, depth test.
#include <array>
#include <cstddef>
#include <cstdint>

#include "graphics_pipeline.h"
#include "graphics_workloads.h"
#include "sampled_texture.h"
#include "scene_math.h"
#include "shaders/cube.frag.h"
#include "shaders/cube.vert.h"
#include "vk_bench_device.h"

namespace duet_bench {
namespace {

constexpr uint32_t kTextureSize = 256;

struct Vertex {
  float position[3];
  float normal[3];
  float uv[2];
};

struct SceneUniforms {
  Mat4 mvp;
  Mat4 model;
};

// Six faces of the cube [-1, 1]^3, two counter-clockwise triangles each
// seen from outside: a face with normal n spans n + a*u + b*v where
// u x v = n.
std::array<Vertex, 36> CubeVertices() {
  struct Face {
    float n[3], u[3], v[3];
  };
  constexpr Face kFaces[] = {
      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},  {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
      {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}},  {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
      {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},  {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
  };
  constexpr float kCorners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  constexpr int kOrder[6] = {0, 1, 2, 0, 2, 3};
  std::array<Vertex, 36> vertices{};
  size_t next = 0;
  for (const Face& face : kFaces) {
    for (int corner : kOrder) {
      Vertex& v = vertices[next++];
      const float a = kCorners[corner][0], b = kCorners[corner][1];
      for (int i = 0; i < 3; ++i) {
        v.position[i] = face.n[i] + a * face.u[i] + b * face.v[i];
        v.normal[i] = face.n[i];
      }
      v.uv[0] = (a + 1) / 2;
      v.uv[1] = (b + 1) / 2;
    }
  }
  return vertices;
}

// A checkerboard of 32-texel squares over colour gradients.
uint32_t TextureTexel(uint32_t x, uint32_t y) {
  const bool light = (((x >> 5) ^ (y >> 5)) & 1) != 0;
  const uint32_t r = light ? 255 - x / 2 : 40 + x / 2;
  const uint32_t g = light ? 220 - y / 4 : 30 + y / 2;
  const uint32_t b = light ? 200 : 70;
  return r | g << 8 | b << 16 | 0xffu << 24;
}

class TexturedCube final : public GraphicsWorkload {
 public:
  explicit TexturedCube(BenchDevice& device)
      : GraphicsWorkload(device, "textured_cube", true, {.min_coverage = 0.10, .max_coverage = 0.80}) {
    const VkDevice d = device.device();

    const std::array<Vertex, 36> vertices = CubeVertices();
    vertices_ = device.Upload(vertices.data(), sizeof vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);

    SceneUniforms uniforms;
    uniforms.model = RotateX(0.5f) * RotateY(0.7f);
    uniforms.mvp = PerspectiveVulkan(1.0f, 1.0f, 0.5f, 10.0f) * Translate(0, 0, -4.0f) * uniforms.model;
    uniforms_ = device.Upload(&uniforms, sizeof uniforms, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);

    const SampledTexture texture = CreateSampledTexture(device, kTextureSize, TextureTexel);

    const VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
    };
    const SetLayout layout = CreateSetLayout(device, bindings);
    layout_ = layout.pipeline_layout;
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
                                          {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}};
    set_ = AllocateSet(device, layout.set_layout, sizes);
    const VkDescriptorBufferInfo buffer_info{uniforms_.buffer, 0, VK_WHOLE_SIZE};
    const VkDescriptorImageInfo image_info{texture.sampler, texture.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
                                      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
    writes[0].dstSet = set_;
    writes[0].dstBinding = 0;
    writes[0].descriptorCount = 1;
    writes[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    writes[0].pBufferInfo = &buffer_info;
    writes[1].dstSet = set_;
    writes[1].dstBinding = 1;
    writes[1].descriptorCount = 1;
    writes[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[1].pImageInfo = &image_info;
    vkUpdateDescriptorSets(d, 2, writes, 0, nullptr);

    GraphicsPipelineDesc desc;
    desc.vertex_spirv = kCubeVert;
    desc.fragment_spirv = kCubeFrag;
    desc.bindings = {{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX}};
    desc.attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, position)},
                       {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, normal)},
                       {2, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, uv)}};
    desc.layout = layout_;
    desc.cull_mode = VK_CULL_MODE_BACK_BIT;
    desc.depth_format = target_.depth_format();
    pipeline_ = CreateGraphicsPipeline(device, desc);
  }

 protected:
  void RecordDraw(VkCommandBuffer cb) override {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &set_, 0, nullptr);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vertices_.buffer, &offset);
    vkCmdDraw(cb, 36, 1, 0, 0);
  }

 private:
  MappedBuffer vertices_, uniforms_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace

std::unique_ptr<BenchWorkload> MakeTexturedCube(BenchDevice& device) {
  return std::make_unique<TexturedCube>(device);
}

}  // namespace duet_bench

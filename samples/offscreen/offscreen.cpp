// offscreen: renders a scene to a PNG file, as a CI job, a thumbnailer or
// a server uses a driver without a display:
//
//   offscreen [--out offscreen.png] [--width 480] [--height 320]
//
// The scene is a small city of lit cubes on a plate: one cube mesh in a
// vertex and an index buffer, drawn once with an instance per building
// (position, height, colour from a second vertex buffer), depth-tested,
// rendered with 4x multisampling and resolved to one sample per pixel at
// the end of rendering.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "png_file.h"
#include "sample_context.h"
#include "shaders/scene.frag.h"
#include "shaders/scene.vert.h"

namespace {

constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM, kDepthFormat = VK_FORMAT_D32_SFLOAT;
constexpr VkSampleCountFlagBits kSamples = VK_SAMPLE_COUNT_4_BIT;

struct Vertex {
  float position[3], normal[3];
};
struct Instance {
  float base[3];  // centre of the bottom face
  float size[3];
  float colour[3];
};

// The unit cube centred on the origin: four vertices per face, for flat normals.
void Cube(std::vector<Vertex>* vertices, std::vector<uint16_t>* indices) {
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign = -1; sign <= 1; sign += 2) {
      const uint16_t first = uint16_t(vertices->size());
      for (int corner = 0; corner < 4; ++corner) {
        Vertex v{};
        const float u = (corner & 1) ? 0.5f : -0.5f, w = (corner & 2) ? 0.5f : -0.5f;
        v.position[axis] = 0.5f * float(sign);
        v.position[(axis + 1) % 3] = u;
        v.position[(axis + 2) % 3] = w;
        v.normal[axis] = float(sign);
        vertices->push_back(v);
      }
      // Counter-clockwise seen from outside: the front faces.
      const uint16_t order[2][6] = {{0, 3, 1, 0, 2, 3}, {0, 1, 3, 0, 3, 2}};
      for (uint16_t i : order[sign > 0]) indices->push_back(uint16_t(first + i));
    }
  }
}

std::vector<Instance> City() {
  std::vector<Instance> city;
  city.push_back({{0.0f, -0.1f, 0.0f}, {7.6f, 0.1f, 7.6f}, {0.35f, 0.38f, 0.35f}});  // the plate
  for (int z = -3; z <= 3; ++z) {
    for (int x = -3; x <= 3; ++x) {
      const uint32_t hash = uint32_t((x + 7) * 73856093) ^ uint32_t((z + 7) * 19349663);
      const float height = 0.4f + float(hash % 97) / 97.0f * 2.6f;
      const float tint = float((hash >> 8) % 64) / 255.0f;
      city.push_back({{float(x), 0.0f, float(z)}, {0.8f, height, 0.8f}, {0.55f + tint, 0.6f, 0.75f - tint}});
    }
  }
  return city;
}

// Column-major 4x4 matrices, as GLSL reads them.
struct Matrix {
  float m[16] = {};
  static Matrix Multiply(const Matrix& a, const Matrix& b) {
    Matrix r;
    for (int col = 0; col < 4; ++col)
      for (int row = 0; row < 4; ++row)
        for (int k = 0; k < 4; ++k) r.m[col * 4 + row] += a.m[k * 4 + row] * b.m[col * 4 + k];
    return r;
  }
};

// A camera at `eye` looking at the origin, y up; Vulkan clip space (y down, depth 0..1).
Matrix ViewProjection(const float eye[3], float aspect) {
  auto normalize = [](float v[3]) {
    const float length = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; ++i) v[i] /= length;
  };
  float forward[3] = {-eye[0], -eye[1], -eye[2]};
  normalize(forward);
  float side[3] = {-forward[2], 0.0f, forward[0]};  // forward x up, up = +y
  normalize(side);
  const float up[3] = {side[1] * forward[2] - side[2] * forward[1], side[2] * forward[0] - side[0] * forward[2],
                       side[0] * forward[1] - side[1] * forward[0]};
  Matrix view;  // rows: side, up, -forward; then the eye moved to the origin
  for (int i = 0; i < 3; ++i) {
    view.m[i * 4 + 0] = side[i];
    view.m[i * 4 + 1] = up[i];
    view.m[i * 4 + 2] = -forward[i];
    view.m[12] -= side[i] * eye[i];
    view.m[13] -= up[i] * eye[i];
    view.m[14] += forward[i] * eye[i];
  }
  view.m[15] = 1.0f;
  const float focal = 1.0f / std::tan(0.4f), near = 0.5f, far = 50.0f;  // 46 degrees vertically
  Matrix projection;
  projection.m[0] = focal / aspect;
  projection.m[5] = -focal;  // Vulkan's y points down
  projection.m[10] = far / (near - far);
  projection.m[11] = -1.0f;
  projection.m[14] = near * far / (near - far);
  return Matrix::Multiply(projection, view);
}

VkImageCreateInfo AttachmentInfo(VkFormat format, VkExtent2D extent, VkSampleCountFlagBits samples,
                                 VkImageUsageFlags usage) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {extent.width, extent.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = samples;
  info.usage = usage;
  return info;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out = sample::Option(argc, argv, "--out", "offscreen.png");
  const VkExtent2D extent{uint32_t(std::atoi(sample::Option(argc, argv, "--width", "480").c_str())),
                          uint32_t(std::atoi(sample::Option(argc, argv, "--height", "320").c_str()))};
  if (extent.width == 0 || extent.height == 0 || extent.width > 8192 || extent.height > 8192) {
    std::fprintf(stderr, "--width and --height: 1 to 8192\n");
    return 2;
  }
  sample::Context c = sample::CreateContext("offscreen", {});

  // Geometry: the cube mesh and the instances.
  std::vector<Vertex> vertices;
  std::vector<uint16_t> indices;
  Cube(&vertices, &indices);
  const std::vector<Instance> city = City();
  sample::Buffer vertex_buffer =
      sample::CreateHostBuffer(c, vertices.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  sample::Buffer index_buffer =
      sample::CreateHostBuffer(c, indices.size() * sizeof(uint16_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  sample::Buffer instance_buffer =
      sample::CreateHostBuffer(c, city.size() * sizeof(Instance), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  std::memcpy(vertex_buffer.mapped, vertices.data(), vertices.size() * sizeof(Vertex));
  std::memcpy(index_buffer.mapped, indices.data(), indices.size() * sizeof(uint16_t));
  std::memcpy(instance_buffer.mapped, city.data(), city.size() * sizeof(Instance));

  sample::PipelineDesc desc;
  desc.vertex = sample::CreateShader(c, kSceneVert);
  desc.fragment = sample::CreateShader(c, kSceneFrag);
  desc.layout = sample::CreatePipelineLayout(c, {}, sizeof(Matrix), VK_SHADER_STAGE_VERTEX_BIT);
  desc.depth_format = kDepthFormat;
  desc.cull = VK_CULL_MODE_BACK_BIT;
  desc.samples = kSamples;
  desc.bindings = {{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX}, {1, sizeof(Instance), VK_VERTEX_INPUT_RATE_INSTANCE}};
  desc.attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, position)},
                     {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, normal)},
                     {2, 1, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Instance, base)},
                     {3, 1, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Instance, size)},
                     {4, 1, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Instance, colour)}};
  const VkPipeline pipeline = sample::CreateGraphicsPipeline(c, desc);

  // Attachments: 4x colour and depth, and the single-sampled picture they resolve to.
  sample::Image color = sample::CreateImage(
      c, AttachmentInfo(kColorFormat, extent, kSamples, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT), VK_IMAGE_ASPECT_COLOR_BIT);
  sample::Image depth = sample::CreateImage(
      c, AttachmentInfo(kDepthFormat, extent, kSamples, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT),
      VK_IMAGE_ASPECT_DEPTH_BIT);
  sample::Image resolved = sample::CreateImage(
      c,
      AttachmentInfo(kColorFormat, extent, VK_SAMPLE_COUNT_1_BIT,
                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT),
      VK_IMAGE_ASPECT_COLOR_BIT);
  sample::Buffer readback = sample::CreateHostBuffer(c, VkDeviceSize{extent.width} * extent.height * 4,
                                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT);

  VkCommandBuffer cb = sample::BeginCommands(c);
  const sample::Transition to_color{VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                    VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                    VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
  sample::Barrier(cb, color.image, to_color);
  sample::Barrier(cb, resolved.image, to_color);
  sample::Barrier(cb, depth.image,
                  {VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
                   VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                   VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT},
                  VK_IMAGE_ASPECT_DEPTH_BIT);
  VkRenderingAttachmentInfo color_attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color_attachment.imageView = color.view;
  color_attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color_attachment.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
  color_attachment.resolveImageView = resolved.view;
  color_attachment.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color_attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color_attachment.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;  // only the resolved picture is kept
  color_attachment.clearValue.color = {{0.93f, 0.92f, 0.88f, 1.0f}};
  VkRenderingAttachmentInfo depth_attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth_attachment.imageView = depth.view;
  depth_attachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
  depth_attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth_attachment.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth_attachment.clearValue.depthStencil = {1.0f, 0};
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea = {{0, 0}, extent};
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachments = &color_attachment;
  rendering.pDepthAttachment = &depth_attachment;
  vkCmdBeginRendering(cb, &rendering);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  sample::SetViewport(cb, extent);
  const float eye[3] = {7.0f, 6.5f, -9.0f};
  const Matrix view_projection = ViewProjection(eye, float(extent.width) / float(extent.height));
  vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof view_projection, &view_projection);
  const VkBuffer vertex_buffers[2] = {vertex_buffer.buffer, instance_buffer.buffer};
  const VkDeviceSize offsets[2] = {0, 0};
  vkCmdBindVertexBuffers(cb, 0, 2, vertex_buffers, offsets);
  vkCmdBindIndexBuffer(cb, index_buffer.buffer, 0, VK_INDEX_TYPE_UINT16);
  // One draw: every instance is a box (the plate and the buildings).
  vkCmdDrawIndexed(cb, uint32_t(indices.size()), uint32_t(city.size()), 0, 0, 0);
  vkCmdEndRendering(cb);
  sample::Barrier(cb, resolved.image, {VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                       VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                                       VK_ACCESS_2_TRANSFER_READ_BIT});
  sample::CopyImageToBuffer(cb, resolved.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, extent, readback.buffer);
  sample::SubmitAndWait(c, cb);

  const bool written = sample::WritePng(out.c_str(), extent.width, extent.height,
                                        static_cast<const uint8_t*>(readback.mapped), extent.width * 4);
  if (written) std::printf("wrote %s (%ux%u, %zu buildings, 4x multisampled)\n", out.c_str(), extent.width,
                           extent.height, city.size() - 1);

  vkDestroyPipeline(c.device, pipeline, nullptr);
  vkDestroyPipelineLayout(c.device, desc.layout, nullptr);
  vkDestroyShaderModule(c.device, desc.vertex, nullptr);
  vkDestroyShaderModule(c.device, desc.fragment, nullptr);
  sample::Destroy(c, readback);
  sample::Destroy(c, resolved);
  sample::Destroy(c, depth);
  sample::Destroy(c, color);
  sample::Destroy(c, instance_buffer);
  sample::Destroy(c, index_buffer);
  sample::Destroy(c, vertex_buffer);
  sample::DestroyContext(c);
  return written ? 0 : 1;
}

// A QueueTest for draws: a graphics pipeline described by one struct with
// the defaults most tests want, attachments in GENERAL layout with their
// views, dynamic rendering, descriptor sets, and images read back as
// typed pixels. Everything created is destroyed at TearDown.
#pragma once

#include <cstring>
#include <string>
#include <utility>
#include <optional>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {

// Every piece of state a test pipeline has, with defaults: triangle list,
// no culling, one RGBA8 attachment written without blending, viewport and
// scissor covering `extent`, no depth or stencil.
struct PipelineDesc {
  VkPipelineCreateFlags flags = 0;
  VkShaderModule vertex = VK_NULL_HANDLE;
  // The vertex stage's chain (e.g. a VkShaderModuleCreateInfo instead of a
  // module); without either, no vertex stage (pipeline libraries).
  const void* vertex_stage_next = nullptr;
  VkShaderModule fragment = VK_NULL_HANDLE;  // VK_NULL_HANDLE: no fragment shader
  const void* fragment_stage_next = nullptr;  // the fragment stage's chain
  VkShaderModule geometry = VK_NULL_HANDLE;  // VK_NULL_HANDLE: no geometry shader
  // Both or neither: tessellation, with patches of patch_control_points
  // (topology PATCH_LIST); tessellation_next: the tessellation state's chain.
  VkShaderModule tess_control = VK_NULL_HANDLE, tess_evaluation = VK_NULL_HANDLE;
  uint32_t patch_control_points = 3;
  const void* tessellation_next = nullptr;
  VkPipelineLayout layout = VK_NULL_HANDLE;  // VK_NULL_HANDLE: an empty layout
  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attributes;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool primitive_restart = false;
  VkExtent2D extent{32, 32};  // the default viewport and scissor
  VkViewport viewport{};      // width 0: the whole extent, depth 0..1
  VkRect2D scissor{};         // width 0: the whole extent
  // Several viewports and scissors (multiViewport), instead of the one above.
  std::vector<VkViewport> viewports;
  std::vector<VkRect2D> scissors;
  VkPipelineRasterizationStateCreateInfo rasterization{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                       nullptr, 0, VK_FALSE, VK_FALSE, VK_POLYGON_MODE_FILL,
                                                       VK_CULL_MODE_NONE, VK_FRONT_FACE_COUNTER_CLOCKWISE,
                                                       VK_FALSE, 0, 0, 0, 1.0f};
  VkPipelineDepthStencilStateCreateInfo depth_stencil{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  std::vector<VkFormat> color_formats{VK_FORMAT_R8G8B8A8_UNORM};
  uint32_t view_mask = 0;  // dynamic rendering's multiview
  // One per colour format; empty: no blending, every component written.
  std::vector<VkPipelineColorBlendAttachmentState> blend;
  float blend_constants[4] = {0, 0, 0, 0};
  VkPipelineColorBlendStateCreateFlags color_blend_flags = 0;  // e.g. rasterization order access
  VkFormat depth_format = VK_FORMAT_UNDEFINED;
  VkFormat stencil_format = VK_FORMAT_UNDEFINED;
  std::vector<VkDynamicState> dynamic_states;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  float min_sample_shading = 0;  // > 0: sample shading enabled with this minimum
  std::optional<VkSampleMask> sample_mask;  // pSampleMask (samples <= 32), none: all samples
  bool alpha_to_coverage = false;
  bool alpha_to_one = false;
  bool logic_op_enable = false;
  VkLogicOp logic_op = VK_LOGIC_OP_COPY;
  // A render pass object's subpass instead of dynamic rendering with the
  // formats above.
  VkRenderPass render_pass = VK_NULL_HANDLE;
  uint32_t subpass = 0;
  // More structs for the VkGraphicsPipelineCreateInfo chain (e.g. feedback),
  // the vertex input state's (divisors) and the colour blend state's (colour
  // write enables); the rasterization state's is rasterization.pNext.
  const void* next = nullptr;
  const void* vertex_input_next = nullptr;
  const void* color_blend_next = nullptr;
  const void* viewport_next = nullptr;  // the viewport state's (depth clip control)
};

// The colour blend state of one attachment: blending `enable`d with these
// factors and ops, every component written.
VkPipelineColorBlendAttachmentState BlendState(bool enable, VkBlendFactor src_color, VkBlendFactor dst_color,
                                               VkBlendOp color_op, VkBlendFactor src_alpha, VkBlendFactor dst_alpha,
                                               VkBlendOp alpha_op, VkColorComponentFlags write_mask = 0xF);

// True for depth/stencil formats that have a depth / a stencil aspect.
bool HasDepth(VkFormat format);
bool HasStencil(VkFormat format);
VkImageAspectFlags AspectsOf(VkFormat format);

// The spec's compare ops: `reference` op `stored` (depth and stencil
// tests, depth comparison in samplers).
inline constexpr VkCompareOp kCompareOps[] = {
    VK_COMPARE_OP_NEVER,   VK_COMPARE_OP_LESS,      VK_COMPARE_OP_EQUAL,            VK_COMPARE_OP_LESS_OR_EQUAL,
    VK_COMPARE_OP_GREATER, VK_COMPARE_OP_NOT_EQUAL, VK_COMPARE_OP_GREATER_OR_EQUAL, VK_COMPARE_OP_ALWAYS};
template <typename T>
bool CompareOpPasses(VkCompareOp op, T reference, T stored) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return reference < stored;
    case VK_COMPARE_OP_EQUAL: return reference == stored;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return reference <= stored;
    case VK_COMPARE_OP_GREATER: return reference > stored;
    case VK_COMPARE_OP_NOT_EQUAL: return reference != stored;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return reference >= stored;
    default: return true;
  }
}

// The vertices of color_triangle.vert: a clip-space position and a colour.
struct ColorVertex {
  float position[4];
  float color[4];
};

// Deterministic pseudo-random integers (the tests' scenes and patterns).
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint32_t Next();                                            // 32 random bits
  uint32_t Below(uint32_t n) { return uint32_t((uint64_t(Next()) * n) >> 32); }
  float Uniform(float lo, float hi) { return lo + (hi - lo) * float(Next() >> 8) / float(1u << 24); }

 private:
  uint64_t state_;
};

// The push constants of rect.vert (and of the fragment shaders drawn with
// it): a rectangle in normalized device coordinates at depth z, facing
// front unless `back`; the other members are the fragment shader's.
struct RectParams {
  float bounds[4] = {-1, -1, 1, 1};  // x0, y0, x1, y1
  float color[4] = {1, 1, 1, 1};
  float z = 0;
  uint32_t back = 0;
  uint32_t seed = 0;
  uint32_t mode = 0;
};

// The normalized device coordinate of a framebuffer coordinate.
inline float Ndc(double pixel, uint32_t size) { return float(pixel / size * 2.0 - 1.0); }

// An attachment (or sampled image) in GENERAL layout and a view of it.
struct Target {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
};

// How a rendering uses an attachment: LOAD keeps what transfers wrote.
struct AttachmentUse {
  const Target* target = nullptr;
  VkAttachmentLoadOp load = VK_ATTACHMENT_LOAD_OP_LOAD;
  VkClearValue clear{};
  VkAttachmentStoreOp store = VK_ATTACHMENT_STORE_OP_STORE;
};

class GraphicsTest : public QueueTest {
 protected:
  GraphicsTest() {
    device_options_.render_pass_features = true;
    device_options_.graphics_features = true;
  }

  VkShaderModule Module(const uint32_t* code, size_t bytes);
  template <size_t N>
  VkShaderModule Module(const uint32_t (&code)[N]) {
    return Module(code, sizeof code);
  }
  VkPipelineLayout MakePipelineLayout(const std::vector<VkDescriptorSetLayout>& sets,
                                      uint32_t push_constant_bytes = 0,
                                      VkShaderStageFlags push_constant_stages = VK_SHADER_STAGE_VERTEX_BIT |
                                                                                VK_SHADER_STAGE_FRAGMENT_BIT);
  VkPipeline MakePipeline(const PipelineDesc& desc);
  // rect.vert (a triangle strip of 4 vertices) with `fragment`, and a layout
  // whose push constants are RectParams plus `sets`.
  PipelineDesc RectPipeline(VkShaderModule fragment, VkExtent2D extent,
                            const std::vector<VkDescriptorSetLayout>& sets = {});
  // color_triangle.vert/.frag with ColorVertex vertices from binding 0.
  PipelineDesc ColorPipeline(VkExtent2D extent);
  // Pushes the parameters and draws the rectangle.
  static void DrawRect(VkCommandBuffer cb, VkPipelineLayout layout, const RectParams& rect);

  // A colour or depth/stencil attachment (usage also sampled and transfer).
  Target MakeTarget(VkFormat format, VkExtent2D extent, VkImageUsageFlags extra_usage = 0);
  VkImageView MakeView(VkImage image, VkImageViewType type, VkFormat format, VkImageSubresourceRange range);

  // vkCmdBeginRendering over the whole extent of the first attachment
  // (`layers` of it: layered rendering into array views).
  void BeginRendering(VkCommandBuffer cb, const std::vector<AttachmentUse>& colors, AttachmentUse depth_stencil = {},
                      uint32_t layers = 1, uint32_t view_mask = 0);
  // A 2D array colour attachment of `layers` layers (usage also transfer
  // source) and a view of all of them.
  Target MakeLayeredTarget(VkFormat format, VkExtent2D extent, uint32_t layers);

  // A host-visible buffer holding `bytes` (vertex, index, indirect, storage...).
  HostBuffer Upload(const void* bytes, size_t size, VkBufferUsageFlags usage);
  template <typename T>
  HostBuffer Upload(const std::vector<T>& items, VkBufferUsageFlags usage) {
    return Upload(items.data(), items.size() * sizeof(T), usage);
  }

  // A descriptor set layout, a pool and one set of it: one descriptor per
  // binding, visible to every graphics stage (input attachments: the
  // fragment stage).
  struct DescriptorSet {
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;
  };
  DescriptorSet MakeDescriptorSet(const std::vector<VkDescriptorType>& bindings);
  void WriteSampler(const DescriptorSet& s, uint32_t binding, VkSampler sampler, VkImageView view);
  // Any image descriptor: sampled, storage, input attachment, combined (GENERAL layout).
  void WriteImageDescriptor(const DescriptorSet& s, uint32_t binding, VkDescriptorType type, VkSampler sampler,
                            VkImageView view);
  void WriteBuffer(const DescriptorSet& s, uint32_t binding, VkDescriptorType type, VkBuffer buffer);
  // One descriptor: `image` or `buffer` says what.
  void WriteDescriptor(const DescriptorSet& s, uint32_t binding, VkDescriptorType type,
                       const VkDescriptorImageInfo* image, const VkDescriptorBufferInfo* buffer);
  VkSampler MakeSampler(const VkSamplerCreateInfo& ci);

  // Sets every texel of an attachment's aspects (tightly packed, as a
  // buffer copy lays them out: D24 in 4 bytes, stencil in 1).
  template <typename T>
  void Fill(const Target& t, VkImageAspectFlagBits aspect, const std::vector<T>& texels) {
    WriteImage(t.image, {VkImageAspectFlags(aspect), 0, 0, 1}, {0, 0, 0}, {t.extent.width, t.extent.height, 1},
               uint32_t(sizeof(T)), {reinterpret_cast<const uint8_t*>(texels.data()), texels.size() * sizeof(T)});
  }
  // Every texel of one aspect, as T (its size is the buffer copy's texel size).
  template <typename T>
  std::vector<T> Read(const Target& t, VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT, uint32_t layer = 0) {
    const std::vector<uint8_t> bytes = ReadImage(t.image, {VkImageAspectFlags(aspect), 0, layer, 1}, {0, 0, 0},
                                                 {t.extent.width, t.extent.height, 1}, uint32_t(sizeof(T)));
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }

  // Format features of an optimal-tiling image.
  bool Supports(VkFormat format, VkFormatFeatureFlags features) const {
    return FormatHas(format, VK_IMAGE_TILING_OPTIMAL, features);
  }
};

// RGBA8 pixels as 32-bit words (R in the low byte).
inline uint32_t PackRgba8(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | g << 8 | b << 16 | a << 24; }
inline uint32_t Channel(uint32_t rgba, int c) { return (rgba >> (8 * c)) & 0xFF; }

// Reference coverage of one triangle (window coordinates) at the centre of
// pixel (px, py): coordinates snapped to 1/256 pixel, the top-left rule for
// centres on an edge.
bool ReferenceCovers(const double (&x)[3], const double (&y)[3], int px, int py);

// --- running a test again in a child process, for its image ----------------------

// Inside the child started by RenderInChild: the file the child writes its
// image to (DUET_TEST_IMAGE_OUT), else empty.
std::string ChildImagePath();
// Writes the image where the parent reads it; true on success.
bool WriteChildImage(const std::vector<uint8_t>& bytes);
// Runs `test` of this binary in a child with `env` added, which must call
// WriteChildImage; returns the bytes it wrote (empty on failure, with the
// child's output in *log).
std::vector<uint8_t> RenderInChild(const std::string& test, std::vector<std::pair<std::string, std::string>> env,
                                   std::string* log);
// The full name of the running test ("Suite.Name").
std::string CurrentTestName();

}  // namespace duet_test

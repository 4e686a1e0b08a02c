// libFuzzer target that runs hostile shaders: arbitrary bytes become a shader
// module and a pipeline whose layout matches the module's buffer bindings,
// run over small buffers filled from the input, through the driver's own
// entry points (no loader), built with AddressSanitizer and
// UndefinedBehaviorSanitizer. A compute module dispatches one or two
// workgroups; a vertex module draws two triangles (its inputs read from a
// vertex buffer) before a fixed fragment shader, a fragment module covers
// an 8x8 target behind a fixed full-screen vertex shader, and a geometry
// module takes six vertices of the topology its input primitive names
// between the two fixed shaders, and a tessellation control or evaluation
// module takes two patches of three control points with the fixed other
// tessellation stage (control: pass-through, levels 3; evaluation:
// triangles). Whatever the
// module does (indices out of bounds, endless loops, division by zero,
// recursion-free deep control flow, huge private arrays) nothing may crash,
// trip a sanitizer or run past the shader watchdog (DUET_WATCHDOG_MS, set to
// a few milliseconds here): a runaway shader loses the device, and the next
// input gets a new one.
//
// Descriptors: uniform and storage buffers; colour images of every
// dimension the driver has (1D, 2D, 3D, cube, the arrayed ones, and 2D
// multisampled with 4 samples), sampled, storage (RGBA8, R32 uint or int,
// as the shader's format and sampled type say), combined or with separate
// samplers; depth images (D32, 2D and cube, arrayed or not) sampled through
// a comparison sampler; uniform and storage texel buffers of the colour
// formats; arrays of up to 4 of any of them, and runtime arrays (3
// elements: indices past them must not reach other memory); subpass inputs
// (input attachment indices 0-3, colour, single-sampled) of a fragment
// module, which then draws in a render pass whose subpass reads them.
// Modules asking for other descriptors (acceleration structures, larger
// arrays) are created and compiled but not run.
//
// Build and run: scripts/fuzz_exec.sh (or the ctest test fuzz_shader_execute_smoke).
#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "fuzz_exec_fixed_frag.h"
#include "fuzz_exec_fixed_tesc.h"
#include "fuzz_exec_fixed_tese.h"
#include "fuzz_exec_fixed_vert.h"

extern "C" VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                              const char* name);

namespace {

constexpr uint32_t kBufferBytes = 256;
constexpr uint32_t kPushConstantBytes = 256;  // maxPushConstantsSize
constexpr uint32_t kMaxBindings = 16;
constexpr uint32_t kMaxVertexLocations = 16;
constexpr uint32_t kVertexStride = 64;  // four vec4 attributes a vertex (location % 4)
constexpr uint32_t kVertices = 6;  // two triangles, or one with adjacency
constexpr uint32_t kTargetSize = 8;

// The driver's entry points, looked up once.
struct Api {
  PFN_vkGetInstanceProcAddr gipa = vk_icdGetInstanceProcAddr;
#define DUET_FUZZ_FN(name) PFN_vk##name name = nullptr;
#define DUET_FUZZ_FNS                                                                                         \
  DUET_FUZZ_FN(CreateInstance) DUET_FUZZ_FN(EnumeratePhysicalDevices) DUET_FUZZ_FN(GetPhysicalDeviceFeatures2) \
  DUET_FUZZ_FN(GetPhysicalDeviceMemoryProperties) DUET_FUZZ_FN(CreateDevice) DUET_FUZZ_FN(DestroyDevice)        \
  DUET_FUZZ_FN(GetDeviceQueue) DUET_FUZZ_FN(CreateShaderModule) DUET_FUZZ_FN(DestroyShaderModule)               \
  DUET_FUZZ_FN(CreateDescriptorSetLayout) DUET_FUZZ_FN(DestroyDescriptorSetLayout)                             \
  DUET_FUZZ_FN(CreatePipelineLayout) DUET_FUZZ_FN(DestroyPipelineLayout) DUET_FUZZ_FN(CreateComputePipelines)  \
  DUET_FUZZ_FN(DestroyPipeline) DUET_FUZZ_FN(CreateBuffer) DUET_FUZZ_FN(DestroyBuffer)                         \
  DUET_FUZZ_FN(GetBufferMemoryRequirements) DUET_FUZZ_FN(AllocateMemory) DUET_FUZZ_FN(FreeMemory)              \
  DUET_FUZZ_FN(BindBufferMemory) DUET_FUZZ_FN(MapMemory) DUET_FUZZ_FN(CreateDescriptorPool)                   \
  DUET_FUZZ_FN(DestroyDescriptorPool) DUET_FUZZ_FN(AllocateDescriptorSets) DUET_FUZZ_FN(UpdateDescriptorSets)  \
  DUET_FUZZ_FN(CreateCommandPool) DUET_FUZZ_FN(DestroyCommandPool) DUET_FUZZ_FN(AllocateCommandBuffers)         \
  DUET_FUZZ_FN(BeginCommandBuffer) DUET_FUZZ_FN(EndCommandBuffer) DUET_FUZZ_FN(CmdBindPipeline)                \
  DUET_FUZZ_FN(CmdBindDescriptorSets) DUET_FUZZ_FN(CmdPushConstants) DUET_FUZZ_FN(CmdDispatch)                 \
  DUET_FUZZ_FN(QueueSubmit) DUET_FUZZ_FN(QueueWaitIdle) DUET_FUZZ_FN(FreeDescriptorSets)                      \
  DUET_FUZZ_FN(FreeCommandBuffers) DUET_FUZZ_FN(CreateGraphicsPipelines) DUET_FUZZ_FN(CreateImage)              \
  DUET_FUZZ_FN(DestroyImage) DUET_FUZZ_FN(GetImageMemoryRequirements) DUET_FUZZ_FN(BindImageMemory)             \
  DUET_FUZZ_FN(CreateImageView) DUET_FUZZ_FN(DestroyImageView) DUET_FUZZ_FN(CmdBeginRendering)                  \
  DUET_FUZZ_FN(CmdEndRendering) DUET_FUZZ_FN(CmdBindVertexBuffers) DUET_FUZZ_FN(CmdDraw)                        \
  DUET_FUZZ_FN(CmdPipelineBarrier) DUET_FUZZ_FN(CreateSampler) DUET_FUZZ_FN(DestroySampler)                   \
  DUET_FUZZ_FN(CreateBufferView) DUET_FUZZ_FN(DestroyBufferView) DUET_FUZZ_FN(CreateRenderPass)                \
  DUET_FUZZ_FN(DestroyRenderPass) DUET_FUZZ_FN(CreateFramebuffer) DUET_FUZZ_FN(DestroyFramebuffer)              \
  DUET_FUZZ_FN(CmdBeginRenderPass) DUET_FUZZ_FN(CmdEndRenderPass)
  DUET_FUZZ_FNS
#undef DUET_FUZZ_FN

  void Load(VkInstance instance) {
#define DUET_FUZZ_FN(name) name = reinterpret_cast<PFN_vk##name>(gipa(instance, "vk" #name));
    DUET_FUZZ_FNS
#undef DUET_FUZZ_FN
  }
};

// The images a descriptor may show: one set per texel kind, a view per shape.
enum class ImageKind : uint8_t { kRgba8, kR32Uint, kR32Sint, kDepth, kNone };
constexpr VkFormat kImageFormats[4] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32_UINT, VK_FORMAT_R32_SINT,
                                       VK_FORMAT_D32_SFLOAT};
enum class ImageShape : uint8_t {
  k1D, k1DArray, k2D, k2DArray, k3D, kCube, kCubeArray, k2DMS, k2DMSArray, kBuffer, kCount
};
constexpr uint32_t kRuntimeArrayElements = 3;
constexpr uint32_t kMaxInputAttachments = 4;
struct ImageUse {
  ImageKind kind;
  ImageShape shape;
};

// What a module asks of its pipeline: the stage of its "main" entry point,
// its descriptors by (set, binding) (with each image's kind), a vertex
// shader's input locations, a geometry shader's input primitive. `other`
// when it declares a descriptor the runner cannot provide (see the top of
// the file): then it is compiled, not run.
struct Interface {
  Interface() { input_attachments.fill(ImageKind::kNone); }
  VkShaderStageFlagBits stage = VkShaderStageFlagBits(0);
  std::map<std::pair<uint32_t, uint32_t>, VkDescriptorType> descriptors;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> counts;
  std::map<std::pair<uint32_t, uint32_t>, ImageUse> images;
  std::vector<uint32_t> input_locations;
  // A geometry shader's input primitive, as the topology it needs.
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  // A fragment shader's subpass inputs: the image kind read at each
  // input attachment index (kCount: unused).
  std::array<ImageKind, kMaxInputAttachments> input_attachments;
  bool reads_subpass = false;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> input_index;  // of each subpass-input binding
  bool other = false;
};

struct ImageType {
  uint32_t sampled_type, dim, depth, arrayed, ms, sampled, format;
};

VkShaderStageFlagBits StageOf(uint32_t execution_model) {
  switch (execution_model) {
    case 0: return VK_SHADER_STAGE_VERTEX_BIT;
    case 1: return VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
    case 2: return VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
    case 3: return VK_SHADER_STAGE_GEOMETRY_BIT;
    case 4: return VK_SHADER_STAGE_FRAGMENT_BIT;
    case 5: return VK_SHADER_STAGE_COMPUTE_BIT;
    default: return VkShaderStageFlagBits(0);
  }
}

Interface ReadInterface(const std::vector<uint32_t>& words) {
  Interface out;
  if (words.size() < 5) return out;
  std::map<uint32_t, uint32_t> set_of, binding_of, location_of, pointee_of, array_length_of, constant_of,
      attachment_index_of;
  std::map<uint32_t, bool> block, buffer_block, builtin;
  std::map<uint32_t, uint32_t> array_element_of;
  std::map<uint32_t, bool> runtime_array;
  std::map<uint32_t, ImageType> image_types;
  std::map<uint32_t, uint32_t> sampled_image_of;  // OpTypeSampledImage -> its image type
  std::map<uint32_t, bool> int_signed, is_float, is_sampler;
  struct Variable {
    uint32_t id, type, storage;
  };
  std::vector<Variable> variables;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xFFFF;
    if (count == 0 || i + count > words.size()) break;
    const uint32_t* w = &words[i];
    if (opcode == 15 && count >= 4 && out.stage == 0 &&  // OpEntryPoint named "main"
        std::strncmp(reinterpret_cast<const char*>(&w[3]), "main", (count - 3) * 4) == 0) {
      out.stage = StageOf(w[1]);
    } else if (opcode == 16 && count >= 3) {  // OpExecutionMode: a geometry shader's input primitive
      switch (w[2]) {
        case 19: out.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST; break;                     // InputPoints
        case 20: out.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST; break;                      // InputLines
        case 21: out.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY; break;       // InputLinesAdjacency
        case 23: out.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY; break;   // InputTrianglesAdjacency
        default: break;
      }
    } else if (opcode == 71 && count >= 3) {  // OpDecorate
      if (w[2] == 34 && count >= 4) set_of[w[1]] = w[3];          // DescriptorSet
      if (w[2] == 33 && count >= 4) binding_of[w[1]] = w[3];      // Binding
      if (w[2] == 30 && count >= 4) location_of[w[1]] = w[3];     // Location
      if (w[2] == 43 && count >= 4) attachment_index_of[w[1]] = w[3];  // InputAttachmentIndex
      if (w[2] == 11) builtin[w[1]] = true;                       // BuiltIn
      if (w[2] == 2) block[w[1]] = true;                          // Block
      if (w[2] == 3) buffer_block[w[1]] = true;                   // BufferBlock
    } else if (opcode == 32 && count >= 4) {                      // OpTypePointer
      pointee_of[w[1]] = w[3];
    } else if (opcode == 28 && count >= 4) {                      // OpTypeArray
      array_element_of[w[1]] = w[2];
      array_length_of[w[1]] = w[3];
    } else if (opcode == 29 && count >= 3) {                      // OpTypeRuntimeArray
      array_element_of[w[1]] = w[2];
      array_length_of[w[1]] = 0;
      runtime_array[w[1]] = true;
    } else if (opcode == 25 && count >= 9) {                      // OpTypeImage
      image_types[w[1]] = {w[2], w[3], w[4], w[5], w[6], w[7], w[8]};
    } else if (opcode == 27 && count >= 3) {                      // OpTypeSampledImage
      sampled_image_of[w[1]] = w[2];
    } else if (opcode == 26 && count >= 2) {                      // OpTypeSampler
      is_sampler[w[1]] = true;
    } else if (opcode == 21 && count >= 4) {                      // OpTypeInt
      int_signed[w[1]] = w[3] != 0;
    } else if (opcode == 22 && count >= 3) {                      // OpTypeFloat
      is_float[w[1]] = true;
    } else if (opcode == 43 && count >= 4) {                      // OpConstant
      constant_of[w[2]] = w[3];
    } else if (opcode == 59 && count >= 4) {                      // OpVariable
      variables.push_back({w[2], w[1], w[3]});
    }
    i += count;
  }
  for (const Variable& v : variables) {
    if (v.storage == 1 && out.stage == VK_SHADER_STAGE_VERTEX_BIT && location_of.count(v.id)) {  // Input
      // Each input location gets a 4-component attribute; arrays and
      // matrices span several.
      for (uint32_t k = 0; k < 4; ++k) out.input_locations.push_back(location_of[v.id] + k);
      continue;
    }
    if (!set_of.count(v.id) && !binding_of.count(v.id)) continue;
    const std::pair<uint32_t, uint32_t> key{set_of[v.id], binding_of[v.id]};
    uint32_t type = pointee_of[v.type], array_size = 1;
    if (array_element_of.count(type)) {
      const uint32_t length = array_length_of[type];
      array_size = runtime_array.count(type)                        ? kRuntimeArrayElements
                   : length != 0 && constant_of.count(length) ? constant_of[length]
                                                              : 0;
      type = array_element_of[type];
    }
    if (array_size == 0 || array_size > 4 || key.first >= 4 || key.second >= kMaxBindings) {
      out.other = true;  // large arrays: not run
      continue;
    }
    if (v.storage == 12 || (v.storage == 2 && buffer_block[type])) {  // StorageBuffer, or Uniform + BufferBlock
      out.descriptors[key] = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    } else if (v.storage == 2 && block[type]) {
      out.descriptors[key] = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    } else if (v.storage == 0 && is_sampler[type]) {  // UniformConstant
      out.descriptors[key] = VK_DESCRIPTOR_TYPE_SAMPLER;
    } else if (v.storage == 0 && (image_types.count(type) || sampled_image_of.count(type))) {
      const bool combined = sampled_image_of.count(type) != 0;
      if (combined && !image_types.count(sampled_image_of[type])) {
        out.other = true;
        continue;
      }
      const ImageType& image = image_types[combined ? sampled_image_of[type] : type];
      if (image.dim == 6) {  // SubpassData: an input attachment of a fragment shader's subpass
        const bool integer = int_signed.count(image.sampled_type) != 0;
        const uint32_t index = attachment_index_of.count(v.id) ? attachment_index_of[v.id] : kMaxInputAttachments;
        const ImageKind kind = !integer ? ImageKind::kRgba8
                               : int_signed[image.sampled_type] ? ImageKind::kR32Sint
                                                                : ImageKind::kR32Uint;
        if (combined || image.ms != 0 || array_size != 1 || index >= kMaxInputAttachments ||
            (!integer && !is_float[image.sampled_type]) ||
            (out.input_attachments[index] != ImageKind::kNone && out.input_attachments[index] != kind)) {
          out.other = true;
          continue;
        }
        out.input_attachments[index] = kind;
        out.reads_subpass = true;
        out.input_index[key] = index;
        out.descriptors[key] = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
        out.counts[key] = 1;
        continue;
      }
      // Of a dimension with a view here: colour, or depth (D32: sampled,
      // 2D or cube), single-sampled, or 2D multisampled colour.
      const bool integer = int_signed.count(image.sampled_type) != 0;
      const bool depth = image.depth == 1;
      ImageKind kind = depth      ? ImageKind::kDepth
                       : !integer ? ImageKind::kRgba8
                       : int_signed[image.sampled_type] ? ImageKind::kR32Sint
                                                        : ImageKind::kR32Uint;
      ImageShape shape = ImageShape::kCount;
      switch (image.dim) {  // SPIR-V Dim: 1D, 2D, 3D, Cube, Rect, Buffer
        case 0: shape = image.arrayed ? ImageShape::k1DArray : ImageShape::k1D; break;
        case 1:
          shape = image.ms != 0 ? (image.arrayed ? ImageShape::k2DMSArray : ImageShape::k2DMS)
                                : (image.arrayed ? ImageShape::k2DArray : ImageShape::k2D);
          break;
        case 2: shape = image.arrayed ? ImageShape::kCount : ImageShape::k3D; break;
        case 3: shape = image.arrayed ? ImageShape::kCubeArray : ImageShape::kCube; break;
        case 5: shape = image.arrayed ? ImageShape::kCount : ImageShape::kBuffer; break;
        default: break;
      }
      const bool multisampled = shape == ImageShape::k2DMS || shape == ImageShape::k2DMSArray;
      const bool depth_shape = shape == ImageShape::k2D || shape == ImageShape::k2DArray ||
                               shape == ImageShape::kCube || shape == ImageShape::kCubeArray;
      bool usable = shape != ImageShape::kCount && (image.ms == 0 || multisampled) &&
                    (integer || is_float[image.sampled_type]) && !(combined && shape == ImageShape::kBuffer) &&
                    (!depth || (depth_shape && !integer && image.sampled == 1));
      if (image.sampled == 2) {
        // Storage: the declared format must be the image's (or unknown).
        const VkFormat declared = image.format == 0    ? kImageFormats[size_t(kind)]
                                  : image.format == 4  ? VK_FORMAT_R8G8B8A8_UNORM   // Rgba8
                                  : image.format == 33 ? VK_FORMAT_R32_UINT         // R32ui
                                  : image.format == 24 ? VK_FORMAT_R32_SINT         // R32i
                                                       : VK_FORMAT_UNDEFINED;
        usable = usable && !combined && declared == kImageFormats[size_t(kind)];
      } else {
        usable = usable && image.sampled == 1;
      }
      if (!usable) {
        out.other = true;
        continue;
      }
      const bool texel_buffer = shape == ImageShape::kBuffer;
      out.descriptors[key] = image.sampled == 2 ? (texel_buffer ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                                                                : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
                             : texel_buffer     ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                             : combined         ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
                                                : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
      out.images[key] = {kind, shape};
    } else {
      out.other = true;
      continue;
    }
    out.counts[key] = array_size;
  }
  for (uint32_t location : out.input_locations) out.other |= location >= kMaxVertexLocations;
  out.other |= out.reads_subpass && out.stage != VK_SHADER_STAGE_FRAGMENT_BIT;
  return out;
}

class Runner {
 public:
  Runner() {
    setenv("DUET_WATCHDOG_MS", "20", 0);
    setenv("DUET_LOG", "error", 0);  // a lost device is expected here
    setenv("DUET_CACHE", "0", 0);  // random modules are not worth keeping on disk
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    api_.CreateInstance = reinterpret_cast<PFN_vkCreateInstance>(api_.gipa(nullptr, "vkCreateInstance"));
    if (api_.CreateInstance == nullptr || api_.CreateInstance(&ci, nullptr, &instance_) != VK_SUCCESS) std::abort();
    api_.Load(instance_);
#define DUET_FUZZ_FN(name) \
  if (api_.name == nullptr) std::abort();
    DUET_FUZZ_FNS
#undef DUET_FUZZ_FN
    uint32_t count = 1;
    if (api_.EnumeratePhysicalDevices(instance_, &count, &physical_) < 0 || count == 0) std::abort();
  }

  void Run(const uint8_t* data, size_t size) {
    if (device_ == VK_NULL_HANDLE && !CreateDevice()) return;
    std::vector<uint32_t> words(size / 4);
    if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
    VkShaderModule module = MakeModule(words.data(), words.size() * 4);
    if (module == VK_NULL_HANDLE) return;
    const Interface iface = ReadInterface(words);

    // One set layout per set the module uses (up to 4), every buffer binding in it.
    const VkShaderStageFlags stages = iface.stage == VK_SHADER_STAGE_COMPUTE_BIT ? VkShaderStageFlags(VK_SHADER_STAGE_COMPUTE_BIT)
                                                                               : VK_SHADER_STAGE_ALL_GRAPHICS;
    std::array<VkDescriptorSetLayout, 4> layouts{};
    uint32_t set_count = 0;
    for (const auto& [key, type] : iface.descriptors) set_count = std::max(set_count, key.first + 1);
    for (uint32_t s = 0; s < set_count; ++s) {
      std::vector<VkDescriptorSetLayoutBinding> bindings;
      for (const auto& [key, type] : iface.descriptors)
        if (key.first == s) bindings.push_back({key.second, type, iface.counts.at(key), stages});
      VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      lci.bindingCount = uint32_t(bindings.size());
      lci.pBindings = bindings.data();
      api_.CreateDescriptorSetLayout(device_, &lci, nullptr, &layouts[s]);
    }
    const VkPushConstantRange push{stages, 0, kPushConstantBytes};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = set_count;
    plci.pSetLayouts = layouts.data();
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &push;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    api_.CreatePipelineLayout(device_, &plci, nullptr, &layout);

    VkRenderPass render_pass = VK_NULL_HANDLE;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    if (iface.reads_subpass && !iface.other) MakeRenderPass(iface, &render_pass, &framebuffer);
    const VkPipeline pipeline = MakePipeline(iface, module, layout, render_pass);
    if (pipeline != VK_NULL_HANDLE && !iface.other && (!iface.reads_subpass || framebuffer != VK_NULL_HANDLE)) {
      const Work work{pipeline, layout, stages, layouts, set_count, &iface, data, size, render_pass, framebuffer};
      Execute(work);
    }
    if (pipeline != VK_NULL_HANDLE) api_.DestroyPipeline(device_, pipeline, nullptr);
    api_.DestroyFramebuffer(device_, framebuffer, nullptr);
    api_.DestroyRenderPass(device_, render_pass, nullptr);
    api_.DestroyPipelineLayout(device_, layout, nullptr);
    for (uint32_t s = 0; s < set_count; ++s) api_.DestroyDescriptorSetLayout(device_, layouts[s], nullptr);
    api_.DestroyShaderModule(device_, module, nullptr);
    if (lost_) DestroyDevice();  // a runaway shader lost it: the next input gets a new one
  }

 private:
  struct Work {
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkShaderStageFlags stages;
    const std::array<VkDescriptorSetLayout, 4>& layouts;
    uint32_t set_count;
    const Interface* iface;
    const uint8_t* data;
    size_t size;
    VkRenderPass render_pass;  // a subpass-reading fragment module's; else dynamic rendering
    VkFramebuffer framebuffer;
  };

  // A render pass of one subpass drawing into the target and reading the
  // input attachments the module's subpass inputs name (the images of their
  // kinds, kept as they are), and its framebuffer.
  void MakeRenderPass(const Interface& iface, VkRenderPass* render_pass, VkFramebuffer* framebuffer) {
    std::vector<VkAttachmentDescription> attachments{{0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
                                                      VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                                                      VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                                      VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL}};
    std::vector<VkImageView> views{target_view_};
    std::array<VkAttachmentReference, kMaxInputAttachments> inputs;
    for (uint32_t i = 0; i < kMaxInputAttachments; ++i) {
      inputs[i] = {VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_GENERAL};
      const ImageKind kind = iface.input_attachments[i];
      if (kind == ImageKind::kNone) continue;
      inputs[i].attachment = uint32_t(attachments.size());
      attachments.push_back({0, kImageFormats[size_t(kind)], VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_LOAD,
                             VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                             VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL});
      views.push_back(images_[size_t(kind)].input_view);
    }
    const VkAttachmentReference color{0, VK_IMAGE_LAYOUT_GENERAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.inputAttachmentCount = kMaxInputAttachments;
    subpass.pInputAttachments = inputs.data();
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &color;
    VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    rpci.attachmentCount = uint32_t(attachments.size());
    rpci.pAttachments = attachments.data();
    rpci.subpassCount = 1;
    rpci.pSubpasses = &subpass;
    if (api_.CreateRenderPass(device_, &rpci, nullptr, render_pass) != VK_SUCCESS) return;
    VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fci.renderPass = *render_pass;
    fci.attachmentCount = uint32_t(views.size());
    fci.pAttachments = views.data();
    fci.width = fci.height = kTargetSize;
    fci.layers = 1;
    api_.CreateFramebuffer(device_, &fci, nullptr, framebuffer);
  }

  VkShaderModule MakeModule(const uint32_t* code, size_t bytes) {
    VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mci.codeSize = bytes;
    mci.pCode = code;
    VkShaderModule module = VK_NULL_HANDLE;
    if (bytes == 0 || api_.CreateShaderModule(device_, &mci, nullptr, &module) != VK_SUCCESS) return VK_NULL_HANDLE;
    return module;
  }

  VkPipeline MakePipeline(const Interface& iface, VkShaderModule module, VkPipelineLayout layout,
                          VkRenderPass render_pass) {
    VkPipeline pipeline = VK_NULL_HANDLE;
    if (iface.stage == VK_SHADER_STAGE_COMPUTE_BIT) {
      VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                    module, "main"};
      cpci.layout = layout;
      if (api_.CreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline) != VK_SUCCESS)
        return VK_NULL_HANDLE;
      return pipeline;
    }
    const bool vertex = iface.stage == VK_SHADER_STAGE_VERTEX_BIT;
    const bool geometry = iface.stage == VK_SHADER_STAGE_GEOMETRY_BIT;
    const bool control = iface.stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
    const bool evaluation = iface.stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
    const bool fragment = iface.stage == VK_SHADER_STAGE_FRAGMENT_BIT;
    if (!vertex && !geometry && !control && !evaluation && !fragment) return pipeline;
    // The module's stage, and the fixed shaders of the others (a geometry
    // module sits between the fixed vertex and fragment shaders, a
    // tessellation module beside the fixed other tessellation stage).
    auto stage = [](VkShaderStageFlagBits bit, VkShaderModule m) {
      return VkPipelineShaderStageCreateInfo{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, bit, m,
                                             "main"};
    };
    std::vector<VkPipelineShaderStageCreateInfo> shader_stages = {
        stage(VK_SHADER_STAGE_VERTEX_BIT, vertex ? module : fixed_vertex_),
        stage(VK_SHADER_STAGE_FRAGMENT_BIT, fragment ? module : fixed_fragment_)};
    if (geometry) shader_stages.push_back(stage(VK_SHADER_STAGE_GEOMETRY_BIT, module));
    if (control || evaluation) {
      shader_stages.push_back(stage(VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, control ? module : fixed_control_));
      shader_stages.push_back(
          stage(VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, evaluation ? module : fixed_evaluation_));
    }
    const VkPipelineTessellationStateCreateInfo tessellation{
        VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO, nullptr, 0, 3};
    std::vector<VkVertexInputAttributeDescription> attributes;
    for (uint32_t location : iface.input_locations)
      attributes.push_back({location, 0, VK_FORMAT_R32G32B32A32_SFLOAT, (location % 4) * 16});
    const VkVertexInputBindingDescription binding{0, kVertexStride, VK_VERTEX_INPUT_RATE_VERTEX};
    VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    input.vertexBindingDescriptionCount = attributes.empty() ? 0 : 1;
    input.pVertexBindingDescriptions = &binding;
    input.vertexAttributeDescriptionCount = uint32_t(attributes.size());
    input.pVertexAttributeDescriptions = attributes.data();
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = geometry                ? iface.topology
                        : control || evaluation ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST
                                                : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    const VkViewport viewport{0, 0, float(kTargetSize), float(kTargetSize), 0, 1};
    const VkRect2D scissor{{0, 0}, {kTargetSize, kTargetSize}};
    VkPipelineViewportStateCreateInfo viewports{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewports.viewportCount = viewports.scissorCount = 1;
    viewports.pViewports = &viewport;
    viewports.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend_attachment{};
    blend_attachment.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = 1;
    blend.pAttachments = &blend_attachment;
    const VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &color_format;
    VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    if (render_pass != VK_NULL_HANDLE) {
      gpci.pNext = nullptr;
      gpci.renderPass = render_pass;
    } else if (iface.reads_subpass) {
      return pipeline;  // no render pass could be made
    }
    gpci.stageCount = uint32_t(shader_stages.size());
    gpci.pStages = shader_stages.data();
    if (control || evaluation) gpci.pTessellationState = &tessellation;
    gpci.pVertexInputState = &input;
    gpci.pInputAssemblyState = &assembly;
    gpci.pViewportState = &viewports;
    gpci.pRasterizationState = &raster;
    gpci.pMultisampleState = &multisample;
    gpci.pColorBlendState = &blend;
    gpci.layout = layout;
    if (api_.CreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline) != VK_SUCCESS)
      return VK_NULL_HANDLE;
    return pipeline;
  }

  bool CreateDevice() {
    // Every feature the device has, so that any valid module can be run.
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
    VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
    api_.GetPhysicalDeviceFeatures2(physical_, &features);
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    if (api_.CreateDevice(physical_, &dci, nullptr, &device_) != VK_SUCCESS) return false;
    api_.GetDeviceQueue(device_, 0, 0, &queue_);
    VkPhysicalDeviceMemoryProperties memory;
    api_.GetPhysicalDeviceMemoryProperties(physical_, &memory);
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
      constexpr VkMemoryPropertyFlags kHost = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      if ((memory.memoryTypes[i].propertyFlags & kHost) == kHost) {
        host_type_ = i;
        break;
      }
    }
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    api_.CreateCommandPool(device_, &pci, nullptr, &pool_);
    const VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64}, {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 64},
        {VK_DESCRIPTOR_TYPE_SAMPLER, 64},        {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 64},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 64},  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 64},
        {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 64}, {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 64},
        {VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 64}};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    dpci.maxSets = 4;
    dpci.poolSizeCount = uint32_t(std::size(sizes));
    dpci.pPoolSizes = sizes;
    api_.CreateDescriptorPool(device_, &dpci, nullptr, &descriptor_pool_);
    fixed_vertex_ = MakeModule(kFuzzExecFixedVert, sizeof kFuzzExecFixedVert);
    fixed_fragment_ = MakeModule(kFuzzExecFixedFrag, sizeof kFuzzExecFixedFrag);
    fixed_control_ = MakeModule(kFuzzExecFixedTesc, sizeof kFuzzExecFixedTesc);
    fixed_evaluation_ = MakeModule(kFuzzExecFixedTese, sizeof kFuzzExecFixedTese);
    // The 8x8 colour target the graphics inputs draw into.
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = VK_FORMAT_R8G8B8A8_UNORM;
    ici.extent = {kTargetSize, kTargetSize, 1};
    ici.mipLevels = ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    api_.CreateImage(device_, &ici, nullptr, &target_);
    VkMemoryRequirements requirements;
    api_.GetImageMemoryRequirements(device_, target_, &requirements);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, requirements.size, host_type_};
    api_.AllocateMemory(device_, &mai, nullptr, &target_memory_);
    api_.BindImageMemory(device_, target_, target_memory_, 0);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = target_;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = VK_FORMAT_R8G8B8A8_UNORM;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    api_.CreateImageView(device_, &vci, nullptr, &target_view_);
    for (size_t i = 0; i < std::size(kImageFormats); ++i) MakeDescriptorImage(i);
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    api_.CreateSampler(device_, &sci, nullptr, &sampler_);
    sci.compareEnable = VK_TRUE;  // for depth images
    sci.compareOp = VK_COMPARE_OP_LESS;
    api_.CreateSampler(device_, &sci, nullptr, &compare_sampler_);
    lost_ = false;
    return fixed_vertex_ != VK_NULL_HANDLE && fixed_fragment_ != VK_NULL_HANDLE && fixed_control_ != VK_NULL_HANDLE &&
           fixed_evaluation_ != VK_NULL_HANDLE && target_view_ != VK_NULL_HANDLE;
  }

  // The images of kImageFormats[i] the descriptors show, their memory
  // filled with a pattern (layouts do not matter to this driver's images):
  // 8x8 with 6 layers (2D, 2D array, cube, cube array views), 8 wide with 2
  // layers (1D, 1D array), 4x4x4 (3D), 8x8 with 2 layers of 4 samples (2D
  // multisampled, arrayed or not), 8x8 (the input attachment), and a 256-byte
  // texel buffer. Depth: the first only, sampled.
  void MakeDescriptorImage(size_t i) {
    DescriptorImage& d = images_[i];
    const VkFormat format = kImageFormats[i];
    const bool depth = ImageKind(i) == ImageKind::kDepth;
    struct Shape {
      VkImageType type;
      VkExtent3D extent;
      uint32_t layers;
      VkImageCreateFlags flags;
      VkSampleCountFlagBits samples;
      VkImageUsageFlags usage;  // besides sampled
      bool linear;              // linear tiling (a colour kind's)
    };
    constexpr VkImageUsageFlags kStorage = VK_IMAGE_USAGE_STORAGE_BIT;
    const Shape shapes[5] = {
        {VK_IMAGE_TYPE_2D, {kTargetSize, kTargetSize, 1}, 6, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT, VK_SAMPLE_COUNT_1_BIT,
         kStorage, true},
        {VK_IMAGE_TYPE_1D, {kTargetSize, 1, 1}, 2, 0, VK_SAMPLE_COUNT_1_BIT, kStorage, true},
        {VK_IMAGE_TYPE_3D, {4, 4, 4}, 1, 0, VK_SAMPLE_COUNT_1_BIT, kStorage, true},
        {VK_IMAGE_TYPE_2D, {kTargetSize, kTargetSize, 1}, 2, 0, VK_SAMPLE_COUNT_4_BIT, kStorage, false},
        // The input attachment of this kind.
        {VK_IMAGE_TYPE_2D, {kTargetSize, kTargetSize, 1}, 1, 0, VK_SAMPLE_COUNT_1_BIT,
         VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, false}};
    for (size_t s = 0; s < (depth ? 1 : std::size(shapes)); ++s) {
      VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
      ici.flags = shapes[s].flags;
      ici.imageType = shapes[s].type;
      ici.format = format;
      ici.extent = shapes[s].extent;
      ici.mipLevels = 1;
      ici.arrayLayers = shapes[s].layers;
      ici.samples = shapes[s].samples;
      const bool linear = !depth && shapes[s].linear;
      ici.tiling = linear ? VK_IMAGE_TILING_LINEAR : VK_IMAGE_TILING_OPTIMAL;
      ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT | (depth ? 0 : shapes[s].usage);
      ici.initialLayout = linear ? VK_IMAGE_LAYOUT_PREINITIALIZED : VK_IMAGE_LAYOUT_UNDEFINED;
      api_.CreateImage(device_, &ici, nullptr, &d.images[s]);
      VkMemoryRequirements requirements;
      api_.GetImageMemoryRequirements(device_, d.images[s], &requirements);
      d.memory[s] = AllocatePattern(requirements.size, uint8_t(i + s));
      api_.BindImageMemory(device_, d.images[s], d.memory[s], 0);
    }
    auto view = [&](size_t image, VkImageViewType type, uint32_t layers) {
      VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
      vci.image = d.images[image];
      vci.viewType = type;
      vci.format = format;
      vci.subresourceRange = {depth ? VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT) : VK_IMAGE_ASPECT_COLOR_BIT, 0, 1,
                              0, layers};
      VkImageView made = VK_NULL_HANDLE;
      api_.CreateImageView(device_, &vci, nullptr, &made);
      return made;
    };
    d.views[size_t(ImageShape::k2D)] = view(0, VK_IMAGE_VIEW_TYPE_2D, 1);
    d.views[size_t(ImageShape::k2DArray)] = view(0, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 6);
    d.views[size_t(ImageShape::kCube)] = view(0, VK_IMAGE_VIEW_TYPE_CUBE, 6);
    d.views[size_t(ImageShape::kCubeArray)] = view(0, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, 6);
    if (depth) return;
    d.input_view = view(4, VK_IMAGE_VIEW_TYPE_2D, 1);
    d.views[size_t(ImageShape::k2DMS)] = view(3, VK_IMAGE_VIEW_TYPE_2D, 1);
    d.views[size_t(ImageShape::k2DMSArray)] = view(3, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 2);
    d.views[size_t(ImageShape::k1D)] = view(1, VK_IMAGE_VIEW_TYPE_1D, 1);
    d.views[size_t(ImageShape::k1DArray)] = view(1, VK_IMAGE_VIEW_TYPE_1D_ARRAY, 2);
    d.views[size_t(ImageShape::k3D)] = view(2, VK_IMAGE_VIEW_TYPE_3D, 1);
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = kBufferBytes;
    bci.usage = VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
    api_.CreateBuffer(device_, &bci, nullptr, &d.texel_buffer);
    VkMemoryRequirements requirements;
    api_.GetBufferMemoryRequirements(device_, d.texel_buffer, &requirements);
    d.memory[5] = AllocatePattern(requirements.size, uint8_t(i + 5));
    api_.BindBufferMemory(device_, d.texel_buffer, d.memory[5], 0);
    VkBufferViewCreateInfo bvci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    bvci.buffer = d.texel_buffer;
    bvci.format = format;
    bvci.range = VK_WHOLE_SIZE;
    api_.CreateBufferView(device_, &bvci, nullptr, &d.texel_view);
  }

  // Host-visible memory of `size` bytes holding a pattern.
  VkDeviceMemory AllocatePattern(VkDeviceSize size, uint8_t seed) {
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, size, host_type_};
    VkDeviceMemory memory = VK_NULL_HANDLE;
    api_.AllocateMemory(device_, &mai, nullptr, &memory);
    void* mapped = nullptr;
    if (memory != VK_NULL_HANDLE && api_.MapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &mapped) == VK_SUCCESS) {
      for (VkDeviceSize b = 0; b < size; ++b) static_cast<uint8_t*>(mapped)[b] = uint8_t(b * 37 + seed);
    }
    return memory;
  }

  void DestroyDevice() {
    api_.DestroySampler(device_, compare_sampler_, nullptr);
    for (DescriptorImage& d : images_) {
      for (VkImageView view : d.views) api_.DestroyImageView(device_, view, nullptr);
      for (VkImage image : d.images) api_.DestroyImage(device_, image, nullptr);
      api_.DestroyImageView(device_, d.input_view, nullptr);
      api_.DestroyBufferView(device_, d.texel_view, nullptr);
      api_.DestroyBuffer(device_, d.texel_buffer, nullptr);
      for (VkDeviceMemory memory : d.memory) api_.FreeMemory(device_, memory, nullptr);
      d = {};
    }
    api_.DestroySampler(device_, sampler_, nullptr);
    api_.DestroyImageView(device_, target_view_, nullptr);
    api_.DestroyImage(device_, target_, nullptr);
    api_.FreeMemory(device_, target_memory_, nullptr);
    api_.DestroyShaderModule(device_, fixed_vertex_, nullptr);
    api_.DestroyShaderModule(device_, fixed_fragment_, nullptr);
    api_.DestroyShaderModule(device_, fixed_control_, nullptr);
    api_.DestroyShaderModule(device_, fixed_evaluation_, nullptr);
    api_.DestroyDescriptorPool(device_, descriptor_pool_, nullptr);
    api_.DestroyCommandPool(device_, pool_, nullptr);
    api_.DestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }

  // Runs the pipeline once: buffers filled from the input behind every
  // descriptor (and the vertex buffer), push constants from it too.
  void Execute(const Work& w) {
    const Interface& iface = *w.iface;
    uint32_t descriptor_count = 0;
    for (const auto& [key, count] : iface.counts) descriptor_count += count;
    // One host-visible allocation: the vertex buffer, then each descriptor's buffer.
    const VkDeviceSize vertex_bytes = VkDeviceSize(kVertexStride) * kVertices;
    const VkDeviceSize total = vertex_bytes + VkDeviceSize(descriptor_count) * kBufferBytes;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = total;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    if (api_.CreateBuffer(device_, &bci, nullptr, &buffer) != VK_SUCCESS) return;
    VkMemoryRequirements requirements;
    api_.GetBufferMemoryRequirements(device_, buffer, &requirements);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, requirements.size, host_type_};
    VkDeviceMemory memory = VK_NULL_HANDLE;
    if (api_.AllocateMemory(device_, &mai, nullptr, &memory) != VK_SUCCESS) {
      api_.DestroyBuffer(device_, buffer, nullptr);
      return;
    }
    api_.BindBufferMemory(device_, buffer, memory, 0);
    void* mapped = nullptr;
    api_.MapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &mapped);
    auto* bytes = static_cast<uint8_t*>(mapped);
    for (VkDeviceSize i = 0; bytes != nullptr && i < total; ++i) bytes[i] = w.size != 0 ? w.data[i % w.size] : 0;

    std::array<VkDescriptorSet, 4> sets{};
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptor_pool_,
                                     w.set_count, w.layouts.data()};
    const bool have_sets = w.set_count == 0 || api_.AllocateDescriptorSets(device_, &dsai, sets.data()) == VK_SUCCESS;
    VkDeviceSize offset = vertex_bytes;
    for (const auto& [key, type] : iface.descriptors) {
      const bool is_buffer = type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
      for (uint32_t e = 0; have_sets && e < iface.counts.at(key); ++e) {
        const VkDescriptorBufferInfo info{buffer, offset, kBufferBytes};
        const auto use = iface.images.find(key);
        const DescriptorImage* shown = use != iface.images.end() ? &images_[size_t(use->second.kind)] : nullptr;
        const bool depth = use != iface.images.end() && use->second.kind == ImageKind::kDepth;
        VkDescriptorImageInfo image{
            depth ? compare_sampler_ : sampler_, shown != nullptr && use->second.shape != ImageShape::kBuffer
                          ? shown->views[size_t(use->second.shape)] : VK_NULL_HANDLE,
            VK_IMAGE_LAYOUT_GENERAL};
        if (type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT)
          image.imageView = images_[size_t(iface.input_attachments[iface.input_index.at(key)])].input_view;
        const VkBufferView texel_view = shown != nullptr ? shown->texel_view : VK_NULL_HANDLE;
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = sets[key.first];
        write.dstBinding = key.second;
        write.dstArrayElement = e;
        write.descriptorCount = 1;
        write.descriptorType = type;
        write.pBufferInfo = &info;
        write.pImageInfo = &image;
        write.pTexelBufferView = &texel_view;
        api_.UpdateDescriptorSets(device_, 1, &write, 0, nullptr);
        if (is_buffer) offset += kBufferBytes;
      }
    }
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_,
                                     VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cb = VK_NULL_HANDLE;
    if (have_sets && api_.AllocateCommandBuffers(device_, &cbai, &cb) == VK_SUCCESS) {
      const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      api_.BeginCommandBuffer(cb, &begin);
      const bool compute = iface.stage == VK_SHADER_STAGE_COMPUTE_BIT;
      const VkPipelineBindPoint point = compute ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS;
      api_.CmdBindPipeline(cb, point, w.pipeline);
      if (w.set_count != 0) api_.CmdBindDescriptorSets(cb, point, w.layout, 0, w.set_count, sets.data(), 0, nullptr);
      uint8_t push[kPushConstantBytes];
      for (uint32_t i = 0; i < kPushConstantBytes; ++i) push[i] = w.size != 0 ? w.data[(i * 7) % w.size] : 0;
      api_.CmdPushConstants(cb, w.layout, w.stages, 0, kPushConstantBytes, push);
      if (compute) {
        api_.CmdDispatch(cb, 1 + uint32_t(w.size % 2), 1, 1);
      } else {
        Draw(cb, buffer, w.render_pass, w.framebuffer);
      }
      api_.EndCommandBuffer(cb);
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &cb;
      if (api_.QueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE) == VK_ERROR_DEVICE_LOST) lost_ = true;
      if (api_.QueueWaitIdle(queue_) == VK_ERROR_DEVICE_LOST) lost_ = true;
    }
    if (w.set_count != 0 && have_sets) api_.FreeDescriptorSets(device_, descriptor_pool_, w.set_count, sets.data());
    if (cb != VK_NULL_HANDLE) api_.FreeCommandBuffers(device_, pool_, 1, &cb);
    api_.DestroyBuffer(device_, buffer, nullptr);
    api_.FreeMemory(device_, memory, nullptr);
  }

  // A triangle (the fixed vertex shader's covers the target) into the 8x8 target.
  void Draw(VkCommandBuffer cb, VkBuffer vertices, VkRenderPass render_pass, VkFramebuffer framebuffer) {
    const VkDeviceSize offset = 0;
    if (render_pass != VK_NULL_HANDLE) {  // a fragment module reading subpass inputs
      const VkClearValue clear{};
      VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      begin.renderPass = render_pass;
      begin.framebuffer = framebuffer;
      begin.renderArea = {{0, 0}, {kTargetSize, kTargetSize}};
      begin.clearValueCount = 1;
      begin.pClearValues = &clear;
      api_.CmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
      api_.CmdBindVertexBuffers(cb, 0, 1, &vertices, &offset);
      api_.CmdDraw(cb, kVertices, 1, 0, 0);
      api_.CmdEndRenderPass(cb);
      return;
    }
    VkImageMemoryBarrier to_attachment{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    to_attachment.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    to_attachment.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    to_attachment.srcQueueFamilyIndex = to_attachment.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_attachment.image = target_;
    to_attachment.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    api_.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0,
                            nullptr, 0, nullptr, 1, &to_attachment);
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = target_view_;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, {kTargetSize, kTargetSize}};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &color;
    api_.CmdBeginRendering(cb, &rendering);
    api_.CmdBindVertexBuffers(cb, 0, 1, &vertices, &offset);
    api_.CmdDraw(cb, kVertices, 1, 0, 0);
    api_.CmdEndRendering(cb);
  }

  Api api_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  VkShaderModule fixed_vertex_ = VK_NULL_HANDLE, fixed_fragment_ = VK_NULL_HANDLE;
  VkShaderModule fixed_control_ = VK_NULL_HANDLE, fixed_evaluation_ = VK_NULL_HANDLE;
  VkImage target_ = VK_NULL_HANDLE;
  VkDeviceMemory target_memory_ = VK_NULL_HANDLE;
  VkImageView target_view_ = VK_NULL_HANDLE;
  struct DescriptorImage {
    // 2D (6 layers, cube-compatible), 1D (2 layers), 3D, 2D multisampled, the input attachment (2D)
    VkImage images[5] = {};
    VkDeviceMemory memory[6] = {};  // theirs, and the texel buffer's
    VkImageView input_view = VK_NULL_HANDLE;
    VkImageView views[size_t(ImageShape::kCount)] = {};  // by ImageShape (not kBuffer)
    VkBuffer texel_buffer = VK_NULL_HANDLE;
    VkBufferView texel_view = VK_NULL_HANDLE;
  };
  DescriptorImage images_[std::size(kImageFormats)];
  VkSampler sampler_ = VK_NULL_HANDLE, compare_sampler_ = VK_NULL_HANDLE;
  uint32_t host_type_ = 0;
  bool lost_ = false;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Runner runner;
  runner.Run(data, size);
  return 0;
}

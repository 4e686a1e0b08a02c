// libFuzzer target that runs hostile compute shaders: arbitrary bytes become
// a shader module, a compute pipeline whose layout matches the module's
// buffer bindings, and one or two workgroups dispatched over small buffers
// filled from the input, through the driver's own entry points (no loader),
// built with AddressSanitizer and UndefinedBehaviorSanitizer. Whatever the
// module does (indices out of bounds, endless loops, division by zero,
// recursion-free deep control flow, huge private arrays) nothing may crash,
// trip a sanitizer or run past the shader watchdog (DUET_WATCHDOG_MS, set to
// a few milliseconds here): a runaway shader loses the device, and the next
// input gets a new one.
//
// Modules with image, sampler or texel-buffer descriptors are created and
// compiled but not dispatched (the layout would need images of the formats
// and dimensions the shader expects).
//
// Build and run: scripts/fuzz_exec.sh (or the ctest test fuzz_shader_execute_smoke).
#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

extern "C" VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                              const char* name);

namespace {

constexpr uint32_t kBufferBytes = 256;
constexpr uint32_t kPushConstantBytes = 256;  // maxPushConstantsSize
constexpr uint32_t kMaxBindings = 16;

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
  DUET_FUZZ_FN(QueueSubmit) DUET_FUZZ_FN(QueueWaitIdle)
  DUET_FUZZ_FNS
#undef DUET_FUZZ_FN

  void Load(VkInstance instance) {
#define DUET_FUZZ_FN(name) name = reinterpret_cast<PFN_vk##name>(gipa(instance, "vk" #name));
    DUET_FUZZ_FNS
#undef DUET_FUZZ_FN
  }
};

// The buffer descriptors a module declares, by (set, binding), from its
// decorations and variables. `other` when it declares any other kind.
struct Interface {
  std::map<std::pair<uint32_t, uint32_t>, VkDescriptorType> buffers;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> counts;
  bool other = false;
};

Interface ReadInterface(const std::vector<uint32_t>& words) {
  Interface out;
  if (words.size() < 5) return out;
  std::map<uint32_t, uint32_t> set_of, binding_of, pointee_of, array_length_of, constant_of;
  std::map<uint32_t, bool> block, buffer_block;
  std::map<uint32_t, uint32_t> array_element_of;
  struct Variable {
    uint32_t id, type, storage;
  };
  std::vector<Variable> variables;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xFFFF;
    if (count == 0 || i + count > words.size()) break;
    const uint32_t* w = &words[i];
    if (opcode == 71 && count >= 3) {  // OpDecorate
      if (w[2] == 34 && count >= 4) set_of[w[1]] = w[3];          // DescriptorSet
      if (w[2] == 33 && count >= 4) binding_of[w[1]] = w[3];      // Binding
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
    } else if (opcode == 43 && count >= 4) {                      // OpConstant
      constant_of[w[2]] = w[3];
    } else if (opcode == 59 && count >= 4) {                      // OpVariable
      variables.push_back({w[2], w[1], w[3]});
    }
    i += count;
  }
  for (const Variable& v : variables) {
    if (!set_of.count(v.id) && !binding_of.count(v.id)) continue;
    const std::pair<uint32_t, uint32_t> key{set_of[v.id], binding_of[v.id]};
    uint32_t type = pointee_of[v.type], descriptors = 1;
    if (array_element_of.count(type)) {
      const uint32_t length = array_length_of[type];
      descriptors = length != 0 && constant_of.count(length) ? constant_of[length] : 0;
      type = array_element_of[type];
    }
    if (descriptors == 0 || descriptors > 4 || key.first >= 4 || key.second >= kMaxBindings) {
      out.other = true;  // runtime or large arrays: not run
      continue;
    }
    if (v.storage == 12 || (v.storage == 2 && buffer_block[type])) {  // StorageBuffer, or Uniform + BufferBlock
      out.buffers[key] = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    } else if (v.storage == 2 && block[type]) {
      out.buffers[key] = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    } else {
      out.other = true;
      continue;
    }
    out.counts[key] = descriptors;
  }
  return out;
}

class Runner {
 public:
  Runner() {
    setenv("DUET_WATCHDOG_MS", "20", 0);
    setenv("DUET_LOG", "error", 0);  // a lost device is expected here
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
    VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mci.codeSize = words.size() * 4;
    mci.pCode = words.data();
    VkShaderModule module = VK_NULL_HANDLE;
    if (words.empty() || api_.CreateShaderModule(device_, &mci, nullptr, &module) != VK_SUCCESS) return;
    const Interface iface = ReadInterface(words);

    // One set layout per set the module uses (up to 4), every buffer binding in it.
    std::array<VkDescriptorSetLayout, 4> layouts{};
    uint32_t set_count = 0;
    for (const auto& [key, type] : iface.buffers) set_count = std::max(set_count, key.first + 1);
    for (uint32_t s = 0; s < set_count; ++s) {
      std::vector<VkDescriptorSetLayoutBinding> bindings;
      for (const auto& [key, type] : iface.buffers)
        if (key.first == s) bindings.push_back({key.second, type, iface.counts.at(key), VK_SHADER_STAGE_COMPUTE_BIT});
      VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      lci.bindingCount = uint32_t(bindings.size());
      lci.pBindings = bindings.data();
      api_.CreateDescriptorSetLayout(device_, &lci, nullptr, &layouts[s]);
    }
    const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushConstantBytes};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = set_count;
    plci.pSetLayouts = layouts.data();
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &push;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    api_.CreatePipelineLayout(device_, &plci, nullptr, &layout);

    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module,
                  "main"};
    cpci.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    const VkResult created = api_.CreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline);
    if (created == VK_SUCCESS && !iface.other) Dispatch(pipeline, layout, layouts, set_count, iface, data, size);
    if (pipeline != VK_NULL_HANDLE) api_.DestroyPipeline(device_, pipeline, nullptr);
    api_.DestroyPipelineLayout(device_, layout, nullptr);
    for (uint32_t s = 0; s < set_count; ++s) api_.DestroyDescriptorSetLayout(device_, layouts[s], nullptr);
    api_.DestroyShaderModule(device_, module, nullptr);
    if (lost_) DestroyDevice();  // a runaway shader lost it: the next input gets a new one
  }

 private:
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
    VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64}, {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 64}};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    dpci.maxSets = 4;
    dpci.poolSizeCount = 2;
    dpci.pPoolSizes = sizes;
    api_.CreateDescriptorPool(device_, &dpci, nullptr, &descriptor_pool_);
    lost_ = false;
    return true;
  }

  void DestroyDevice() {
    api_.DestroyDescriptorPool(device_, descriptor_pool_, nullptr);
    api_.DestroyCommandPool(device_, pool_, nullptr);
    api_.DestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }

  void Dispatch(VkPipeline pipeline, VkPipelineLayout layout, const std::array<VkDescriptorSetLayout, 4>& layouts,
                uint32_t set_count, const Interface& iface, const uint8_t* data, size_t size) {
    // One host-visible allocation holds every descriptor's buffer, filled
    // from the input (repeated), so the shader reads values the input chose.
    uint32_t descriptors = 0;
    for (const auto& [key, count] : iface.counts) descriptors += count;
    const VkDeviceSize total = VkDeviceSize(std::max(descriptors, 1u)) * kBufferBytes;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = total;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
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
    for (VkDeviceSize i = 0; bytes != nullptr && i < total; ++i) bytes[i] = size != 0 ? data[i % size] : 0;

    std::array<VkDescriptorSet, 4> sets{};
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptor_pool_,
                                     set_count, layouts.data()};
    const bool have_sets = set_count == 0 || api_.AllocateDescriptorSets(device_, &dsai, sets.data()) == VK_SUCCESS;
    VkDeviceSize offset = 0;
    for (const auto& [key, type] : iface.buffers) {
      for (uint32_t e = 0; have_sets && e < iface.counts.at(key); ++e, offset += kBufferBytes) {
        const VkDescriptorBufferInfo info{buffer, offset, kBufferBytes};
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = sets[key.first];
        write.dstBinding = key.second;
        write.dstArrayElement = e;
        write.descriptorCount = 1;
        write.descriptorType = type;
        write.pBufferInfo = &info;
        api_.UpdateDescriptorSets(device_, 1, &write, 0, nullptr);
      }
    }
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_,
                                     VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cb = VK_NULL_HANDLE;
    if (have_sets && api_.AllocateCommandBuffers(device_, &cbai, &cb) == VK_SUCCESS) {
      const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      api_.BeginCommandBuffer(cb, &begin);
      api_.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      if (set_count != 0) {
        api_.CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, set_count, sets.data(), 0, nullptr);
      }
      uint8_t push[kPushConstantBytes];
      for (uint32_t i = 0; i < kPushConstantBytes; ++i) push[i] = size != 0 ? data[(i * 7) % size] : 0;
      api_.CmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushConstantBytes, push);
      api_.CmdDispatch(cb, 1 + uint32_t(size % 2), 1, 1);
      api_.EndCommandBuffer(cb);
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &cb;
      if (api_.QueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE) == VK_ERROR_DEVICE_LOST) lost_ = true;
      if (api_.QueueWaitIdle(queue_) == VK_ERROR_DEVICE_LOST) lost_ = true;
    }
    if (set_count != 0 && have_sets) {
      // (The pool frees its sets when it is destroyed; free them now to reuse it.)
      PFN_vkFreeDescriptorSets free_sets =
          reinterpret_cast<PFN_vkFreeDescriptorSets>(api_.gipa(instance_, "vkFreeDescriptorSets"));
      free_sets(device_, descriptor_pool_, set_count, sets.data());
    }
    if (cb != VK_NULL_HANDLE) {
      PFN_vkFreeCommandBuffers free_cbs =
          reinterpret_cast<PFN_vkFreeCommandBuffers>(api_.gipa(instance_, "vkFreeCommandBuffers"));
      free_cbs(device_, pool_, 1, &cb);
    }
    api_.DestroyBuffer(device_, buffer, nullptr);
    api_.FreeMemory(device_, memory, nullptr);
  }

  Api api_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  uint32_t host_type_ = 0;
  bool lost_ = false;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Runner runner;
  runner.Run(data, size);
  return 0;
}

// Objects keep their arrays (bindings, attachments, subpasses, queries, the
// sets of a pool, a module's words...) in host memory from the application's
// VkAllocationCallbacks, not only the object itself: what the callbacks hold
// grows with the arrays. And a failure at any of those allocations is
// VK_ERROR_OUT_OF_HOST_MEMORY with nothing left behind.
#include <cstring>
#include <functional>
#include <mutex>
#include <vector>

#include "empty_compute_module.h"
#include "host_alloc_tracker.h"
#include "vk_fixture.h"

namespace duet_test {
namespace {

class ObjectHostMemory : public DeviceTest {
 protected:
  size_t LiveBytes() {
    std::lock_guard<std::mutex> lock(tracker_.mu);
    size_t bytes = 0;
    for (const auto& [pointer, size] : tracker_.live) bytes += size;
    return bytes;
  }

  // Live bytes of the callbacks while the object made by `make(n)` exists.
  // `make` creates with callbacks_ and returns a function that destroys.
  size_t BytesOf(const std::function<std::function<void()>(uint32_t)>& make, uint32_t n) {
    const size_t before = LiveBytes();
    const std::function<void()> destroy = make(n);
    const size_t during = LiveBytes();
    destroy();
    EXPECT_EQ(LiveBytes(), before) << "not everything was freed";
    return during - before;
  }

  // The callbacks must hold at least `per_element` more bytes per element
  // when the object has `large` elements instead of one.
  void ExpectArraysInCallbacks(const char* what, const std::function<std::function<void()>(uint32_t)>& make,
                               uint32_t large, size_t per_element) {
    const size_t small_bytes = BytesOf(make, 1);
    const size_t large_bytes = BytesOf(make, large);
    EXPECT_GE(large_bytes, small_bytes + (large - 1) * per_element)
        << what << ": " << small_bytes << " bytes with 1 element, " << large_bytes << " with " << large;
  }

  VkDescriptorSetLayout Layout(uint32_t bindings, const VkAllocationCallbacks* callbacks,
                               const VkSampler* immutable = nullptr) {
    std::vector<VkDescriptorSetLayoutBinding> list(bindings);
    for (uint32_t i = 0; i < bindings; ++i)
      list[i] = {i, immutable != nullptr ? VK_DESCRIPTOR_TYPE_SAMPLER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                 VK_SHADER_STAGE_ALL, immutable};
    const VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0,
                                               bindings, list.data()};
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &info, callbacks, &layout), VK_SUCCESS);
    return layout;
  }

  HostAllocTracker tracker_;
  const VkAllocationCallbacks callbacks_ = tracker_.Callbacks();
};

// A render pass of `attachments` colour attachments: one subpass writes the
// first, the others are preserved.
VkRenderPassCreateInfo RenderPassInfo(std::vector<VkAttachmentDescription>& attachments,
                                      std::vector<uint32_t>& preserves, VkAttachmentReference& color,
                                      VkSubpassDescription& subpass, uint32_t count) {
  attachments.assign(count,
                     {0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                      VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                      VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
  preserves.clear();
  for (uint32_t i = 1; i < count; ++i) preserves.push_back(i);
  color = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  subpass = {};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color;
  subpass.preserveAttachmentCount = uint32_t(preserves.size());
  subpass.pPreserveAttachments = preserves.data();
  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  info.attachmentCount = count;
  info.pAttachments = attachments.data();
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  return info;
}

TEST_F(ObjectHostMemory, ArraysGrowWhatTheCallbacksHold) {
  ExpectArraysInCallbacks(
      "query pool",
      [&](uint32_t n) -> std::function<void()> {
        VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        info.queryType = VK_QUERY_TYPE_OCCLUSION;
        info.queryCount = n;
        VkQueryPool pool = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateQueryPool(device_, &info, &callbacks_, &pool), VK_SUCCESS);
        return [=, this] { vkDestroyQueryPool(device_, pool, &callbacks_); };
      },
      4096, sizeof(uint64_t));

  ExpectArraysInCallbacks(
      "descriptor set layout",
      [&](uint32_t n) -> std::function<void()> {
        VkDescriptorSetLayout layout = Layout(n, &callbacks_);
        return [=, this] { vkDestroyDescriptorSetLayout(device_, layout, &callbacks_); };
      },
      256, 4 * sizeof(uint32_t));

  ExpectArraysInCallbacks(
      "pipeline layout (copies of its set layouts' bindings)",
      [&](uint32_t n) -> std::function<void()> {
        VkDescriptorSetLayout set_layout = Layout(n, nullptr);
        const VkPushConstantRange range{VK_SHADER_STAGE_ALL, 0, 16};
        const VkDescriptorSetLayout sets[4] = {set_layout, set_layout, set_layout, set_layout};
        const VkPipelineLayoutCreateInfo info{
            VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 4, sets, 1, &range};
        VkPipelineLayout layout = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreatePipelineLayout(device_, &info, &callbacks_, &layout), VK_SUCCESS);
        return [=, this] {
          vkDestroyPipelineLayout(device_, layout, &callbacks_);
          vkDestroyDescriptorSetLayout(device_, set_layout, nullptr);
        };
      },
      256, 4 * 4 * sizeof(uint32_t));

  ExpectArraysInCallbacks(
      "descriptor set (from a pool made with the callbacks)",
      [&](uint32_t n) -> std::function<void()> {
        VkDescriptorSetLayout set_layout = Layout(n, nullptr);
        const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4096};
        const VkDescriptorPoolCreateInfo pool_info{
            VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &size};
        VkDescriptorPool pool = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateDescriptorPool(device_, &pool_info, &callbacks_, &pool), VK_SUCCESS);
        const VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1,
                                                   &set_layout};
        VkDescriptorSet set = VK_NULL_HANDLE;
        EXPECT_EQ(vkAllocateDescriptorSets(device_, &allocate, &set), VK_SUCCESS);
        return [=, this] {
          vkDestroyDescriptorPool(device_, pool, &callbacks_);
          vkDestroyDescriptorSetLayout(device_, set_layout, nullptr);
        };
      },
      256, 4 * sizeof(void*));

  ExpectArraysInCallbacks(
      "descriptor update template",
      [&](uint32_t n) -> std::function<void()> {
        VkDescriptorSetLayout set_layout = Layout(n, nullptr);
        std::vector<VkDescriptorUpdateTemplateEntry> entries(n);
        for (uint32_t i = 0; i < n; ++i)
          entries[i] = {i, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, i * sizeof(VkDescriptorBufferInfo), 0};
        VkDescriptorUpdateTemplateCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
        info.descriptorUpdateEntryCount = n;
        info.pDescriptorUpdateEntries = entries.data();
        info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
        info.descriptorSetLayout = set_layout;
        VkDescriptorUpdateTemplate update_template = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateDescriptorUpdateTemplate(device_, &info, &callbacks_, &update_template), VK_SUCCESS);
        return [=, this] {
          vkDestroyDescriptorUpdateTemplate(device_, update_template, &callbacks_);
          vkDestroyDescriptorSetLayout(device_, set_layout, nullptr);
        };
      },
      256, sizeof(VkDescriptorUpdateTemplateEntry));

  ExpectArraysInCallbacks(
      "render pass",
      [&](uint32_t n) -> std::function<void()> {
        std::vector<VkAttachmentDescription> attachments;
        std::vector<uint32_t> preserves;
        VkAttachmentReference color;
        VkSubpassDescription subpass;
        const VkRenderPassCreateInfo info = RenderPassInfo(attachments, preserves, color, subpass, n);
        VkRenderPass pass = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateRenderPass(device_, &info, &callbacks_, &pass), VK_SUCCESS);
        return [=, this] { vkDestroyRenderPass(device_, pass, &callbacks_); };
      },
      64, sizeof(VkAttachmentDescription));

  ExpectArraysInCallbacks(
      "shader module",
      [&](uint32_t n) -> std::function<void()> {
        // A header, then OpNops: only the structure is checked at creation.
        std::vector<uint32_t> words = {0x07230203, 0x00010000, 0, 1, 0};
        words.resize(words.size() + n, 0x00010000);
        const VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, words.size() * 4,
                                            words.data()};
        VkShaderModule module = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateShaderModule(device_, &info, &callbacks_, &module), VK_SUCCESS);
        return [=, this] { vkDestroyShaderModule(device_, module, &callbacks_); };
      },
      4096, sizeof(uint32_t));

  std::lock_guard<std::mutex> lock(tracker_.mu);
  EXPECT_EQ(tracker_.bad_frees, 0u);
  EXPECT_EQ(tracker_.bad_alignments, 0u);
}

// A pipeline's compiled programs stay on the driver's heap, reported as
// executable memory: a notification at creation, a free of the same size at
// destruction.
TEST_F(ObjectHostMemory, PipelineCodeIsReportedAsInternalExecutableMemory) {
  const VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0,
                                             sizeof kEmptyComputeModule, kEmptyComputeModule};
  VkShaderModule module = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateShaderModule(device_, &module_info, nullptr, &module), VK_SUCCESS);
  const VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineLayout(device_, &layout_info, nullptr, &layout), VK_SUCCESS);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  info.layout = layout;
  VkPipeline pipelines[2] = {};
  const VkComputePipelineCreateInfo infos[2] = {info, info};
  ASSERT_EQ(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 2, infos, &callbacks_, pipelines), VK_SUCCESS);
  size_t reported = 0;
  {
    std::lock_guard<std::mutex> lock(tracker_.mu);
    reported = tracker_.internal_live[VK_INTERNAL_ALLOCATION_TYPE_EXECUTABLE];
    EXPECT_EQ(tracker_.internal_reports, 2u) << "one report per pipeline";
    EXPECT_GT(reported, 2 * sizeof(uint64_t)) << "the programs' instructions, at least";
  }
  vkDestroyPipeline(device_, pipelines[0], &callbacks_);
  {
    std::lock_guard<std::mutex> lock(tracker_.mu);
    EXPECT_EQ(tracker_.internal_live[VK_INTERNAL_ALLOCATION_TYPE_EXECUTABLE], reported / 2);
  }
  vkDestroyPipeline(device_, pipelines[1], &callbacks_);
  std::lock_guard<std::mutex> lock(tracker_.mu);
  EXPECT_EQ(tracker_.internal_live[VK_INTERNAL_ALLOCATION_TYPE_EXECUTABLE], 0u);
  EXPECT_EQ(tracker_.bad_internal_frees, 0u);
  EXPECT_TRUE(tracker_.live.empty());
  vkDestroyPipelineLayout(device_, layout, nullptr);
  vkDestroyShaderModule(device_, module, nullptr);
}

// Each creation fails at its 1st allocation, then its 2nd, ... until it
// succeeds: every failure is VK_ERROR_OUT_OF_HOST_MEMORY, gives no handle
// and leaves nothing allocated (the arrays' allocations included).
TEST_F(ObjectHostMemory, FailuresInTheArraysLeaveNothingBehind) {
  VkSampler sampler = VK_NULL_HANDLE;
  const VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  ASSERT_EQ(vkCreateSampler(device_, &sampler_info, nullptr, &sampler), VK_SUCCESS);
  const VkSampler immutable[2] = {sampler, sampler};
  VkDescriptorSetLayout set_layout = Layout(8, nullptr);
  ASSERT_NE(set_layout, VK_NULL_HANDLE);

  struct Creation {
    const char* name;
    // Creates with the callbacks; returns the result and a destroyer (on success).
    std::function<VkResult(std::function<void()>*)> create;
  };
  const VkAllocationCallbacks* cb = &callbacks_;
  std::vector<Creation> creations;
  creations.push_back({"descriptor set layout with immutable samplers", [&](std::function<void()>* destroy) {
                         VkDescriptorSetLayoutBinding bindings[3] = {
                             {0, VK_DESCRIPTOR_TYPE_SAMPLER, 2, VK_SHADER_STAGE_ALL, immutable},
                             {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, VK_SHADER_STAGE_ALL, nullptr},
                             {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, VK_SHADER_STAGE_ALL, immutable}};
                         const VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                                                    nullptr, 0, 3, bindings};
                         VkDescriptorSetLayout o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateDescriptorSetLayout(device_, &info, cb, &o);
                         EXPECT_EQ(r == VK_SUCCESS, o != VK_NULL_HANDLE);
                         *destroy = [=, this] { vkDestroyDescriptorSetLayout(device_, o, cb); };
                         return r;
                       }});
  creations.push_back({"pipeline layout", [&](std::function<void()>* destroy) {
                         const VkDescriptorSetLayout sets[2] = {set_layout, set_layout};
                         const VkPushConstantRange range{VK_SHADER_STAGE_ALL, 0, 16};
                         const VkPipelineLayoutCreateInfo info{
                             VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 2, sets, 1, &range};
                         VkPipelineLayout o = VK_NULL_HANDLE;
                         const VkResult r = vkCreatePipelineLayout(device_, &info, cb, &o);
                         EXPECT_EQ(r == VK_SUCCESS, o != VK_NULL_HANDLE);
                         *destroy = [=, this] { vkDestroyPipelineLayout(device_, o, cb); };
                         return r;
                       }});
  creations.push_back({"descriptor pool and two sets", [&](std::function<void()>* destroy) {
                         const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64};
                         const VkDescriptorPoolCreateInfo info{
                             VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 4, 1, &size};
                         VkDescriptorPool pool = VK_NULL_HANDLE;
                         if (VkResult r = vkCreateDescriptorPool(device_, &info, cb, &pool); r != VK_SUCCESS) return r;
                         const VkDescriptorSetLayout layouts[2] = {set_layout, set_layout};
                         const VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                                                    nullptr, pool, 2, layouts};
                         VkDescriptorSet sets[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
                         const VkResult r = vkAllocateDescriptorSets(device_, &allocate, sets);
                         EXPECT_EQ(r == VK_SUCCESS, sets[0] != VK_NULL_HANDLE && sets[1] != VK_NULL_HANDLE);
                         *destroy = [=, this] { vkDestroyDescriptorPool(device_, pool, cb); };
                         if (r != VK_SUCCESS) (*destroy)();
                         return r;
                       }});
  creations.push_back({"descriptor update template", [&](std::function<void()>* destroy) {
                         const VkDescriptorUpdateTemplateEntry entries[2] = {
                             {0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, 0},
                             {1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, sizeof(VkDescriptorBufferInfo), 0}};
                         VkDescriptorUpdateTemplateCreateInfo info{
                             VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
                         info.descriptorUpdateEntryCount = 2;
                         info.pDescriptorUpdateEntries = entries;
                         info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
                         info.descriptorSetLayout = set_layout;
                         VkDescriptorUpdateTemplate o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateDescriptorUpdateTemplate(device_, &info, cb, &o);
                         EXPECT_EQ(r == VK_SUCCESS, o != VK_NULL_HANDLE);
                         *destroy = [=, this] { vkDestroyDescriptorUpdateTemplate(device_, o, cb); };
                         return r;
                       }});
  creations.push_back({"render pass (1.0 create info)", [&](std::function<void()>* destroy) {
                         std::vector<VkAttachmentDescription> attachments;
                         std::vector<uint32_t> preserves;
                         VkAttachmentReference color;
                         VkSubpassDescription subpass;
                         const VkRenderPassCreateInfo info = RenderPassInfo(attachments, preserves, color, subpass, 3);
                         VkRenderPass o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateRenderPass(device_, &info, cb, &o);
                         EXPECT_EQ(r == VK_SUCCESS, o != VK_NULL_HANDLE);
                         *destroy = [=, this] { vkDestroyRenderPass(device_, o, cb); };
                         return r;
                       }});
  creations.push_back({"command buffers", [&](std::function<void()>* destroy) {
                         const VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
                         VkCommandPool pool = VK_NULL_HANDLE;
                         if (VkResult r = vkCreateCommandPool(device_, &info, cb, &pool); r != VK_SUCCESS) return r;
                         const VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                                                    nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 3};
                         VkCommandBuffer buffers[3] = {};
                         const VkResult r = vkAllocateCommandBuffers(device_, &allocate, buffers);
                         for (VkCommandBuffer b : buffers) EXPECT_EQ(r == VK_SUCCESS, b != VK_NULL_HANDLE);
                         *destroy = [=, this] { vkDestroyCommandPool(device_, pool, cb); };
                         if (r != VK_SUCCESS) (*destroy)();
                         return r;
                       }});

  for (const Creation& c : creations) {
    SCOPED_TRACE(c.name);
    std::function<void()> destroy;
    const size_t failed_tries = FailEachAllocationInTurn(tracker_, [&] {
      const VkResult r = c.create(&destroy);
      if (r != VK_SUCCESS) {
        std::lock_guard<std::mutex> lock(tracker_.mu);
        EXPECT_TRUE(tracker_.live.empty()) << tracker_.live.size() << " allocations left after a failure";
      }
      return r;
    });
    EXPECT_GT(failed_tries, 1u) << "the object's arrays took nothing through the callbacks";
    if (destroy) destroy();
    std::lock_guard<std::mutex> lock(tracker_.mu);
    EXPECT_TRUE(tracker_.live.empty()) << tracker_.live.size() << " allocations left after destruction";
    EXPECT_EQ(tracker_.bad_frees, 0u);
  }
  vkDestroyDescriptorSetLayout(device_, set_layout, nullptr);
  vkDestroySampler(device_, sampler, nullptr);
}

// A device and its queues made with failing callbacks.
class ObjectHostMemoryInstance : public InstanceTest {};

TEST_F(ObjectHostMemoryInstance, DeviceCreationFailuresLeaveNothingBehind) {
  HostAllocTracker tracker;
  const VkAllocationCallbacks cb = tracker.Callbacks();
  const float priority = 1.0f;
  const VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  const VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, nullptr, 0, 1, &queue};
  VkDevice device = VK_NULL_HANDLE;
  const size_t failed_tries = FailEachAllocationInTurn(tracker, [&] {
    device = VK_NULL_HANDLE;
    const VkResult r = vkCreateDevice(phys_, &info, &cb, &device);
    if (r != VK_SUCCESS) {
      EXPECT_EQ(device, VK_NULL_HANDLE);
      std::lock_guard<std::mutex> lock(tracker.mu);
      EXPECT_TRUE(tracker.live.empty()) << tracker.live.size() << " allocations left after a failure";
    }
    return r;
  });
  EXPECT_GT(failed_tries, 1u);  // the device, its queue, the queue list...
  if (device != VK_NULL_HANDLE) vkDestroyDevice(device, &cb);
  std::lock_guard<std::mutex> lock(tracker.mu);
  EXPECT_TRUE(tracker.live.empty()) << tracker.live.size() << " allocations left";
  EXPECT_EQ(tracker.bad_frees, 0u);
}

}  // namespace
}  // namespace duet_test

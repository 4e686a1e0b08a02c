// VK_KHR_push_descriptor: sets written into the command buffer, pushed
// incrementally (a push keeps what earlier pushes wrote and is not seen by
// the commands recorded before it), by writes and by templates, per bind
// point, beside allocated sets, in command buffers replayed more than once.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "host_alloc_tracker.h"
#include "shaders/push_descriptors.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kCount = 32;
constexpr uint32_t kScale = 3;
constexpr uint32_t kBias = 7;

class PushDescriptorTest : public ComputeFixture {
 protected:
  PushDescriptorTest() { device_options_.extensions = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME}; }

  void SetUp() override {
    ComputeFixture::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    push_set_ = DeviceProc<PFN_vkCmdPushDescriptorSetKHR>("vkCmdPushDescriptorSetKHR");
    push_template_ = DeviceProc<PFN_vkCmdPushDescriptorSetWithTemplateKHR>("vkCmdPushDescriptorSetWithTemplateKHR");
    ASSERT_NE(push_set_, nullptr);
    ASSERT_NE(push_template_, nullptr);

    // Set 0: the pushed source and destination; set 1: the parameters.
    VkDescriptorSetLayoutBinding pushed[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    lci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    lci.bindingCount = 2;
    lci.pBindings = pushed;
    push_layout_ = MakeSetLayout(lci);
    VkDescriptorSetLayoutBinding uniform{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    lci.flags = 0;
    lci.bindingCount = 1;
    lci.pBindings = &uniform;
    params_layout_ = MakeSetLayout(lci);
    kernel_ = MakePipeline(kPushDescriptorsComp, {push_layout_, params_layout_}, 0);

    params_ = MakeHostBuffer(256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    params_.as<uint32_t>()[0] = kScale;
    params_.as<uint32_t>()[1] = kBias;
    params_set_ = AllocateSet(params_layout_, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}});
    ASSERT_NE(params_set_, VK_NULL_HANDLE);
    VkDescriptorBufferInfo info{params_.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = params_set_;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    write.pBufferInfo = &info;
    vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
  }

  VkDescriptorSetLayout MakeSetLayout(const VkDescriptorSetLayoutCreateInfo& lci) {
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &lci, nullptr, &layout), VK_SUCCESS);
    Defer([this, layout] { vkDestroyDescriptorSetLayout(device_, layout, nullptr); });
    return layout;
  }

  // A storage buffer of kCount words: i * step + first.
  HostBuffer Words(uint32_t first, uint32_t step) {
    HostBuffer b = StorageBuffer(kCount * 4);
    for (uint32_t i = 0; i < kCount; ++i) b.as<uint32_t>()[i] = i * step + first;
    return b;
  }

  // Pushes storage buffer `buffer` to `binding` of set 0.
  void Push(VkCommandBuffer cb, VkPipelineBindPoint point, uint32_t binding, VkBuffer buffer,
            VkPipelineLayout layout = VK_NULL_HANDLE) {
    VkDescriptorBufferInfo info{buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstBinding = binding;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &info;
    push_set_(cb, point, layout != VK_NULL_HANDLE ? layout : kernel_.layout, 0, 1, &write);
  }

  void BindPipelineAndParams(VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel_.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel_.layout, 1, 1, &params_set_, 0, nullptr);
  }

  // Between dispatches that read what the one before wrote.
  static void Dispatch(VkCommandBuffer cb) {
    vkCmdDispatch(cb, kCount / 16, 1, 1);
    FullBarrier(cb);
  }

  // EXPECTs dst[i] == src-pattern(i) * kScale + kBias for src = i * step + first.
  static void ExpectResult(const HostBuffer& dst, uint32_t first, uint32_t step, const char* what) {
    for (uint32_t i = 0; i < kCount; ++i)
      ASSERT_EQ(dst.as<uint32_t>()[i], (i * step + first) * kScale + kBias) << what << ", word " << i;
  }

  PFN_vkCmdPushDescriptorSetKHR push_set_ = nullptr;
  PFN_vkCmdPushDescriptorSetWithTemplateKHR push_template_ = nullptr;
  VkDescriptorSetLayout push_layout_ = VK_NULL_HANDLE, params_layout_ = VK_NULL_HANDLE;
  Kernel kernel_;
  HostBuffer params_;
  VkDescriptorSet params_set_ = VK_NULL_HANDLE;
};

TEST_F(PushDescriptorTest, ExtensionAndLimitAreAdvertised) {
  VkPhysicalDevicePushDescriptorPropertiesKHR push{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &push};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  EXPECT_GE(push.maxPushDescriptors, 32u);  // the spec's minimum

  // A push layout holds at most maxPushDescriptors descriptors.
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, push.maxPushDescriptors,
                                       VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  lci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  lci.bindingCount = 1;
  lci.pBindings = &binding;
  VkDescriptorSetLayoutSupport support{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT};
  vkGetDescriptorSetLayoutSupport(device_, &lci, &support);
  EXPECT_TRUE(support.supported);
  binding.descriptorCount += 1;
  vkGetDescriptorSetLayoutSupport(device_, &lci, &support);
  EXPECT_FALSE(support.supported);
}

// Pushes take their sets from the command pool's allocation callbacks: when
// those fail at the 1st, 2nd, ... allocation, vkEndCommandBuffer answers
// VK_ERROR_OUT_OF_HOST_MEMORY and nothing leaks; with memory to spare the
// same recording runs.
TEST_F(PushDescriptorTest, PushesOutOfMemory) {
  HostBuffer a = Words(1, 2), dst = StorageBuffer(kCount * 4);
  HostAllocTracker tracker;
  const VkAllocationCallbacks callbacks = tracker.Callbacks();
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = queue_family_;
  VkCommandPool pool = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateCommandPool(device_, &pool_info, &callbacks, &pool));
  const VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                             VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cb = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkAllocateCommandBuffers(device_, &allocate, &cb));
  auto record = [&] {
    const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    EXPECT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
    BindPipelineAndParams(cb);
    for (int i = 0; i < 8; ++i) {  // eight pushed sets, the last two the ones used
      Push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, 0, a.buffer);
      Push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, 1, dst.buffer);
    }
    Dispatch(cb);
    return vkEndCommandBuffer(cb);
  };
  const size_t failed = FailEachAllocationInTurn(tracker, [&] {
    EXPECT_EQ(vkResetCommandBuffer(cb, VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT), VK_SUCCESS);
    return record();
  });
  EXPECT_GE(failed, 16u) << "each pushed set should have failed in turn";
  const VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &cb};
  VK_ASSERT_OK(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE));
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  ExpectResult(dst, 1, 2, "after the failed recordings");
  vkFreeCommandBuffers(device_, pool, 1, &cb);
  vkDestroyCommandPool(device_, pool, &callbacks);
  std::lock_guard lock(tracker.mu);
  EXPECT_TRUE(tracker.live.empty()) << tracker.live.size() << " allocations never freed";
  EXPECT_EQ(tracker.bad_frees, 0u);
}

// Each dispatch sees the pushes recorded before it and none after; a push
// of one binding keeps the other.
TEST_F(PushDescriptorTest, PushesUpdateIncrementally) {
  HostBuffer a = Words(1, 2), b = Words(100, 5);
  HostBuffer first = StorageBuffer(kCount * 4), second = StorageBuffer(kCount * 4);
  VkCommandBuffer cb = BeginCommands();
  BindPipelineAndParams(cb);
  Push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, 0, a.buffer);
  Push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, 1, first.buffer);
  Dispatch(cb);                                               // first = f(a)
  Push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, 1, second.buffer);
  Dispatch(cb);                                               // second = f(a): binding 0 kept
  Push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, 0, b.buffer);
  Dispatch(cb);                                               // second = f(b): binding 1 kept
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  ExpectResult(first, 1, 2, "first dispatch");
  ExpectResult(second, 100, 5, "third dispatch");
}

// The graphics bind point has push descriptors of its own: pushing there
// leaves the compute ones alone.
TEST_F(PushDescriptorTest, BindPointsKeepTheirOwnPushes) {
  HostBuffer a = Words(3, 1), b = Words(50, 4);
  HostBuffer dst = StorageBuffer(kCount * 4), other = StorageBuffer(kCount * 4);
  VkCommandBuffer cb = BeginCommands();
  BindPipelineAndParams(cb);
  Push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, 0, a.buffer);
  Push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, 1, dst.buffer);
  Push(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, b.buffer);
  Push(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, 1, other.buffer);
  Dispatch(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  ExpectResult(dst, 3, 1, "compute pushes");
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(other.as<uint32_t>()[i], 0u) << "word " << i;
}

// A push-descriptor update template reads its infos from application data
// at the entries' offsets and strides; the data may change once recorded.
TEST_F(PushDescriptorTest, TemplatesPushFromApplicationData) {
  HostBuffer a = Words(9, 3);
  HostBuffer dst = StorageBuffer(kCount * 4);
  struct Data {
    uint32_t padding[3];
    VkDescriptorBufferInfo src;
    uint64_t gap;
    VkDescriptorBufferInfo dst;
  };
  VkDescriptorUpdateTemplateEntry entries[2] = {
      {0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(Data, src), sizeof(Data)},
      {1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(Data, dst), sizeof(Data)}};
  VkDescriptorUpdateTemplateCreateInfo tci{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  tci.descriptorUpdateEntryCount = 2;
  tci.pDescriptorUpdateEntries = entries;
  tci.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR;
  tci.pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
  tci.pipelineLayout = kernel_.layout;
  tci.set = 0;
  VkDescriptorUpdateTemplate update_template = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorUpdateTemplate(device_, &tci, nullptr, &update_template), VK_SUCCESS);
  Defer([this, update_template] { vkDestroyDescriptorUpdateTemplate(device_, update_template, nullptr); });

  Data data{};
  data.src = {a.buffer, 0, VK_WHOLE_SIZE};
  data.dst = {dst.buffer, 0, VK_WHOLE_SIZE};
  VkCommandBuffer cb = BeginCommands();
  BindPipelineAndParams(cb);
  push_template_(cb, update_template, kernel_.layout, 0, &data);
  data = {};  // what was pushed is the command buffer's
  Dispatch(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  ExpectResult(dst, 9, 3, "template push");
}

// A command buffer submitted twice runs its pushes twice; re-recording it
// starts from no pushes; the (compatible) pipeline layout a push names may
// be destroyed once recording ends.
TEST_F(PushDescriptorTest, ResubmittedAndRerecordedCommandBuffers) {
  HostBuffer a = Words(2, 2), b = Words(7, 1);
  HostBuffer dst = StorageBuffer(kCount * 4);
  VkCommandPool pool = MakeCommandPool(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
  VkCommandBuffer cb = AllocateCommandBuffer(pool);
  for (HostBuffer* src : {&a, &b}) {
    VkDescriptorSetLayout set_layouts[2] = {push_layout_, params_layout_};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 2;
    plci.pSetLayouts = set_layouts;
    VkPipelineLayout short_lived = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreatePipelineLayout(device_, &plci, nullptr, &short_lived), VK_SUCCESS);

    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    ASSERT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
    BindPipelineAndParams(cb);
    Push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, 0, src->buffer, short_lived);
    Push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, 1, dst.buffer, short_lived);
    Dispatch(cb);
    ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    vkDestroyPipelineLayout(device_, short_lived, nullptr);
    for (int run = 0; run < 2; ++run) {
      std::memset(dst.data, 0, dst.size);
      VkFence fence = MakeFence();
      Submit(cb, fence);
      WaitFence(fence);
      const bool first = src == &a;
      ExpectResult(dst, first ? 2 : 7, first ? 2 : 1, first ? "first recording" : "second recording");
    }
  }
}

}  // namespace
}  // namespace duet_test

// Object lifetimes: every object type created and destroyed (the test the
// leak check leans on), destroy of VK_NULL_HANDLE, application allocation
// callbacks, concurrent creation, and commands of areas that are not
// implemented yet (they may fail, but must not crash).
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "empty_compute_module.h"
#include "host_alloc_tracker.h"
#include "vk_fixture.h"

namespace duet_test {
namespace {

// --- every object type ------------------------------------------------------------

class Lifetime : public DeviceTest {};

TEST_F(Lifetime, EveryObjectType) {
  // memory + buffer + buffer view
  VkBuffer buffer =
      MakeBuffer(4096, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  ASSERT_NE(buffer, VK_NULL_HANDLE);
  ASSERT_NE(BindNewMemory(buffer), VK_NULL_HANDLE);
  VkBufferViewCreateInfo bvci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  bvci.buffer = buffer;
  bvci.format = VK_FORMAT_R32_SFLOAT;
  bvci.range = VK_WHOLE_SIZE;
  VkBufferView buffer_view = VK_NULL_HANDLE;
  VK_EXPECT_OK(vkCreateBufferView(device_, &bvci, nullptr, &buffer_view));

  // image + image view (cube-compatible, mipped)
  VkImageCreateInfo ici = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {32, 32, 1}, 6, 6);
  ici.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  VkImage image = MakeImage(ici);
  ASSERT_NE(image, VK_NULL_HANDLE);
  ASSERT_NE(BindNewMemory(image), VK_NULL_HANDLE);
  VkImageViewCreateInfo ivci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  ivci.image = image;
  ivci.viewType = VK_IMAGE_VIEW_TYPE_CUBE;
  ivci.format = VK_FORMAT_R8G8B8A8_UNORM;
  ivci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 6};
  VkImageView image_view = VK_NULL_HANDLE;
  VK_EXPECT_OK(vkCreateImageView(device_, &ivci, nullptr, &image_view));

  // 4-sample image, 3D image
  VkImageCreateInfo ms = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1}, 1, 1,
                                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
  ms.samples = VK_SAMPLE_COUNT_4_BIT;
  VkImage ms_image = MakeImage(ms);
  if (ms_image != VK_NULL_HANDLE) BindNewMemory(ms_image);
  VkImage image3d = MakeImage(ImageInfo(VK_IMAGE_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 8}, 4, 1));
  if (image3d != VK_NULL_HANDLE) BindNewMemory(image3d);

  // sampler
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
  sci.maxLod = VK_LOD_CLAMP_NONE;
  VkSampler sampler = VK_NULL_HANDLE;
  VK_EXPECT_OK(vkCreateSampler(device_, &sci, nullptr, &sampler));

  // private data slot with a value set
  VkPrivateDataSlot slot = VK_NULL_HANDLE;
  if (private_data_enabled_) {
    VkPrivateDataSlotCreateInfo pci{VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO};
    VK_EXPECT_OK(vkCreatePrivateDataSlot(device_, &pci, nullptr, &slot));
    if (slot != VK_NULL_HANDLE) VK_EXPECT_OK(vkSetPrivateData(device_, VK_OBJECT_TYPE_BUFFER, uint64_t(buffer), slot, 42));
  }

  // a mapped allocation left mapped: vkFreeMemory unmaps implicitly
  VkDeviceMemory mapped = MakeMemory(65536, FindMemoryType(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT));
  if (mapped != VK_NULL_HANDLE) {
    void* p = nullptr;
    VK_EXPECT_OK(vkMapMemory(device_, mapped, 0, VK_WHOLE_SIZE, 0, &p));
  }

  // a second debug messenger
  if (debug_utils_) {
    auto create = InstanceProc<PFN_vkCreateDebugUtilsMessengerEXT>("vkCreateDebugUtilsMessengerEXT");
    auto destroy = InstanceProc<PFN_vkDestroyDebugUtilsMessengerEXT>("vkDestroyDebugUtilsMessengerEXT");
    VkDebugUtilsMessengerCreateInfoEXT mci = log_.CreateInfo();
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VK_EXPECT_OK(create(instance_, &mci, nullptr, &messenger));
    DeferInstance([this, destroy, messenger] { destroy(instance_, messenger, nullptr); });
  }

  if (slot != VK_NULL_HANDLE) vkDestroyPrivateDataSlot(device_, slot, nullptr);
  vkDestroySampler(device_, sampler, nullptr);
  vkDestroyImageView(device_, image_view, nullptr);
  vkDestroyBufferView(device_, buffer_view, nullptr);
  // Buffers, images and memory are destroyed by the fixture.
}

TEST_F(Lifetime, DestroyNullHandlesIsNoOp) {
  // Every vkDestroy*/vkFree* accepts VK_NULL_HANDLE and does nothing.
  vkFreeMemory(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyBuffer(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyBufferView(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyImage(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyImageView(device_, VK_NULL_HANDLE, nullptr);
  vkDestroySampler(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyPrivateDataSlot(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyFence(device_, VK_NULL_HANDLE, nullptr);
  vkDestroySemaphore(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyEvent(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyQueryPool(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyShaderModule(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyPipelineCache(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyPipeline(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyPipelineLayout(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyDescriptorSetLayout(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyDescriptorPool(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyFramebuffer(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyRenderPass(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyCommandPool(device_, VK_NULL_HANDLE, nullptr);
  vkDestroySamplerYcbcrConversion(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyDescriptorUpdateTemplate(device_, VK_NULL_HANDLE, nullptr);
  vkDestroyDevice(VK_NULL_HANDLE, nullptr);
  vkDestroyInstance(VK_NULL_HANDLE, nullptr);
  SUCCEED();
}

// --- areas not implemented yet: no crash ----------------------------------------------

// A create call either succeeds with a handle (then destroyed) or returns an
// error code; nothing else is checked here.
template <typename H>
void ExpectCreatedOrError(VkResult r, H handle, const char* what) {
  EXPECT_TRUE(r == VK_SUCCESS || r < 0) << what << " -> " << R{r};
  if (r == VK_SUCCESS) {
    EXPECT_NE(handle, VK_NULL_HANDLE) << what;
  }
}

TEST_F(Lifetime, LaterAreasDoNotCrash) {
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  cpci.queueFamilyIndex = queue_family_;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkResult r = vkCreateCommandPool(device_, &cpci, nullptr, &pool);
  ExpectCreatedOrError(r, pool, "vkCreateCommandPool");
  if (r == VK_SUCCESS) vkDestroyCommandPool(device_, pool, nullptr);

  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  r = vkCreateFence(device_, &fci, nullptr, &fence);
  ExpectCreatedOrError(r, fence, "vkCreateFence");
  if (r == VK_SUCCESS) vkDestroyFence(device_, fence, nullptr);

  VkSemaphoreCreateInfo semci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore sem = VK_NULL_HANDLE;
  r = vkCreateSemaphore(device_, &semci, nullptr, &sem);
  ExpectCreatedOrError(r, sem, "vkCreateSemaphore");
  if (r == VK_SUCCESS) vkDestroySemaphore(device_, sem, nullptr);

  VkEventCreateInfo eci{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  VkEvent event = VK_NULL_HANDLE;
  r = vkCreateEvent(device_, &eci, nullptr, &event);
  ExpectCreatedOrError(r, event, "vkCreateEvent");
  if (r == VK_SUCCESS) vkDestroyEvent(device_, event, nullptr);

  VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpci.queryType = VK_QUERY_TYPE_OCCLUSION;
  qpci.queryCount = 4;
  VkQueryPool qp = VK_NULL_HANDLE;
  r = vkCreateQueryPool(device_, &qpci, nullptr, &qp);
  ExpectCreatedOrError(r, qp, "vkCreateQueryPool");
  if (r == VK_SUCCESS) vkDestroyQueryPool(device_, qp, nullptr);

  VkPipelineCacheCreateInfo pcci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  VkPipelineCache cache = VK_NULL_HANDLE;
  r = vkCreatePipelineCache(device_, &pcci, nullptr, &cache);
  ExpectCreatedOrError(r, cache, "vkCreatePipelineCache");
  if (r == VK_SUCCESS) vkDestroyPipelineCache(device_, cache, nullptr);

  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_ALL, nullptr};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dslci.bindingCount = 1;
  dslci.pBindings = &binding;
  VkDescriptorSetLayout dsl = VK_NULL_HANDLE;
  r = vkCreateDescriptorSetLayout(device_, &dslci, nullptr, &dsl);
  ExpectCreatedOrError(r, dsl, "vkCreateDescriptorSetLayout");

  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = dsl != VK_NULL_HANDLE ? 1 : 0;
  plci.pSetLayouts = &dsl;
  VkPipelineLayout pl = VK_NULL_HANDLE;
  VkResult rpl = vkCreatePipelineLayout(device_, &plci, nullptr, &pl);
  ExpectCreatedOrError(rpl, pl, "vkCreatePipelineLayout");
  if (rpl == VK_SUCCESS) vkDestroyPipelineLayout(device_, pl, nullptr);
  if (r == VK_SUCCESS) vkDestroyDescriptorSetLayout(device_, dsl, nullptr);

  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dpci.maxSets = 4;
  dpci.poolSizeCount = 1;
  dpci.pPoolSizes = &size;
  VkDescriptorPool dp = VK_NULL_HANDLE;
  r = vkCreateDescriptorPool(device_, &dpci, nullptr, &dp);
  ExpectCreatedOrError(r, dp, "vkCreateDescriptorPool");
  if (r == VK_SUCCESS) vkDestroyDescriptorPool(device_, dp, nullptr);

  VkAttachmentDescription att{};
  att.format = VK_FORMAT_R8G8B8A8_UNORM;
  att.samples = VK_SAMPLE_COUNT_1_BIT;
  att.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  att.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  att.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  att.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  att.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  att.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription sub{};
  sub.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  sub.colorAttachmentCount = 1;
  sub.pColorAttachments = &ref;
  VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rpci.attachmentCount = 1;
  rpci.pAttachments = &att;
  rpci.subpassCount = 1;
  rpci.pSubpasses = &sub;
  VkRenderPass rp = VK_NULL_HANDLE;
  r = vkCreateRenderPass(device_, &rpci, nullptr, &rp);
  ExpectCreatedOrError(r, rp, "vkCreateRenderPass");
  if (r == VK_SUCCESS) vkDestroyRenderPass(device_, rp, nullptr);

  // Waiting with nothing submitted.
  r = vkDeviceWaitIdle(device_);
  EXPECT_TRUE(r == VK_SUCCESS || r < 0) << "vkDeviceWaitIdle -> " << R{r};
  r = vkQueueWaitIdle(queue_);
  EXPECT_TRUE(r == VK_SUCCESS || r < 0) << "vkQueueWaitIdle -> " << R{r};
}

// --- application allocation callbacks --------------------------------------------------

TEST(AllocationCallbacks, EverythingAllocatedIsFreed) {
  HostAllocTracker tracker;
  const VkAllocationCallbacks cb = tracker.Callbacks();
  {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    VK_ASSERT_OK(vkCreateInstance(&ici, &cb, &instance));
    uint32_t count = 1;
    VkPhysicalDevice pd = VK_NULL_HANDLE;
    VkResult er = vkEnumeratePhysicalDevices(instance, &count, &pd);
    EXPECT_TRUE(er == VK_SUCCESS || er == VK_INCOMPLETE) << R{er};
    if (pd != VK_NULL_HANDLE) {
      const float priority = 1.0f;
      VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
      qci.queueFamilyIndex = 0;
      qci.queueCount = 1;
      qci.pQueuePriorities = &priority;
      VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
      dci.queueCreateInfoCount = 1;
      dci.pQueueCreateInfos = &qci;
      VkDevice device = VK_NULL_HANDLE;
      VkResult dr = vkCreateDevice(pd, &dci, &cb, &device);
      EXPECT_EQ(dr, VK_SUCCESS) << R{dr};
      if (dr == VK_SUCCESS) {
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = 1024;
        bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        VkBuffer buffer = VK_NULL_HANDLE;
        VK_EXPECT_OK(vkCreateBuffer(device, &bci, &cb, &buffer));
        VkMemoryRequirements req{};
        if (buffer != VK_NULL_HANDLE) vkGetBufferMemoryRequirements(device, buffer, &req);
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size ? req.size : 1024;
        mai.memoryTypeIndex = 0;
        VkDeviceMemory mem = VK_NULL_HANDLE;
        VK_EXPECT_OK(vkAllocateMemory(device, &mai, &cb, &mem));
        if (buffer != VK_NULL_HANDLE && mem != VK_NULL_HANDLE) VK_EXPECT_OK(vkBindBufferMemory(device, buffer, mem, 0));
        VkImageCreateInfo imci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1});
        VkImage image = VK_NULL_HANDLE;
        VK_EXPECT_OK(vkCreateImage(device, &imci, &cb, &image));
        VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
        VkSampler sampler = VK_NULL_HANDLE;
        VK_EXPECT_OK(vkCreateSampler(device, &sci, &cb, &sampler));
        vkDestroySampler(device, sampler, &cb);
        vkDestroyImage(device, image, &cb);
        vkDestroyBuffer(device, buffer, &cb);
        vkFreeMemory(device, mem, &cb);
        vkDestroyDevice(device, &cb);
      }
    }
    vkDestroyInstance(instance, &cb);
  }
  std::lock_guard<std::mutex> lock(tracker.mu);
  EXPECT_GT(tracker.allocations, 0u) << "the callbacks were never used (the loader uses them, at least)";
  EXPECT_TRUE(tracker.live.empty()) << tracker.live.size() << " allocations made through the callbacks were never freed";
  EXPECT_EQ(tracker.bad_frees, 0u) << "pfnFree/pfnReallocation called with a pointer the callbacks did not return";
  EXPECT_EQ(tracker.bad_alignments, 0u) << "alignment not a power of two";
}

// Failing allocations: every creation below is tried with callbacks that
// return NULL from its 1st allocation on, then its 2nd, and so on until it
// succeeds. Each failed try returns VK_ERROR_OUT_OF_HOST_MEMORY, writes no
// handle and leaves nothing allocated through the callbacks; the successful
// one frees all it took when destroyed. (What command buffers record goes
// through their pool's callbacks too: CommandBuffers.RecordingOutOfMemory.)
TEST_F(Lifetime, FailingAllocationsAtEveryStep) {
  HostAllocTracker tracker;
  const VkAllocationCallbacks cb = tracker.Callbacks();
  VkPipelineLayout plain_layout = VK_NULL_HANDLE;
  const VkPipelineLayoutCreateInfo plain{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  ASSERT_EQ(vkCreatePipelineLayout(device_, &plain, nullptr, &plain_layout), VK_SUCCESS);
  VkShaderModule plain_module = VK_NULL_HANDLE;
  const VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0,
                                             sizeof kEmptyComputeModule, kEmptyComputeModule};
  ASSERT_EQ(vkCreateShaderModule(device_, &module_info, nullptr, &plain_module), VK_SUCCESS);
  VkImage plain_image = VK_NULL_HANDLE;
  const VkImageCreateInfo image_info = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {16, 16, 1});
  ASSERT_EQ(vkCreateImage(device_, &image_info, nullptr, &plain_image), VK_SUCCESS);

  // Each: create with `callbacks` into *handle (as a uint64_t), and destroy.
  struct Creation {
    const char* name;
    std::function<VkResult(const VkAllocationCallbacks*, uint64_t*)> create;
    std::function<void(uint64_t, const VkAllocationCallbacks*)> destroy;
  };
  auto as = [](auto handle) { return reinterpret_cast<uint64_t>(handle); };
  VkDevice d = device_;
  std::vector<Creation> creations;
  creations.push_back({"buffer",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
                         info.size = 1024;
                         info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
                         VkBuffer o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateBuffer(d, &info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) { vkDestroyBuffer(d, VkBuffer(h), a); }});
  creations.push_back({"image",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         VkImage o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateImage(d, &image_info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) { vkDestroyImage(d, VkImage(h), a); }});
  creations.push_back({"image view",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
                         info.image = plain_image;
                         info.viewType = VK_IMAGE_VIEW_TYPE_2D;
                         info.format = VK_FORMAT_R8G8B8A8_UNORM;
                         info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
                         VkImageView o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateImageView(d, &info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) { vkDestroyImageView(d, VkImageView(h), a); }});
  creations.push_back({"sampler",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         const VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
                         VkSampler o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateSampler(d, &info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) { vkDestroySampler(d, VkSampler(h), a); }});
  creations.push_back({"shader module",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         VkShaderModule o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateShaderModule(d, &module_info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) {
                         vkDestroyShaderModule(d, VkShaderModule(h), a);
                       }});
  creations.push_back({"compute pipeline",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
                         info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0,
                                       VK_SHADER_STAGE_COMPUTE_BIT, plain_module, "main"};
                         info.layout = plain_layout;
                         VkPipeline o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) { vkDestroyPipeline(d, VkPipeline(h), a); }});
  creations.push_back({"descriptor set layout",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4,
                                                                    VK_SHADER_STAGE_ALL, nullptr};
                         const VkDescriptorSetLayoutCreateInfo info{
                             VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding};
                         VkDescriptorSetLayout o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateDescriptorSetLayout(d, &info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) {
                         vkDestroyDescriptorSetLayout(d, VkDescriptorSetLayout(h), a);
                       }});
  creations.push_back({"descriptor pool",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16};
                         const VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr,
                                                               0, 4, 1, &size};
                         VkDescriptorPool o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateDescriptorPool(d, &info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) {
                         vkDestroyDescriptorPool(d, VkDescriptorPool(h), a);
                       }});
  creations.push_back({"command pool",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         const VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
                         VkCommandPool o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateCommandPool(d, &info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) {
                         vkDestroyCommandPool(d, VkCommandPool(h), a);
                       }});
  creations.push_back({"fence",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         const VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
                         VkFence o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateFence(d, &info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) { vkDestroyFence(d, VkFence(h), a); }});
  creations.push_back({"timeline semaphore",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr,
                                                        VK_SEMAPHORE_TYPE_TIMELINE, 0};
                         const VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
                         VkSemaphore o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateSemaphore(d, &info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) { vkDestroySemaphore(d, VkSemaphore(h), a); }});
  creations.push_back({"event",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         const VkEventCreateInfo info{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
                         VkEvent o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateEvent(d, &info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) { vkDestroyEvent(d, VkEvent(h), a); }});
  creations.push_back({"query pool",
                       [&](const VkAllocationCallbacks* a, uint64_t* h) {
                         VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
                         info.queryType = VK_QUERY_TYPE_OCCLUSION;
                         info.queryCount = 64;
                         VkQueryPool o = VK_NULL_HANDLE;
                         const VkResult r = vkCreateQueryPool(d, &info, a, &o);
                         *h = as(o);
                         return r;
                       },
                       [&](uint64_t h, const VkAllocationCallbacks* a) { vkDestroyQueryPool(d, VkQueryPool(h), a); }});

  for (const Creation& c : creations) {
    bool created = false;
    for (size_t n = 0; n < 64 && !created; ++n) {
      {
        std::lock_guard<std::mutex> lock(tracker.mu);
        tracker.fail_from = tracker.allocations + n;
      }
      uint64_t handle = 0;
      const VkResult r = c.create(&cb, &handle);
      {
        std::lock_guard<std::mutex> lock(tracker.mu);
        tracker.fail_from = SIZE_MAX;
      }
      if (r == VK_SUCCESS) {
        created = true;
        EXPECT_GT(n, 0u) << c.name << " took nothing through the callbacks";
        EXPECT_NE(handle, 0u) << c.name;
        c.destroy(handle, &cb);
      } else {
        EXPECT_EQ(r, VK_ERROR_OUT_OF_HOST_MEMORY) << c.name << ", allocation " << n + 1 << " failed";
        EXPECT_EQ(handle, 0u) << c.name << ": a handle despite the failure";
      }
      std::lock_guard<std::mutex> lock(tracker.mu);
      EXPECT_TRUE(tracker.live.empty()) << c.name << ": " << tracker.live.size() << " allocations left after try "
                                        << n + 1;
    }
    EXPECT_TRUE(created) << c.name << " never succeeded";
  }
  std::lock_guard<std::mutex> lock(tracker.mu);
  EXPECT_GT(tracker.allocations, 0u) << "the driver never used the callbacks";
  EXPECT_EQ(tracker.bad_frees, 0u);
  vkDestroyImage(device_, plain_image, nullptr);
  vkDestroyShaderModule(device_, plain_module, nullptr);
  vkDestroyPipelineLayout(device_, plain_layout, nullptr);
}

// --- threads ------------------------------------------------------------------------------

TEST_F(Lifetime, ConcurrentCreateDestroy) {
  // Object creation on one device from several threads needs no external
  // synchronization.
  const uint32_t type = FindMemoryType(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  ASSERT_NE(type, UINT32_MAX);
  std::atomic<int> failures{0};
  auto work = [&](int seed) {
    for (int i = 0; i < 100; ++i) {
      VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
      bci.size = VkDeviceSize(256 + 64 * ((i + seed) % 17));
      bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
      VkBuffer buffer = VK_NULL_HANDLE;
      if (vkCreateBuffer(device_, &bci, nullptr, &buffer) != VK_SUCCESS) {
        ++failures;
        continue;
      }
      VkMemoryRequirements req{};
      vkGetBufferMemoryRequirements(device_, buffer, &req);
      VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      mai.allocationSize = req.size;
      mai.memoryTypeIndex = type;
      VkDeviceMemory mem = VK_NULL_HANDLE;
      if (vkAllocateMemory(device_, &mai, nullptr, &mem) == VK_SUCCESS) {
        if (vkBindBufferMemory(device_, buffer, mem, 0) != VK_SUCCESS) ++failures;
        void* p = nullptr;
        if (vkMapMemory(device_, mem, 0, VK_WHOLE_SIZE, 0, &p) == VK_SUCCESS && p != nullptr) {
          std::memset(p, seed, size_t(req.size));
          if (static_cast<unsigned char*>(p)[req.size - 1] != (unsigned char)seed) ++failures;
          vkUnmapMemory(device_, mem);
        } else {
          ++failures;
        }
        vkFreeMemory(device_, mem, nullptr);
      } else {
        ++failures;
      }
      vkDestroyBuffer(device_, buffer, nullptr);

      VkImageCreateInfo ici = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 1});
      VkImage image = VK_NULL_HANDLE;
      if (vkCreateImage(device_, &ici, nullptr, &image) != VK_SUCCESS) ++failures;
      vkDestroyImage(device_, image, nullptr);
    }
  };
  std::thread a(work, 1), b(work, 2);
  a.join();
  b.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace duet_test

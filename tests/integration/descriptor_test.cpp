// Descriptor set layouts, pools, sets, writes, copies, update templates and
// pipeline layouts through the loader. What a write stores is only visible
// to shaders (unit/descriptor_set_test.cpp checks it inside the driver);
// here the calls are driven as an application drives them, and the pool's
// bookkeeping is checked through what it lets one allocate.
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {
namespace {

VkDescriptorSetLayoutBinding Binding(uint32_t binding, VkDescriptorType type, uint32_t count,
                                     const VkSampler* immutable = nullptr) {
  return {binding, type, count, VK_SHADER_STAGE_ALL, immutable};
}

class Descriptors : public DeviceTest {
 protected:
  // DeviceTest's device, but with inlineUniformBlock enabled, which the
  // inline uniform block layouts need (it is mandatory in Vulkan 1.3).
  void SetUp() override {
    InstanceTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_NE(queue_family_, UINT32_MAX);
    ASSERT_EQ(QueryFeatures13().v13.inlineUniformBlock, VK_TRUE);
    VkPhysicalDeviceVulkan13Features enable13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    enable13.inlineUniformBlock = VK_TRUE;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = queue_family_;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &enable13};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    VK_ASSERT_OK(vkCreateDevice(phys_, &dci, nullptr, &device_));
    vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
  }

  VkDescriptorSetLayout MakeLayout(const std::vector<VkDescriptorSetLayoutBinding>& bindings,
                                   const void* next = nullptr) {
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, next};
    ci.bindingCount = uint32_t(bindings.size());
    ci.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    VkResult r = vkCreateDescriptorSetLayout(device_, &ci, nullptr, &layout);
    EXPECT_EQ(r, VK_SUCCESS) << "vkCreateDescriptorSetLayout -> " << R{r};
    if (r != VK_SUCCESS) return VK_NULL_HANDLE;
    Defer([this, layout] { vkDestroyDescriptorSetLayout(device_, layout, nullptr); });
    return layout;
  }

  // Pools are destroyed with their sets still allocated: that frees them.
  VkDescriptorPool MakePool(uint32_t max_sets, const std::vector<VkDescriptorPoolSize>& sizes,
                            VkDescriptorPoolCreateFlags flags = 0, uint32_t inline_bindings = 0) {
    VkDescriptorPoolInlineUniformBlockCreateInfo inline_info{
        VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO};
    inline_info.maxInlineUniformBlockBindings = inline_bindings;
    VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    ci.pNext = inline_bindings > 0 ? &inline_info : nullptr;
    ci.flags = flags;
    ci.maxSets = max_sets;
    ci.poolSizeCount = uint32_t(sizes.size());
    ci.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkResult r = vkCreateDescriptorPool(device_, &ci, nullptr, &pool);
    EXPECT_EQ(r, VK_SUCCESS) << "vkCreateDescriptorPool -> " << R{r};
    if (r != VK_SUCCESS) return VK_NULL_HANDLE;
    Defer([this, pool] { vkDestroyDescriptorPool(device_, pool, nullptr); });
    return pool;
  }

  VkResult Allocate(VkDescriptorPool pool, const std::vector<VkDescriptorSetLayout>& layouts,
                    std::vector<VkDescriptorSet>* sets, const void* next = nullptr) {
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, next, pool,
                                   uint32_t(layouts.size()), layouts.data()};
    sets->assign(layouts.size(), reinterpret_cast<VkDescriptorSet>(uintptr_t{0x1234}));  // must be overwritten
    return vkAllocateDescriptorSets(device_, &ai, sets->data());
  }

  VkDescriptorSet AllocateOne(VkDescriptorPool pool, VkDescriptorSetLayout layout, const void* next = nullptr) {
    std::vector<VkDescriptorSet> sets;
    VkResult r = Allocate(pool, {layout}, &sets, next);
    EXPECT_EQ(r, VK_SUCCESS) << "vkAllocateDescriptorSets -> " << R{r};
    EXPECT_NE(sets[0], VK_NULL_HANDLE);
    return r == VK_SUCCESS ? sets[0] : VK_NULL_HANDLE;
  }

  VkSampler MakeSampler() {
    VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    ci.magFilter = VK_FILTER_LINEAR;
    ci.minFilter = VK_FILTER_LINEAR;
    ci.maxLod = VK_LOD_CLAMP_NONE;
    VkSampler sampler = VK_NULL_HANDLE;
    VkResult r = vkCreateSampler(device_, &ci, nullptr, &sampler);
    EXPECT_EQ(r, VK_SUCCESS) << "vkCreateSampler -> " << R{r};
    if (r == VK_SUCCESS) Defer([this, sampler] { vkDestroySampler(device_, sampler, nullptr); });
    return sampler;
  }

  // A bound buffer usable as every kind of buffer descriptor.
  VkBuffer MakeBoundBuffer(VkDeviceSize size) {
    VkBuffer buffer = MakeBuffer(size, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                           VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                                           VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
    if (buffer != VK_NULL_HANDLE) BindNewMemory(buffer);
    return buffer;
  }

  VkBufferView MakeBufferView(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range) {
    VkBufferViewCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    ci.buffer = buffer;
    ci.format = VK_FORMAT_R32_SFLOAT;
    ci.offset = offset;
    ci.range = range;
    VkBufferView view = VK_NULL_HANDLE;
    VkResult r = vkCreateBufferView(device_, &ci, nullptr, &view);
    EXPECT_EQ(r, VK_SUCCESS) << "vkCreateBufferView -> " << R{r};
    if (r == VK_SUCCESS) Defer([this, view] { vkDestroyBufferView(device_, view, nullptr); });
    return view;
  }

  // A bound RGBA8 image's view, usable as sampled, storage and input attachment.
  VkImageView MakeImageView() {
    VkImage image = MakeImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 1}, 1, 1,
                                        VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                            VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
                                            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT));
    if (image == VK_NULL_HANDLE) return VK_NULL_HANDLE;
    BindNewMemory(image);
    VkImageViewCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    ci.image = image;
    ci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    ci.format = VK_FORMAT_R8G8B8A8_UNORM;
    ci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    VkResult r = vkCreateImageView(device_, &ci, nullptr, &view);
    EXPECT_EQ(r, VK_SUCCESS) << "vkCreateImageView -> " << R{r};
    if (r == VK_SUCCESS) Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
    return view;
  }

  // The Vulkan 1.1/1.3 descriptor limits.
  void QueryLimits(VkPhysicalDeviceVulkan11Properties* v11, VkPhysicalDeviceVulkan13Properties* v13) {
    *v11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
    *v13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES, v11};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, v13};
    vkGetPhysicalDeviceProperties2(phys_, &p2);
  }
};

// Every descriptor type the device supports, with immutable samplers on
// both sampler-carrying types.
std::vector<VkDescriptorSetLayoutBinding> EveryType(const VkSampler* immutable) {
  return {
      Binding(0, VK_DESCRIPTOR_TYPE_SAMPLER, 2, immutable),
      Binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, immutable),
      Binding(2, VK_DESCRIPTOR_TYPE_SAMPLER, 1),
      Binding(3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1),
      Binding(4, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 2),
      Binding(5, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1),
      Binding(6, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1),
      Binding(7, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1),
      Binding(8, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 3),
      Binding(9, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),
      Binding(10, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1),
      Binding(11, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1),
      {12, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
      Binding(13, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64),
  };
}

// Pool sizes that hold exactly `sets` sets of `bindings`.
std::vector<VkDescriptorPoolSize> SizesFor(const std::vector<VkDescriptorSetLayoutBinding>& bindings, uint32_t sets) {
  std::vector<VkDescriptorPoolSize> sizes;
  for (const auto& b : bindings) sizes.push_back({b.descriptorType, b.descriptorCount * sets});
  return sizes;
}

TEST_F(Descriptors, LayoutWithEveryTypeAndImmutableSamplers) {
  const VkSampler immutable[2] = {MakeSampler(), MakeSampler()};
  const auto bindings = EveryType(immutable);
  VkDescriptorSetLayout layout = MakeLayout(bindings);
  ASSERT_NE(layout, VK_NULL_HANDLE);

  VkDescriptorSetLayoutSupport support{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT};
  VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  ci.bindingCount = uint32_t(bindings.size());
  ci.pBindings = bindings.data();
  vkGetDescriptorSetLayoutSupport(device_, &ci, &support);
  EXPECT_EQ(support.supported, VK_TRUE);

  // An empty layout is valid too.
  EXPECT_NE(MakeLayout({}), VK_NULL_HANDLE);
  // Binding numbers need not be dense or ordered.
  EXPECT_NE(MakeLayout({Binding(40, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1), Binding(3, VK_DESCRIPTOR_TYPE_SAMPLER, 0)}),
            VK_NULL_HANDLE);
}

TEST_F(Descriptors, LayoutSupportFollowsTheLimits) {
  VkPhysicalDeviceVulkan11Properties v11;
  VkPhysicalDeviceVulkan13Properties v13;
  QueryLimits(&v11, &v13);

  auto query = [&](const std::vector<VkDescriptorSetLayoutBinding>& bindings, const void* next,
                   VkDescriptorSetVariableDescriptorCountLayoutSupport* variable) {
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, next};
    ci.bindingCount = uint32_t(bindings.size());
    ci.pBindings = bindings.data();
    VkDescriptorSetLayoutSupport support{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT, variable};
    support.supported = 0x5a5a;
    vkGetDescriptorSetLayoutSupport(device_, &ci, &support);
    EXPECT_TRUE(support.supported == VK_TRUE || support.supported == VK_FALSE) << "supported not written";
    return support.supported == VK_TRUE;
  };

  const uint32_t max = v11.maxPerSetDescriptors;
  EXPECT_TRUE(query({Binding(0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, max)}, nullptr, nullptr));
  EXPECT_TRUE(query({Binding(0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, max - 8), Binding(1, VK_DESCRIPTOR_TYPE_SAMPLER, 8)},
                    nullptr, nullptr));
  EXPECT_FALSE(query({Binding(0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, max - 8), Binding(1, VK_DESCRIPTOR_TYPE_SAMPLER, 9)},
                     nullptr, nullptr));
  EXPECT_TRUE(query({Binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, v13.maxInlineUniformBlockSize)}, nullptr,
                    nullptr));

  // Without a variable-count binding the variable count support is 0.
  VkDescriptorSetVariableDescriptorCountLayoutSupport variable{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT};
  variable.maxVariableDescriptorCount = 77;
  EXPECT_TRUE(query({Binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4)}, nullptr, &variable));
  EXPECT_EQ(variable.maxVariableDescriptorCount, 0u);

  // With one, the largest count that fits beside the other bindings, even
  // when the requested count does not fit. (descriptorBindingVariableDescriptorCount
  // is not advertised yet; the driver implements it all the same.)
  const VkDescriptorBindingFlags flags[2] = {0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT};
  VkDescriptorSetLayoutBindingFlagsCreateInfo flags_info{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, nullptr, 2, flags};
  EXPECT_TRUE(query(
      {Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 6), Binding(1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 16)},
      &flags_info, &variable));
  EXPECT_EQ(variable.maxVariableDescriptorCount, max - 6);
  EXPECT_FALSE(query(
      {Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 6), Binding(1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, max)},
      &flags_info, &variable));
  EXPECT_EQ(variable.maxVariableDescriptorCount, max - 6);
  EXPECT_TRUE(query({Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1),
                     Binding(1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16)},
                    &flags_info, &variable));
  EXPECT_EQ(variable.maxVariableDescriptorCount, v13.maxInlineUniformBlockSize);  // bytes
}

TEST_F(Descriptors, PoolRunsOutOfSets) {
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1)});
  VkDescriptorPool pool = MakePool(2, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 100}});
  std::vector<VkDescriptorSet> sets;
  VK_EXPECT_OK(Allocate(pool, {layout, layout}, &sets));
  EXPECT_NE(sets[0], VK_NULL_HANDLE);
  EXPECT_NE(sets[1], sets[0]);
  VK_EXPECT_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY, Allocate(pool, {layout}, &sets));
  EXPECT_EQ(sets[0], VK_NULL_HANDLE);
}

TEST_F(Descriptors, PoolRunsOutOfDescriptorsAllOrNothing) {
  VkDescriptorSetLayout three = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3),
                                            Binding(1, VK_DESCRIPTOR_TYPE_SAMPLER, 1)});
  VkDescriptorSetLayout one = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  VkDescriptorPool pool =
      MakePool(10, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2},
                    {VK_DESCRIPTOR_TYPE_SAMPLER, 1}});  // a type may be listed twice: 4 storage buffers
  std::vector<VkDescriptorSet> sets;
  // 3 + 3 storage buffers do not fit in 4: neither set is made.
  VK_EXPECT_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY, Allocate(pool, {three, three}, &sets));
  EXPECT_EQ(sets[0], VK_NULL_HANDLE);
  EXPECT_EQ(sets[1], VK_NULL_HANDLE);
  // So all 4 are still there.
  VK_EXPECT_OK(Allocate(pool, {three, one}, &sets));
  // Now none is left, and no sampler either.
  VK_EXPECT_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY, Allocate(pool, {one}, &sets));
  VK_EXPECT_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY,
                   Allocate(pool, {MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_SAMPLER, 1)})}, &sets));
  // A type the pool never had.
  VK_EXPECT_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY,
                   Allocate(pool, {MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1)})}, &sets));
  // Bindings with no descriptors take nothing.
  VK_EXPECT_OK(Allocate(pool, {MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 0)})}, &sets));
}

TEST_F(Descriptors, InlineBlocksCountBytesAndBindings) {
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 32)});
  std::vector<VkDescriptorSet> sets;
  // Without VkDescriptorPoolInlineUniformBlockCreateInfo the pool has no inline block bindings.
  VkDescriptorPool no_bindings = MakePool(4, {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 256}});
  VK_EXPECT_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY, Allocate(no_bindings, {layout}, &sets));

  VkDescriptorPool bytes = MakePool(4, {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64}}, 0, 4);
  VK_EXPECT_OK(Allocate(bytes, {layout, layout}, &sets));
  VK_EXPECT_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY, Allocate(bytes, {layout}, &sets));  // 64 bytes used

  VkDescriptorPool bindings = MakePool(4, {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 1024}}, 0, 1);
  VK_EXPECT_OK(Allocate(bindings, {layout}, &sets));
  VK_EXPECT_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY, Allocate(bindings, {layout}, &sets));  // 1 binding used
}

TEST_F(Descriptors, FreedSetsGiveTheirSpaceBack) {
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 2)});
  VkDescriptorPool pool =
      MakePool(2, {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 4}}, VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT);
  std::vector<VkDescriptorSet> sets;
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    VK_ASSERT_OK(Allocate(pool, {layout, layout}, &sets));
    std::vector<VkDescriptorSet> more;
    VK_EXPECT_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY, Allocate(pool, {layout}, &more));
    // VK_NULL_HANDLE entries are ignored.
    const VkDescriptorSet to_free[3] = {sets[1], VK_NULL_HANDLE, sets[0]};
    VK_EXPECT_OK(vkFreeDescriptorSets(device_, pool, 3, to_free));
  }
  // Freeing one makes room for exactly one.
  VK_ASSERT_OK(Allocate(pool, {layout, layout}, &sets));
  VK_EXPECT_OK(vkFreeDescriptorSets(device_, pool, 1, &sets[0]));
  VK_EXPECT_OK(Allocate(pool, {layout}, &sets));
}

TEST_F(Descriptors, ResetFreesEverySet) {
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1),
                                             Binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2)});
  VkDescriptorPool pool = MakePool(3, SizesFor({Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1),
                                                Binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2)},
                                               3));
  std::vector<VkDescriptorSet> sets;
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    VK_ASSERT_OK(Allocate(pool, {layout, layout, layout}, &sets));
    VK_EXPECT_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY, Allocate(pool, {layout}, &sets));
    VK_EXPECT_OK(vkResetDescriptorPool(device_, pool, 0));
  }
  // And the pool is destroyed with sets still in it.
  VK_EXPECT_OK(Allocate(pool, {layout, layout}, &sets));
}

TEST_F(Descriptors, WritesOfEveryTypeAndCopies) {
  const VkSampler immutable[2] = {MakeSampler(), MakeSampler()};
  const VkSampler sampler = MakeSampler();
  const auto bindings = EveryType(immutable);
  VkDescriptorSetLayout layout = MakeLayout(bindings);
  VkDescriptorPool pool = MakePool(2, SizesFor(bindings, 2), 0, 2);
  std::vector<VkDescriptorSet> sets;
  VK_ASSERT_OK(Allocate(pool, {layout, layout}, &sets));
  VkBuffer buffer = MakeBoundBuffer(4096);
  VkBufferView texel = MakeBufferView(buffer, 256, 256);
  VkImageView image = MakeImageView();
  ASSERT_FALSE(HasFailure());

  const VkDescriptorImageInfo images[2] = {{sampler, image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                                           {sampler, image, VK_IMAGE_LAYOUT_GENERAL}};
  const VkDescriptorBufferInfo buffers[3] = {{buffer, 0, 256}, {buffer, 256, VK_WHOLE_SIZE}, {buffer, 1024, 64}};
  const VkBufferView views[1] = {texel};
  uint8_t bytes[64];
  for (size_t i = 0; i < sizeof bytes; ++i) bytes[i] = uint8_t(i);
  VkWriteDescriptorSetInlineUniformBlock block{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, nullptr,
                                               sizeof bytes, bytes};

  std::vector<VkWriteDescriptorSet> writes;
  for (const VkDescriptorSetLayoutBinding& b : bindings) {
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = sets[0];
    w.dstBinding = b.binding;
    w.descriptorCount = b.descriptorCount;
    w.descriptorType = b.descriptorType;
    w.pImageInfo = images;
    w.pBufferInfo = buffers;
    w.pTexelBufferView = views;
    if (b.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE) w.pImageInfo = images + 1;  // GENERAL layout
    if (b.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) w.pNext = &block;
    if (b.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER && b.pImmutableSamplers != nullptr) continue;
    writes.push_back(w);
  }
  vkUpdateDescriptorSets(device_, uint32_t(writes.size()), writes.data(), 0, nullptr);

  // Copy the whole set into the other binding by binding (but for immutable
  // SAMPLER bindings, which may be neither written nor copied into)...
  std::vector<VkCopyDescriptorSet> copies;
  for (const VkDescriptorSetLayoutBinding& b : bindings) {
    if (b.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER && b.pImmutableSamplers != nullptr) continue;
    VkCopyDescriptorSet c{VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET};
    c.srcSet = sets[0];
    c.srcBinding = b.binding;
    c.dstSet = sets[1];
    c.dstBinding = b.binding;
    c.descriptorCount = b.descriptorCount;
    copies.push_back(c);
  }
  // ...and a part of the inline block onto another part of itself.
  VkCopyDescriptorSet inline_copy{VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET};
  inline_copy.srcSet = sets[1];
  inline_copy.srcBinding = 13;
  inline_copy.srcArrayElement = 0;
  inline_copy.dstSet = sets[1];
  inline_copy.dstBinding = 13;
  inline_copy.dstArrayElement = 32;
  inline_copy.descriptorCount = 16;
  copies.push_back(inline_copy);
  vkUpdateDescriptorSets(device_, 0, nullptr, uint32_t(copies.size()), copies.data());
}

TEST_F(Descriptors, WritesAndCopiesRunIntoConsecutiveBindings) {
  // Bindings 0..2 share type and stages, so one write of 6 fills 0[1..2], 1[0], 2[0..2].
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3),
                                             Binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                             Binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3),
                                             Binding(3, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16),
                                             Binding(4, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16)});
  VkDescriptorPool pool =
      MakePool(2, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 14}, {VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64}}, 0, 4);
  std::vector<VkDescriptorSet> sets;
  VK_ASSERT_OK(Allocate(pool, {layout, layout}, &sets));
  VkBuffer buffer = MakeBoundBuffer(1024);
  ASSERT_NE(buffer, VK_NULL_HANDLE);

  std::vector<VkDescriptorBufferInfo> infos;
  for (VkDeviceSize i = 0; i < 6; ++i) infos.push_back({buffer, 64 * i, 64});
  const uint32_t words[4] = {1, 2, 3, 4};
  VkWriteDescriptorSetInlineUniformBlock block{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, nullptr,
                                               sizeof words, words};
  VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
  writes[0].dstSet = sets[0];
  writes[0].dstBinding = 0;
  writes[0].dstArrayElement = 1;
  writes[0].descriptorCount = 6;
  writes[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  writes[0].pBufferInfo = infos.data();
  writes[1].pNext = &block;
  writes[1].dstSet = sets[0];
  writes[1].dstBinding = 3;
  writes[1].dstArrayElement = 8;  // bytes 8..15 of binding 3, 0..7 of binding 4
  writes[1].descriptorCount = sizeof words;
  writes[1].descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
  VkCopyDescriptorSet copies[2] = {{VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET}};
  copies[0].srcSet = sets[0];
  copies[0].srcBinding = 0;
  copies[0].srcArrayElement = 2;
  copies[0].dstSet = sets[1];
  copies[0].dstBinding = 1;
  copies[0].descriptorCount = 4;  // src 0[2], 1[0], 2[0..1] -> dst 1[0], 2[0..2]
  copies[1].srcSet = sets[0];
  copies[1].srcBinding = 3;
  copies[1].srcArrayElement = 4;
  copies[1].dstSet = sets[1];
  copies[1].dstBinding = 3;
  copies[1].dstArrayElement = 12;
  copies[1].descriptorCount = 16;
  vkUpdateDescriptorSets(device_, 2, writes, 2, copies);
}

TEST_F(Descriptors, UpdateTemplateReadsAStridedStruct) {
  const VkSampler sampler = MakeSampler();
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 3),
                                             Binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3),
                                             Binding(2, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1),
                                             Binding(3, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16)});
  VkDescriptorPool pool = MakePool(4,
                                   {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 12},
                                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 12},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 4},
                                    {VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64}},
                                   0, 4);
  VkBuffer buffer = MakeBoundBuffer(2048);
  VkBufferView texel = MakeBufferView(buffer, 0, VK_WHOLE_SIZE);
  VkImageView image = MakeImageView();
  ASSERT_FALSE(HasFailure());

  // The application's per-object record: a buffer and an image per element,
  // with unrelated data between them.
  struct Element {
    VkDescriptorBufferInfo buffer;
    uint64_t unrelated;
    VkDescriptorImageInfo image;
  };
  struct Data {
    Element elements[3];
    VkBufferView texel;
    float tint[4];
  } data{};
  for (uint32_t i = 0; i < 3; ++i) {
    data.elements[i].buffer = {buffer, 256 * i, 256};
    data.elements[i].unrelated = ~uint64_t{0};
    data.elements[i].image = {sampler, image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  }
  data.texel = texel;
  data.tint[0] = data.tint[3] = 1.0f;

  const VkDescriptorUpdateTemplateEntry entries[] = {
      {0, 0, 3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, offsetof(Data, elements) + offsetof(Element, buffer),
       sizeof(Element)},
      {1, 0, 3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, offsetof(Data, elements) + offsetof(Element, image),
       sizeof(Element)},
      {2, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, offsetof(Data, texel), 0},
      {3, 0, sizeof data.tint, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, offsetof(Data, tint), 0},
  };
  VkDescriptorUpdateTemplateCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  ci.descriptorUpdateEntryCount = uint32_t(std::size(entries));
  ci.pDescriptorUpdateEntries = entries;
  ci.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  ci.descriptorSetLayout = layout;
  VkDescriptorUpdateTemplate update_template = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateDescriptorUpdateTemplate(device_, &ci, nullptr, &update_template));
  std::vector<VkDescriptorSet> sets;
  VK_ASSERT_OK(Allocate(pool, {layout, layout}, &sets));
  for (VkDescriptorSet set : sets) vkUpdateDescriptorSetWithTemplate(device_, set, update_template, &data);
  vkDestroyDescriptorUpdateTemplate(device_, update_template, nullptr);
  vkDestroyDescriptorUpdateTemplate(device_, VK_NULL_HANDLE, nullptr);
}

TEST_F(Descriptors, PipelineLayoutsWithPushConstants) {
  VkDescriptorSetLayout dynamic = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2),
                                              Binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1)});
  VkDescriptorSetLayout plain = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 4)});

  auto make = [&](std::vector<VkDescriptorSetLayout> sets, std::vector<VkPushConstantRange> ranges) {
    VkPipelineLayoutCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    ci.setLayoutCount = uint32_t(sets.size());
    ci.pSetLayouts = sets.data();
    ci.pushConstantRangeCount = uint32_t(ranges.size());
    ci.pPushConstantRanges = ranges.data();
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkResult r = vkCreatePipelineLayout(device_, &ci, nullptr, &layout);
    EXPECT_EQ(r, VK_SUCCESS) << R{r};
    EXPECT_NE(layout, VK_NULL_HANDLE);
    return layout;
  };
  const uint32_t max_push = props_.limits.maxPushConstantsSize;
  ASSERT_GE(max_push, 128u);
  std::vector<VkPipelineLayout> layouts = {
      make({}, {}),
      make({plain}, {}),
      make({dynamic, plain, dynamic}, {{VK_SHADER_STAGE_VERTEX_BIT, 0, 64}, {VK_SHADER_STAGE_FRAGMENT_BIT, 64, 64}}),
      make({}, {{VK_SHADER_STAGE_COMPUTE_BIT, 0, max_push}}),
      make({plain}, {{VK_SHADER_STAGE_ALL_GRAPHICS, 16, 32}, {VK_SHADER_STAGE_COMPUTE_BIT, 0, 128}}),
  };
  // A set layout may be destroyed while pipeline layouts made from it live on.
  VkDescriptorSetLayoutCreateInfo sci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  VkDescriptorSetLayoutBinding b = Binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1);
  sci.bindingCount = 1;
  sci.pBindings = &b;
  VkDescriptorSetLayout short_lived = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateDescriptorSetLayout(device_, &sci, nullptr, &short_lived));
  layouts.push_back(make({short_lived, dynamic}, {}));
  vkDestroyDescriptorSetLayout(device_, short_lived, nullptr);

  for (VkPipelineLayout layout : layouts) vkDestroyPipelineLayout(device_, layout, nullptr);
  vkDestroyPipelineLayout(device_, VK_NULL_HANDLE, nullptr);
}

TEST_F(Descriptors, VariableCountTakesOnlyWhatIsAllocated) {
  // descriptorBindingVariableDescriptorCount is not advertised yet; the
  // driver implements it, and this checks the pool counts the actual count.
  const VkDescriptorBindingFlags flags[2] = {0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT};
  VkDescriptorSetLayoutBindingFlagsCreateInfo flags_info{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, nullptr, 2, flags};
  VkDescriptorSetLayout layout = MakeLayout(
      {Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1), Binding(1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1000)},
      &flags_info);
  VkDescriptorPool pool = MakePool(8, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 8}, {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 20}});
  const uint32_t counts[2] = {12, 8};
  VkDescriptorSetVariableDescriptorCountAllocateInfo variable{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO, nullptr, 2, counts};
  std::vector<VkDescriptorSet> sized;
  VK_ASSERT_OK(Allocate(pool, {layout, layout}, &sized, &variable));  // 20 of 2 x 1000 possible images

  // Without the struct, or with descriptorSetCount 0, the variable count is
  // 0: only the uniform buffer is taken.
  std::vector<VkDescriptorSet> sets;
  VK_EXPECT_OK(Allocate(pool, {layout}, &sets));
  variable.descriptorSetCount = 0;
  VK_EXPECT_OK(Allocate(pool, {layout}, &sets, &variable));
  const uint32_t one[1] = {1};
  variable.descriptorSetCount = 1;
  variable.pDescriptorCounts = one;
  VK_EXPECT_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY, Allocate(pool, {layout}, &sets, &variable));

  // A set's variable-count binding holds as many elements as it was given.
  VkImageView image = MakeImageView();
  ASSERT_NE(image, VK_NULL_HANDLE);
  const std::vector<VkDescriptorImageInfo> images(
      12, {VK_NULL_HANDLE, image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  w.dstSet = sized[0];
  w.dstBinding = 1;
  w.descriptorCount = 12;
  w.descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
  w.pImageInfo = images.data();
  vkUpdateDescriptorSets(device_, 1, &w, 0, nullptr);
  w.dstSet = sized[1];
  w.dstArrayElement = 7;
  w.descriptorCount = 1;
  vkUpdateDescriptorSets(device_, 1, &w, 0, nullptr);
}

// Counts live allocations made through VkAllocationCallbacks.
struct CountingAllocator {
  std::mutex mu;
  std::map<void*, size_t> live;
  size_t total = 0;

  static void* Allocate(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
    auto* self = static_cast<CountingAllocator*>(user);
    const size_t align = alignment < sizeof(void*) ? sizeof(void*) : alignment;
    void* p = std::aligned_alloc(align, (size + align - 1) / align * align);
    if (p == nullptr) return nullptr;
    std::lock_guard<std::mutex> lock(self->mu);
    self->live[p] = size;
    ++self->total;
    return p;
  }
  static void* Reallocate(void* user, void* original, size_t size, size_t alignment, VkSystemAllocationScope scope) {
    auto* self = static_cast<CountingAllocator*>(user);
    void* p = size > 0 ? Allocate(user, size, alignment, scope) : nullptr;
    if (original != nullptr) {
      size_t old_size = 0;
      {
        std::lock_guard<std::mutex> lock(self->mu);
        old_size = self->live[original];
      }
      if (p != nullptr) std::memcpy(p, original, old_size < size ? old_size : size);
      Free(user, original);
    }
    return p;
  }
  static void Free(void* user, void* memory) {
    if (memory == nullptr) return;
    auto* self = static_cast<CountingAllocator*>(user);
    {
      std::lock_guard<std::mutex> lock(self->mu);
      self->live.erase(memory);
    }
    std::free(memory);
  }
  VkAllocationCallbacks Callbacks() {
    VkAllocationCallbacks cb{};
    cb.pUserData = this;
    cb.pfnAllocation = &Allocate;
    cb.pfnReallocation = &Reallocate;
    cb.pfnFree = &Free;
    return cb;
  }
  size_t Live() {
    std::lock_guard<std::mutex> lock(mu);
    return live.size();
  }
};

TEST_F(Descriptors, ObjectsUseTheApplicationsAllocator) {
  CountingAllocator counter;
  {
    // The callbacks struct need only live through each call.
    const VkAllocationCallbacks cb = counter.Callbacks();
    const VkDescriptorSetLayoutBinding binding = Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2);
    VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    lci.bindingCount = 1;
    lci.pBindings = &binding;
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    VK_ASSERT_OK(vkCreateDescriptorSetLayout(device_, &lci, &cb, &layout));
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 8};
    VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = 4;
    pci.poolSizeCount = 1;
    pci.pPoolSizes = &size;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VK_ASSERT_OK(vkCreateDescriptorPool(device_, &pci, &cb, &pool));
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &layout;
    VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
    VK_ASSERT_OK(vkCreatePipelineLayout(device_, &plci, &cb, &pipeline_layout));
    const size_t objects = counter.Live();
    EXPECT_GE(objects, 3u);

    std::vector<VkDescriptorSet> sets;
    VK_ASSERT_OK(Allocate(pool, {layout, layout, layout}, &sets));
    EXPECT_GT(counter.Live(), objects) << "sets come from the pool's callbacks";
    VK_EXPECT_OK(vkResetDescriptorPool(device_, pool, 0));
    // The sets are freed; the pool keeps its list's room (one allocation).
    EXPECT_LE(counter.Live(), objects + 1);
    VK_ASSERT_OK(Allocate(pool, {layout, layout}, &sets));

    vkDestroyPipelineLayout(device_, pipeline_layout, &cb);
    vkDestroyDescriptorPool(device_, pool, &cb);
    vkDestroyDescriptorSetLayout(device_, layout, &cb);
  }
  EXPECT_EQ(counter.Live(), 0u);
  EXPECT_GT(counter.total, 0u);
}

}  // namespace
}  // namespace duet_test

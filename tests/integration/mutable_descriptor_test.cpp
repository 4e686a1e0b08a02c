// VK_EXT_mutable_descriptor_type through the loader: bindings of type
// MUTABLE_EXT written as storage and uniform buffers are read by a shader
// that declares those types, rewritten with another type, and copied to a
// binding of a plain type.
#include <cstdint>
#include <vector>

#include "compute_fixture.h"
#include "shaders/mutable_descriptors.comp.h"

namespace duet_test {
namespace {

class MutableDescriptorTest : public ComputeFixture {
 protected:
  void SetUp() override {
    device_options_.extensions = {VK_EXT_MUTABLE_DESCRIPTOR_TYPE_EXTENSION_NAME};
    mutable_.mutableDescriptorType = VK_TRUE;
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&mutable_)};
    ComputeFixture::SetUp();
  }

  // A layout of `types` at bindings 0..n-1 (MUTABLE_EXT ones may hold a
  // storage or a uniform buffer), a pool for it and one set.
  std::pair<VkDescriptorSetLayout, VkDescriptorSet> MakeSet(const std::vector<VkDescriptorType>& types) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    std::vector<VkMutableDescriptorTypeListEXT> lists;
    for (uint32_t i = 0; i < types.size(); ++i) {
      bindings.push_back({i, types[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
      lists.push_back(types[i] == VK_DESCRIPTOR_TYPE_MUTABLE_EXT ? VkMutableDescriptorTypeListEXT{2, kBufferTypes}
                                                                 : VkMutableDescriptorTypeListEXT{0, nullptr});
    }
    const VkMutableDescriptorTypeCreateInfoEXT mutable_info{VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT,
                                                            nullptr, uint32_t(lists.size()), lists.data()};
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, &mutable_info};
    ci.bindingCount = uint32_t(bindings.size());
    ci.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &ci, nullptr, &layout), VK_SUCCESS);
    Defer([this, layout] { vkDestroyDescriptorSetLayout(device_, layout, nullptr); });
    std::vector<VkDescriptorPoolSize> sizes;
    for (VkDescriptorType type : types) sizes.push_back({type, 1});
    VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, &mutable_info};
    VkMutableDescriptorTypeCreateInfoEXT pool_lists = mutable_info;  // one list per pool size, in the same order
    pci.pNext = &pool_lists;
    pci.maxSets = 1;
    pci.poolSizeCount = uint32_t(sizes.size());
    pci.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorPool(device_, &pci, nullptr, &pool), VK_SUCCESS);
    Defer([this, pool] { vkDestroyDescriptorPool(device_, pool, nullptr); });
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateDescriptorSets(device_, &ai, &set), VK_SUCCESS);
    return {layout, set};
  }
  void Write(VkDescriptorSet set, uint32_t binding, VkDescriptorType type, VkBuffer buffer) {
    const VkDescriptorBufferInfo info{buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.dstBinding = binding;
    w.descriptorCount = 1;
    w.descriptorType = type;
    w.pBufferInfo = &info;
    vkUpdateDescriptorSets(device_, 1, &w, 0, nullptr);
  }

  static constexpr VkDescriptorType kBufferTypes[2] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                       VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
  VkPhysicalDeviceMutableDescriptorTypeFeaturesEXT mutable_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MUTABLE_DESCRIPTOR_TYPE_FEATURES_EXT};
};

TEST_F(MutableDescriptorTest, BuffersThroughMutableBindingsAndCopies) {
  constexpr uint32_t n = 64;
  HostBuffer in = StorageBuffer(n * 4), out = StorageBuffer(n * 4), other_out = StorageBuffer(n * 4);
  HostBuffer params = StorageBuffer(256), other_params = StorageBuffer(256);
  ASSERT_NE(out.data, nullptr);
  for (uint32_t i = 0; i < n; ++i) in.as<uint32_t>()[i] = i;
  params.as<uint32_t>()[0] = 3;
  params.as<uint32_t>()[1] = 7;
  other_params.as<uint32_t>()[0] = 5;
  other_params.as<uint32_t>()[1] = 1;
  const auto [layout, set] = MakeSet({VK_DESCRIPTOR_TYPE_MUTABLE_EXT, VK_DESCRIPTOR_TYPE_MUTABLE_EXT,
                                      VK_DESCRIPTOR_TYPE_MUTABLE_EXT});
  // Binding 1 first holds a storage buffer, then is rewritten as the uniform buffer the shader reads.
  Write(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, in.buffer);
  Write(set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, other_params.buffer);
  Write(set, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, params.buffer);
  Write(set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer);
  Kernel k = MakePipeline(kMutableDescriptorsComp, {layout}, 0);
  k.set = set;
  Run(k, 1);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out.as<uint32_t>()[i], i * 3 + 7) << i;

  // The same descriptors copied into a set of plain types, the output and
  // uniform buffer swapped for others there.
  const auto [plain_layout, plain] = MakeSet({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                              VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  VkCopyDescriptorSet copy{VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET};
  copy.srcSet = set;
  copy.dstSet = plain;
  copy.descriptorCount = 1;
  vkUpdateDescriptorSets(device_, 0, nullptr, 1, &copy);
  Write(plain, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, other_params.buffer);
  Write(plain, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, other_out.buffer);
  Kernel k2 = MakePipeline(kMutableDescriptorsComp, {plain_layout}, 0);
  k2.set = plain;
  Run(k2, 1);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(other_out.as<uint32_t>()[i], i * 5 + 1) << i;
}

}  // namespace
}  // namespace duet_test

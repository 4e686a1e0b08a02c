// External memory: opaque fds (VK_KHR_external_memory_fd) exported from
// one allocation and imported into another share its bytes, buffers
// included; host allocations (VK_EXT_external_memory_host) imported as
// device memory are what commands read and write. The capability queries
// say so, and refuse handle types the driver does not have.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {
namespace {

constexpr VkDeviceSize kSize = 65536;

class ExternalMemoryTest : public QueueTest {
 protected:
  ExternalMemoryTest() {
    device_options_.extensions = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME};
  }
  void SetUp() override {
    QueueTest::SetUp();
    if (HasFatalFailure()) return;
    get_fd_ = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(device_, "vkGetMemoryFdKHR"));
    host_properties_ = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
        vkGetDeviceProcAddr(device_, "vkGetMemoryHostPointerPropertiesEXT"));
    ASSERT_NE(get_fd_, nullptr);
    ASSERT_NE(host_properties_, nullptr);
  }
  void TearDown() override {
    for (VkBuffer b : buffers_) vkDestroyBuffer(device_, b, nullptr);
    for (VkDeviceMemory m : memories_) vkFreeMemory(device_, m, nullptr);
    QueueTest::TearDown();
  }

  VkDeviceMemory Allocate(const void* next) {
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, next};
    info.allocationSize = kSize;
    info.memoryTypeIndex = FindMemoryType(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateMemory(device_, &info, nullptr, &memory), VK_SUCCESS);
    if (memory != VK_NULL_HANDLE) memories_.push_back(memory);
    return memory;
  }
  // A transfer-destination buffer of kSize bytes of external memory of `type`, bound to `memory`.
  VkBuffer BufferOn(VkDeviceMemory memory, VkExternalMemoryHandleTypeFlagBits type) {
    VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    external.handleTypes = type;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external};
    info.size = kSize;
    info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateBuffer(device_, &info, nullptr, &buffer), VK_SUCCESS);
    buffers_.push_back(buffer);
    EXPECT_EQ(vkBindBufferMemory(device_, buffer, memory, 0), VK_SUCCESS);
    return buffer;
  }
  void Fill(VkBuffer buffer, VkDeviceSize offset, uint32_t value) {
    VkCommandBuffer cb = BeginCommands();
    vkCmdFillBuffer(cb, buffer, offset, 256, value);
    EndSubmitWait(cb);
  }

  PFN_vkGetMemoryFdKHR get_fd_ = nullptr;
  PFN_vkGetMemoryHostPointerPropertiesEXT host_properties_ = nullptr;
  std::vector<VkBuffer> buffers_;
  std::vector<VkDeviceMemory> memories_;
};

TEST_F(ExternalMemoryTest, CapabilitiesNameOpaqueFdsAndHostAllocations) {
  auto buffer_properties = [&](VkExternalMemoryHandleTypeFlagBits type) {
    VkPhysicalDeviceExternalBufferInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    info.handleType = type;
    VkExternalBufferProperties properties{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
    vkGetPhysicalDeviceExternalBufferProperties(phys_, &info, &properties);
    return properties.externalMemoryProperties;
  };
  const VkExternalMemoryProperties fd = buffer_properties(VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
  EXPECT_EQ(fd.externalMemoryFeatures, VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT);
  EXPECT_EQ(fd.compatibleHandleTypes, VkExternalMemoryHandleTypeFlags(VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT));
  const VkExternalMemoryProperties host = buffer_properties(VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT);
  EXPECT_EQ(host.externalMemoryFeatures, VkExternalMemoryFeatureFlags(VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT));
  EXPECT_EQ(buffer_properties(VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT).externalMemoryFeatures, 0u);

  VkPhysicalDeviceExternalImageFormatInfo external{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO};
  VkPhysicalDeviceImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, &external};
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.type = VK_IMAGE_TYPE_2D;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  VkExternalImageFormatProperties image{VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES};
  VkImageFormatProperties2 properties{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, &image};
  external.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties2(phys_, &info, &properties), VK_SUCCESS);
  EXPECT_NE(image.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT, 0u);
  external.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
  EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties2(phys_, &info, &properties), VK_ERROR_FORMAT_NOT_SUPPORTED);

  VkPhysicalDeviceExternalMemoryHostPropertiesEXT host_limits{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &host_limits};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  EXPECT_GT(host_limits.minImportedHostPointerAlignment, 0u);
  EXPECT_LE(host_limits.minImportedHostPointerAlignment, 65536u);
}

TEST_F(ExternalMemoryTest, OpaqueFdImportSharesTheBytes) {
  VkExportMemoryAllocateInfo export_info{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  const VkDeviceMemory exported = Allocate(&export_info);
  ASSERT_NE(exported, VK_NULL_HANDLE);
  VkMemoryGetFdInfoKHR get{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  get.memory = exported;
  get.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  ASSERT_EQ(get_fd_(device_, &get, &fd), VK_SUCCESS);
  ASSERT_GE(fd, 0);
  // Importing takes the fd: the application does not close it.
  VkImportMemoryFdInfoKHR import_info{VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR};
  import_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  import_info.fd = fd;
  const VkDeviceMemory imported = Allocate(&import_info);
  ASSERT_NE(imported, VK_NULL_HANDLE);

  void *a = nullptr, *b = nullptr;
  ASSERT_EQ(vkMapMemory(device_, exported, 0, VK_WHOLE_SIZE, 0, &a), VK_SUCCESS);
  ASSERT_EQ(vkMapMemory(device_, imported, 0, VK_WHOLE_SIZE, 0, &b), VK_SUCCESS);
  std::memset(a, 0x5A, 4096);
  EXPECT_EQ(static_cast<uint8_t*>(b)[100], 0x5A) << "a host write through one allocation shows in the other";
  // A command writing through a buffer on the imported memory shows in the exported one.
  Fill(BufferOn(imported, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT), 8192, 0xCAFEF00Du);
  uint32_t word = 0;
  std::memcpy(&word, static_cast<uint8_t*>(a) + 8192 + 128, 4);
  EXPECT_EQ(word, 0xCAFEF00Du);

  // Memory that was not made exportable has no fd; an unknown fd imports as an error.
  const VkDeviceMemory plain = Allocate(nullptr);
  get.memory = plain;
  EXPECT_EQ(get_fd_(device_, &get, &fd), VK_ERROR_INVALID_EXTERNAL_HANDLE);
  import_info.fd = -1;
  VkMemoryAllocateInfo bad{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &import_info};
  bad.allocationSize = kSize;
  VkDeviceMemory none = VK_NULL_HANDLE;
  EXPECT_EQ(vkAllocateMemory(device_, &bad, nullptr, &none), VK_ERROR_INVALID_EXTERNAL_HANDLE);
}

TEST_F(ExternalMemoryTest, HostAllocationIsTheDeviceMemory) {
  void* pages = std::aligned_alloc(65536, kSize);
  ASSERT_NE(pages, nullptr);
  std::memset(pages, 0, kSize);
  VkMemoryHostPointerPropertiesEXT properties{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  ASSERT_EQ(host_properties_(device_, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, pages, &properties),
            VK_SUCCESS);
  EXPECT_NE(properties.memoryTypeBits, 0u);
  {
    VkImportMemoryHostPointerInfoEXT import_info{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
    import_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    import_info.pHostPointer = pages;
    const VkDeviceMemory memory = Allocate(&import_info);
    ASSERT_NE(memory, VK_NULL_HANDLE);
    Fill(BufferOn(memory, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT), 4096, 0x01020304u);
    uint32_t word = 0;
    std::memcpy(&word, static_cast<uint8_t*>(pages) + 4096 + 252, 4);
    EXPECT_EQ(word, 0x01020304u) << "the command wrote the application's pages";
    void* mapped = nullptr;
    ASSERT_EQ(vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
    EXPECT_EQ(mapped, pages);
    vkUnmapMemory(device_, memory);
    // Freeing the memory leaves the pages to the application.
    for (VkBuffer b : buffers_) vkDestroyBuffer(device_, b, nullptr);
    buffers_.clear();
    vkFreeMemory(device_, memory, nullptr);
    memories_.clear();
  }
  static_cast<uint8_t*>(pages)[0] = 7;  // still the application's
  // A pointer off the required alignment is refused.
  EXPECT_EQ(host_properties_(device_, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
                             static_cast<uint8_t*>(pages) + 4, &properties),
            VK_ERROR_INVALID_EXTERNAL_HANDLE);
  std::free(pages);
}

}  // namespace
}  // namespace duet_test

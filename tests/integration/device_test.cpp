// Device creation (and its error paths), queues, and command lookup through
// vkGetDeviceProcAddr.
#include <cstring>
#include <string>
#include <vector>

#include "core_commands.h"
#include "vk_fixture.h"

namespace duet_test {
namespace {

class DeviceCreation : public InstanceTest {
 protected:
  VkDeviceQueueCreateInfo OneQueue() {
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = queue_family_;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority_;
    return qci;
  }
  // Creates a device; destroys it again right away when creation succeeds.
  VkResult TryCreate(const VkDeviceCreateInfo& ci) {
    VkDevice device = VK_NULL_HANDLE;
    VkResult r = vkCreateDevice(phys_, &ci, nullptr, &device);
    if (r == VK_SUCCESS) {
      EXPECT_NE(device, VK_NULL_HANDLE);
      vkDestroyDevice(device, nullptr);
    }
    return r;
  }
  float priority_ = 1.0f;
};

TEST_F(DeviceCreation, OneQueue) {
  ASSERT_NE(queue_family_, UINT32_MAX);
  VkDeviceQueueCreateInfo qci = OneQueue();
  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &qci;
  VK_EXPECT_OK(TryCreate(ci));
}

TEST_F(DeviceCreation, AllQueuesOfTheFamily) {
  ASSERT_NE(queue_family_, UINT32_MAX);
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(phys_, &count, nullptr);
  std::vector<VkQueueFamilyProperties> q(count);
  vkGetPhysicalDeviceQueueFamilyProperties(phys_, &count, q.data());
  const uint32_t n = q[queue_family_].queueCount;
  std::vector<float> priorities(n, 0.5f);
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = queue_family_;
  qci.queueCount = n;
  qci.pQueuePriorities = priorities.data();
  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &qci;
  VkDevice device = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateDevice(phys_, &ci, nullptr, &device));
  std::vector<VkQueue> queues(n, VK_NULL_HANDLE);
  for (uint32_t i = 0; i < n; ++i) {
    vkGetDeviceQueue(device, queue_family_, i, &queues[i]);
    EXPECT_NE(queues[i], VK_NULL_HANDLE) << "queue " << i;
    for (uint32_t j = 0; j < i; ++j) EXPECT_NE(queues[i], queues[j]) << "queues " << i << " and " << j;
  }
  vkDestroyDevice(device, nullptr);
}

TEST_F(DeviceCreation, TwoDevicesAtOnce) {
  ASSERT_NE(queue_family_, UINT32_MAX);
  VkDeviceQueueCreateInfo qci = OneQueue();
  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &qci;
  VkDevice a = VK_NULL_HANDLE, b = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateDevice(phys_, &ci, nullptr, &a));
  VkResult rb = vkCreateDevice(phys_, &ci, nullptr, &b);
  EXPECT_EQ(rb, VK_SUCCESS) << R{rb};
  if (rb == VK_SUCCESS) {
    EXPECT_NE(a, b);
    VkQueue qa = VK_NULL_HANDLE, qb = VK_NULL_HANDLE;
    vkGetDeviceQueue(a, queue_family_, 0, &qa);
    vkGetDeviceQueue(b, queue_family_, 0, &qb);
    EXPECT_NE(qa, qb) << "two devices share a queue handle";
    vkDestroyDevice(b, nullptr);
  }
  vkDestroyDevice(a, nullptr);
}

TEST_F(DeviceCreation, EverySupportedFeatureEnabled) {
  // Passing back exactly what the device reports (1.0 - 1.3 structures)
  // must succeed.
  ASSERT_NE(queue_family_, UINT32_MAX);
  Features13 f = QueryFeatures13();
  VkDeviceQueueCreateInfo qci = OneQueue();
  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci.pNext = &f.f2;
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &qci;
  VK_EXPECT_OK(TryCreate(ci));

  // Same with the 1.0 features through pEnabledFeatures.
  VkDeviceCreateInfo ci10{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci10.queueCreateInfoCount = 1;
  ci10.pQueueCreateInfos = &qci;
  ci10.pEnabledFeatures = &features_;
  VK_EXPECT_OK(TryCreate(ci10));
}

TEST_F(DeviceCreation, UnsupportedExtensionIsRejected) {
  ASSERT_NE(queue_family_, UINT32_MAX);
  VkDeviceQueueCreateInfo qci = OneQueue();
  const char* exts[] = {"VK_DUET_device_extension_that_does_not_exist"};
  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &qci;
  ci.enabledExtensionCount = 1;
  ci.ppEnabledExtensionNames = exts;
  VK_EXPECT_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT, TryCreate(ci));

  // A real extension the device does not offer.
  if (!HasExtension(DeviceExtensions(phys_), VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME)) {
    const char* rt[] = {VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME};
    ci.ppEnabledExtensionNames = rt;
    VK_EXPECT_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT, TryCreate(ci));
  }
}

TEST_F(DeviceCreation, UnsupportedCoreFeatureIsRejected) {
  ASSERT_NE(queue_family_, UINT32_MAX);
  // Find a VkPhysicalDeviceFeatures member the device reports as VK_FALSE.
  VkPhysicalDeviceFeatures want{};
  VkBool32* w = reinterpret_cast<VkBool32*>(&want);
  const VkBool32* have = reinterpret_cast<const VkBool32*>(&features_);
  const size_t n = sizeof(VkPhysicalDeviceFeatures) / sizeof(VkBool32);
  size_t index = n;
  for (size_t i = 0; i < n && index == n; ++i)
    if (have[i] == VK_FALSE) index = i;
  if (index == n) GTEST_SKIP() << "every VkPhysicalDeviceFeatures member is supported";
  w[index] = VK_TRUE;

  VkDeviceQueueCreateInfo qci = OneQueue();
  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &qci;
  ci.pEnabledFeatures = &want;
  VkResult r = TryCreate(ci);
  EXPECT_EQ(r, VK_ERROR_FEATURE_NOT_PRESENT) << "VkPhysicalDeviceFeatures member #" << index << " -> " << R{r};

  // The same request through VkPhysicalDeviceFeatures2 in pNext.
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  f2.features = want;
  VkDeviceCreateInfo ci2{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci2.pNext = &f2;
  ci2.queueCreateInfoCount = 1;
  ci2.pQueueCreateInfos = &qci;
  r = TryCreate(ci2);
  EXPECT_EQ(r, VK_ERROR_FEATURE_NOT_PRESENT) << "via VkPhysicalDeviceFeatures2: member #" << index << " -> " << R{r};
}

// Index of the first VK_FALSE member of a VulkanNNFeatures structure
// (members up to `last`), or -1.
template <typename T>
int FirstFalse(T s, VkBool32 T::*last) {
  std::span<VkBool32> b = FeatureBools(s, last);
  for (size_t i = 0; i < b.size(); ++i)
    if (b[i] == VK_FALSE) return int(i);
  return -1;
}

TEST_F(DeviceCreation, UnsupportedVulkan1xFeatureIsRejected) {
  ASSERT_NE(queue_family_, UINT32_MAX);
  Features13 have = QueryFeatures13();
  VkDeviceQueueCreateInfo qci = OneQueue();
  int tested = 0;
  auto check = [&](auto supported, auto last, const char* what) {
    using T = decltype(supported);
    const int idx = FirstFalse(supported, last);
    if (idx < 0) return;
    T want{};
    want.sType = supported.sType;
    FeatureBools(want, last)[idx] = VK_TRUE;
    VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    ci.pNext = &want;
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &qci;
    VkResult r = TryCreate(ci);
    EXPECT_EQ(r, VK_ERROR_FEATURE_NOT_PRESENT) << what << " member #" << idx << " -> " << R{r};
    ++tested;
  };
  check(have.v11, &VkPhysicalDeviceVulkan11Features::shaderDrawParameters, "VkPhysicalDeviceVulkan11Features");
  check(have.v12, &VkPhysicalDeviceVulkan12Features::subgroupBroadcastDynamicId, "VkPhysicalDeviceVulkan12Features");
  check(have.v13, &VkPhysicalDeviceVulkan13Features::maintenance4, "VkPhysicalDeviceVulkan13Features");
  if (tested == 0) GTEST_SKIP() << "every Vulkan 1.1-1.3 feature is supported";
}

TEST_F(DeviceCreation, UnsupportedFeatureInPromotedStructIsRejected) {
  // The individual (promoted) feature structures are checked as well.
  ASSERT_NE(queue_family_, UINT32_MAX);
  Features13 have = QueryFeatures13();
  VkDeviceQueueCreateInfo qci = OneQueue();
  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &qci;
  VkPhysicalDeviceProtectedMemoryFeatures pm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES};
  VkPhysicalDeviceBufferDeviceAddressFeatures bda{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
  VkPhysicalDeviceTextureCompressionASTCHDRFeatures astc{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES};
  if (!have.v11.protectedMemory) {
    pm.protectedMemory = VK_TRUE;
    ci.pNext = &pm;
  } else if (!have.v12.bufferDeviceAddressMultiDevice) {
    bda.bufferDeviceAddressMultiDevice = VK_TRUE;
    ci.pNext = &bda;
  } else if (!have.v13.textureCompressionASTC_HDR) {
    astc.textureCompressionASTC_HDR = VK_TRUE;
    ci.pNext = &astc;
  } else {
    GTEST_SKIP() << "no unsupported feature among the probed promoted structures";
  }
  VK_EXPECT_RESULT(VK_ERROR_FEATURE_NOT_PRESENT, TryCreate(ci));
}

TEST(DeviceProcAddrVersion, Api10InstanceHidesNewerCoreCommands) {
  // vkGetDeviceProcAddr returns NULL for a core device command newer than
  // the instance's apiVersion (spec: vkGetDeviceProcAddr behaviour table,
  // "any other case"), unless an extension providing it was enabled.
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_0;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateInstance(&ici, nullptr, &instance));
  uint32_t count = 1;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  vkEnumeratePhysicalDevices(instance, &count, &pd);
  EXPECT_NE(pd, VK_NULL_HANDLE);
  if (pd == VK_NULL_HANDLE) {
    vkDestroyInstance(instance, nullptr);
    return;
  }
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = 0;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  VkDevice device = VK_NULL_HANDLE;
  VkResult r = vkCreateDevice(pd, &dci, nullptr, &device);
  EXPECT_EQ(r, VK_SUCCESS) << R{r};
  if (r == VK_SUCCESS) {
    std::string newer_but_found, old_but_missing;
    for (const auto& cmd : kDeviceCommands) {
      // The loader answers vkGetDeviceQueue2 itself (it wraps queue
      // handles) whatever the version; that is not the driver's doing.
      if (std::strcmp(cmd.name, "vkGetDeviceQueue2") == 0) continue;
      const bool found = vkGetDeviceProcAddr(device, cmd.name) != nullptr;
      if (cmd.version == VK_API_VERSION_1_0 && !found) old_but_missing += std::string(cmd.name) + " ";
      if (cmd.version != VK_API_VERSION_1_0 && found) newer_but_found += std::string(cmd.name) + " ";
    }
    EXPECT_EQ(old_but_missing, "") << "1.0 commands missing";
    EXPECT_EQ(newer_but_found, "") << "1.1-1.3 commands resolved for an apiVersion 1.0 instance";
    vkDestroyDevice(device, nullptr);
  }
  vkDestroyInstance(instance, nullptr);
}

// --- queues ------------------------------------------------------------------------

class Device : public DeviceTest {};

TEST_F(Device, GetDeviceQueue) {
  VkQueue again = VK_NULL_HANDLE;
  vkGetDeviceQueue(device_, queue_family_, 0, &again);
  EXPECT_EQ(again, queue_) << "the same queue is returned every time";

  VkDeviceQueueInfo2 info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2};
  info.flags = 0;
  info.queueFamilyIndex = queue_family_;
  info.queueIndex = 0;
  VkQueue q2 = VK_NULL_HANDLE;
  vkGetDeviceQueue2(device_, &info, &q2);
  EXPECT_EQ(q2, queue_) << "vkGetDeviceQueue2 with flags 0 returns the vkGetDeviceQueue queue";
}

// --- vkGetDeviceProcAddr -------------------------------------------------------------

TEST_F(Device, EveryCoreDeviceCommandResolves) {
  std::vector<std::string> missing;
  for (const auto& cmd : kDeviceCommands)
    if (vkGetDeviceProcAddr(device_, cmd.name) == nullptr) missing.push_back(cmd.name);
  std::string list;
  for (const auto& m : missing) list += m + " ";
  EXPECT_TRUE(missing.empty()) << missing.size() << " of " << std::size(kDeviceCommands)
                               << " core device commands resolve to NULL: " << list;
}

TEST_F(Device, NonDeviceCommandsAreNull) {
  EXPECT_EQ(vkGetDeviceProcAddr(device_, "vkCreateInstance"), nullptr);
  EXPECT_EQ(vkGetDeviceProcAddr(device_, "vkGetPhysicalDeviceProperties"), nullptr);
  EXPECT_EQ(vkGetDeviceProcAddr(device_, "vkEnumeratePhysicalDevices"), nullptr);
  EXPECT_EQ(vkGetDeviceProcAddr(device_, "vkDuetDoesNotExist"), nullptr);
  EXPECT_EQ(vkGetDeviceProcAddr(device_, ""), nullptr);
  EXPECT_NE(vkGetDeviceProcAddr(device_, "vkGetDeviceProcAddr"), nullptr);
}

TEST_F(Device, NotEnabledExtensionCommandsAreNull) {
  // The fixture enables no device extension.
  EXPECT_EQ(vkGetDeviceProcAddr(device_, "vkCreateSwapchainKHR"), nullptr);
  EXPECT_EQ(vkGetDeviceProcAddr(device_, "vkQueuePresentKHR"), nullptr);
  EXPECT_EQ(vkGetDeviceProcAddr(device_, "vkCmdDrawMeshTasksEXT"), nullptr);
  EXPECT_EQ(vkGetDeviceProcAddr(device_, "vkCreateAccelerationStructureKHR"), nullptr);
}

TEST_F(Device, ResolvedCommandsWork) {
  // A pointer from vkGetDeviceProcAddr is callable and behaves like the
  // loader's exported function.
  auto get_queue = DeviceProc<PFN_vkGetDeviceQueue>("vkGetDeviceQueue");
  ASSERT_NE(get_queue, nullptr);
  VkQueue q = VK_NULL_HANDLE;
  get_queue(device_, queue_family_, 0, &q);
  EXPECT_EQ(q, queue_);

  auto create_buffer = DeviceProc<PFN_vkCreateBuffer>("vkCreateBuffer");
  auto destroy_buffer = DeviceProc<PFN_vkDestroyBuffer>("vkDestroyBuffer");
  ASSERT_NE(create_buffer, nullptr);
  ASSERT_NE(destroy_buffer, nullptr);
  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.size = 256;
  ci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer b = VK_NULL_HANDLE;
  VK_ASSERT_OK(create_buffer(device_, &ci, nullptr, &b));
  destroy_buffer(device_, b, nullptr);
}

}  // namespace
}  // namespace duet_test

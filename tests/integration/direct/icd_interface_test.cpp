// The loader-driver interface, checked the way the loader sees it: the
// built libduet_vk.so is dlopen()ed (no loader, no driver objects linked)
// and driven through its three exported vk_icd* functions.
//
//  - interface negotiation settles on the highest version the installed
//    vk_icd.h defines (CURRENT_LOADER_ICD_INTERFACE_VERSION);
//  - from version 7, the vk_icd* functions are also reachable through
//    vk_icdGetInstanceProcAddr (VK_LUNARG_direct_driver_loading);
//  - dispatchable objects start with the loader's slot, initialised to
//    ICD_LOADER_MAGIC (vk_icd.h);
//  - vk_icdGetPhysicalDeviceProcAddr answers physical-device commands only.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan_core.h>

#include <cstring>
#include <vector>

#ifndef DUET_ICD_LIBRARY
#error "DUET_ICD_LIBRARY must name the built libduet_vk.so"
#endif

namespace {

bool HasLoaderMagic(const void* dispatchable) {
  VK_LOADER_DATA data;
  std::memcpy(&data, dispatchable, sizeof(data));
  return (data.loaderMagic & 0xffffffff) == ICD_LOADER_MAGIC;
}

class IcdInterface : public ::testing::Test {
 protected:
  void SetUp() override {
    lib_ = dlopen(DUET_ICD_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(lib_, nullptr) << dlerror();
    negotiate_ = reinterpret_cast<PFN_vk_icdNegotiateLoaderICDInterfaceVersion>(
        dlsym(lib_, "vk_icdNegotiateLoaderICDInterfaceVersion"));
    gipa_ = reinterpret_cast<PFN_vk_icdGetInstanceProcAddr>(dlsym(lib_, "vk_icdGetInstanceProcAddr"));
    gpdpa_ = reinterpret_cast<PFN_vk_icdGetPhysicalDeviceProcAddr>(dlsym(lib_, "vk_icdGetPhysicalDeviceProcAddr"));
    ASSERT_NE(negotiate_, nullptr);
    ASSERT_NE(gipa_, nullptr);
    ASSERT_NE(gpdpa_, nullptr);
    // The loader negotiates before anything else.
    uint32_t version = CURRENT_LOADER_ICD_INTERFACE_VERSION;
    ASSERT_EQ(negotiate_(&version), VK_SUCCESS);
    version_ = version;
  }
  void TearDown() override {
    if (lib_ != nullptr) dlclose(lib_);
  }

  template <typename T>
  T Gipa(VkInstance instance, const char* name) {
    return reinterpret_cast<T>(gipa_(instance, name));
  }

  void* lib_ = nullptr;
  PFN_vk_icdNegotiateLoaderICDInterfaceVersion negotiate_ = nullptr;
  PFN_vk_icdGetInstanceProcAddr gipa_ = nullptr;
  PFN_vk_icdGetPhysicalDeviceProcAddr gpdpa_ = nullptr;
  uint32_t version_ = 0;
};

TEST_F(IcdInterface, NegotiatesTheInstalledHeadersVersion) {
  EXPECT_EQ(version_, uint32_t(CURRENT_LOADER_ICD_INTERFACE_VERSION));
  // A newer loader offering more gets the driver's highest version back.
  uint32_t newer = CURRENT_LOADER_ICD_INTERFACE_VERSION + 10;
  EXPECT_EQ(negotiate_(&newer), VK_SUCCESS);
  EXPECT_EQ(newer, uint32_t(CURRENT_LOADER_ICD_INTERFACE_VERSION));
}

TEST_F(IcdInterface, InterfaceFunctionsThroughGetInstanceProcAddr) {
  if (version_ < 7) GTEST_SKIP() << "interface version " << version_;
  EXPECT_NE(gipa_(VK_NULL_HANDLE, "vk_icdNegotiateLoaderICDInterfaceVersion"), nullptr);
  EXPECT_NE(gipa_(VK_NULL_HANDLE, "vk_icdGetPhysicalDeviceProcAddr"), nullptr);
}

TEST_F(IcdInterface, GlobalCommands) {
  EXPECT_NE(gipa_(VK_NULL_HANDLE, "vkCreateInstance"), nullptr);
  EXPECT_NE(gipa_(VK_NULL_HANDLE, "vkEnumerateInstanceExtensionProperties"), nullptr);
  EXPECT_NE(gipa_(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"), nullptr);
  EXPECT_EQ(gipa_(VK_NULL_HANDLE, "vkDuetDoesNotExist"), nullptr);

  auto enum_version = Gipa<PFN_vkEnumerateInstanceVersion>(VK_NULL_HANDLE, "vkEnumerateInstanceVersion");
  ASSERT_NE(enum_version, nullptr);
  uint32_t v = 0;
  EXPECT_EQ(enum_version(&v), VK_SUCCESS);
  EXPECT_GE(v, VK_API_VERSION_1_3);
}

TEST_F(IcdInterface, DispatchableObjectsCarryTheLoaderSlot) {
  auto create_instance = Gipa<PFN_vkCreateInstance>(VK_NULL_HANDLE, "vkCreateInstance");
  ASSERT_NE(create_instance, nullptr);
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  ASSERT_EQ(create_instance(&ici, nullptr, &instance), VK_SUCCESS);
  ASSERT_NE(instance, VK_NULL_HANDLE);
  EXPECT_TRUE(HasLoaderMagic(instance)) << "VkInstance";

  auto destroy_instance = Gipa<PFN_vkDestroyInstance>(instance, "vkDestroyInstance");
  auto enum_pds = Gipa<PFN_vkEnumeratePhysicalDevices>(instance, "vkEnumeratePhysicalDevices");
  auto create_device = Gipa<PFN_vkCreateDevice>(instance, "vkCreateDevice");
  auto gdpa = Gipa<PFN_vkGetDeviceProcAddr>(instance, "vkGetDeviceProcAddr");
  EXPECT_NE(destroy_instance, nullptr);
  EXPECT_NE(enum_pds, nullptr);
  EXPECT_NE(create_device, nullptr);
  EXPECT_NE(gdpa, nullptr);

  if (enum_pds != nullptr && create_device != nullptr && gdpa != nullptr) {
    uint32_t count = 0;
    EXPECT_EQ(enum_pds(instance, &count, nullptr), VK_SUCCESS);
    std::vector<VkPhysicalDevice> pds(count);
    EXPECT_EQ(enum_pds(instance, &count, pds.data()), VK_SUCCESS);
    ASSERT_EQ(count, 1u);
    EXPECT_TRUE(HasLoaderMagic(pds[0])) << "VkPhysicalDevice";

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = 0;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    VkDevice device = VK_NULL_HANDLE;
    EXPECT_EQ(create_device(pds[0], &dci, nullptr, &device), VK_SUCCESS);
    if (device != VK_NULL_HANDLE) {
      EXPECT_TRUE(HasLoaderMagic(device)) << "VkDevice";
      auto get_queue = reinterpret_cast<PFN_vkGetDeviceQueue>(gdpa(device, "vkGetDeviceQueue"));
      auto destroy_device = reinterpret_cast<PFN_vkDestroyDevice>(gdpa(device, "vkDestroyDevice"));
      EXPECT_NE(get_queue, nullptr);
      EXPECT_NE(destroy_device, nullptr);
      if (get_queue != nullptr) {
        VkQueue queue = VK_NULL_HANDLE;
        get_queue(device, 0, 0, &queue);
        ASSERT_NE(queue, VK_NULL_HANDLE);
        EXPECT_TRUE(HasLoaderMagic(queue)) << "VkQueue";
      }
      if (destroy_device != nullptr) destroy_device(device, nullptr);
    }
  }
  if (destroy_instance != nullptr) destroy_instance(instance, nullptr);
}

TEST_F(IcdInterface, PhysicalDeviceProcAddr) {
  auto create_instance = Gipa<PFN_vkCreateInstance>(VK_NULL_HANDLE, "vkCreateInstance");
  ASSERT_NE(create_instance, nullptr);
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  VkInstance instance = VK_NULL_HANDLE;
  ASSERT_EQ(create_instance(&ici, nullptr, &instance), VK_SUCCESS);
  EXPECT_NE(gpdpa_(instance, "vkGetPhysicalDeviceProperties"), nullptr);
  EXPECT_NE(gpdpa_(instance, "vkGetPhysicalDeviceFeatures2"), nullptr);
  EXPECT_NE(gpdpa_(instance, "vkGetPhysicalDeviceToolProperties"), nullptr);
  // Not physical-device commands: NULL, so the loader falls back to its own
  // handling.
  EXPECT_EQ(gpdpa_(instance, "vkCreateBuffer"), nullptr);
  EXPECT_EQ(gpdpa_(instance, "vkCreateInstance"), nullptr);
  EXPECT_EQ(gpdpa_(instance, "vkDuetDoesNotExist"), nullptr);
  auto destroy_instance = Gipa<PFN_vkDestroyInstance>(instance, "vkDestroyInstance");
  ASSERT_NE(destroy_instance, nullptr);
  destroy_instance(instance, nullptr);
}

}  // namespace

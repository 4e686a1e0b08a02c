// The generated entry-point table and the proc-address rules built on it.
#include <gtest/gtest.h>
#include <vulkan/vk_icd.h>

#include <cstring>
#include <string>

#include "dispatch/entrypoints.h"
#include "dispatch/extensions.h"
#include "dispatch/host_memory_guard.h"

namespace duet {
namespace {

using dispatch::CommandLevel;
using dispatch::FindEntryPoint;

VkResult ThrowsBadAlloc(int) { throw std::bad_alloc(); }
VkResult ThrowsLengthError(int) { throw std::length_error("vector"); }
VkResult Answers(int value) { return VkResult(value); }

// A command whose C++ allocation fails answers VK_ERROR_OUT_OF_HOST_MEMORY
// instead of throwing out of the driver; other results pass through.
TEST(HostMemoryGuard, AllocationFailuresBecomeOutOfHostMemory) {
  EXPECT_EQ(dispatch::HostMemoryGuard<&ThrowsBadAlloc>::Call(0), VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(dispatch::HostMemoryGuard<&ThrowsLengthError>::Call(0), VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(dispatch::HostMemoryGuard<&Answers>::Call(VK_INCOMPLETE), VK_INCOMPLETE);
  // The table hands out the guarded function for commands returning a
  // VkResult, and the command itself for the others.
  EXPECT_EQ(FindEntryPoint("vkCreateBuffer")->function,
            reinterpret_cast<PFN_vkVoidFunction>(&dispatch::HostMemoryGuard<&api::CreateBuffer>::Call));
  EXPECT_EQ(FindEntryPoint("vkCmdDraw")->function, reinterpret_cast<PFN_vkVoidFunction>(&api::CmdDraw));
}

TEST(DispatchTable, SortedUniqueAndComplete) {
  auto all = dispatch::AllEntryPoints();
  ASSERT_GT(all.size(), 200u);  // Vulkan 1.3 core alone has more than 200 commands
  for (size_t i = 1; i < all.size(); ++i) EXPECT_LT(std::strcmp(all[i - 1].name, all[i].name), 0) << all[i].name;
  for (const auto& e : all) {
    EXPECT_NE(e.function, nullptr) << e.name;
    EXPECT_TRUE(e.core_version != 0 || e.extensions[0] != dispatch::Extension::kNone) << e.name;
  }
}

TEST(DispatchTable, LevelsFollowTheFirstParameter) {
  EXPECT_EQ(FindEntryPoint("vkCreateInstance")->level, CommandLevel::kGlobal);
  EXPECT_EQ(FindEntryPoint("vkEnumerateInstanceVersion")->level, CommandLevel::kGlobal);
  EXPECT_EQ(FindEntryPoint("vkGetInstanceProcAddr")->level, CommandLevel::kGlobal);
  EXPECT_EQ(FindEntryPoint("vkDestroyInstance")->level, CommandLevel::kInstance);
  EXPECT_EQ(FindEntryPoint("vkGetPhysicalDeviceProperties")->level, CommandLevel::kPhysicalDevice);
  EXPECT_EQ(FindEntryPoint("vkCreateDevice")->level, CommandLevel::kPhysicalDevice);
  EXPECT_EQ(FindEntryPoint("vkGetDeviceProcAddr")->level, CommandLevel::kDevice);
  EXPECT_EQ(FindEntryPoint("vkQueueSubmit")->level, CommandLevel::kDevice);
  EXPECT_EQ(FindEntryPoint("vkCmdDraw")->level, CommandLevel::kDevice);
}

TEST(DispatchTable, CoreVersionsComeFromTheRegistry) {
  EXPECT_EQ(FindEntryPoint("vkCmdDraw")->core_version, VK_API_VERSION_1_0);
  EXPECT_EQ(FindEntryPoint("vkGetPhysicalDeviceFeatures2")->core_version, VK_API_VERSION_1_1);
  EXPECT_EQ(FindEntryPoint("vkWaitSemaphores")->core_version, VK_API_VERSION_1_2);
  EXPECT_EQ(FindEntryPoint("vkCmdBeginRendering")->core_version, VK_API_VERSION_1_3);
}

TEST(DispatchTable, ExtensionAliasesShareTheCoreImplementation) {
  const auto* alias = FindEntryPoint("vkGetPhysicalDeviceFeatures2KHR");
  const auto* core = FindEntryPoint("vkGetPhysicalDeviceFeatures2");
  ASSERT_NE(alias, nullptr);
  ASSERT_NE(core, nullptr);
  EXPECT_EQ(alias->function, core->function);
  EXPECT_EQ(alias->core_version, 0u);
  EXPECT_EQ(alias->extensions[0], dispatch::Extension::KHR_get_physical_device_properties2);
}

TEST(DispatchTable, UnknownAndUnsupportedNamesAreAbsent) {
  EXPECT_EQ(FindEntryPoint("vkNotACommand"), nullptr);
  EXPECT_EQ(FindEntryPoint(""), nullptr);
  // Commands of extensions the driver does not advertise are not in the table.
  EXPECT_EQ(FindEntryPoint("vkCmdDrawMeshTasksNV"), nullptr);
}

TEST(Extensions, TablesMatchTheirKind) {
  for (const auto& e : dispatch::InstanceExtensions()) EXPECT_TRUE(e.instance) << e.properties.extensionName;
  for (const auto& e : dispatch::DeviceExtensions()) EXPECT_FALSE(e.instance) << e.properties.extensionName;
  const auto* debug_utils = dispatch::FindExtension("VK_EXT_debug_utils");
  ASSERT_NE(debug_utils, nullptr);
  EXPECT_TRUE(debug_utils->instance);
  EXPECT_GE(debug_utils->properties.specVersion, 2u);
  EXPECT_EQ(dispatch::FindExtension("VK_KHR_not_an_extension"), nullptr);
}

TEST(ProcAddr, GlobalCommandsWithoutAnInstance) {
  EXPECT_NE(api::GetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateInstance"), nullptr);
  EXPECT_NE(api::GetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceExtensionProperties"), nullptr);
  EXPECT_NE(api::GetInstanceProcAddr(VK_NULL_HANDLE, "vkGetInstanceProcAddr"), nullptr);
  EXPECT_EQ(api::GetInstanceProcAddr(VK_NULL_HANDLE, "vkDestroyInstance"), nullptr);
  EXPECT_EQ(api::GetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateDevice"), nullptr);
  EXPECT_EQ(api::GetInstanceProcAddr(VK_NULL_HANDLE, "vkBogus"), nullptr);
}

TEST(ProcAddr, StubsOfUnwrittenCommandsFailSafely) {
  // Sampler Y'CbCr conversion is not supported (the feature is VK_FALSE), so
  // the generated stub answers: an error, never a crash.
  VkSamplerYcbcrConversion conversion = VK_NULL_HANDLE;
  EXPECT_NE(api::CreateSamplerYcbcrConversion(VK_NULL_HANDLE, nullptr, nullptr, &conversion), VK_SUCCESS);
  EXPECT_EQ(conversion, VK_NULL_HANDLE);
}

}  // namespace
}  // namespace duet

extern "C" PFN_vkVoidFunction vk_icdGetInstanceProcAddr(VkInstance, const char*);
extern "C" VkResult vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t*);

namespace duet {
namespace {

TEST(LoaderInterface, NegotiatesUpToTheHeadersVersion) {
  uint32_t version = 100;
  EXPECT_EQ(vk_icdNegotiateLoaderICDInterfaceVersion(&version), VK_SUCCESS);
  EXPECT_EQ(version, static_cast<uint32_t>(CURRENT_LOADER_ICD_INTERFACE_VERSION));
  version = 5;
  EXPECT_EQ(vk_icdNegotiateLoaderICDInterfaceVersion(&version), VK_SUCCESS);
  EXPECT_EQ(version, 5u);
  version = 1;
  EXPECT_EQ(vk_icdNegotiateLoaderICDInterfaceVersion(&version), VK_ERROR_INCOMPATIBLE_DRIVER);
}

TEST(LoaderInterface, Version7FunctionsAreQueryableByName) {
  EXPECT_NE(vk_icdGetInstanceProcAddr(VK_NULL_HANDLE, "vk_icdNegotiateLoaderICDInterfaceVersion"), nullptr);
  EXPECT_NE(vk_icdGetInstanceProcAddr(VK_NULL_HANDLE, "vk_icdGetPhysicalDeviceProcAddr"), nullptr);
}

}  // namespace
}  // namespace duet

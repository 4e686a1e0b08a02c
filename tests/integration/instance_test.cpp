// Global commands, instance creation, VK_EXT_debug_utils, and name lookups
// through vkGetInstanceProcAddr.
#include <cstring>
#include <string>
#include <vector>

#include "core_commands.h"
#include "vk_fixture.h"

namespace duet_test {
namespace {

VkApplicationInfo App13() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "duet_integration_tests";
  app.apiVersion = VK_API_VERSION_1_3;
  return app;
}

TEST(Global, EnumerateInstanceVersion) {
  uint32_t version = 0;
  VK_ASSERT_OK(vkEnumerateInstanceVersion(&version));
  EXPECT_GE(version, VK_API_VERSION_1_3) << "loader reports " << VK_API_VERSION_MAJOR(version) << "."
                                         << VK_API_VERSION_MINOR(version);
  EXPECT_EQ(VK_API_VERSION_VARIANT(version), 0u);
}

TEST(Global, EnumerateInstanceExtensions) {
  uint32_t count = 0;
  VK_ASSERT_OK(vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr));
  ASSERT_GT(count, 0u);
  std::vector<VkExtensionProperties> exts(count);
  VK_ASSERT_OK(vkEnumerateInstanceExtensionProperties(nullptr, &count, exts.data()));
  for (const auto& e : exts) {
    EXPECT_GT(std::strlen(e.extensionName), 3u);
    EXPECT_LT(std::strlen(e.extensionName), size_t(VK_MAX_EXTENSION_NAME_SIZE));
    EXPECT_GE(e.specVersion, 1u) << e.extensionName;
  }
  EXPECT_TRUE(HasExtension(exts, VK_EXT_DEBUG_UTILS_EXTENSION_NAME));
  for (const auto& e : exts) {
    bool known = false;
    for (const char* k : kKnownInstanceExtensions) known = known || std::strcmp(e.extensionName, k) == 0;
    EXPECT_TRUE(known) << e.extensionName << " is not an instance extension of the installed registry";
  }

  // A short array gets VK_INCOMPLETE and exactly that many entries.
  if (count > 1) {
    uint32_t short_count = count - 1;
    std::vector<VkExtensionProperties> part(count);
    VK_EXPECT_RESULT(VK_INCOMPLETE, vkEnumerateInstanceExtensionProperties(nullptr, &short_count, part.data()));
    EXPECT_EQ(short_count, count - 1);
  }

  uint32_t none = 0;
  VK_EXPECT_RESULT(VK_ERROR_LAYER_NOT_PRESENT,
                   vkEnumerateInstanceExtensionProperties("VK_LAYER_DUET_does_not_exist", &none, nullptr));
}

TEST(Global, EnumerateInstanceLayers) {
  uint32_t count = 0;
  VK_ASSERT_OK(vkEnumerateInstanceLayerProperties(&count, nullptr));
  std::vector<VkLayerProperties> layers(count);
  VK_ASSERT_OK(vkEnumerateInstanceLayerProperties(&count, layers.data()));
  for (uint32_t i = 0; i < count; ++i) EXPECT_GT(std::strlen(layers[i].layerName), 0u);
}

TEST(Global, GlobalCommandsResolveWithNullInstance) {
  for (const auto& cmd : kGlobalCommands) {
    EXPECT_NE(vkGetInstanceProcAddr(VK_NULL_HANDLE, cmd.name), nullptr) << cmd.name;
  }
  EXPECT_NE(vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkGetInstanceProcAddr"), nullptr);
  EXPECT_EQ(vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkDuetDoesNotExist"), nullptr);
}

TEST(Instance, CreateDestroy13) {
  VkApplicationInfo app = App13();
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateInstance(&ci, nullptr, &instance));
  ASSERT_NE(instance, VK_NULL_HANDLE);
  vkDestroyInstance(instance, nullptr);
}

TEST(Instance, CreateWithoutApplicationInfo) {
  // No pApplicationInfo means apiVersion 1.0.
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  VkInstance instance = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateInstance(&ci, nullptr, &instance));
  uint32_t count = 0;
  VK_EXPECT_OK(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  EXPECT_EQ(count, 1u);
  vkDestroyInstance(instance, nullptr);
}

TEST(Instance, CreateSeveralAtOnce) {
  VkApplicationInfo app = App13();
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  VkInstance a = VK_NULL_HANDLE, b = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateInstance(&ci, nullptr, &a));
  VkResult rb = vkCreateInstance(&ci, nullptr, &b);
  EXPECT_EQ(rb, VK_SUCCESS) << R{rb};
  if (rb == VK_SUCCESS) {
    uint32_t count = 1;
    VkPhysicalDevice pd = VK_NULL_HANDLE;
    VK_EXPECT_OK(vkEnumeratePhysicalDevices(b, &count, &pd));
    vkDestroyInstance(b, nullptr);
  }
  // The first instance still works after the second is gone.
  uint32_t count = 0;
  VK_EXPECT_OK(vkEnumeratePhysicalDevices(a, &count, nullptr));
  EXPECT_EQ(count, 1u);
  vkDestroyInstance(a, nullptr);
}

TEST(Instance, UnknownExtensionIsRejected) {
  VkApplicationInfo app = App13();
  const char* exts[] = {"VK_DUET_extension_that_does_not_exist"};
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  ci.enabledExtensionCount = 1;
  ci.ppEnabledExtensionNames = exts;
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = vkCreateInstance(&ci, nullptr, &instance);
  EXPECT_EQ(r, VK_ERROR_EXTENSION_NOT_PRESENT) << R{r};
  if (r == VK_SUCCESS) vkDestroyInstance(instance, nullptr);
}

TEST(Instance, UnknownLayerIsRejected) {
  VkApplicationInfo app = App13();
  const char* layers[] = {"VK_LAYER_DUET_does_not_exist"};
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  ci.enabledLayerCount = 1;
  ci.ppEnabledLayerNames = layers;
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = vkCreateInstance(&ci, nullptr, &instance);
  EXPECT_EQ(r, VK_ERROR_LAYER_NOT_PRESENT) << R{r};
  if (r == VK_SUCCESS) vkDestroyInstance(instance, nullptr);
}

TEST(Instance, EveryAdvertisedExtensionCanBeEnabled) {
  // Enable every instance extension the loader + driver offer at once
  // (surface extensions included: creating the instance needs no display).
  std::vector<VkExtensionProperties> exts = InstanceExtensions();
  std::vector<const char*> names;
  for (const auto& e : exts) names.push_back(e.extensionName);
  VkApplicationInfo app = App13();
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  ci.enabledExtensionCount = uint32_t(names.size());
  ci.ppEnabledExtensionNames = names.data();
  if (HasExtension(exts, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME))
    ci.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  VkInstance instance = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateInstance(&ci, nullptr, &instance));
  uint32_t count = 0;
  VK_EXPECT_OK(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  EXPECT_EQ(count, 1u);
  vkDestroyInstance(instance, nullptr);
}

// --- VK_EXT_debug_utils ------------------------------------------------------

struct CallbackRecord {
  int calls = 0;
  int matching = 0;
  VkDebugUtilsMessageSeverityFlagBitsEXT severity{};
  VkDebugUtilsMessageTypeFlagsEXT types = 0;
  std::string id_name;
  int32_t id_number = 0;
  std::string last_text;
};

VKAPI_ATTR VkBool32 VKAPI_CALL RecordingCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* rec = static_cast<CallbackRecord*>(user);
  ++rec->calls;
  rec->last_text = data != nullptr && data->pMessage != nullptr ? data->pMessage : "";
  if (data != nullptr && data->pMessage != nullptr && std::strstr(data->pMessage, "duet-test-message-42") != nullptr) {
    ++rec->matching;
    rec->severity = severity;
    rec->types = types;
    rec->id_name = data->pMessageIdName != nullptr ? data->pMessageIdName : "";
    rec->id_number = data->messageIdNumber;
  }
  return VK_FALSE;
}

VkDebugUtilsMessengerCreateInfoEXT RecordingMessengerInfo(CallbackRecord* rec) {
  VkDebugUtilsMessengerCreateInfoEXT ci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  ci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  ci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  ci.pfnUserCallback = &RecordingCallback;
  ci.pUserData = rec;
  return ci;
}

void SubmitTestMessage(VkInstance instance) {
  auto submit = reinterpret_cast<PFN_vkSubmitDebugUtilsMessageEXT>(
      vkGetInstanceProcAddr(instance, "vkSubmitDebugUtilsMessageEXT"));
  ASSERT_NE(submit, nullptr);
  VkDebugUtilsMessengerCallbackDataEXT data{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
  data.pMessageIdName = "duet-test-id";
  data.messageIdNumber = 4242;
  data.pMessage = "duet-test-message-42";
  submit(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, &data);
}

TEST(DebugUtils, MessengerReceivesSubmittedMessage) {
  VkApplicationInfo app = App13();
  const char* exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  ci.enabledExtensionCount = 1;
  ci.ppEnabledExtensionNames = exts;
  VkInstance instance = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateInstance(&ci, nullptr, &instance));

  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  EXPECT_NE(create, nullptr);
  EXPECT_NE(destroy, nullptr);
  if (create != nullptr && destroy != nullptr) {
    CallbackRecord rec;
    VkDebugUtilsMessengerCreateInfoEXT mci = RecordingMessengerInfo(&rec);
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkResult r = create(instance, &mci, nullptr, &messenger);
    EXPECT_EQ(r, VK_SUCCESS) << R{r};
    if (r == VK_SUCCESS) {
      EXPECT_NE(messenger, VK_NULL_HANDLE);
      SubmitTestMessage(instance);
      EXPECT_EQ(rec.matching, 1) << "the submitted message should reach the callback exactly once";
      EXPECT_EQ(rec.severity, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT);
      EXPECT_EQ(rec.types, VkDebugUtilsMessageTypeFlagsEXT(VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT));
      EXPECT_EQ(rec.id_name, "duet-test-id");
      EXPECT_EQ(rec.id_number, 4242);
      destroy(instance, messenger, nullptr);

      // Once destroyed, the messenger receives nothing more.
      const int before = rec.calls;
      SubmitTestMessage(instance);
      EXPECT_EQ(rec.calls, before);
    }
    // Destroying VK_NULL_HANDLE is a no-op.
    destroy(instance, VK_NULL_HANDLE, nullptr);
  }
  vkDestroyInstance(instance, nullptr);
}

TEST(DebugUtils, SeverityFilterIsHonoured) {
  VkApplicationInfo app = App13();
  const char* exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  ci.enabledExtensionCount = 1;
  ci.ppEnabledExtensionNames = exts;
  VkInstance instance = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateInstance(&ci, nullptr, &instance));
  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  if (create != nullptr && destroy != nullptr) {
    CallbackRecord rec;
    VkDebugUtilsMessengerCreateInfoEXT mci = RecordingMessengerInfo(&rec);
    mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;  // our message is a warning
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VK_EXPECT_OK(create(instance, &mci, nullptr, &messenger));
    SubmitTestMessage(instance);
    EXPECT_EQ(rec.matching, 0);
    if (messenger != VK_NULL_HANDLE) destroy(instance, messenger, nullptr);
  } else {
    ADD_FAILURE() << "debug utils commands missing";
  }
  vkDestroyInstance(instance, nullptr);
}

TEST(DebugUtils, MessengerChainedIntoInstanceCreateInfo) {
  CallbackRecord rec;
  VkDebugUtilsMessengerCreateInfoEXT mci = RecordingMessengerInfo(&rec);
  VkApplicationInfo app = App13();
  const char* exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pNext = &mci;
  ci.pApplicationInfo = &app;
  ci.enabledExtensionCount = 1;
  ci.ppEnabledExtensionNames = exts;
  VkInstance instance = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateInstance(&ci, nullptr, &instance));

  // The instance works normally with the chained messenger in place, and a
  // device can be created and destroyed under it.
  uint32_t count = 1;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  VkResult r = vkEnumeratePhysicalDevices(instance, &count, &pd);
  EXPECT_TRUE(r == VK_SUCCESS || r == VK_INCOMPLETE) << R{r};
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
    VK_EXPECT_OK(vkCreateDevice(pd, &dci, nullptr, &device));
    if (device != VK_NULL_HANDLE) vkDestroyDevice(device, nullptr);
  }
  // The chained messenger only covers vkCreateInstance/vkDestroyInstance:
  // a message submitted in between is not required to reach it, so only
  // check that whatever it saw was well formed (calls counted, no crash).
  vkDestroyInstance(instance, nullptr);
  EXPECT_GE(rec.calls, 0);
}

TEST(DebugUtils, ChainedMessengerOnlyCoversCreateAndDestroy) {
  // A messenger chained into VkInstanceCreateInfo reports only during
  // vkCreateInstance and vkDestroyInstance (VK_EXT_debug_utils); messages in
  // between go to messengers made with vkCreateDebugUtilsMessengerEXT.
  CallbackRecord chained_rec;
  VkDebugUtilsMessengerCreateInfoEXT chained = RecordingMessengerInfo(&chained_rec);
  VkApplicationInfo app = App13();
  const char* exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pNext = &chained;
  ci.pApplicationInfo = &app;
  ci.enabledExtensionCount = 1;
  ci.ppEnabledExtensionNames = exts;
  VkInstance instance = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateInstance(&ci, nullptr, &instance));
  const int after_create = chained_rec.calls;

  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  EXPECT_NE(create, nullptr);
  EXPECT_NE(destroy, nullptr);
  CallbackRecord rec;
  VkDebugUtilsMessengerCreateInfoEXT mci = RecordingMessengerInfo(&rec);
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  if (create != nullptr) VK_EXPECT_OK(create(instance, &mci, nullptr, &messenger));

  // Provoke messages from the loader and (likely) the driver: a submitted
  // message, and a device creation that fails on an unsupported feature.
  SubmitTestMessage(instance);
  uint32_t count = 1;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  vkEnumeratePhysicalDevices(instance, &count, &pd);
  if (pd != VK_NULL_HANDLE) {
    VkPhysicalDeviceFeatures have{};
    vkGetPhysicalDeviceFeatures(pd, &have);
    VkPhysicalDeviceFeatures want{};
    const VkBool32* h = reinterpret_cast<const VkBool32*>(&have);
    VkBool32* w = reinterpret_cast<VkBool32*>(&want);
    for (size_t i = 0; i < sizeof(want) / sizeof(VkBool32); ++i)
      if (!h[i]) {
        w[i] = VK_TRUE;
        break;
      }
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = 0;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.pEnabledFeatures = &want;
    VkDevice device = VK_NULL_HANDLE;
    if (vkCreateDevice(pd, &dci, nullptr, &device) == VK_SUCCESS) vkDestroyDevice(device, nullptr);
  }
  EXPECT_EQ(rec.matching, 1);
  EXPECT_EQ(chained_rec.calls, after_create)
      << "the messenger chained into VkInstanceCreateInfo received " << chained_rec.calls - after_create
      << " message(s) after vkCreateInstance returned, the last: \"" << chained_rec.last_text << "\"";
  EXPECT_EQ(chained_rec.matching, 0);
  if (messenger != VK_NULL_HANDLE && destroy != nullptr) destroy(instance, messenger, nullptr);
  vkDestroyInstance(instance, nullptr);
}

// --- vkGetInstanceProcAddr ----------------------------------------------------

class InstanceProcAddr : public InstanceTest {};

TEST_F(InstanceProcAddr, EveryCoreCommandResolves) {
  std::vector<std::string> missing;
  // Global commands are looked up with a NULL instance (Global.* tests); with
  // an instance the spec leaves them out of the table.
  for (const auto& cmd : kInstanceCommands)
    if (vkGetInstanceProcAddr(instance_, cmd.name) == nullptr) missing.push_back(cmd.name);
  for (const auto& cmd : kDeviceCommands)
    if (vkGetInstanceProcAddr(instance_, cmd.name) == nullptr) missing.push_back(cmd.name);
  std::string list;
  for (const auto& m : missing) list += m + " ";
  EXPECT_TRUE(missing.empty()) << missing.size() << " core commands resolve to NULL: " << list;
}

TEST_F(InstanceProcAddr, UnknownNameIsNull) {
  EXPECT_EQ(vkGetInstanceProcAddr(instance_, "vkDuetDoesNotExist"), nullptr);
  EXPECT_EQ(vkGetInstanceProcAddr(instance_, ""), nullptr);
  EXPECT_NE(vkGetInstanceProcAddr(instance_, "vkGetInstanceProcAddr"), nullptr);
}

}  // namespace
}  // namespace duet_test

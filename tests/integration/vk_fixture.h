// Small fixture library for the integration tests. The tests talk to the
// driver only through the real Vulkan loader (libvulkan.so.1); the loader is
// pointed at the build tree's manifest by SetUpLoaderEnvironment(), which
// main() calls before the first loader call.
#pragma once

#include <vulkan/vulkan.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace duet_test {

// The ICD manifest the tests load: DUET_TEST_ICD_FILENAMES from the
// environment when set (to run the suite against another driver), else the
// build tree's duet_icd.json (compile definition DUET_ICD_MANIFEST).
std::string IcdManifestPath();

// Points the loader at IcdManifestPath() only: sets VK_ICD_FILENAMES and
// clears VK_DRIVER_FILES / VK_ADD_DRIVER_FILES (which would take priority or
// add other drivers). With DUET_TEST_PIN_ICD=1 it also dlopen()s the
// driver library so it stays mapped after the loader dlclose()s it, which
// lets LeakSanitizer name driver functions in its stacks (but hides memory
// the driver loses at unload).
void SetUpLoaderEnvironment();

// Human-readable VkResult ("VK_ERROR_OUT_OF_DEVICE_MEMORY").
const char* ResultName(VkResult r);

// Test-friendly formatting for gtest messages.
struct R {
  VkResult r;
};
inline std::ostream& operator<<(std::ostream& os, R r) { return os << ResultName(r.r) << " (" << int(r.r) << ")"; }

#define VK_ASSERT_OK(expr)                                                              \
  do {                                                                                  \
    VkResult duet_r_ = (expr);                                                          \
    ASSERT_EQ(duet_r_, VK_SUCCESS) << #expr << " -> " << ::duet_test::R{duet_r_};       \
  } while (0)
#define VK_EXPECT_OK(expr)                                                              \
  do {                                                                                  \
    VkResult duet_r_ = (expr);                                                          \
    EXPECT_EQ(duet_r_, VK_SUCCESS) << #expr << " -> " << ::duet_test::R{duet_r_};       \
  } while (0)
#define VK_EXPECT_RESULT(expected, expr)                                                \
  do {                                                                                  \
    VkResult duet_r_ = (expr);                                                          \
    EXPECT_EQ(duet_r_, (expected)) << #expr << " -> " << ::duet_test::R{duet_r_}        \
                                   << ", expected " << ::duet_test::R{(expected)};      \
  } while (0)

// Every message the debug-utils messenger installed by the fixtures saw.
struct DebugMessage {
  VkDebugUtilsMessageSeverityFlagBitsEXT severity;
  VkDebugUtilsMessageTypeFlagsEXT types;
  std::string id_name;
  int32_t id_number;
  std::string text;
};

class MessageLog {
 public:
  static VKAPI_ATTR VkBool32 VKAPI_CALL Callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                 void* user);
  std::vector<DebugMessage> Snapshot() const;
  size_t Count(const std::string& needle) const;  // messages whose text contains needle
  void Clear();
  // A messenger create-info that logs every severity and type into this log.
  VkDebugUtilsMessengerCreateInfoEXT CreateInfo(const void* next = nullptr);

 private:
  mutable std::mutex mu_;
  std::vector<DebugMessage> messages_;
};

// True when the list of extension properties names `name`.
bool HasExtension(const std::vector<VkExtensionProperties>& exts, const char* name);
std::vector<VkExtensionProperties> InstanceExtensions(const char* layer = nullptr);
std::vector<VkExtensionProperties> DeviceExtensions(VkPhysicalDevice pd);

// Feature structures are a header (sType, pNext) followed by VkBool32
// members only. The members, up to and including `last` (sizeof would count
// the tail padding of a structure with an odd number of members).
template <typename T>
std::span<VkBool32> FeatureBools(T& s, VkBool32 T::*last) {
  char* base = reinterpret_cast<char*>(&s);
  char* first = base + offsetof(T, pNext) + sizeof(void*);
  char* end = reinterpret_cast<char*>(&(s.*last)) + sizeof(VkBool32);
  return {reinterpret_cast<VkBool32*>(first), size_t(end - first) / sizeof(VkBool32)};
}

// Physical RAM of this machine in bytes.
uint64_t PhysicalRamBytes();

// A 1.3 instance (with VK_EXT_debug_utils and a messenger feeding log_ when
// the loader offers it) and its single physical device.
class InstanceTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Runs at TearDown, last registered first, before the instance is
  // destroyed. Instance-level objects (messengers) go here.
  void DeferInstance(std::function<void()> fn) { instance_cleanups_.push_back(std::move(fn)); }
  void RunInstanceCleanups();

  template <typename T>
  T InstanceProc(const char* name) {
    return reinterpret_cast<T>(vkGetInstanceProcAddr(instance_, name));
  }

  // Features / properties helpers.
  struct Features13 {
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    // Links f2 -> v11 -> v12 -> v13 (-> tail); call again after copying.
    void Link(void* tail = nullptr) {
      f2.pNext = &v11;
      v11.pNext = &v12;
      v12.pNext = &v13;
      v13.pNext = tail;
    }
  };
  Features13 QueryFeatures13();

  // Extra instance extensions SetUp enables (set them in the constructor).
  std::vector<const char*> instance_extensions_;
  bool debug_utils_ = false;
  bool validation_layer_ = false;  // DUET_TEST_VALIDATION=1 enabled VK_LAYER_KHRONOS_validation
  MessageLog log_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice phys_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties props_{};
  VkPhysicalDeviceFeatures features_{};
  VkPhysicalDeviceMemoryProperties mem_props_{};
  uint32_t queue_family_ = UINT32_MAX;  // first family with GRAPHICS|COMPUTE|TRANSFER

 private:
  std::vector<std::function<void()>> instance_cleanups_;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
};

// What DeviceTest::SetUp creates. The defaults (one queue, privateData only)
// are what the device tests expect; subclasses change them in their
// constructor.
struct DeviceOptions {
  uint32_t queue_count = 1;    // queues of queue_family_, capped at the family's queueCount
  bool sync_features = false;  // also enable timelineSemaphore, hostQueryReset (1.2), synchronization2 (1.3)
  bool render_pass_features = false;  // also enable multiview (1.1), imagelessFramebuffer (1.2), dynamicRendering (1.3)
  // Also enable those of the optional drawing features the device supports:
  // independentBlend, dualSrcBlend, logicOp, depthClamp, depthBiasClamp,
  // multiDrawIndirect, drawIndirectFirstInstance, sampleRateShading,
  // fillModeNonSolid, fragmentStoresAndAtomics, imageCubeArray, vertexPipelineStoresAndAtomics,
  // fullDrawIndexUint32, alphaToOne, pipelineStatisticsQuery, occlusionQueryPrecise,
  // inheritedQueries (1.0), shaderDrawParameters (1.1), drawIndirectCount (1.2).
  // Tests read features_ to know which are on.
  bool graphics_features = false;
  // Also enable bufferDeviceAddress (1.2), maintenance4 (1.3, for
  // LocalSizeId), uniformBufferStandardLayout, samplerMirrorClampToEdge, samplerFilterMinmax
  // and scalarBlockLayout (1.2), the memory model ones the device has, and those of the descriptor indexing features the device
  // supports: the four *ArrayDynamicIndexing of 1.0 and every one of
  // VkPhysicalDeviceDescriptorIndexingFeatures (1.2).
  bool shader_features = false;
  std::vector<const char*> extensions;  // device extensions to enable
  // Feature structs of extensions to put first in the VkDeviceCreateInfo
  // chain (their pNext is overwritten), e.g. VkPhysicalDevice*FeaturesEXT.
  std::vector<VkBaseOutStructure*> extension_features;
};

// InstanceTest plus a device with one queue of queue_family_. Enables the
// Vulkan 1.3 privateData and pipelineCreationCacheControl features when
// supported (needed by the private-data and pipeline cache tests; both are
// mandatory in 1.3) and nothing else, unless device_options_ asks for more.
class DeviceTest : public InstanceTest {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Runs at TearDown, last registered first, before the device is destroyed.
  void Defer(std::function<void()> fn) { device_cleanups_.push_back(std::move(fn)); }

  template <typename T>
  T DeviceProc(const char* name) {
    return reinterpret_cast<T>(vkGetDeviceProcAddr(device_, name));
  }

  // Index of a memory type in type_bits with all of `flags`, or UINT32_MAX.
  uint32_t FindMemoryType(uint32_t type_bits, VkMemoryPropertyFlags flags = 0) const;

  // Create helpers: the object is destroyed at TearDown. They ASSERT on
  // failure, so call them through ASSERT_NO_FATAL_FAILURE where it matters;
  // on failure they return VK_NULL_HANDLE.
  VkBuffer MakeBuffer(VkDeviceSize size, VkBufferUsageFlags usage);
  VkDeviceMemory MakeMemory(VkDeviceSize size, uint32_t type_index, const void* next = nullptr);
  VkImage MakeImage(const VkImageCreateInfo& ci);
  // Allocates memory matching the object's requirements and binds it.
  VkDeviceMemory BindNewMemory(VkBuffer buffer);
  VkDeviceMemory BindNewMemory(VkImage image);

  DeviceOptions device_options_;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;  // queues_[0]
  std::vector<VkQueue> queues_;     // device_options_.queue_count queues (fewer if the family has fewer)
  bool private_data_enabled_ = false;
  bool sync_features_enabled_ = false;  // timelineSemaphore, hostQueryReset and synchronization2 are on

 private:
  std::vector<std::function<void()>> device_cleanups_;
};

// A DeviceTest for work on the queues: two queues (when the family has two),
// the 1.2/1.3 synchronization features, a command pool whose buffers can be
// reset one by one, and helpers to record, submit and wait, to make sync
// objects, host-visible buffers and images, and to read results back.
// Every helper ASSERTs on failure (wrap calls in ASSERT_NO_FATAL_FAILURE
// where the test cannot go on without them); objects are destroyed at
// TearDown, after vkDeviceWaitIdle.
class QueueTest : public DeviceTest {
 protected:
  QueueTest() {
    device_options_.queue_count = 2;
    device_options_.sync_features = true;
  }
  void SetUp() override;
  void TearDown() override;

  // A buffer bound to host-visible, coherent memory that stays mapped.
  struct HostBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint8_t* data = nullptr;
    VkDeviceSize size = 0;
    std::span<uint8_t> bytes() const { return {data, size_t(size)}; }
    template <typename T>
    T* as() const {
      return reinterpret_cast<T*>(data);
    }
  };

  // Generous upper bound for any single wait in the tests (nanoseconds).
  static constexpr uint64_t kWaitNs = 30ull * 1000 * 1000 * 1000;

  // --- command buffers ---
  VkCommandPool MakeCommandPool(VkCommandPoolCreateFlags flags, uint32_t family = UINT32_MAX);
  VkCommandBuffer AllocateCommandBuffer(VkCommandPool pool = VK_NULL_HANDLE,
                                        VkCommandBufferLevel level = VK_COMMAND_BUFFER_LEVEL_PRIMARY);
  // Allocates a primary buffer from pool_ and begins it.
  VkCommandBuffer BeginCommands(VkCommandBufferUsageFlags flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  // Records a device-to-host barrier (so the host may read what the commands
  // wrote), ends the buffer, submits it to `queue` (queue_ by default) with a
  // new fence and waits for the fence.
  void EndSubmitWait(VkCommandBuffer cb, VkQueue queue = VK_NULL_HANDLE);
  // vkQueueSubmit of one command buffer with optional fence.
  void Submit(VkCommandBuffer cb, VkFence fence = VK_NULL_HANDLE, VkQueue queue = VK_NULL_HANDLE);
  void WaitFence(VkFence fence);

  // --- barriers (synchronization1, so they work without synchronization2) ---
  // Transfer writes before -> transfer reads/writes after.
  static void TransferBarrier(VkCommandBuffer cb);
  // Everything before -> everything after (all commands, memory read/write).
  static void FullBarrier(VkCommandBuffer cb);
  // Device writes before -> host reads after the submission completes.
  static void HostReadBarrier(VkCommandBuffer cb);
  // UNDEFINED -> GENERAL for every subresource of `image`.
  static void ToGeneral(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspects);

  // --- sync objects ---
  VkFence MakeFence(bool signaled = false);
  VkSemaphore MakeBinarySemaphore();
  VkSemaphore MakeTimelineSemaphore(uint64_t initial);
  VkEvent MakeEvent();
  VkQueryPool MakeQueryPool(VkQueryType type, uint32_t count);

  // --- resources ---
  HostBuffer MakeHostBuffer(VkDeviceSize size, VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                                            VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  // Creates the image, binds new memory and moves every subresource to
  // VK_IMAGE_LAYOUT_GENERAL (one submission), which the tests then use.
  VkImage MakeGeneralImage(const VkImageCreateInfo& ci, VkImageAspectFlags aspects = VK_IMAGE_ASPECT_COLOR_BIT);
  // The image's memory (from MakeGeneralImage), for tests that map it.
  VkDeviceMemory ImageMemory(VkImage image) const;
  // A render pass object and a framebuffer, destroyed with the device.
  VkRenderPass MakeRenderPass(const std::vector<VkAttachmentDescription>& attachments,
                              const std::vector<VkSubpassDescription>& subpasses, const void* next = nullptr);
  VkFramebuffer MakeFramebuffer(VkRenderPass pass, const std::vector<VkImageView>& views, VkExtent2D extent,
                                uint32_t layers = 1);

  // Copies `extent` texels at `offset` of one subresource (layerCount layers,
  // or extent.depth slices of a 3D image) into a tightly packed vector of
  // texel_size-byte texels: x fastest, then y, then slice/layer.
  std::vector<uint8_t> ReadImage(VkImage image, VkImageSubresourceLayers sub, VkOffset3D offset, VkExtent3D extent,
                                 uint32_t texel_size);
  // The reverse: tightly packed bytes into the image region.
  void WriteImage(VkImage image, VkImageSubresourceLayers sub, VkOffset3D offset, VkExtent3D extent,
                  uint32_t texel_size, std::span<const uint8_t> bytes);

  // Format features of `format` for `tiling` contain all of `features`.
  bool FormatHas(VkFormat format, VkImageTiling tiling, VkFormatFeatureFlags features) const;

  // queue2_ when there is one, else queue_ (tests across two queues then run on one).
  VkQueue SecondQueue() const { return queue2_ != VK_NULL_HANDLE ? queue2_ : queue_; }

  // Validation messages (by id name) a test expects and that do not fail it
  // under DUET_TEST_VALIDATION=1, e.g. heuristics about valid usage.
  std::vector<std::string> expected_validation_ids_;

  VkCommandPool pool_ = VK_NULL_HANDLE;  // RESET_COMMAND_BUFFER_BIT, queue_family_
  VkQueue queue2_ = VK_NULL_HANDLE;      // queues_[1], or VK_NULL_HANDLE with a single queue

 private:
  std::vector<std::pair<VkImage, VkDeviceMemory>> image_memory_;
};

// Runs a function when the scope ends: tests use it to unblock queues
// (set an event, signal a semaphore) even when an assertion returns early.
class ScopeExit {
 public:
  explicit ScopeExit(std::function<void()> fn) : fn_(std::move(fn)) {}
  ~ScopeExit() {
    if (fn_) fn_();
  }
  void Dismiss() { fn_ = nullptr; }
  ScopeExit(const ScopeExit&) = delete;
  ScopeExit& operator=(const ScopeExit&) = delete;

 private:
  std::function<void()> fn_;
};

// Monotonic clock in nanoseconds (CLOCK_MONOTONIC).
uint64_t MonotonicNs();
void SleepMs(uint32_t ms);

// Deterministic pseudo-random bytes / words (splitmix64 of seed and index).
uint64_t Mix64(uint64_t x);
void FillPattern(std::span<uint8_t> bytes, uint64_t seed);

// The first index at which two byte ranges differ, or SIZE_MAX.
size_t FirstDifference(std::span<const uint8_t> a, std::span<const uint8_t> b);

// A plain 2D/1D/3D image create-info with sensible defaults.
VkImageCreateInfo ImageInfo(VkImageType type, VkFormat format, VkExtent3D extent, uint32_t mips = 1,
                            uint32_t layers = 1,
                            VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                                      VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            VkImageTiling tiling = VK_IMAGE_TILING_OPTIMAL);

}  // namespace duet_test

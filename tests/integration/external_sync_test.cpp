// Opaque fds of fence and semaphore payloads (VK_KHR_external_fence_fd,
// VK_KHR_external_semaphore_fd): exported from one device and imported by
// another device of this process, or by another process; temporary
// imports; handles that are no payload are refused.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "child_test_process.h"
#include "vk_fixture.h"

namespace duet_test {
namespace {

class ExternalSyncTest : public QueueTest {
 protected:
  ExternalSyncTest() {
    device_options_.extensions = {VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_FENCE_FD_EXTENSION_NAME};
  }

  // A second device of the same physical device, with timeline semaphores.
  void MakeSecondDevice() {
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = queue_family_;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    v12.timelineSemaphore = VK_TRUE;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v12};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    const char* extensions[] = {VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_FENCE_FD_EXTENSION_NAME};
    dci.enabledExtensionCount = 2;
    dci.ppEnabledExtensionNames = extensions;
    ASSERT_EQ(vkCreateDevice(phys_, &dci, nullptr, &other_), VK_SUCCESS);
    vkGetDeviceQueue(other_, queue_family_, 0, &other_queue_);
  }
  void TearDown() override {
    if (other_ != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(other_);
      for (VkSemaphore s : other_semaphores_) vkDestroySemaphore(other_, s, nullptr);
      for (VkFence f : other_fences_) vkDestroyFence(other_, f, nullptr);
      vkDestroyDevice(other_, nullptr);
    }
    QueueTest::TearDown();
  }

  VkSemaphore Semaphore(VkDevice device, VkSemaphoreType type, bool exportable) {
    VkSemaphoreTypeCreateInfo tci{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr, type, 0};
    VkExportSemaphoreCreateInfo eci{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO, &tci,
                                    VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, exportable ? static_cast<void*>(&eci) : &tci};
    VkSemaphore s = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSemaphore(device, &ci, nullptr, &s), VK_SUCCESS);
    if (device == device_)
      Defer([this, s] { vkDestroySemaphore(device_, s, nullptr); });
    else
      other_semaphores_.push_back(s);
    return s;
  }
  VkFence Fence(VkDevice device, bool exportable) {
    VkExportFenceCreateInfo eci{VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO, nullptr,
                                VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkFenceCreateInfo ci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, exportable ? &eci : nullptr};
    VkFence f = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateFence(device, &ci, nullptr, &f), VK_SUCCESS);
    if (device == device_)
      Defer([this, f] { vkDestroyFence(device_, f, nullptr); });
    else
      other_fences_.push_back(f);
    return f;
  }
  int ExportSemaphore(VkSemaphore s) {
    auto get = DeviceProc<PFN_vkGetSemaphoreFdKHR>("vkGetSemaphoreFdKHR");
    VkSemaphoreGetFdInfoKHR info{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR, nullptr, s,
                                 VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    int fd = -1;
    EXPECT_EQ(get(device_, &info, &fd), VK_SUCCESS);
    return fd;
  }
  VkResult ImportSemaphore(VkDevice device, VkSemaphore s, int fd, VkSemaphoreImportFlags flags = 0) {
    auto import = reinterpret_cast<PFN_vkImportSemaphoreFdKHR>(vkGetDeviceProcAddr(device, "vkImportSemaphoreFdKHR"));
    VkImportSemaphoreFdInfoKHR info{VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR, nullptr, s, flags,
                                    VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT, fd};
    return import(device, &info);
  }

  VkDevice other_ = VK_NULL_HANDLE;
  VkQueue other_queue_ = VK_NULL_HANDLE;
  std::vector<VkSemaphore> other_semaphores_;
  std::vector<VkFence> other_fences_;
};

TEST_F(ExternalSyncTest, OpaqueFdsAreExportableAndImportableSyncFdsAreNot) {
  VkPhysicalDeviceExternalSemaphoreInfo si{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO, nullptr,
                                           VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkExternalSemaphoreProperties sp{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
  vkGetPhysicalDeviceExternalSemaphoreProperties(phys_, &si, &sp);
  EXPECT_EQ(sp.externalSemaphoreFeatures,
            VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT);
  EXPECT_EQ(sp.compatibleHandleTypes, VkExternalSemaphoreHandleTypeFlags(VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT));
  si.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT;
  vkGetPhysicalDeviceExternalSemaphoreProperties(phys_, &si, &sp);
  EXPECT_EQ(sp.externalSemaphoreFeatures, 0u);
  VkPhysicalDeviceExternalFenceInfo fi{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO, nullptr,
                                       VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkExternalFenceProperties fp{VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES};
  vkGetPhysicalDeviceExternalFenceProperties(phys_, &fi, &fp);
  EXPECT_EQ(fp.externalFenceFeatures, VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT);
}

// A binary semaphore signalled by a submission on one device is waited for
// by a submission on another; a timeline's value is shared both ways.
TEST_F(ExternalSyncTest, SemaphoresSharedBetweenTwoDevices) {
  ASSERT_NO_FATAL_FAILURE(MakeSecondDevice());
  const VkSemaphore binary = Semaphore(device_, VK_SEMAPHORE_TYPE_BINARY, true);
  const VkSemaphore imported = Semaphore(other_, VK_SEMAPHORE_TYPE_BINARY, false);
  ASSERT_EQ(ImportSemaphore(other_, imported, ExportSemaphore(binary)), VK_SUCCESS);
  VkSubmitInfo signal{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  signal.signalSemaphoreCount = 1;
  signal.pSignalSemaphores = &binary;
  ASSERT_EQ(vkQueueSubmit(queue_, 1, &signal, VK_NULL_HANDLE), VK_SUCCESS);
  const VkFence done = Fence(other_, false);
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  VkSubmitInfo wait{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  wait.waitSemaphoreCount = 1;
  wait.pWaitSemaphores = &imported;
  wait.pWaitDstStageMask = &stage;
  ASSERT_EQ(vkQueueSubmit(other_queue_, 1, &wait, done), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(other_, 1, &done, VK_TRUE, 5'000'000'000ull), VK_SUCCESS);

  const VkSemaphore timeline = Semaphore(device_, VK_SEMAPHORE_TYPE_TIMELINE, true);
  const VkSemaphore timeline_there = Semaphore(other_, VK_SEMAPHORE_TYPE_TIMELINE, false);
  ASSERT_EQ(ImportSemaphore(other_, timeline_there, ExportSemaphore(timeline)), VK_SUCCESS);
  VkSemaphoreSignalInfo five{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, timeline, 5};
  ASSERT_EQ(vkSignalSemaphore(device_, &five), VK_SUCCESS);
  uint64_t value = 0;
  EXPECT_EQ(vkGetSemaphoreCounterValue(other_, timeline_there, &value), VK_SUCCESS);
  EXPECT_EQ(value, 5u);
  const uint64_t seven = 7;
  VkSemaphoreWaitInfo wait7{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &timeline_there, &seven};
  EXPECT_EQ(vkWaitSemaphores(other_, &wait7, 1'000'000), VK_TIMEOUT);
  VkSemaphoreSignalInfo eight{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, timeline_there, 8};
  ASSERT_EQ(vkSignalSemaphore(other_, &eight), VK_SUCCESS);
  EXPECT_EQ(vkGetSemaphoreCounterValue(device_, timeline, &value), VK_SUCCESS);
  EXPECT_EQ(value, 8u) << "an import shares the payload both ways";
}

// A fence imported temporarily shares the exporter's payload until it is
// reset, then has its own again.
TEST_F(ExternalSyncTest, TemporaryFenceImportLastsUntilTheReset) {
  ASSERT_NO_FATAL_FAILURE(MakeSecondDevice());
  const VkFence exported = Fence(device_, true), imported = Fence(other_, false);
  auto get = DeviceProc<PFN_vkGetFenceFdKHR>("vkGetFenceFdKHR");
  VkFenceGetFdInfoKHR gi{VK_STRUCTURE_TYPE_FENCE_GET_FD_INFO_KHR, nullptr, exported,
                         VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT};
  int fd = -1;
  ASSERT_EQ(get(device_, &gi, &fd), VK_SUCCESS);
  auto import = reinterpret_cast<PFN_vkImportFenceFdKHR>(vkGetDeviceProcAddr(other_, "vkImportFenceFdKHR"));
  VkImportFenceFdInfoKHR ii{VK_STRUCTURE_TYPE_IMPORT_FENCE_FD_INFO_KHR, nullptr, imported,
                            VK_FENCE_IMPORT_TEMPORARY_BIT, VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT, fd};
  ASSERT_EQ(import(other_, &ii), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(other_, imported), VK_NOT_READY);
  ASSERT_EQ(vkQueueSubmit(queue_, 0, nullptr, exported), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(other_, 1, &imported, VK_TRUE, 5'000'000'000ull), VK_SUCCESS);
  ASSERT_EQ(vkResetFences(other_, 1, &imported), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(other_, imported), VK_NOT_READY);
  EXPECT_EQ(vkGetFenceStatus(device_, exported), VK_SUCCESS) << "the reset ended the import, not the exporter's payload";
}

TEST_F(ExternalSyncTest, HandlesThatAreNoPayloadAreRefused) {
  const VkSemaphore s = Semaphore(device_, VK_SEMAPHORE_TYPE_BINARY, false);
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  EXPECT_EQ(ImportSemaphore(device_, s, pipe_fds[0]), VK_ERROR_INVALID_EXTERNAL_HANDLE);
  const int memfd = memfd_create("not-a-payload", MFD_CLOEXEC);
  ASSERT_GE(memfd, 0);
  ASSERT_EQ(ftruncate(memfd, 4096), 0);
  EXPECT_EQ(ImportSemaphore(device_, s, memfd), VK_ERROR_INVALID_EXTERNAL_HANDLE);
  EXPECT_EQ(ImportSemaphore(device_, s, -1), VK_ERROR_INVALID_EXTERNAL_HANDLE);
  // A refused fd stays the application's.
  EXPECT_NE(fcntl(pipe_fds[0], F_GETFD), -1);
  EXPECT_NE(fcntl(memfd, F_GETFD), -1);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  close(memfd);
}

// Another process imports a timeline semaphore's fd and signals it.
TEST_F(ExternalSyncTest, AnotherProcessSignalsAnExportedTimeline) {
  const VkSemaphore timeline = Semaphore(device_, VK_SEMAPHORE_TYPE_TIMELINE, true);
  const int fd = ExportSemaphore(timeline);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(fcntl(fd, F_SETFD, 0), 0);  // inherited by the child
  const ChildResult child = RunTestInChild("ExternalSyncChild.ImportsAndSignals",
                                           {{"DUET_TEST_SEMAPHORE_FD", std::to_string(fd)}}, std::chrono::seconds(60));
  close(fd);
  ASSERT_EQ(child.exit_code, 0) << child.output;
  EXPECT_NE(child.output.find("[  PASSED  ] 1 test"), std::string::npos) << child.output;
  uint64_t value = 0;
  EXPECT_EQ(vkGetSemaphoreCounterValue(device_, timeline, &value), VK_SUCCESS);
  EXPECT_EQ(value, 42u);
}

class ExternalSyncChild : public ExternalSyncTest {};

TEST_F(ExternalSyncChild, ImportsAndSignals) {
  if (!IsChildFor("ExternalSyncChild.ImportsAndSignals")) GTEST_SKIP() << "runs in a child of AnotherProcessSignalsAnExportedTimeline";
  const char* fd = std::getenv("DUET_TEST_SEMAPHORE_FD");
  ASSERT_NE(fd, nullptr);
  const VkSemaphore s = Semaphore(device_, VK_SEMAPHORE_TYPE_TIMELINE, false);
  ASSERT_EQ(ImportSemaphore(device_, s, std::atoi(fd)), VK_SUCCESS);
  VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, s, 42};
  ASSERT_EQ(vkSignalSemaphore(device_, &signal), VK_SUCCESS);
}

}  // namespace
}  // namespace duet_test

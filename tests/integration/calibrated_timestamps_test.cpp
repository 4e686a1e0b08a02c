// VK_EXT_calibrated_timestamps: the device, monotonic and raw monotonic
// domains are offered, read together within the reported deviation, and a
// timestamp written by a command buffer falls between two calibrated
// readings of the device domain taken around its submission.
#include <algorithm>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {
namespace {

class CalibratedTimestamps : public QueueTest {
 protected:
  CalibratedTimestamps() { device_options_.extensions = {VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME}; }

  // Reads the device and monotonic domains together.
  void Read(uint64_t* device, uint64_t* monotonic, uint64_t* deviation) {
    auto get = reinterpret_cast<PFN_vkGetCalibratedTimestampsEXT>(
        vkGetDeviceProcAddr(device_, "vkGetCalibratedTimestampsEXT"));
    ASSERT_NE(get, nullptr);
    const VkCalibratedTimestampInfoEXT infos[2] = {
        {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr, VK_TIME_DOMAIN_DEVICE_EXT},
        {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}};
    uint64_t values[2] = {};
    ASSERT_EQ(get(device_, 2, infos, values, deviation), VK_SUCCESS);
    *device = values[0];
    *monotonic = values[1];
  }
};

TEST_F(CalibratedTimestamps, DomainsAreOffered) {
  auto domains = reinterpret_cast<PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT>(
      vkGetInstanceProcAddr(instance_, "vkGetPhysicalDeviceCalibrateableTimeDomainsEXT"));
  ASSERT_NE(domains, nullptr);
  uint32_t count = 0;
  ASSERT_EQ(domains(phys_, &count, nullptr), VK_SUCCESS);
  std::vector<VkTimeDomainEXT> list(count);
  ASSERT_EQ(domains(phys_, &count, list.data()), VK_SUCCESS);
  for (VkTimeDomainEXT d : {VK_TIME_DOMAIN_DEVICE_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT,
                            VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT})
    EXPECT_NE(std::find(list.begin(), list.end(), d), list.end()) << "time domain " << d;
  uint32_t one = 1;
  EXPECT_EQ(domains(phys_, &one, list.data()), VK_INCOMPLETE);
}

TEST_F(CalibratedTimestamps, CommandTimestampsLieBetweenCalibratedReadings) {
  uint64_t before = 0, before_monotonic = 0, deviation = 0;
  Read(&before, &before_monotonic, &deviation);
  EXPECT_GE(deviation, 1u);
  EXPECT_LT(deviation, 1000000000u);
  // One clock: the two domains agree within the deviation.
  EXPECT_LE(before > before_monotonic ? before - before_monotonic : before_monotonic - before, deviation);

  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 1);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, pool, 0, 1);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
  EndSubmitWait(cb);
  uint64_t written = 0;
  ASSERT_EQ(vkGetQueryPoolResults(device_, pool, 0, 1, sizeof written, &written, sizeof written,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);
  uint64_t after = 0, after_monotonic = 0;
  Read(&after, &after_monotonic, &deviation);
  EXPECT_LE(before, written);
  EXPECT_LE(written, after);
}

}  // namespace
}  // namespace duet_test

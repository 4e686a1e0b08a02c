// VK_EXT_calibrated_timestamps: device timestamps (vkCmdWriteTimestamp) are
// CLOCK_MONOTONIC nanoseconds (query_pool.cpp), so the device domain and the
// host's monotonic domain are one clock; the raw monotonic clock is read
// beside it.
#include <algorithm>

#include "dispatch/entrypoints.h"
#include "objects/query_pool.h"

namespace duet {
namespace {

constexpr VkTimeDomainEXT kTimeDomains[] = {VK_TIME_DOMAIN_DEVICE_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT,
                                            VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT};

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceCalibrateableTimeDomainsEXT(VkPhysicalDevice,
                                                                            uint32_t* pTimeDomainCount,
                                                                            VkTimeDomainEXT* pTimeDomains) {
  constexpr uint32_t kCount = uint32_t(std::size(kTimeDomains));
  if (pTimeDomains == nullptr) {
    *pTimeDomainCount = kCount;
    return VK_SUCCESS;
  }
  const uint32_t written = std::min(*pTimeDomainCount, kCount);
  std::copy_n(kTimeDomains, written, pTimeDomains);
  *pTimeDomainCount = written;
  return written < kCount ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetCalibratedTimestampsEXT(VkDevice, uint32_t timestampCount,
                                                          const VkCalibratedTimestampInfoEXT* pTimestampInfos,
                                                          uint64_t* pTimestamps, uint64_t* pMaxDeviation) {
  // Every value is read between `begin` and `end` (both monotonic): that
  // interval bounds how far apart the readings can be.
  const uint64_t begin = TimestampNow();
  for (uint32_t i = 0; i < timestampCount; ++i) {
    switch (pTimestampInfos[i].timeDomain) {
      case VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT: pTimestamps[i] = ClockNanoseconds(CLOCK_MONOTONIC_RAW); break;
      case VK_TIME_DOMAIN_DEVICE_EXT:
      case VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT:
      default: pTimestamps[i] = TimestampNow(); break;
    }
  }
  const uint64_t end = TimestampNow();
  *pMaxDeviation = std::max<uint64_t>(end - begin, 1);
  return VK_SUCCESS;
}

}  // namespace duet::api

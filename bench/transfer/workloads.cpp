#include "workloads.h"

#include <array>
#include <cstring>
#include <string>

#include "vk_bench_device.h"
#include "workload_data.h"

namespace duet_bench {
namespace {

struct Entry {
  WorkloadInfo info;
  std::unique_ptr<Workload> (*make)(BenchDevice&);
};

constexpr Entry kEntries[] = {
    {{"copy_buffer", "vkCmdCopyBuffer 64 MiB", kBufferBytes, HostOp::kCopy}, MakeCopyBuffer},
    {{"fill_buffer", "vkCmdFillBuffer 64 MiB", kBufferBytes, HostOp::kFill}, MakeFillBuffer},
    {{"copy_image", "vkCmdCopyImage 1920x1080 RGBA8", kImageBytes, HostOp::kCopy}, MakeCopyImage},
    {{"copy_buffer_to_image", "vkCmdCopyBufferToImage 1920x1080 RGBA8", kImageBytes, HostOp::kCopy},
     MakeCopyBufferToImage},
    {{"copy_image_to_buffer", "vkCmdCopyImageToBuffer 1920x1080 RGBA8", kImageBytes, HostOp::kCopy},
     MakeCopyImageToBuffer},
    {{"clear_color_image", "vkCmdClearColorImage 1920x1080 RGBA8", kImageBytes, HostOp::kFill},
     MakeClearColorImage},
};

constexpr std::array<WorkloadInfo, std::size(kEntries)> MakeInfos() {
  std::array<WorkloadInfo, std::size(kEntries)> infos{};
  for (size_t i = 0; i < std::size(kEntries); ++i) infos[i] = kEntries[i].info;
  return infos;
}
constexpr auto kInfos = MakeInfos();

constexpr std::array<WorkloadName, std::size(kEntries)> MakeNames() {
  std::array<WorkloadName, std::size(kEntries)> names{};
  for (size_t i = 0; i < std::size(kEntries); ++i) names[i] = {kEntries[i].info.name, kEntries[i].info.label};
  return names;
}
constexpr auto kNames = MakeNames();

uint32_t PatternWord(uint64_t index) { return uint32_t(index * 0x9e3779b1u) ^ 0x5bd1e995u; }

}  // namespace

std::span<const WorkloadInfo> AllWorkloads() { return kInfos; }
std::span<const WorkloadName> AllWorkloadNames() { return kNames; }

const WorkloadInfo* FindWorkload(std::string_view name) {
  for (const WorkloadInfo& info : kInfos)
    if (info.name == name) return &info;
  return nullptr;
}

std::unique_ptr<Workload> PrepareWorkload(const WorkloadInfo& info, BenchDevice& device) {
  for (const Entry& e : kEntries)
    if (e.info.name == info.name) return e.make(device);
  throw BenchFailure("unknown workload " + std::string(info.name));
}

void Workload::RecordBetween(VkCommandBuffer cb) { RecordRepetitionBarrier(cb); }

void RecordRepetitionBarrier(VkCommandBuffer cb) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0,
                       nullptr, 0, nullptr);
}

void WritePattern(std::byte* p, uint64_t bytes) {
  for (uint64_t i = 0; i < bytes / 4; ++i) {
    const uint32_t word = PatternWord(i);
    std::memcpy(p + i * 4, &word, 4);
  }
}

void ExpectPattern(const std::byte* p, uint64_t bytes, const char* what) {
  for (uint64_t i = 0; i < bytes / 4; ++i) {
    const uint32_t word = PatternWord(i);
    if (std::memcmp(p + i * 4, &word, 4) != 0) {
      uint64_t byte = i * 4;
      while (p[byte] == reinterpret_cast<const std::byte*>(&word)[byte - i * 4]) ++byte;
      throw BenchFailure(std::string("wrong result: ") + what + " differs from the source at byte " +
                         std::to_string(byte));
    }
  }
}

void ExpectRepeated(const std::byte* p, uint64_t bytes, const void* unit, size_t unit_size, const char* what) {
  for (uint64_t offset = 0; offset < bytes; offset += unit_size) {
    if (std::memcmp(p + offset, unit, unit_size) != 0)
      throw BenchFailure(std::string("wrong result: ") + what + " not written at byte " + std::to_string(offset));
  }
}

}  // namespace duet_bench

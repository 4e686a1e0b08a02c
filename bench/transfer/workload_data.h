// Sizes, the source pattern and the destination checks shared by the
// buffer and image workloads.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace duet_bench {

class BenchDevice;
class Workload;

constexpr uint64_t kBufferBytes = 64ull << 20;
constexpr VkExtent2D kImageExtent = {1920, 1080};
constexpr VkFormat kImageFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr uint64_t kImageBytes = uint64_t(kImageExtent.width) * kImageExtent.height * 4;

constexpr uint32_t kFillWord = 0xa5c3e1f7u;
// k/255 for k = 51, 102, 153, 255: exact in UNORM8 under any rounding.
constexpr std::array<float, 4> kClearColor = {51 / 255.0f, 102 / 255.0f, 153 / 255.0f, 1.0f};
constexpr std::array<uint8_t, 4> kClearBytes = {51, 102, 153, 255};

// A non-repeating pattern of 32-bit words (bytes must be a multiple of 4).
void WritePattern(std::byte* p, uint64_t bytes);
// Throws BenchFailure naming the first byte that differs from the pattern.
void ExpectPattern(const std::byte* p, uint64_t bytes, const char* what);
// Throws BenchFailure unless p repeats `unit` (`unit_size` bytes) throughout.
void ExpectRepeated(const std::byte* p, uint64_t bytes, const void* unit, size_t unit_size, const char* what);

std::unique_ptr<Workload> MakeCopyBuffer(BenchDevice& device);
std::unique_ptr<Workload> MakeFillBuffer(BenchDevice& device);
std::unique_ptr<Workload> MakeCopyImage(BenchDevice& device);
std::unique_ptr<Workload> MakeCopyBufferToImage(BenchDevice& device);
std::unique_ptr<Workload> MakeCopyImageToBuffer(BenchDevice& device);
std::unique_ptr<Workload> MakeClearColorImage(BenchDevice& device);

}  // namespace duet_bench

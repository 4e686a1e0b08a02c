#include "image_check.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "render_target.h"

namespace duet_bench {
namespace {

constexpr uint32_t kBlock = 16;
constexpr uint32_t kBlocks = kTargetSize / kBlock;  // per side
constexpr std::string_view kPrefix = "blocks32:";

std::optional<std::vector<uint8_t>> Decode(std::string_view text) {
  if (!text.starts_with(kPrefix)) return std::nullopt;
  text.remove_prefix(kPrefix.size());
  if (text.size() != size_t(kBlocks) * kBlocks * 4 * 2) return std::nullopt;
  std::vector<uint8_t> bytes(text.size() / 2);
  for (size_t i = 0; i < bytes.size(); ++i) {
    unsigned value = 0;
    if (std::sscanf(std::string(text.substr(i * 2, 2)).c_str(), "%2x", &value) != 1) return std::nullopt;
    bytes[i] = uint8_t(value);
  }
  return bytes;
}

}  // namespace

FrameStats MeasureFrame(const std::vector<uint8_t>& rgba) {
  FrameStats stats;
  uint64_t covered = 0, sum = 0;
  for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
    if (rgba[i + 3] != 255) continue;
    ++covered;
    sum += uint64_t(rgba[i]) + rgba[i + 1] + rgba[i + 2];
  }
  const size_t pixels = rgba.size() / 4;
  stats.coverage = pixels != 0 ? double(covered) / double(pixels) : 0;
  stats.mean_rgb_covered = covered != 0 ? double(sum) / double(covered * 3) : 0;
  return stats;
}

std::string FrameFingerprint(const std::vector<uint8_t>& rgba) {
  static const char kHex[] = "0123456789abcdef";
  std::string text(kPrefix);
  for (uint32_t by = 0; by < kBlocks; ++by)
    for (uint32_t bx = 0; bx < kBlocks; ++bx)
      for (uint32_t c = 0; c < 4; ++c) {
        uint32_t sum = 0;
        for (uint32_t y = by * kBlock; y < (by + 1) * kBlock; ++y)
          for (uint32_t x = bx * kBlock; x < (bx + 1) * kBlock; ++x) sum += rgba[(size_t(y) * kTargetSize + x) * 4 + c];
        const uint32_t mean = (sum + kBlock * kBlock / 2) / (kBlock * kBlock);
        text += kHex[mean >> 4];
        text += kHex[mean & 15];
      }
  return text;
}

std::optional<std::string> CompareFingerprints(std::string_view got, std::string_view reference,
                                               const FingerprintTolerance& tolerance) {
  const auto a = Decode(got);
  const auto b = Decode(reference);
  if (!a) return "no readable frame fingerprint";
  if (!b) return "lavapipe's frame fingerprint is unreadable";
  static const char kChannel[] = "RGBA";
  int worst = -1;
  size_t worst_at = 0;
  double total = 0;
  for (size_t i = 0; i < a->size(); ++i) {
    const int delta = std::abs(int((*a)[i]) - int((*b)[i]));
    total += delta;
    if (delta > worst) {
      worst = delta;
      worst_at = i;
    }
  }
  const double mean = total / double(a->size());
  if (worst <= tolerance.max_block_delta && mean <= tolerance.mean_delta) return std::nullopt;
  const size_t block = worst_at / 4;
  char text[256];
  std::snprintf(text, sizeof text,
                "wrong frame: differs from lavapipe's (16x16-block means: mean |d| = %.2f, tolerance %.2f; worst "
                "block (%zu,%zu) %c = %d vs %d, tolerance %d)",
                mean, tolerance.mean_delta, block % kBlocks, block / kBlocks, kChannel[worst_at % 4],
                int((*a)[worst_at]), int((*b)[worst_at]), tolerance.max_block_delta);
  return std::string(text);
}

void MaybeDumpFrame(const std::vector<uint8_t>& rgba, const std::string& name) {
  const char* dir = std::getenv("DUET_BENCH_DUMP");
  if (dir == nullptr || *dir == '\0') return;
  const std::string path = std::string(dir) + "/" + name + ".ppm";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return;
  std::fprintf(f, "P6\n%u %u\n255\n", kTargetSize, kTargetSize);
  for (size_t i = 0; i + 3 < rgba.size(); i += 4) std::fwrite(&rgba[i], 1, 3, f);
  std::fclose(f);
}

}  // namespace duet_bench

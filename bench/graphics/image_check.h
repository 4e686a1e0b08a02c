// Checks of a rendered 512x512 RGBA8 frame. A child checks its own frame
// (coverage: pixels the draw wrote have alpha 255, the clear leaves 0; and
// not all black) and reports a fingerprint, the mean of each 16x16 block;
// the parent compares Duet's fingerprint with lavapipe's within a
// tolerance, since edges, filtering and transcendental functions may
// differ slightly between conformant drivers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace duet_bench {

struct FrameStats {
  double coverage = 0;         // fraction of pixels with alpha 255
  double mean_rgb_covered = 0;  // mean of R, G and B over those pixels, 0..255
};
FrameStats MeasureFrame(const std::vector<uint8_t>& rgba);

// 32x32 blocks x RGBA means as hex, prefixed "blocks32:".
std::string FrameFingerprint(const std::vector<uint8_t>& rgba);

struct FingerprintTolerance {
  int max_block_delta = 0;  // per block and channel, in UNORM8 steps
  double mean_delta = 0;    // mean over blocks and channels
};

// nullopt when `got` matches `reference` within `tolerance`, else why not.
std::optional<std::string> CompareFingerprints(std::string_view got, std::string_view reference,
                                               const FingerprintTolerance& tolerance);

// DUET_BENCH_DUMP=<dir>: writes the frame as <dir>/<name>.ppm (RGB) for a
// person to look at; does nothing when the variable is unset.
void MaybeDumpFrame(const std::vector<uint8_t>& rgba, const std::string& name);

}  // namespace duet_bench

#include "graphics_workloads.h"

#include <array>
#include <cstdio>

#include "vk_bench_device.h"

namespace duet_bench {
namespace {

// Tolerances next to lavapipe, on 16x16-block means of UNORM8 channels.
// An edge crossing a block may move by a pixel between rasterizers (16 of
// its 256 pixels: up to 16 steps where colours differ most); filtering
// and transcendental functions by a step here and there. alu_heavy.frag
// is a contraction: the spec's sin/cos error moves a channel by under one
// step. A black, missing or misplaced frame is off by far more. (Duet and
// lavapipe differed by at most 1, mean < 0.01, when this was written.)
constexpr GraphicsWorkloadInfo kWorkloads[] = {
    {"textured_cube", "lit textured cube (UBO MVP, 256^2 texture)", MakeTexturedCube, {16, 0.5}},
    {"small_triangles", "20,000 small triangles, depth test", MakeSmallTriangles, {24, 1.0}},
    {"fullscreen_alu", "full-screen ALU fragment shader (64x sin+cos)", MakeFullscreenAlu, {3, 0.5}},
    // Warping feeds noise back into its own coordinates: a value a rounding
    // apart can land in the next lattice cell now and then.
    {"noise", "full-screen value-noise fbm, domain-warped", MakeNoise, {16, 1.0}},
    {"branchy", "full-screen divergent branches, early exit", MakeBranchy, {3, 0.5}},
    {"texture_heavy", "full-screen 8 dependent texture samples", MakeTextureHeavy, {8, 1.0}},
    {"skinning", "skinning 4 of 32 bones, 100k vertices", MakeSkinning, {24, 1.0}},
    {"geometry_sprites", "20,000 geometry-shader sprites, depth test", MakeGeometrySprites, {24, 1.0}},
    // Fractional spacing places its two short segments where a driver
    // likes: the surface is the same, its vertices move a little.
    {"tessellated_terrain", "tessellated terrain, 576 patches, depth test", MakeTessellatedTerrain,
     {24, 1.0}},
};

constexpr std::array<WorkloadName, std::size(kWorkloads)> MakeNames() {
  std::array<WorkloadName, std::size(kWorkloads)> names{};
  for (size_t i = 0; i < std::size(kWorkloads); ++i) names[i] = {kWorkloads[i].name, kWorkloads[i].label};
  return names;
}
constexpr auto kNames = MakeNames();

std::string FileSafe(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += keep ? c : '_';
  }
  return out;
}

}  // namespace

std::span<const GraphicsWorkloadInfo> GraphicsWorkloads() { return kWorkloads; }
std::span<const WorkloadName> GraphicsWorkloadNames() { return kNames; }

const GraphicsWorkloadInfo* FindGraphicsWorkload(std::string_view name) {
  for (const GraphicsWorkloadInfo& w : kWorkloads)
    if (w.name == name) return &w;
  return nullptr;
}

GraphicsWorkload::GraphicsWorkload(BenchDevice& device, std::string_view name, bool depth,
                                   const FrameExpectation& expectation)
    : target_(device, depth), name_(name), expectation_(expectation) {}

void GraphicsWorkload::RecordOnce(VkCommandBuffer cb) {
  target_.Begin(cb);
  RecordDraw(cb);
  target_.End(cb);
}

void GraphicsWorkload::RecordBetween(VkCommandBuffer cb) { target_.RecordBetweenFrames(cb); }

void GraphicsWorkload::Verify(BenchDevice& device) {
  const std::vector<uint8_t> rgba = target_.ReadBack(device);
  MaybeDumpFrame(rgba, name_ + "-" + FileSafe(device.DeviceName()));
  const FrameStats stats = MeasureFrame(rgba);
  char text[192];
  if (stats.coverage < expectation_.min_coverage || stats.coverage > expectation_.max_coverage) {
    std::snprintf(text, sizeof text, "wrong frame: %.1f%% of the pixels drawn, expected %.0f-%.0f%%",
                  100 * stats.coverage, 100 * expectation_.min_coverage, 100 * expectation_.max_coverage);
    throw BenchFailure(text);
  }
  if (stats.mean_rgb_covered < expectation_.min_mean_rgb) {
    std::snprintf(text, sizeof text, "wrong frame: drawn pixels are black (mean R,G,B %.1f of 255)",
                  stats.mean_rgb_covered);
    throw BenchFailure(text);
  }
  fingerprint_ = FrameFingerprint(rgba);
}

}  // namespace duet_bench

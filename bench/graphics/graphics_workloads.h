// The graphics workloads: one frame each (clear, draw, into the 512x512
// RenderTarget), measured in frames per second; the frame is checked by
// the child (coverage, not black) and against lavapipe's by the parent.
#pragma once

#include <vulkan/vulkan.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "bench_workload.h"
#include "image_check.h"
#include "options.h"
#include "render_target.h"

namespace duet_bench {

class BenchDevice;

struct GraphicsWorkloadInfo {
  std::string_view name;   // command-line name
  std::string_view label;  // table row
  std::unique_ptr<BenchWorkload> (*make)(BenchDevice&);
  FingerprintTolerance tolerance;  // next to lavapipe's frame
};

std::span<const GraphicsWorkloadInfo> GraphicsWorkloads();
std::span<const WorkloadName> GraphicsWorkloadNames();
const GraphicsWorkloadInfo* FindGraphicsWorkload(std::string_view name);

// What a correct frame of a workload looks like on its own.
struct FrameExpectation {
  double min_coverage = 0;  // fractions of the target's pixels
  double max_coverage = 1;
  double min_mean_rgb = 8;  // over covered pixels, 0..255: not black
};

// A frame = Begin, RecordDraw, End; Verify reads the frame back and checks
// it against the expectation, and keeps its fingerprint.
class GraphicsWorkload : public BenchWorkload {
 public:
  void RecordOnce(VkCommandBuffer cb) override;
  void RecordBetween(VkCommandBuffer cb) override;
  void Verify(BenchDevice& device) override;
  std::string Fingerprint() const override { return fingerprint_; }

 protected:
  GraphicsWorkload(BenchDevice& device, std::string_view name, bool depth, const FrameExpectation& expectation);
  virtual void RecordDraw(VkCommandBuffer cb) = 0;

  RenderTarget target_;

 private:
  std::string name_;
  FrameExpectation expectation_;
  std::string fingerprint_;
};

// The scenes (one file each).
std::unique_ptr<BenchWorkload> MakeTexturedCube(BenchDevice& device);
std::unique_ptr<BenchWorkload> MakeSmallTriangles(BenchDevice& device);
std::unique_ptr<BenchWorkload> MakeFullscreenAlu(BenchDevice& device);
std::unique_ptr<BenchWorkload> MakeNoise(BenchDevice& device);
std::unique_ptr<BenchWorkload> MakeBranchy(BenchDevice& device);
std::unique_ptr<BenchWorkload> MakeTextureHeavy(BenchDevice& device);
std::unique_ptr<BenchWorkload> MakeSkinning(BenchDevice& device);
std::unique_ptr<BenchWorkload> MakeGeometrySprites(BenchDevice& device);
std::unique_ptr<BenchWorkload> MakeTessellatedTerrain(BenchDevice& device);

}  // namespace duet_bench

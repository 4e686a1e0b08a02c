#include "pipeline_rows.h"

#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "graphics_pipeline.h"
#include "image_check.h"
#include "measure.h"
#include "render_target.h"
#include "result_line.h"
#include "shaders/alu_heavy.frag.h"
#include "shaders/cube.frag.h"
#include "shaders/cube.vert.h"
#include "shaders/fullscreen.vert.h"
#include "vk_bench_device.h"

namespace duet_bench {
namespace {

constexpr char kAppName[] = "duet_bench_pipeline";

constexpr PipelineRow kRows[] = {
    {"cold", "new shaders: 2 pipelines of 4 new modules", 2},
    {"warm_app_cache", "same, from the app's VkPipelineCache", 2},
    {"warm_disk_cache", "same, new process: driver's disk cache", 2},
    {"first_frame", "new pipeline + first 512x512 frame", 1},
};
constexpr WorkloadName kNames[] = {
    {kRows[0].name, kRows[0].label}, {kRows[1].name, kRows[1].label},
    {kRows[2].name, kRows[2].label}, {kRows[3].name, kRows[3].label}};

void Emit(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
}

// A specialization constant no shader declares: a value never used before
// makes every stage new to every cache (drivers key stages by it; the
// spec lets it change nothing else).
struct Salt {
  explicit Salt(uint32_t value) : value(value) {}
  uint32_t value;
  VkSpecializationMapEntry entry{1000, 0, 4};
  VkSpecializationInfo info{1, &entry, 4, &value};
};

// The two pipelines a step makes: the textured cube's and the full-screen
// ALU shader's (the graphics benchmark's shaders).
class PipelinePair {
 public:
  explicit PipelinePair(BenchDevice& device) : device_(device) {
    const VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
    };
    cube_.vertex_spirv = kCubeVert;
    cube_.fragment_spirv = kCubeFrag;
    cube_.bindings = {{0, 32, VK_VERTEX_INPUT_RATE_VERTEX}};
    cube_.attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12},
                        {2, 0, VK_FORMAT_R32G32_SFLOAT, 24}};
    cube_.layout = CreateSetLayout(device, bindings).pipeline_layout;
    cube_.cull_mode = VK_CULL_MODE_BACK_BIT;
    alu_.vertex_spirv = kFullscreenVert;
    alu_.fragment_spirv = kAluHeavyFrag;
    alu_.layout = CreateSetLayout(device, {}).pipeline_layout;
  }

  // The ALU pipeline, for drawing (the caller destroys it).
  VkPipeline MakeAlu(const Salt& salt, VkPipelineCache cache = VK_NULL_HANDLE) {
    alu_.specialization = &salt.info;
    alu_.cache = cache;
    return MakeGraphicsPipeline(device_, alu_);
  }
  // Both, destroyed at once.
  void MakeBoth(const Salt& salt, VkPipelineCache cache = VK_NULL_HANDLE) {
    cube_.specialization = &salt.info;
    cube_.cache = cache;
    const VkPipeline cube = MakeGraphicsPipeline(device_, cube_);
    const VkPipeline alu = MakeAlu(salt, cache);
    vkDestroyPipeline(device_.device(), cube, nullptr);
    vkDestroyPipeline(device_.device(), alu, nullptr);
  }

 private:
  BenchDevice& device_;
  GraphicsPipelineDesc cube_, alu_;
};

// The best timing (measure.h's rule) of `reps` steps in a row.
Timing TimeSteps(bool quick, const std::function<void()>& step) {
  const TimedRun run = [&](uint32_t reps) {
    const auto start = std::chrono::steady_clock::now();
    for (uint32_t i = 0; i < reps; ++i) step();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  return MeasureBest(run, TimingPlan{.quick = quick});
}

// One frame of the ALU pipeline into `target`, submitted and waited for.
void DrawFrame(BenchDevice& device, const RenderTarget& target, VkPipeline pipeline) {
  const VkCommandBuffer cb = device.Record([&](VkCommandBuffer c) {
    target.Begin(c);
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdDraw(c, 3, 1, 0, 0);
    target.End(c);
  });
  device.SubmitAndWait(cb);
  device.Free(cb);
}

// The target's frame, which a full-screen draw covers whole.
std::vector<uint8_t> CoveredFrame(BenchDevice& device, const RenderTarget& target) {
  std::vector<uint8_t> rgba = target.ReadBack(device);
  if (MeasureFrame(rgba).coverage != 1.0) throw BenchFailure("the frame does not cover the target");
  return rgba;
}

// The frame a new ALU pipeline (from `cache`, or compiled) draws, as its fingerprint.
std::string FrameOfNewPipeline(BenchDevice& device, PipelinePair& pair, const Salt& salt, VkPipelineCache cache) {
  RenderTarget target(device, false);
  const VkPipeline pipeline = pair.MakeAlu(salt, cache);
  DrawFrame(device, target, pipeline);
  vkDestroyPipeline(device.device(), pipeline, nullptr);
  return FrameFingerprint(CoveredFrame(device, target));
}

// The pipelines a warm row makes draw what a freshly compiled one draws.
void CheckSameFrame(BenchDevice& device, PipelinePair& pair, const Salt& salt, VkPipelineCache cache,
                    const std::string& fresh) {
  if (FrameOfNewPipeline(device, pair, salt, cache) != fresh)
    throw BenchFailure("a pipeline from the cache draws another frame than a fresh one");
}

Timing RunRow(const PipelineRow& row, bool quick) {
  const DeviceFeatureRequest features{.dynamic_rendering = true};
  auto device = std::make_unique<BenchDevice>(kAppName, features);
  Emit(DeviceLine(device->DeviceName()));
  auto pair = std::make_unique<PipelinePair>(*device);
  uint32_t next_salt = 1;
  const std::string row_name(row.name);
  if (row_name == "cold") return TimeSteps(quick, [&] { pair->MakeBoth(Salt(next_salt++)); });
  if (row_name == "first_frame") {
    RenderTarget target(*device, false);
    const Timing timing = TimeSteps(quick, [&] {
      const VkPipeline pipeline = pair->MakeAlu(Salt(next_salt++));
      DrawFrame(*device, target, pipeline);
      vkDestroyPipeline(device->device(), pipeline, nullptr);
    });
    CoveredFrame(*device, target);
    return timing;
  }
  // The warm rows: the same two pipelines again and again, first made fresh.
  const Salt salt(0xC0FFEE);
  const std::string fresh = FrameOfNewPipeline(*device, *pair, salt, VK_NULL_HANDLE);
  if (row_name == "warm_app_cache") {
    VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VkPipelineCache cache = VK_NULL_HANDLE;
    Check(vkCreatePipelineCache(device->device(), &info, nullptr, &cache), "vkCreatePipelineCache");
    device->Defer([cache](VkDevice d) { vkDestroyPipelineCache(d, cache, nullptr); });
    pair->MakeBoth(salt, cache);
    const Timing timing = TimeSteps(quick, [&] { pair->MakeBoth(salt, cache); });
    CheckSameFrame(*device, *pair, salt, cache, fresh);
    return timing;
  }
  // warm_disk_cache: what the first device made (and the driver kept on
  // disk), made again by a second device with no VkPipelineCache.
  pair->MakeBoth(salt);
  pair.reset();
  device.reset();
  device = std::make_unique<BenchDevice>(kAppName, features);
  pair = std::make_unique<PipelinePair>(*device);
  const Timing timing = TimeSteps(quick, [&] { pair->MakeBoth(salt); });
  CheckSameFrame(*device, *pair, salt, VK_NULL_HANDLE, fresh);
  return timing;
}

}  // namespace

std::span<const PipelineRow> PipelineRows() { return kRows; }
std::span<const WorkloadName> PipelineRowNames() { return kNames; }

const PipelineRow* FindPipelineRow(std::string_view name) {
  for (const PipelineRow& row : kRows)
    if (row.name == name) return &row;
  return nullptr;
}

int RunPipelineRow(const PipelineRow& row, bool quick) {
  // The drivers' on-disk caches start empty, in a directory of this run's
  // own (both read XDG_CACHE_HOME), so "new" stays new and "warm" is warm
  // only from what this process stored.
  char pattern[] = "/tmp/duet-bench-pipeline-XXXXXX";
  const char* directory = mkdtemp(pattern);
  if (directory != nullptr) setenv("XDG_CACHE_HOME", directory, 1);
  try {
    const Timing timing = RunRow(row, quick);
    Emit(OkLine(RatePerSecond(row.pipelines_per_rep, timing), timing));
  } catch (const std::exception& e) {
    Emit(NaLine(e.what()));
  }
  if (directory != nullptr) std::filesystem::remove_all(directory);
  return 0;
}

}  // namespace duet_bench

// Pipeline caches: stages found in the application's VkPipelineCache (and
// reported so by creation feedback), its data carried to a new cache,
// merged, refused when foreign or broken; FAIL_ON_PIPELINE_COMPILE_REQUIRED;
// and the on-disk cache, which lets a second process skip compilation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "child_test_process.h"
#include "compute_fixture.h"
#include "shaders/pipeline_cache_salt.comp.h"

namespace duet_test {
namespace {

constexpr uint32_t kInvocations = 256;

uint32_t Hash(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

uint32_t Expected(uint32_t i, uint32_t salt) {
  uint32_t h = i ^ salt;
  for (uint32_t k = 0; k < (i & 7u); ++k) h = Hash(h + k);
  return h;
}

// A salt no earlier run has compiled (the on-disk cache outlives runs).
uint32_t FreshSalt() {
  static std::mt19937 random(std::random_device{}());
  return random();
}

class PipelineCacheTest : public ComputeFixture {
 protected:
  void SetUp() override {
    ComputeFixture::SetUp();
    out_ = StorageBuffer(kInvocations * 4);
    // The layout and descriptor set the pipelines made here share.
    base_ = MakeKernel(kPipelineCacheSaltComp, {out_.buffer}, 0);
    VkShaderModuleCreateInfo code{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    code.codeSize = sizeof kPipelineCacheSaltComp;
    code.pCode = kPipelineCacheSaltComp;
    ASSERT_EQ(vkCreateShaderModule(device_, &code, nullptr, &module_), VK_SUCCESS);
    Defer([this] { vkDestroyShaderModule(device_, module_, nullptr); });
  }

  VkPipelineCache MakeCache(const void* data = nullptr, size_t size = 0) {
    VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    ci.initialDataSize = size;
    ci.pInitialData = data;
    VkPipelineCache cache = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreatePipelineCache(device_, &ci, nullptr, &cache), VK_SUCCESS);
    Defer([this, cache] { vkDestroyPipelineCache(device_, cache, nullptr); });
    return cache;
  }

  std::vector<uint8_t> DataOf(VkPipelineCache cache) {
    size_t size = 0;
    EXPECT_EQ(vkGetPipelineCacheData(device_, cache, &size, nullptr), VK_SUCCESS);
    std::vector<uint8_t> data(size);
    EXPECT_EQ(vkGetPipelineCacheData(device_, cache, &size, data.data()), VK_SUCCESS);
    EXPECT_EQ(size, data.size());
    return data;
  }

  struct Made {
    VkResult result = VK_ERROR_UNKNOWN;
    VkPipeline pipeline = VK_NULL_HANDLE;
    bool stage_hit = false, pipeline_hit = false;
  };

  // The salted pipeline, made with `cache`; the feedback says whether it was a hit.
  Made Create(VkPipelineCache cache, uint32_t salt, VkPipelineCreateFlags flags = 0) {
    const VkSpecializationMapEntry entry{0, 0, 4};
    const VkSpecializationInfo spec{1, &entry, 4, &salt};
    VkPipelineCreationFeedback pipeline_feedback{}, stage_feedback{};
    VkPipelineCreationFeedbackCreateInfo feedback{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
    feedback.pPipelineCreationFeedback = &pipeline_feedback;
    feedback.pipelineStageCreationFeedbackCount = 1;
    feedback.pPipelineStageCreationFeedbacks = &stage_feedback;
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, &feedback, flags};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module_,
                "main", &spec};
    ci.layout = base_.layout;
    Made made;
    made.result = vkCreateComputePipelines(device_, cache, 1, &ci, nullptr, &made.pipeline);
    if (made.pipeline != VK_NULL_HANDLE)
      Defer([this, p = made.pipeline] { vkDestroyPipeline(device_, p, nullptr); });
    made.stage_hit = stage_feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
    made.pipeline_hit = pipeline_feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
    return made;
  }

  // Runs `pipeline` and checks every result against the salt's.
  void ExpectComputes(VkPipeline pipeline, uint32_t salt) {
    std::memset(out_.data, 0, kInvocations * 4);
    Run({pipeline, base_.layout, base_.set}, kInvocations / 64);
    const uint32_t* v = out_.as<uint32_t>();
    for (uint32_t i = 0; i < kInvocations; ++i) ASSERT_EQ(v[i], Expected(i, salt)) << "invocation " << i;
  }

  HostBuffer out_;
  Kernel base_;
  VkShaderModule module_ = VK_NULL_HANDLE;
};

TEST_F(PipelineCacheTest, SecondCreationComesFromTheCache) {
  const uint32_t salt = FreshSalt();
  VkPipelineCache cache = MakeCache();
  const Made first = Create(cache, salt);
  ASSERT_EQ(first.result, VK_SUCCESS);
  EXPECT_FALSE(first.stage_hit);
  EXPECT_FALSE(first.pipeline_hit);
  ExpectComputes(first.pipeline, salt);
  const Made second = Create(cache, salt);
  ASSERT_EQ(second.result, VK_SUCCESS);
  EXPECT_TRUE(second.stage_hit);
  EXPECT_TRUE(second.pipeline_hit);
  ExpectComputes(second.pipeline, salt);
  // Another specialization is another stage.
  const Made other = Create(cache, salt ^ 1);
  EXPECT_FALSE(other.stage_hit);
  ExpectComputes(other.pipeline, salt ^ 1);
}

TEST_F(PipelineCacheTest, DataCarriesTheStagesToANewCache) {
  const uint32_t salt = FreshSalt();
  VkPipelineCache cache = MakeCache();
  ASSERT_EQ(Create(cache, salt).result, VK_SUCCESS);
  const std::vector<uint8_t> data = DataOf(cache);
  // The header the spec asks for, then the stage.
  VkPipelineCacheHeaderVersionOne header;
  ASSERT_GT(data.size(), sizeof header + 100);
  std::memcpy(&header, data.data(), sizeof header);
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(phys_, &props);
  EXPECT_EQ(header.headerSize, 32u);
  EXPECT_EQ(header.headerVersion, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
  EXPECT_EQ(header.vendorID, props.vendorID);
  EXPECT_EQ(header.deviceID, props.deviceID);
  EXPECT_EQ(std::memcmp(header.pipelineCacheUUID, props.pipelineCacheUUID, VK_UUID_SIZE), 0);

  VkPipelineCache restored = MakeCache(data.data(), data.size());
  const Made made = Create(restored, salt);
  ASSERT_EQ(made.result, VK_SUCCESS);
  EXPECT_TRUE(made.stage_hit);
  ExpectComputes(made.pipeline, salt);
  EXPECT_EQ(DataOf(restored), data);

  // Too small a buffer: whole entries only, and VK_INCOMPLETE.
  std::vector<uint8_t> part(data.size());
  size_t size = data.size() - 1;
  EXPECT_EQ(vkGetPipelineCacheData(device_, cache, &size, part.data()), VK_INCOMPLETE);
  EXPECT_EQ(size, sizeof header);
  size = 10;
  EXPECT_EQ(vkGetPipelineCacheData(device_, cache, &size, part.data()), VK_INCOMPLETE);
  EXPECT_EQ(size, 0u);
}

TEST_F(PipelineCacheTest, ForeignOrBrokenDataIsIgnored) {
  const uint32_t salt = FreshSalt();
  VkPipelineCache cache = MakeCache();
  ASSERT_EQ(Create(cache, salt).result, VK_SUCCESS);
  const std::vector<uint8_t> data = DataOf(cache);
  std::vector<std::vector<uint8_t>> broken;
  broken.push_back(data);
  broken.back()[16] ^= 0x80;  // another build's (or driver's) UUID
  broken.push_back(data);
  broken.back()[data.size() / 2] ^= 0x01;  // a flipped bit in the stage
  broken.push_back(std::vector<uint8_t>(data.begin(), data.end() - 1));  // cut short
  std::mt19937 random(11);
  broken.push_back(std::vector<uint8_t>(4096));
  for (uint8_t& b : broken.back()) b = uint8_t(random());
  broken.push_back(std::vector<uint8_t>(data.begin(), data.begin() + 7));
  for (const std::vector<uint8_t>& bytes : broken) {
    VkPipelineCache c = MakeCache(bytes.data(), bytes.size());
    const Made made = Create(c, salt);
    ASSERT_EQ(made.result, VK_SUCCESS);
    EXPECT_FALSE(made.stage_hit);
    ExpectComputes(made.pipeline, salt);
  }
}

TEST_F(PipelineCacheTest, MergeGathersTheStagesOfSeveralCaches) {
  const uint32_t a_salt = FreshSalt(), b_salt = a_salt ^ 0x5555;
  VkPipelineCache a = MakeCache(), b = MakeCache(), merged = MakeCache();
  ASSERT_EQ(Create(a, a_salt).result, VK_SUCCESS);
  ASSERT_EQ(Create(b, b_salt).result, VK_SUCCESS);
  const VkPipelineCache sources[] = {a, b};
  ASSERT_EQ(vkMergePipelineCaches(device_, merged, 2, sources), VK_SUCCESS);
  for (uint32_t salt : {a_salt, b_salt}) {
    const Made made = Create(merged, salt);
    EXPECT_TRUE(made.stage_hit) << salt;
    ExpectComputes(made.pipeline, salt);
  }
}

TEST_F(PipelineCacheTest, FailOnCompileRequiredWithoutAHit) {
  const uint32_t salt = FreshSalt();
  VkPipelineCache cache = MakeCache();
  const Made refused = Create(cache, salt, VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT);
  EXPECT_EQ(refused.result, VK_PIPELINE_COMPILE_REQUIRED);
  EXPECT_EQ(refused.pipeline, VK_NULL_HANDLE);
  ASSERT_EQ(Create(cache, salt).result, VK_SUCCESS);
  const Made hit = Create(cache, salt, VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT);
  ASSERT_EQ(hit.result, VK_SUCCESS);
  EXPECT_TRUE(hit.stage_hit);
  ExpectComputes(hit.pipeline, salt);
}

// The counters a child prints (DUET_STATS=1) about the pipeline cache.
struct CacheLine {
  long compiled = -1, disk_hits = -1, disk_stores = -1;
};
CacheLine CacheStats(const std::string& output) {
  CacheLine line;
  std::smatch m;
  const std::regex pattern("pipeline_cache stages=\\d+ compiled=(\\d+) app_hits=\\d+ disk_hits=(\\d+) disk_stores=(\\d+)");
  if (std::regex_search(output, m, pattern)) {
    line.compiled = std::stol(m[1]);
    line.disk_hits = std::stol(m[2]);
    line.disk_stores = std::stol(m[3]);
  }
  return line;
}

// In a child: makes and runs the salted pipeline (the salt from the
// parent), without a VkPipelineCache.
TEST_F(PipelineCacheTest, ChildMakesTheSaltedPipeline) {
  if (!IsChildFor("PipelineCacheTest.ChildMakesTheSaltedPipeline")) GTEST_SKIP() << "runs in a child";
  const uint32_t salt = uint32_t(std::strtoul(std::getenv("DUET_TEST_SALT"), nullptr, 10));
  const Made made = Create(VK_NULL_HANDLE, salt);
  ASSERT_EQ(made.result, VK_SUCCESS);
  ExpectComputes(made.pipeline, salt);
}

TEST(PipelineDiskCacheTest, SecondProcessSkipsCompilation) {
  char pattern[] = "/tmp/duet-cache-test-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string home = pattern;
  const std::string salt = std::to_string(FreshSalt());
  auto run = [&](const char* cache) {
    ChildResult r = RunTestInChild("PipelineCacheTest.ChildMakesTheSaltedPipeline",
                                   {{"XDG_CACHE_HOME", home}, {"DUET_STATS", "1"}, {"DUET_TEST_SALT", salt},
                                    {"DUET_CACHE", cache}},
                                   std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return CacheStats(r.output);
  };
  // (The fixture's own kernel, unsalted, may come from the disk already.)
  const CacheLine cold = run("1");
  EXPECT_GE(cold.compiled, 1);
  EXPECT_GE(cold.disk_stores, 1);
  EXPECT_TRUE(std::filesystem::is_directory(home + "/duet"));
  const CacheLine warm = run("1");
  EXPECT_EQ(warm.compiled, 0);
  EXPECT_EQ(warm.disk_hits, cold.compiled + cold.disk_hits);
  EXPECT_EQ(warm.disk_stores, 0);
  // DUET_CACHE=0: compiled again, nothing read or written.
  const CacheLine off = run("0");
  EXPECT_EQ(off.compiled, warm.disk_hits);
  EXPECT_EQ(off.disk_hits, 0);
  EXPECT_EQ(off.disk_stores, 0);
  std::filesystem::remove_all(home);
}

}  // namespace
}  // namespace duet_test

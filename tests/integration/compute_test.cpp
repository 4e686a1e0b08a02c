// Compute shaders through the loader: GLSL compiled by glslangValidator at
// build time, results checked against C++ computed in the test.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "shaders/control_flow.comp.h"
#include "shaders/histogram.comp.h"
#include "shaders/matmul.comp.h"
#include "shaders/prefix_sum.comp.h"
#include "shaders/saxpy.comp.h"
#include "compute_fixture.h"

namespace duet_test {
namespace {

// The helpers (MakeKernel, Run, StorageBuffer) are in compute_fixture.h.
class ComputeTest : public ComputeFixture {};

TEST_F(ComputeTest, Saxpy) {
  constexpr uint32_t n = 1000;  // not a multiple of the workgroup size
  HostBuffer x = StorageBuffer(n * 4), y = StorageBuffer((n + 8) * 4);
  for (uint32_t i = 0; i < n + 8; ++i) {
    if (i < n) x.as<float>()[i] = float(i) * 0.5f;
    y.as<float>()[i] = float(i);
  }
  Kernel k = MakeKernel(kSaxpyComp, std::vector<VkBuffer>{x.buffer, y.buffer}, 8);
  struct {
    float a;
    uint32_t n;
  } push{3.0f, n};
  Run(k, (n + 63) / 64, 1, 1, &push, sizeof push);
  for (uint32_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(y.as<float>()[i], 3.0f * (float(i) * 0.5f) + float(i)) << i;
  for (uint32_t i = n; i < n + 8; ++i) EXPECT_EQ(y.as<float>()[i], float(i)) << "written past n at " << i;
}

TEST_F(ComputeTest, PrefixSumWithBarriers) {
  constexpr uint32_t groups = 8, n = groups * 256;
  HostBuffer data = StorageBuffer(n * 4);
  std::mt19937 rng(7);
  std::vector<uint32_t> input(n);
  for (uint32_t& v : input) v = rng() % 1000;
  std::memcpy(data.data, input.data(), n * 4);
  Kernel k = MakeKernel(kPrefixSumComp, std::vector<VkBuffer>{data.buffer}, 0);
  Run(k, groups);
  for (uint32_t g = 0; g < groups; ++g) {
    uint32_t sum = 0;
    for (uint32_t i = 0; i < 256; ++i) {
      sum += input[g * 256 + i];
      ASSERT_EQ(data.as<uint32_t>()[g * 256 + i], sum) << "group " << g << " element " << i;
    }
  }
}

TEST_F(ComputeTest, AtomicHistogram) {
  constexpr uint32_t n = 128 * 64;  // 64 workgroups spread over the worker threads
  HostBuffer values = StorageBuffer(n * 4), bins = StorageBuffer(16 * 4);
  std::vector<uint32_t> expected(16, 0);
  std::mt19937 rng(11);
  for (uint32_t i = 0; i < n; ++i) {
    values.as<uint32_t>()[i] = rng();
    expected[values.as<uint32_t>()[i] % 16]++;
  }
  std::memset(bins.data, 0, 64);
  Kernel k = MakeKernel(kHistogramComp, std::vector<VkBuffer>{values.buffer, bins.buffer}, 0);
  Run(k, n / 128);
  for (uint32_t b = 0; b < 16; ++b) EXPECT_EQ(bins.as<uint32_t>()[b], expected[b]) << "bin " << b;
}

int ExpectedControlFlow(int i) {
  if (i == 7) return -7;
  int acc = 0;
  for (int a = 0; a < i % 5; ++a) {
    for (int b = 0; b < 4; ++b) {
      if (b == a) continue;
      if (a + b > 5) break;
      acc += a * 10 + b;
    }
  }
  switch (i % 4) {
    case 0: acc += 1000; break;
    case 1: acc += 2000; [[fallthrough]];
    case 2: acc += 300; break;
    default: acc -= 1; break;
  }
  int n = i + 1, steps = 0;
  while (n != 1) {
    if (steps > 1000) break;
    n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
    steps++;
  }
  return acc * 100000 + steps;
}

TEST_F(ComputeTest, DivergentControlFlow) {
  constexpr uint32_t n = 96;
  HostBuffer out = StorageBuffer(n * 4);
  Kernel k = MakeKernel(kControlFlowComp, std::vector<VkBuffer>{out.buffer}, 0);
  Run(k, n / 32);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(out.as<int32_t>()[i], ExpectedControlFlow(int(i))) << "invocation " << i;
}

TEST_F(ComputeTest, MatrixMultiply64) {
  constexpr uint32_t n = 64;
  HostBuffer a = StorageBuffer(n * n * 4), b = StorageBuffer(n * n * 4), c = StorageBuffer(n * n * 4);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (uint32_t i = 0; i < n * n; ++i) {
    a.as<float>()[i] = dist(rng);
    b.as<float>()[i] = dist(rng);
  }
  Kernel k = MakeKernel(kMatmulComp, std::vector<VkBuffer>{a.buffer, b.buffer, c.buffer}, 4);
  Run(k, n / 8, n / 8, 1, &n, 4);
  for (uint32_t row = 0; row < n; ++row) {
    for (uint32_t col = 0; col < n; ++col) {
      float sum = 0.0f;
      for (uint32_t kk = 0; kk < n; ++kk) sum += a.as<float>()[row * n + kk] * b.as<float>()[kk * n + col];
      ASSERT_NEAR(c.as<float>()[row * n + col], sum, 1e-4f) << row << "," << col;
    }
  }
}

TEST_F(ComputeTest, DispatchBaseAndIndirect) {
  constexpr uint32_t n = 256;
  HostBuffer x = StorageBuffer(n * 4), y = StorageBuffer(n * 4);
  for (uint32_t i = 0; i < n; ++i) {
    x.as<float>()[i] = 1.0f;
    y.as<float>()[i] = 0.0f;
  }
  Kernel k = MakeKernel(kSaxpyComp, std::vector<VkBuffer>{x.buffer, y.buffer}, 8);
  HostBuffer indirect = MakeHostBuffer(12, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
  const uint32_t groups[3] = {2, 1, 1};
  std::memcpy(indirect.data, groups, 12);
  struct {
    float a;
    uint32_t n;
  } push{1.0f, n};
  VkCommandBuffer cb = BeginCommands();
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, nullptr);
  vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  vkCmdDispatchIndirect(cb, indirect.buffer, 0);  // groups 0 and 1: elements 0..127
  FullBarrier(cb);
  vkCmdDispatchBase(cb, 3, 0, 0, 1, 1, 1);  // group 3: elements 192..255
  EndSubmitWait(cb);
  for (uint32_t i = 0; i < n; ++i) {
    const float expected = (i < 128 || i >= 192) ? 1.0f : 0.0f;
    ASSERT_EQ(y.as<float>()[i], expected) << i;
  }
}

TEST_F(ComputeTest, InvalidSpirvIsRejected) {
  // Invalid SPIR-V breaks a valid usage rule: the validation layer reports it first.
  if (const char* v = std::getenv("DUET_TEST_VALIDATION"); v != nullptr && v[0] == '1')
    GTEST_SKIP() << "the validation layer reports the invalid module";
  const uint32_t garbage[] = {0x07230203, 0x00010600, 0, 100, 0, 0xFFFFFFFF};
  VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mci.codeSize = sizeof garbage;
  mci.pCode = garbage;
  VkShaderModule module = VK_NULL_HANDLE;
  EXPECT_NE(vkCreateShaderModule(device_, &mci, nullptr, &module), VK_SUCCESS);
  // Well-formed words that break SPIR-V's rules (an entry point naming a
  // function that does not exist): the pipeline that compiles them fails.
  const uint32_t invalid[] = {0x07230203, 0x00010600, 0, 100, 0,
                              0x00020011, 1,                                 // OpCapability Shader
                              0x0003000e, 0, 1,                              // OpMemoryModel Logical GLSL450
                              0x0005000f, 5, 42, 0x6e69616d, 0,              // OpEntryPoint GLCompute %42 "main"
                              0x00060010, 42, 17, 1, 1, 1};                  // OpExecutionMode %42 LocalSize 1 1 1
  EXPECT_NE(TryCreatePipeline(invalid), VK_SUCCESS);
}

}  // namespace
}  // namespace duet_test

#include "shaders/storage_image.comp.h"

namespace duet_test {
namespace {

TEST_F(ComputeTest, StorageImagesAndTexelBuffers) {
  constexpr uint32_t w = 13, h = 9, n = 200;
  auto make_image = [&](VkFormat format) {
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.imageType = VK_IMAGE_TYPE_2D;
    ci.format = format;
    ci.extent = {w, h, 1};
    ci.mipLevels = 1;
    ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkImage image = MakeGeneralImage(ci);
    return std::pair{image, MakeImageView(image, format)};
  };
  auto [src, src_view] = make_image(VK_FORMAT_R8G8B8A8_UNORM);
  auto [dst, dst_view] = make_image(VK_FORMAT_R32G32B32A32_SFLOAT);
  std::vector<uint8_t> pixels(w * h * 4);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = uint8_t(i * 7 + 3);
  WriteImage(src, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {w, h, 1}, 4, pixels);

  HostBuffer in = MakeHostBuffer(n * 4, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  HostBuffer out = MakeHostBuffer(n * 4, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
  for (uint32_t i = 0; i < n; ++i) {
    in.as<uint32_t>()[i] = i * 3 + 1;
    out.as<uint32_t>()[i] = 0xDEADBEEF;
  }
  auto buffer_view = [&](VkBuffer buffer) {
    VkBufferViewCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    ci.buffer = buffer;
    ci.format = VK_FORMAT_R32_UINT;
    ci.range = VK_WHOLE_SIZE;
    VkBufferView view = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateBufferView(device_, &ci, nullptr, &view), VK_SUCCESS);
    Defer([this, view] { vkDestroyBufferView(device_, view, nullptr); });
    return view;
  };
  VkBufferView in_view = buffer_view(in.buffer), out_view = buffer_view(out.buffer);

  const VkDescriptorType types[4] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                     VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER};
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (uint32_t i = 0; i < 4; ++i) bindings.push_back({i, types[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  lci.bindingCount = 4;
  lci.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorSetLayout(device_, &lci, nullptr, &set_layout), VK_SUCCESS);
  Defer([this, set_layout] { vkDestroyDescriptorSetLayout(device_, set_layout, nullptr); });
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &set_layout;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineLayout(device_, &plci, nullptr, &layout), VK_SUCCESS);
  Defer([this, layout] { vkDestroyPipelineLayout(device_, layout, nullptr); });
  VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mci.codeSize = sizeof kStorageImageComp;
  mci.pCode = kStorageImageComp;
  VkShaderModule module = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateShaderModule(device_, &mci, nullptr, &module), VK_SUCCESS);
  VkComputePipelineCreateInfo cci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module,
               "main", nullptr};
  cci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cci, nullptr, &pipeline), VK_SUCCESS);
  vkDestroyShaderModule(device_, module, nullptr);
  Defer([this, pipeline] { vkDestroyPipeline(device_, pipeline, nullptr); });

  VkDescriptorPoolSize sizes[3] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 2},
                                   {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1},
                                   {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1}};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dpci.maxSets = 1;
  dpci.poolSizeCount = 3;
  dpci.pPoolSizes = sizes;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorPool(device_, &dpci, nullptr, &pool), VK_SUCCESS);
  Defer([this, pool] { vkDestroyDescriptorPool(device_, pool, nullptr); });
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  dsai.descriptorPool = pool;
  dsai.descriptorSetCount = 1;
  dsai.pSetLayouts = &set_layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  ASSERT_EQ(vkAllocateDescriptorSets(device_, &dsai, &set), VK_SUCCESS);
  VkDescriptorImageInfo image_infos[2] = {{VK_NULL_HANDLE, src_view, VK_IMAGE_LAYOUT_GENERAL},
                                          {VK_NULL_HANDLE, dst_view, VK_IMAGE_LAYOUT_GENERAL}};
  VkWriteDescriptorSet writes[4]{};
  for (uint32_t i = 0; i < 4; ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = types[i];
  }
  writes[0].pImageInfo = &image_infos[0];
  writes[1].pImageInfo = &image_infos[1];
  writes[2].pTexelBufferView = &in_view;
  writes[3].pTexelBufferView = &out_view;
  vkUpdateDescriptorSets(device_, 4, writes, 0, nullptr);

  VkCommandBuffer cb = BeginCommands();
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
  vkCmdDispatch(cb, 2, 2, 1);
  EndSubmitWait(cb);

  std::vector<uint8_t> result = ReadImage(dst, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {w, h, 1}, 16);
  const float* f = reinterpret_cast<const float*>(result.data());
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const uint8_t* p = &pixels[(y * w + x) * 4];
      const float* q = &f[(y * w + x) * 4];
      ASSERT_NEAR(q[0], p[2] / 255.0f + float(x), 1e-5f);
      ASSERT_NEAR(q[1], p[1] / 255.0f + float(y), 1e-5f);
      ASSERT_NEAR(q[2], p[0] / 255.0f, 1e-5f);
      ASSERT_NEAR(q[3], 1.0f - p[3] / 255.0f, 1e-5f);
    }
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out.as<uint32_t>()[i], (i < 256 ? (i * 3 + 1) * 2 : 0xDEADBEEF)) << i;
}

}  // namespace
}  // namespace duet_test

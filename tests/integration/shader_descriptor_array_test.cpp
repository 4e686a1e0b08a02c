// Arrays of descriptors indexed by values that differ between the lanes of a
// wave: buffers (storage, uniform with dynamic offsets), combined image
// samplers, separate textures and samplers, texel buffers and storage
// images; runtime-sized arrays with variable descriptor counts, partially
// bound, updated after bind (descriptor indexing, Vulkan 1.2).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

#include "compute_fixture.h"
#include "shaders/descriptor_constant_partial.comp.h"
#include "shaders/descriptor_buffer_array.comp.h"
#include "shaders/descriptor_image_array.comp.h"
#include "shaders/descriptor_runtime_array.comp.h"
#include "shaders/inline_block.comp.h"

namespace duet_test {
namespace {

class ShaderDescriptorArrayTest : public ComputeFixture {
 protected:
  ShaderDescriptorArrayTest() { device_options_.shader_features = true; }

  void SetUp() override {
    ComputeFixture::SetUp();
    if (HasFatalFailure()) return;
    Features13 f = QueryFeatures13();
    ASSERT_TRUE(f.f2.features.shaderStorageBufferArrayDynamicIndexing);
    ASSERT_TRUE(f.f2.features.shaderSampledImageArrayDynamicIndexing);
    ASSERT_TRUE(f.v12.runtimeDescriptorArray);
  }

  struct Binding {
    VkDescriptorType type;
    uint32_t count;
    VkDescriptorBindingFlags flags = 0;
  };

  // A set layout with bindings 0..n-1.
  VkDescriptorSetLayout MakeSetLayout(const std::vector<Binding>& bindings,
                                      VkDescriptorSetLayoutCreateFlags flags = 0) {
    std::vector<VkDescriptorSetLayoutBinding> b;
    std::vector<VkDescriptorBindingFlags> binding_flags;
    for (uint32_t i = 0; i < bindings.size(); ++i) {
      b.push_back({i, bindings[i].type, bindings[i].count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
      binding_flags.push_back(bindings[i].flags);
    }
    VkDescriptorSetLayoutBindingFlagsCreateInfo fci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
    fci.bindingCount = uint32_t(binding_flags.size());
    fci.pBindingFlags = binding_flags.data();
    VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    lci.pNext = &fci;
    lci.flags = flags;
    lci.bindingCount = uint32_t(b.size());
    lci.pBindings = b.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &lci, nullptr, &layout), VK_SUCCESS);
    Defer([this, layout] { vkDestroyDescriptorSetLayout(device_, layout, nullptr); });
    return layout;
  }

  VkDescriptorPool MakePool(const std::vector<VkDescriptorPoolSize>& sizes, uint32_t max_sets,
                            VkDescriptorPoolCreateFlags flags = 0) {
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.flags = flags;
    dpci.maxSets = max_sets;
    dpci.poolSizeCount = uint32_t(sizes.size());
    dpci.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorPool(device_, &dpci, nullptr, &pool), VK_SUCCESS);
    Defer([this, pool] { vkDestroyDescriptorPool(device_, pool, nullptr); });
    return pool;
  }

  // A set of `layout`; a variable-count binding gets `variable_count` descriptors.
  VkDescriptorSet AllocateSet(VkDescriptorPool pool, VkDescriptorSetLayout layout, uint32_t variable_count = 0) {
    VkDescriptorSetVariableDescriptorCountAllocateInfo vci{
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO};
    vci.descriptorSetCount = 1;
    vci.pDescriptorCounts = &variable_count;
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.pNext = &vci;
    dsai.descriptorPool = pool;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateDescriptorSets(device_, &dsai, &set), VK_SUCCESS);
    return set;
  }

  // Descriptors from element `first` of a binding: buffer, image or texel-buffer infos.
  void Write(VkDescriptorSet set, uint32_t binding, uint32_t first, VkDescriptorType type,
             const std::vector<VkDescriptorBufferInfo>& buffers, const std::vector<VkDescriptorImageInfo>& images = {},
             const std::vector<VkBufferView>& texel_buffers = {}) {
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.dstBinding = binding;
    w.dstArrayElement = first;
    w.descriptorType = type;
    w.descriptorCount = uint32_t(buffers.size() + images.size() + texel_buffers.size());
    w.pBufferInfo = buffers.empty() ? nullptr : buffers.data();
    w.pImageInfo = images.empty() ? nullptr : images.data();
    w.pTexelBufferView = texel_buffers.empty() ? nullptr : texel_buffers.data();
    vkUpdateDescriptorSets(device_, 1, &w, 0, nullptr);
  }

  VkSampler MakeSampler(VkFilter filter) {
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = filter;
    sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sci.maxLod = 0.0f;
    VkSampler sampler = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSampler(device_, &sci, nullptr, &sampler), VK_SUCCESS);
    Defer([this, sampler] { vkDestroySampler(device_, sampler, nullptr); });
    return sampler;
  }

  // A 2D image in GENERAL layout holding `texels` (width * height of texel_size bytes).
  VkImage MakeFilledImage(VkFormat format, uint32_t width, uint32_t height, VkImageUsageFlags usage,
                          const void* texels, uint32_t texel_size) {
    VkImage image = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, format, {width, height, 1}, 1, 1,
                                               usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                                   VK_IMAGE_USAGE_TRANSFER_DST_BIT));
    const auto* bytes = static_cast<const uint8_t*>(texels);
    WriteImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {width, height, 1}, texel_size,
               {bytes, size_t(width) * height * texel_size});
    return image;
  }

  // Binds, pushes and dispatches; `write` writes the descriptors, before the
  // sets are bound or (update_after_bind) once the dispatch is recorded.
  void Dispatch(const Kernel& k, const std::vector<VkDescriptorSet>& sets, const std::vector<uint32_t>& dynamic_offsets,
                const void* push, uint32_t push_bytes, uint32_t groups, const std::function<void()>& write,
                bool update_after_bind) {
    if (!update_after_bind) write();
    VkCommandBuffer cb = BeginCommands();
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, uint32_t(sets.size()), sets.data(),
                            uint32_t(dynamic_offsets.size()), dynamic_offsets.data());
    vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
    vkCmdDispatch(cb, groups, 1, 1);
    if (update_after_bind) write();
    EndSubmitWait(cb);
  }

  void BufferArrays(bool update_after_bind);
  void ImageArrays(bool update_after_bind);
};

// Update-after-bind variants: every binding has the flag, the layouts and pools are made for it.
constexpr VkDescriptorBindingFlags kAfterBind = VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT;
constexpr VkDescriptorSetLayoutCreateFlags kAfterBindLayout =
    VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT;
constexpr VkDescriptorPoolCreateFlags kAfterBindPool = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT;

uint32_t Rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | g << 8 | b << 16 | a << 24; }

// The uniform buffers are dynamic, each element at its own dynamic offset;
// update-after-bind ones cannot be, so there the offsets are the descriptors'.
void ShaderDescriptorArrayTest::BufferArrays(bool update_after_bind) {
  constexpr uint32_t n = 128;
  const VkDescriptorBindingFlags flags = update_after_bind ? kAfterBind : 0;
  const VkDescriptorType ubo_type =
      update_after_bind ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
  VkDescriptorSetLayout layout = MakeSetLayout(
      {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, flags},
       {ubo_type, 3, flags},
       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, flags}},
      update_after_bind ? kAfterBindLayout : 0);
  Kernel k = MakePipeline(kDescriptorBufferArrayComp, {layout}, 8);
  VkDescriptorPool pool = MakePool({{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 6}, {ubo_type, 3}}, 1,
                                   update_after_bind ? kAfterBindPool : 0);
  VkDescriptorSet set = AllocateSet(pool, layout);

  std::vector<HostBuffer> ins, outs;
  std::vector<VkDescriptorBufferInfo> in_infos, out_infos, ubo_infos;
  for (uint32_t b = 0; b < 4; ++b) {
    ins.push_back(StorageBuffer(1024));
    const uint32_t words = 96 + 8 * b;  // each element a different length
    for (uint32_t j = 0; j < 256; ++j) ins[b].as<uint32_t>()[j] = j < words ? b * 1000 + j : 0xEEEEEEEEu;
    in_infos.push_back({ins[b].buffer, 0, words * 4});
  }
  for (uint32_t b = 0; b < 2; ++b) {
    outs.push_back(StorageBuffer(1024));
    std::memset(outs[b].data, 0, 1024);
    out_infos.push_back({outs[b].buffer, 0, VK_WHOLE_SIZE});
  }
  HostBuffer ubo = StorageBuffer(1024);
  for (uint32_t e = 0; e < 3; ++e)
    for (uint32_t j = 0; j < 16; ++j) ubo.as<uint32_t>()[e * 64 + j] = j % 4 == 1 ? e * 100 + j / 4 : 0xDDDDDDDDu;
  for (uint32_t e = 0; e < 3; ++e) ubo_infos.push_back({ubo.buffer, update_after_bind ? 256 * e : 0, 64});
  auto write = [&] {
    Write(set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, in_infos);
    Write(set, 1, 0, ubo_type, ubo_infos);
    Write(set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out_infos);
  };
  const uint32_t push[2] = {n, 1};
  const std::vector<uint32_t> dynamic_offsets =
      update_after_bind ? std::vector<uint32_t>{} : std::vector<uint32_t>{0, 256, 512};
  Dispatch(k, {set}, dynamic_offsets, push, sizeof push, n / 64, write, update_after_bind);

  EXPECT_EQ(outs[0].as<uint32_t>()[0], n / 2);
  EXPECT_EQ(outs[1].as<uint32_t>()[0], n / 2);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t b = i % 4;
    const uint32_t v = b * 1000 + i / 4, u = (i % 3) * 100 + i % 4, length = 96 + 8 * b;
    EXPECT_EQ(outs[1].as<uint32_t>()[1 + i], v + u * 1000 + length * 1000000) << i;
    EXPECT_EQ(outs[0].as<uint32_t>()[1 + i], 0u) << i;
  }
  for (uint32_t m = 0; m < 4; ++m)
    for (uint32_t j = 0; j < 32; ++j) EXPECT_EQ(ins[m].as<uint32_t>()[64 + j], 4 * j + 3 - m) << m << " " << j;
}

TEST_F(ShaderDescriptorArrayTest, BufferArraysIndexedPerLane) { BufferArrays(false); }
TEST_F(ShaderDescriptorArrayTest, BufferArraysUpdatedAfterBind) { BufferArrays(true); }

void ShaderDescriptorArrayTest::ImageArrays(bool update_after_bind) {
  const VkDescriptorType types[7] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                                     VK_DESCRIPTOR_TYPE_SAMPLER,                VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
                                     VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,          VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                     VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER};
  const uint32_t counts[7] = {3, 2, 2, 2, 3, 1, 2};
  std::vector<Binding> bindings;
  std::vector<VkDescriptorPoolSize> pool_sizes;
  for (int b = 0; b < 7; ++b) {
    bindings.push_back({types[b], counts[b], update_after_bind ? kAfterBind : 0});
    pool_sizes.push_back({types[b], counts[b]});
  }
  VkDescriptorSetLayout layout = MakeSetLayout(bindings, update_after_bind ? kAfterBindLayout : 0);
  Kernel k = MakePipeline(kDescriptorImageArrayComp, {layout}, 4);
  VkDescriptorPool pool = MakePool(pool_sizes, 1, update_after_bind ? kAfterBindPool : 0);
  VkDescriptorSet set = AllocateSet(pool, layout);
  const VkSampler nearest = MakeSampler(VK_FILTER_NEAREST), linear = MakeSampler(VK_FILTER_LINEAR);

  // Combined image samplers: three sizes, texel (x, y) of image c is
  // (50c + x, 10y, 90c, 100 + x + y).
  const VkExtent2D sizes[3] = {{8, 8}, {16, 8}, {8, 16}};
  auto combined_texel = [](uint32_t c, uint32_t x, uint32_t y) {
    return Rgba(50 * c + x, 10 * y, 90 * c, 100 + x + y);
  };
  std::vector<VkDescriptorImageInfo> combined;
  for (uint32_t c = 0; c < 3; ++c) {
    std::vector<uint32_t> texels(sizes[c].width * sizes[c].height);
    for (uint32_t y = 0; y < sizes[c].height; ++y)
      for (uint32_t x = 0; x < sizes[c].width; ++x) texels[y * sizes[c].width + x] = combined_texel(c, x, y);
    VkImage image = MakeFilledImage(VK_FORMAT_R8G8B8A8_UNORM, sizes[c].width, sizes[c].height,
                                    VK_IMAGE_USAGE_SAMPLED_BIT, texels.data(), 4);
    combined.push_back({nearest, MakeImageView(image, VK_FORMAT_R8G8B8A8_UNORM), VK_IMAGE_LAYOUT_GENERAL});
  }
  // Separate 2x2 textures: texel (x, y) of texture a is (100a + 20x + 40y, 10 + 5a, 200, 255).
  auto separate_texel = [](uint32_t a, uint32_t x, uint32_t y) {
    return Rgba(100 * a + 20 * x + 40 * y, 10 + 5 * a, 200, 255);
  };
  std::vector<VkDescriptorImageInfo> textures;
  for (uint32_t a = 0; a < 2; ++a) {
    const uint32_t texels[4] = {separate_texel(a, 0, 0), separate_texel(a, 1, 0), separate_texel(a, 0, 1),
                                separate_texel(a, 1, 1)};
    VkImage image = MakeFilledImage(VK_FORMAT_R8G8B8A8_UNORM, 2, 2, VK_IMAGE_USAGE_SAMPLED_BIT, texels, 4);
    textures.push_back({VK_NULL_HANDLE, MakeImageView(image, VK_FORMAT_R8G8B8A8_UNORM), VK_IMAGE_LAYOUT_GENERAL});
  }
  const std::vector<VkDescriptorImageInfo> samplers = {{nearest, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED},
                                                       {linear, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED}};
  // Texel buffers: element j of uniform texel buffer t is 1000t + j, of
  // storage texel buffer t 7t + j.
  std::vector<VkBufferView> texel_views, storage_texel_views;
  std::vector<HostBuffer> texel_buffers;
  for (uint32_t t = 0; t < 4; ++t) {
    const bool storage_texels = t >= 2;
    texel_buffers.push_back(MakeHostBuffer(256, storage_texels ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
                                                               : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT));
    for (uint32_t j = 0; j < 64; ++j)
      texel_buffers[t].as<uint32_t>()[j] = storage_texels ? 7 * (t - 2) + j : 1000 * t + j;
    VkBufferViewCreateInfo bvci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    bvci.buffer = texel_buffers[t].buffer;
    bvci.format = VK_FORMAT_R32_UINT;
    bvci.range = VK_WHOLE_SIZE;
    VkBufferView view = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateBufferView(device_, &bvci, nullptr, &view), VK_SUCCESS);
    Defer([this, view] { vkDestroyBufferView(device_, view, nullptr); });
    (storage_texels ? storage_texel_views : texel_views).push_back(view);
  }
  // Storage images 8 x (16 + s): rows 0..7 hold 10000s + 8y + x, the rest a sentinel.
  constexpr uint32_t kSentinel = 0xDEADu;
  std::vector<VkImage> storage_images;
  std::vector<VkDescriptorImageInfo> storage;
  for (uint32_t s = 0; s < 3; ++s) {
    std::vector<uint32_t> texels(8 * (16 + s), kSentinel);
    for (uint32_t i = 0; i < 64; ++i) texels[i] = 10000 * s + i;
    storage_images.push_back(
        MakeFilledImage(VK_FORMAT_R32_UINT, 8, 16 + s, VK_IMAGE_USAGE_STORAGE_BIT, texels.data(), 4));
    storage.push_back({VK_NULL_HANDLE, MakeImageView(storage_images[s], VK_FORMAT_R32_UINT), VK_IMAGE_LAYOUT_GENERAL});
  }
  HostBuffer results = StorageBuffer(64 * 4 * 16);

  auto write = [&] {
    Write(set, 0, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {}, combined);
    Write(set, 1, 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, {}, textures);
    Write(set, 2, 0, VK_DESCRIPTOR_TYPE_SAMPLER, {}, samplers);
    Write(set, 3, 0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, {}, {}, texel_views);
    Write(set, 4, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {}, storage);
    Write(set, 5, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
    Write(set, 6, 0, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, {}, {}, storage_texel_views);
  };
  const uint32_t unused = 0;
  Dispatch(k, {set}, {}, &unused, 4, 1, write, update_after_bind);

  auto unorm = [](uint32_t texel, int c) { return float((texel >> (8 * c)) & 0xFF) / 255.0f; };
  const float* r = reinterpret_cast<const float*>(results.data);
  for (uint32_t i = 0; i < 64; ++i) {
    const uint32_t x = i % 8, y = i / 8, t = i % 3;
    const VkExtent2D size = sizes[t];
    // textureLod at the centre of texel (x, y) of an 8x8 grid, nearest.
    const uint32_t sx = uint32_t((x + 0.5f) / 8.0f * size.width), sy = uint32_t((y + 0.5f) / 8.0f * size.height);
    const uint32_t a = i % 2, s = (i / 2) % 2;
    for (int c = 0; c < 4; ++c) {
      EXPECT_FLOAT_EQ(r[i * 16 + c], unorm(combined_texel(t, x, y), c)) << "texelFetch, lane " << i << " c" << c;
      EXPECT_FLOAT_EQ(r[i * 16 + 4 + c], unorm(combined_texel(t, sx, sy), c)) << "textureLod, lane " << i << " c" << c;
      // The centre of a 2x2 texture: texel (1, 1) when nearest, the average when linear.
      float expected = unorm(separate_texel(a, 1, 1), c);
      if (s == 1)
        expected = (unorm(separate_texel(a, 0, 0), c) + unorm(separate_texel(a, 1, 0), c) +
                    unorm(separate_texel(a, 0, 1), c) + unorm(separate_texel(a, 1, 1), c)) / 4;
      EXPECT_NEAR(r[i * 16 + 8 + c], expected, 1.0f / 255) << "texture " << a << " sampler " << s << ", c" << c;
    }
    EXPECT_EQ(r[i * 16 + 12], float(size.width * 100 + size.height)) << "textureSize, lane " << i;
    EXPECT_EQ(r[i * 16 + 13], float(1000 * (i % 2) + i)) << "texel buffer, lane " << i;
    EXPECT_EQ(r[i * 16 + 14], float(10000 * t + i)) << "imageLoad, lane " << i;
    EXPECT_EQ(r[i * 16 + 15], float(800 + 16 + t)) << "imageSize, lane " << i;
  }
  for (uint32_t s = 0; s < 3; ++s) {
    const std::vector<uint8_t> bytes =
        ReadImage(storage_images[s], {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {8, 16 + s, 1}, 4);
    const uint32_t* texels = reinterpret_cast<const uint32_t*>(bytes.data());
    for (uint32_t i = 0; i < 64; ++i) {
      EXPECT_EQ(texels[i], 10000 * s + i) << "image " << s << " texel " << i << " was only read";
      // Lane i wrote image 2 - i % 3, 8 rows down.
      EXPECT_EQ(texels[64 + i], 2 - i % 3 == s ? i + 100 * (i % 3) : kSentinel) << "image " << s << " texel " << 64 + i;
    }
  }
  for (uint32_t i = 0; i < 64; ++i) {
    const uint32_t t = i % 2;
    EXPECT_EQ(texel_buffers[2 + t].as<uint32_t>()[i], 7 * t + i + 2 * (1000 * t + i))
        << "storage texel buffer, lane " << i;
    EXPECT_EQ(texel_buffers[3 - t].as<uint32_t>()[i], 7 * (1 - t) + i) << "storage texel buffer, lane " << i;
  }
}

TEST_F(ShaderDescriptorArrayTest, ImageArraysIndexedPerLane) { ImageArrays(false); }
TEST_F(ShaderDescriptorArrayTest, ImageArraysUpdatedAfterBind) { ImageArrays(true); }

TEST_F(ShaderDescriptorArrayTest, RuntimeArraysVariableCountPartiallyBoundUpdatedAfterBind) {
  constexpr uint32_t n = 128;
  constexpr VkDescriptorBindingFlags kFlags = VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT |
                                              VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT |
                                              VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT;
  constexpr VkDescriptorSetLayoutCreateFlags kPool = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT;
  VkDescriptorSetLayout layout0 = MakeSetLayout(
      {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16, kFlags}}, kPool);
  VkDescriptorSetLayout layout1 = MakeSetLayout({{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64, kFlags}}, kPool);
  Kernel k = MakePipeline(kDescriptorRuntimeArrayComp, {layout0, layout1}, 4);
  VkDescriptorPool pool = MakePool(
      {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 7}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4}}, 2,
      VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT);
  VkDescriptorSet set0 = AllocateSet(pool, layout0, 4);
  VkDescriptorSet set1 = AllocateSet(pool, layout1, 6);

  HostBuffer results = StorageBuffer(2 * n * 4);
  Write(set0, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  // Textures 0..2: 1x1 of a colour each, texture 2 written after the set
  // is bound (texture 1 before); element 3 gets a view that is destroyed
  // before the dispatch (the shader never reaches it).
  const VkSampler sampler = MakeSampler(VK_FILTER_NEAREST);
  const uint32_t colours[4] = {Rgba(10, 20, 30, 40), Rgba(50, 60, 70, 80), Rgba(90, 100, 110, 120),
                               Rgba(1, 2, 3, 4)};
  std::vector<VkDescriptorImageInfo> textures;
  for (uint32_t t = 0; t < 4; ++t) {
    VkImage image = MakeFilledImage(VK_FORMAT_R8G8B8A8_UNORM, 1, 1, VK_IMAGE_USAGE_SAMPLED_BIT, &colours[t], 4);
    textures.push_back({sampler, MakeImageView(image, VK_FORMAT_R8G8B8A8_UNORM, t < 3), VK_IMAGE_LAYOUT_GENERAL});
  }
  Write(set0, 1, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {},
        {textures[0], textures[1], textures[1], textures[3]});
  vkDestroyImageView(device_, textures[3].imageView, nullptr);

  // Data element e: {tag e + 1, values 10e + j for j < 8 + e} at byte 256e
  // of one buffer. Element 2 is never written; elements 4 and 5 are written
  // (4 again) after the set is bound.
  HostBuffer data = StorageBuffer(256 * 6);
  for (uint32_t e = 0; e < 6; ++e) {
    uint32_t* words = data.as<uint32_t>() + 64 * e;
    words[0] = e + 1;
    for (uint32_t j = 0; j < 8 + e; ++j) words[1 + j] = 10 * e + j;
  }
  auto element = [&](uint32_t e) { return VkDescriptorBufferInfo{data.buffer, 256 * e, 4 * (9 + e)}; };
  Write(set1, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {element(0), element(1)});
  Write(set1, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {element(3), element(0)});  // element 4: rewritten below

  VkCommandBuffer cb = BeginCommands();
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
  const VkDescriptorSet sets[2] = {set0, set1};
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 2, sets, 0, nullptr);
  vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &n);
  vkCmdDispatch(cb, n / 64, 1, 1);
  Write(set1, 0, 4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {element(4), element(5)});
  Write(set0, 1, 2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {}, {textures[2]});
  EndSubmitWait(cb);

  const uint32_t* r = results.as<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t e = i % 5;
    if (e >= 2) ++e;
    EXPECT_EQ(r[i], (e + 1) * 1000 + 10 * e + i % 8 + (8 + e) * 100000) << "lane " << i << ", element " << e;
    EXPECT_EQ(r[n + i], colours[i % 3]) << "lane " << i;
  }
}

// A descriptor read at a constant index, in a partially bound binding,
// whose view was destroyed: while the shader does not reach it, nothing
// reads it (the driver resolves constant-index descriptors before the
// shader runs; a destroyed view there counts as unbound).
TEST_F(ShaderDescriptorArrayTest, ConstantIndexDescriptorOfADestroyedViewLeftAlone) {
  VkDescriptorSetLayout layout = MakeSetLayout(
      {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
       {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT}});
  Kernel k = MakePipeline(kDescriptorConstantPartialComp, {layout}, 4);
  VkDescriptorPool pool = MakePool({{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2}},
                                   1, 0);
  VkDescriptorSet set = AllocateSet(pool, layout, 0);
  HostBuffer results = StorageBuffer(8);
  Write(set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  const VkSampler sampler = MakeSampler(VK_FILTER_NEAREST);
  const uint32_t colours[2] = {Rgba(10, 20, 30, 40), Rgba(50, 60, 70, 80)};
  std::vector<VkDescriptorImageInfo> textures;
  for (uint32_t t = 0; t < 2; ++t) {
    VkImage image = MakeFilledImage(VK_FORMAT_R8G8B8A8_UNORM, 1, 1, VK_IMAGE_USAGE_SAMPLED_BIT, &colours[t], 4);
    textures.push_back({sampler, MakeImageView(image, VK_FORMAT_R8G8B8A8_UNORM, t == 0), VK_IMAGE_LAYOUT_GENERAL});
  }
  Write(set, 1, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {}, textures);
  vkDestroyImageView(device_, textures[1].imageView, nullptr);

  const uint32_t use_second = 0;
  VkCommandBuffer cb = BeginCommands();
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &set, 0, nullptr);
  vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &use_second);
  vkCmdDispatch(cb, 1, 1, 1);
  EndSubmitWait(cb);
  EXPECT_EQ(results.as<uint32_t>()[0], colours[0]);
  EXPECT_EQ(results.as<uint32_t>()[1], 7u);
}

// descriptorBindingUpdateUnusedWhilePending: an element the pending work
// does not use may be written while it waits; the work reads what it uses
// unchanged, and later work sees the new element.
TEST_F(ShaderDescriptorArrayTest, UnusedElementsUpdatedWhilePending) {
  constexpr VkDescriptorBindingFlags kFlags =
      VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT | VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT;
  VkDescriptorSetLayout layout =
      MakeSetLayout({{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, kFlags}});
  Kernel k = MakePipeline(kDescriptorConstantPartialComp, {layout}, 4);
  VkDescriptorPool pool = MakePool({{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2}},
                                   1, 0);
  VkDescriptorSet set = AllocateSet(pool, layout, 0);
  HostBuffer results = StorageBuffer(8);
  Write(set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  const VkSampler sampler = MakeSampler(VK_FILTER_NEAREST);
  const uint32_t colours[2] = {Rgba(10, 20, 30, 40), Rgba(50, 60, 70, 80)};
  std::vector<VkDescriptorImageInfo> textures;
  for (uint32_t t = 0; t < 2; ++t) {
    VkImage image = MakeFilledImage(VK_FORMAT_R8G8B8A8_UNORM, 1, 1, VK_IMAGE_USAGE_SAMPLED_BIT, &colours[t], 4);
    textures.push_back({sampler, MakeImageView(image, VK_FORMAT_R8G8B8A8_UNORM), VK_IMAGE_LAYOUT_GENERAL});
  }
  Write(set, 1, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {}, {textures[0]});

  auto record = [&](uint32_t use_second, VkEvent wait) {
    VkCommandBuffer cb = BeginCommands();
    if (wait != VK_NULL_HANDLE)
      vkCmdWaitEvents(cb, 1, &wait, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, nullptr, 0,
                      nullptr, 0, nullptr);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &use_second);
    vkCmdDispatch(cb, 1, 1, 1);
    HostReadBarrier(cb);
    VK_EXPECT_RESULT(VK_SUCCESS, vkEndCommandBuffer(cb));
    return cb;
  };
  VkEvent event = MakeEvent();
  ScopeExit unblock([&] { vkSetEvent(device_, event); });
  VkFence fence = MakeFence();
  ASSERT_NO_FATAL_FAILURE(Submit(record(0, event), fence));
  // Pending (it waits on the event): element 1 is unused by it.
  Write(set, 1, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {}, {textures[1]});
  VK_ASSERT_OK(vkSetEvent(device_, event));
  ASSERT_NO_FATAL_FAILURE(WaitFence(fence));
  EXPECT_EQ(results.as<uint32_t>()[0], colours[0]);
  EXPECT_EQ(results.as<uint32_t>()[1], 7u);
  VkFence second = MakeFence();
  ASSERT_NO_FATAL_FAILURE(Submit(record(1, VK_NULL_HANDLE), second));
  ASSERT_NO_FATAL_FAILURE(WaitFence(second));
  EXPECT_EQ(results.as<uint32_t>()[1], colours[1]);
}

// An inline uniform block written after the set is bound and the dispatch
// recorded (descriptorBindingInlineUniformBlockUpdateAfterBind): the
// dispatch reads the new bytes.
TEST_F(ShaderDescriptorArrayTest, InlineUniformBlockUpdatedAfterBind) {
  VkDescriptorSetLayout layout =
      MakeSetLayout({{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16, kAfterBind}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
                    kAfterBindLayout);
  Kernel k = MakePipeline(kInlineBlockComp, {layout}, 4);
  VkDescriptorPoolInlineUniformBlockCreateInfo inline_pool{
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO, nullptr, 1};
  const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16},
                                         {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, &inline_pool, kAfterBindPool, 1, 2,
                                  sizes};
  VkDescriptorPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorPool(device_, &dpci, nullptr, &pool), VK_SUCCESS);
  Defer([this, pool] { vkDestroyDescriptorPool(device_, pool, nullptr); });
  VkDescriptorSet set = AllocateSet(pool, layout);
  HostBuffer out = StorageBuffer(16);
  auto write_block = [&](const uint32_t (&words)[4]) {
    VkWriteDescriptorSetInlineUniformBlock data{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, nullptr,
                                                16, words};
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &data};
    w.dstSet = set;
    w.dstBinding = 0;
    w.descriptorCount = 16;  // bytes
    w.descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
    vkUpdateDescriptorSets(device_, 1, &w, 0, nullptr);
  };
  const uint32_t before[4] = {1, 2, 3, 4}, after[4] = {10, 20, 30, 40};
  write_block(before);
  Write(set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{out.buffer, 0, VK_WHOLE_SIZE}});
  const uint32_t unused = 0;
  Dispatch(k, {set}, {}, &unused, 4, 1, [&] { write_block(after); }, true);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(out.as<uint32_t>()[i], after[i]) << i;
}

}  // namespace
}  // namespace duet_test

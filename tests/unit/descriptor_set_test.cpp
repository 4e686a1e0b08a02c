// Descriptor set layouts, sets, writes, copies, templates and pipeline
// layouts, checked at the level shaders will read them: where each binding's
// records and inline bytes are, and what each record resolved to.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <vector>

#include "dispatch/entrypoints.h"
#include "objects/buffer.h"
#include "objects/descriptor_set.h"
#include "objects/device.h"
#include "objects/image.h"
#include "objects/memory.h"
#include "objects/sampler.h"

namespace duet {
namespace {

VkDescriptorSetLayoutBinding Binding(uint32_t binding, VkDescriptorType type, uint32_t count,
                                     const VkSampler* immutable = nullptr) {
  return {binding, type, count, VK_SHADER_STAGE_COMPUTE_BIT, immutable};
}

// A device object with no physical device behind it (the descriptor entry
// points only use its allocator), real buffers over one block of memory,
// and views and samplers that are only ever compared by address.
class DescriptorSets : public ::testing::Test {
 protected:
  DescriptorSets() {
    memory_.size = backing_.size();
    memory_.data = backing_.data();
    for (size_t i = 0; i < buffers_.size(); ++i) {
      buffers_[i].size = 1024;
      buffers_[i].memory = &memory_;
      buffers_[i].memory_offset = 1024 * i;
    }
    texel_view_.buffer = &buffers_[1];
    texel_view_.offset = 64;
    texel_view_.range = 128;
  }

  ~DescriptorSets() override {
    for (VkDescriptorPool pool : pools_) api::DestroyDescriptorPool(device(), pool, nullptr);
    for (VkDescriptorSetLayout layout : layouts_) api::DestroyDescriptorSetLayout(device(), layout, nullptr);
  }

  VkDevice device() { return ToHandle(&device_); }
  VkBuffer buffer(size_t i) { return ToHandle(&buffers_[i]); }
  VkSampler sampler(size_t i) { return ToHandle(&samplers_[i]); }
  VkImageView view(size_t i) { return ToHandle(&views_[i]); }

  VkDescriptorSetLayout MakeLayout(const std::vector<VkDescriptorSetLayoutBinding>& bindings,
                                   const void* next = nullptr) {
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, next};
    ci.bindingCount = uint32_t(bindings.size());
    ci.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(api::CreateDescriptorSetLayout(device(), &ci, nullptr, &layout), VK_SUCCESS);
    layouts_.push_back(layout);
    return layout;
  }

  // A pool with plenty of every type, inline blocks included.
  VkDescriptorPool MakePool(uint32_t max_sets = 16, VkDescriptorPoolCreateFlags flags = 0) {
    std::vector<VkDescriptorPoolSize> sizes;
    for (int t = VK_DESCRIPTOR_TYPE_SAMPLER; t <= VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT; ++t)
      sizes.push_back({VkDescriptorType(t), 1024});
    sizes.push_back({VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 4096});
    VkDescriptorPoolInlineUniformBlockCreateInfo inline_info{
        VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO};
    inline_info.maxInlineUniformBlockBindings = 64;
    VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, &inline_info};
    ci.flags = flags;
    ci.maxSets = max_sets;
    ci.poolSizeCount = uint32_t(sizes.size());
    ci.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    EXPECT_EQ(api::CreateDescriptorPool(device(), &ci, nullptr, &pool), VK_SUCCESS);
    pools_.push_back(pool);
    return pool;
  }

  DescriptorSet* Allocate(VkDescriptorPool pool, VkDescriptorSetLayout layout, const void* next = nullptr) {
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, next, pool, 1, &layout};
    VkDescriptorSet set = VK_NULL_HANDLE;
    EXPECT_EQ(api::AllocateDescriptorSets(device(), &ai, &set), VK_SUCCESS);
    return FromHandle<DescriptorSet>(set);
  }

  std::byte* BufferBytes(size_t i) { return backing_.data() + 1024 * i; }

  Device device_{nullptr};
  std::vector<std::byte> backing_ = std::vector<std::byte>(4 * 1024);
  DeviceMemory memory_;
  std::array<Buffer, 4> buffers_;
  std::array<Sampler, 3> samplers_{Sampler(VkSamplerCreateInfo{}), Sampler(VkSamplerCreateInfo{}),
                                   Sampler(VkSamplerCreateInfo{})};
  std::array<ImageView, 3> views_;
  BufferView texel_view_;
  std::vector<VkDescriptorPool> pools_;
  std::vector<VkDescriptorSetLayout> layouts_;
};

TEST_F(DescriptorSets, LayoutSortsBindingsAndPlacesRecordsAndBytes) {
  const VkSampler immutable[2] = {sampler(0), sampler(1)};
  VkDescriptorSetLayout handle = MakeLayout({
      Binding(5, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 3),
      Binding(0, VK_DESCRIPTOR_TYPE_SAMPLER, 2, immutable),
      Binding(7, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 20),
      Binding(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2),
      Binding(2, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 36),
      Binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1),
      Binding(4, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 0),
  });
  const DescriptorSetLayout* layout = FromHandle<DescriptorSetLayout>(handle);

  struct Expected {
    uint32_t binding, first_descriptor, inline_offset, dynamic_index;
  };
  const Expected expected[] = {{0, 0, 0, 0}, {1, 2, 0, 0}, {2, 3, 0, 1}, {3, 4, 0, 1},
                               {4, 6, 0, 3}, {5, 6, 0, 3}, {7, 9, 48, 3}};
  ASSERT_EQ(layout->bindings.size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(layout->bindings[i].binding, expected[i].binding);
    EXPECT_EQ(layout->bindings[i].first_descriptor, expected[i].first_descriptor);
    if (layout->bindings[i].IsInlineBlock()) EXPECT_EQ(layout->bindings[i].inline_offset, expected[i].inline_offset);
    EXPECT_EQ(layout->bindings[i].dynamic_index, expected[i].dynamic_index);
  }
  EXPECT_EQ(layout->descriptor_count, 10u);  // inline blocks take one record each
  EXPECT_EQ(layout->inline_data_size, 48u + 20u);
  EXPECT_EQ(layout->dynamic_buffer_count, 3u);
  EXPECT_EQ(layout->inline_block_count, 2u);
  EXPECT_EQ(layout->Find(6), nullptr);
  ASSERT_NE(layout->Find(0), nullptr);
  EXPECT_EQ(layout->Find(0)->immutable_samplers,
            (std::pmr::vector<const Sampler*>{&samplers_[0], &samplers_[1]}));
  EXPECT_EQ(layout->Find(7)->count, 20u);
  EXPECT_EQ(layout->VariableBinding(), nullptr);
}

TEST_F(DescriptorSets, BindingFlagsFollowTheirBindingThroughTheSort) {
  const VkDescriptorBindingFlags flags[] = {VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT,
                                            VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT};
  VkDescriptorSetLayoutBindingFlagsCreateInfo flags_info{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, nullptr, 2, flags};
  const auto* layout = FromHandle<DescriptorSetLayout>(MakeLayout(
      {Binding(9, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64), Binding(1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 2)},
      &flags_info));
  EXPECT_EQ(layout->Find(1)->flags, VkDescriptorBindingFlags(VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT));
  EXPECT_EQ(layout->Find(9)->flags, VkDescriptorBindingFlags(VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT));
  EXPECT_EQ(layout->VariableBinding(), layout->Find(9));
}

TEST_F(DescriptorSets, NewSetHasInlineRecordsAndImmutableSamplers) {
  const VkSampler immutable[2] = {sampler(2), sampler(1)};
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_SAMPLER, 2, immutable),
                                             Binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, immutable),
                                             Binding(2, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16)});
  DescriptorSet* set = Allocate(MakePool(), layout);
  ASSERT_NE(set, nullptr);
  ASSERT_EQ(set->descriptors.size(), 4u);
  ASSERT_EQ(set->inline_data.size(), 16u);
  EXPECT_EQ(set->descriptors[0].type, VK_DESCRIPTOR_TYPE_SAMPLER);
  EXPECT_EQ(set->descriptors[0].sampler, &samplers_[2]);
  EXPECT_EQ(set->descriptors[1].sampler, &samplers_[1]);
  EXPECT_EQ(set->descriptors[2].type, VK_DESCRIPTOR_TYPE_MAX_ENUM);  // no image yet
  EXPECT_EQ(set->descriptors[2].sampler, &samplers_[2]);
  const Descriptor& block = set->descriptors[set->Find(2)->first_descriptor];
  EXPECT_EQ(block.type, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK);
  EXPECT_EQ(block.data, set->inline_data.data());
  EXPECT_EQ(block.range, 16u);
}

TEST_F(DescriptorSets, WritesResolveBuffersViewsAndSamplers) {
  const VkSampler immutable[1] = {sampler(2)};
  VkDescriptorSetLayout layout = MakeLayout({
      Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1),
      Binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1),
      Binding(2, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1),
      Binding(3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, immutable),
      Binding(4, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1),
      Binding(5, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1),
      Binding(6, VK_DESCRIPTOR_TYPE_SAMPLER, 1),
      Binding(7, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
      Binding(8, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1),
  });
  DescriptorSet* set = Allocate(MakePool(), layout);
  ASSERT_NE(set, nullptr);

  const VkDescriptorBufferInfo whole{buffer(0), 16, VK_WHOLE_SIZE};
  const VkDescriptorBufferInfo part{buffer(2), 256, 100};
  const VkDescriptorBufferInfo null_buffer{VK_NULL_HANDLE, 0, VK_WHOLE_SIZE};
  const VkDescriptorBufferInfo past_the_end{buffer(3), 1000, 100};  // invalid, but must stay inside
  const VkBufferView texel = ToHandle(&texel_view_);
  const VkDescriptorImageInfo with_immutable{sampler(0), view(0), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  const VkDescriptorImageInfo with_sampler{sampler(1), view(1), VK_IMAGE_LAYOUT_GENERAL};
  // The sampler member of a SAMPLED_IMAGE info (and the view of a SAMPLER one)
  // are ignored and may hold anything.
  const VkDescriptorImageInfo image_only{reinterpret_cast<VkSampler>(uintptr_t{0xdead0}), view(2),
                                         VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  const VkDescriptorImageInfo sampler_only{sampler(1), reinterpret_cast<VkImageView>(uintptr_t{0xdead0}),
                                           VK_IMAGE_LAYOUT_UNDEFINED};
  auto write = [&](uint32_t binding, VkDescriptorType type) {
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = ToHandle(set);
    w.dstBinding = binding;
    w.descriptorCount = 1;
    w.descriptorType = type;
    return w;
  };
  std::vector<VkWriteDescriptorSet> writes;
  writes.push_back(write(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER));
  writes.back().pBufferInfo = &whole;
  writes.push_back(write(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC));
  writes.back().pBufferInfo = &part;
  writes.push_back(write(2, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER));
  writes.back().pTexelBufferView = &texel;
  writes.push_back(write(3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER));
  writes.back().pImageInfo = &with_immutable;
  writes.push_back(write(4, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER));
  writes.back().pImageInfo = &with_sampler;
  writes.push_back(write(5, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE));
  writes.back().pImageInfo = &image_only;
  writes.push_back(write(6, VK_DESCRIPTOR_TYPE_SAMPLER));
  writes.back().pImageInfo = &sampler_only;
  writes.push_back(write(7, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER));
  writes.back().pBufferInfo = &null_buffer;
  writes.push_back(write(8, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER));
  writes.back().pBufferInfo = &past_the_end;
  api::UpdateDescriptorSets(device(), uint32_t(writes.size()), writes.data(), 0, nullptr);

  const auto& d = set->descriptors;
  EXPECT_EQ(d[0].type, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
  EXPECT_EQ(d[0].buffer, &buffers_[0]);
  EXPECT_EQ(d[0].data, BufferBytes(0) + 16);
  EXPECT_EQ(d[0].range, 1024u - 16u);  // WHOLE_SIZE: to the end of the buffer

  EXPECT_EQ(d[1].data, BufferBytes(2) + 256);
  EXPECT_EQ(d[1].range, 100u);

  EXPECT_EQ(d[2].buffer_view, &texel_view_);
  EXPECT_EQ(d[2].buffer, &buffers_[1]);
  EXPECT_EQ(d[2].data, BufferBytes(1) + 64);
  EXPECT_EQ(d[2].range, 128u);

  EXPECT_EQ(d[3].type, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
  EXPECT_EQ(d[3].image_view, &views_[0]);
  EXPECT_EQ(d[3].image_layout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  EXPECT_EQ(d[3].sampler, &samplers_[2]) << "the immutable sampler wins over the written one";

  EXPECT_EQ(d[4].image_view, &views_[1]);
  EXPECT_EQ(d[4].sampler, &samplers_[1]);
  EXPECT_EQ(d[4].image_layout, VK_IMAGE_LAYOUT_GENERAL);

  EXPECT_EQ(d[5].image_view, &views_[2]);
  EXPECT_EQ(d[5].sampler, nullptr);

  EXPECT_EQ(d[6].type, VK_DESCRIPTOR_TYPE_SAMPLER);
  EXPECT_EQ(d[6].sampler, &samplers_[1]);
  EXPECT_EQ(d[6].image_view, nullptr);

  EXPECT_EQ(d[7].type, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
  EXPECT_EQ(d[7].buffer, nullptr);
  EXPECT_EQ(d[7].data, nullptr);
  EXPECT_EQ(d[7].range, 0u);

  EXPECT_EQ(d[8].data, BufferBytes(3) + 1000);
  EXPECT_EQ(d[8].range, 24u);
}

TEST_F(DescriptorSets, WritesOverflowIntoConsecutiveBindings) {
  // Binding 2 has no elements and binding 3 does not exist: both are passed over.
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 3),
                                             Binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1),
                                             Binding(2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 0),
                                             Binding(4, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4)});
  DescriptorSet* set = Allocate(MakePool(), layout);
  ASSERT_NE(set, nullptr);
  std::vector<VkDescriptorBufferInfo> infos;
  for (uint32_t i = 0; i < 5; ++i) infos.push_back({buffer(i % 4), 16 * i, 16});
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  w.dstSet = ToHandle(set);
  w.dstBinding = 0;
  w.dstArrayElement = 2;
  w.descriptorCount = 5;
  w.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  w.pBufferInfo = infos.data();
  api::UpdateDescriptorSets(device(), 1, &w, 0, nullptr);

  // Records: binding 0 -> 0..2, binding 1 -> 3, binding 4 -> 4..7.
  EXPECT_EQ(set->descriptors[0].type, VK_DESCRIPTOR_TYPE_MAX_ENUM);
  EXPECT_EQ(set->descriptors[1].type, VK_DESCRIPTOR_TYPE_MAX_ENUM);
  for (uint32_t i = 0; i < 5; ++i) {
    SCOPED_TRACE(i);
    const Descriptor& d = set->descriptors[2 + i];
    EXPECT_EQ(d.type, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
    EXPECT_EQ(d.data, BufferBytes(i % 4) + 16 * i);
  }
  EXPECT_EQ(set->descriptors[7].type, VK_DESCRIPTOR_TYPE_MAX_ENUM);
}

TEST_F(DescriptorSets, InlineBlockWritesAreBytesAndOverflowIntoTheNextBlock) {
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 32),
                                             Binding(1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16)});
  DescriptorSet* set = Allocate(MakePool(), layout);
  ASSERT_NE(set, nullptr);
  std::array<uint8_t, 16> bytes;
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(0xa0 + i);
  VkWriteDescriptorSetInlineUniformBlock block{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, nullptr,
                                               uint32_t(bytes.size()), bytes.data()};
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &block};
  w.dstSet = ToHandle(set);
  w.dstBinding = 0;
  w.dstArrayElement = 24;  // byte offset
  w.descriptorCount = 16;  // bytes: 8 in binding 0, 8 in binding 1
  w.descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
  api::UpdateDescriptorSets(device(), 1, &w, 0, nullptr);

  const uint32_t second = set->Find(1)->inline_offset;
  EXPECT_EQ(second, 32u);
  EXPECT_EQ(std::memcmp(set->inline_data.data() + 24, bytes.data(), 8), 0);
  EXPECT_EQ(std::memcmp(set->inline_data.data() + second, bytes.data() + 8, 8), 0);
  EXPECT_EQ(set->inline_data[23], std::byte{0});
  EXPECT_EQ(set->inline_data[second + 8], std::byte{0});
  // Shaders see the bytes through the block's record.
  EXPECT_EQ(set->descriptors[set->Find(1)->first_descriptor].data, set->inline_data.data() + second);
}

TEST_F(DescriptorSets, CopiesRecordsAndInlineBytesAcrossBindings) {
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),
                                             Binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),
                                             Binding(2, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 8),
                                             Binding(3, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 8)});
  VkDescriptorPool pool = MakePool();
  DescriptorSet* src = Allocate(pool, layout);
  DescriptorSet* dst = Allocate(pool, layout);
  ASSERT_NE(src, nullptr);
  ASSERT_NE(dst, nullptr);

  const VkDescriptorBufferInfo infos[4] = {
      {buffer(0), 0, 64}, {buffer(1), 0, 64}, {buffer(2), 0, 64}, {buffer(3), 0, 64}};
  const uint8_t bytes[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  VkWriteDescriptorSetInlineUniformBlock block{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, nullptr,
                                               16, bytes};
  VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
  writes[0].dstSet = ToHandle(src);
  writes[0].dstBinding = 0;
  writes[0].descriptorCount = 4;
  writes[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  writes[0].pBufferInfo = infos;
  writes[1].pNext = &block;
  writes[1].dstSet = ToHandle(src);
  writes[1].dstBinding = 2;
  writes[1].descriptorCount = 16;
  writes[1].descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;

  // Elements 1..3 of the source (binding 0[1], 1[0], 1[1]) to dst binding 0[0..1], 1[0];
  // bytes 4..11 of the source blocks to byte 6 on of the destination's.
  VkCopyDescriptorSet copies[2] = {{VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET}};
  copies[0].srcSet = ToHandle(src);
  copies[0].srcBinding = 0;
  copies[0].srcArrayElement = 1;
  copies[0].dstSet = ToHandle(dst);
  copies[0].dstBinding = 0;
  copies[0].dstArrayElement = 0;
  copies[0].descriptorCount = 3;
  copies[1].srcSet = ToHandle(src);
  copies[1].srcBinding = 2;
  copies[1].srcArrayElement = 4;
  copies[1].dstSet = ToHandle(dst);
  copies[1].dstBinding = 2;
  copies[1].dstArrayElement = 6;
  copies[1].descriptorCount = 8;
  api::UpdateDescriptorSets(device(), 2, writes, 2, copies);

  for (uint32_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(dst->descriptors[i].type, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    EXPECT_EQ(dst->descriptors[i].buffer, &buffers_[i + 1]);
    EXPECT_EQ(dst->descriptors[i].data, BufferBytes(i + 1));
  }
  EXPECT_EQ(dst->descriptors[3].type, VK_DESCRIPTOR_TYPE_MAX_ENUM);

  const std::byte* dst_bytes = dst->inline_data.data();
  const uint32_t second = dst->Find(3)->inline_offset;
  // Source bytes 4..7 are block 2's tail, 8..11 block 3's head (values 5..12).
  EXPECT_EQ(dst_bytes[6], std::byte{5});
  EXPECT_EQ(dst_bytes[7], std::byte{6});
  for (uint32_t i = 0; i < 6; ++i) EXPECT_EQ(dst_bytes[second + i], std::byte(7 + i)) << i;
  EXPECT_EQ(dst_bytes[second + 6], std::byte{0});
  // The copy did not disturb the destination's inline record.
  EXPECT_EQ(dst->descriptors[dst->Find(3)->first_descriptor].data, dst->inline_data.data() + second);
}

TEST_F(DescriptorSets, TemplatesReadAStridedApplicationStruct) {
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2),
                                             Binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1),
                                             Binding(2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1),
                                             Binding(3, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 8)});
  DescriptorSet* set = Allocate(MakePool(), layout);
  ASSERT_NE(set, nullptr);

  // One application record per element, fields in an order of its own.
  struct Record {
    uint32_t tag;
    VkDescriptorBufferInfo buffer;
    VkDescriptorImageInfo image;
    VkBufferView texel;
  };
  struct Data {
    Record records[2];
    float block[2];
  } data{};
  data.records[0] = {1, {buffer(3), 32, 64}, {sampler(0), view(1), VK_IMAGE_LAYOUT_GENERAL}, ToHandle(&texel_view_)};
  data.records[1] = {2, {buffer(1), 0, VK_WHOLE_SIZE}, {}, VK_NULL_HANDLE};
  data.block[0] = 1.5f;
  data.block[1] = -2.0f;

  const VkDescriptorUpdateTemplateEntry entries[] = {
      {0, 0, 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, offsetof(Data, records) + offsetof(Record, buffer), sizeof(Record)},
      {1, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, offsetof(Data, records) + offsetof(Record, image),
       sizeof(Record)},
      {2, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, offsetof(Data, records) + offsetof(Record, texel),
       sizeof(Record)},
      {3, 0, 8, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, offsetof(Data, block), 0},
  };
  VkDescriptorUpdateTemplateCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  ci.descriptorUpdateEntryCount = uint32_t(std::size(entries));
  ci.pDescriptorUpdateEntries = entries;
  ci.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  ci.descriptorSetLayout = layout;
  VkDescriptorUpdateTemplate update_template = VK_NULL_HANDLE;
  ASSERT_EQ(api::CreateDescriptorUpdateTemplate(device(), &ci, nullptr, &update_template), VK_SUCCESS);
  api::UpdateDescriptorSetWithTemplate(device(), ToHandle(set), update_template, &data);
  api::DestroyDescriptorUpdateTemplate(device(), update_template, nullptr);

  EXPECT_EQ(set->descriptors[0].data, BufferBytes(3) + 32);
  EXPECT_EQ(set->descriptors[0].range, 64u);
  EXPECT_EQ(set->descriptors[1].data, BufferBytes(1));
  EXPECT_EQ(set->descriptors[1].range, 1024u);
  EXPECT_EQ(set->descriptors[2].image_view, &views_[1]);
  EXPECT_EQ(set->descriptors[2].sampler, &samplers_[0]);
  EXPECT_EQ(set->descriptors[3].buffer_view, &texel_view_);
  float block[2];
  std::memcpy(block, set->inline_data.data() + set->Find(3)->inline_offset, sizeof block);
  EXPECT_EQ(block[0], 1.5f);
  EXPECT_EQ(block[1], -2.0f);
}

TEST_F(DescriptorSets, VariableCountSizesTheLastBinding) {
  const VkDescriptorBindingFlags flags[] = {0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT};
  VkDescriptorSetLayoutBindingFlagsCreateInfo flags_info{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, nullptr, 2, flags};
  VkDescriptorSetLayout layout = MakeLayout(
      {Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2), Binding(1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 100)},
      &flags_info);
  VkDescriptorPool pool = MakePool();
  const uint32_t counts[] = {10};
  VkDescriptorSetVariableDescriptorCountAllocateInfo variable{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO, nullptr, 1, counts};
  DescriptorSet* set = Allocate(pool, layout, &variable);
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(set->variable_count, 10u);
  EXPECT_EQ(set->Find(1)->count, 10u);
  EXPECT_EQ(set->descriptors.size(), 2u + 10u);
  EXPECT_EQ(FromHandle<DescriptorSetLayout>(layout)->Find(1)->count, 100u);
  const DescriptorPool* pool_object = FromHandle<DescriptorPool>(pool);
  EXPECT_EQ(pool_object->used[VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE], 10u);

  DescriptorSet* unsized = Allocate(pool, layout);  // no count given: 0
  ASSERT_NE(unsized, nullptr);
  EXPECT_EQ(unsized->Find(1)->count, 0u);
  EXPECT_EQ(unsized->descriptors.size(), 2u);
  EXPECT_EQ(pool_object->used[VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE], 10u);
}

TEST_F(DescriptorSets, PoolCountsWhatSetsTakeAndGivesItBack) {
  VkDescriptorSetLayout layout = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3),
                                             Binding(1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64)});
  VkDescriptorPool pool = MakePool(8, VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT);
  const DescriptorPool* p = FromHandle<DescriptorPool>(pool);
  const VkDescriptorSetLayout layouts[3] = {layout, layout, layout};
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 3, layouts};
  VkDescriptorSet sets[3];
  ASSERT_EQ(api::AllocateDescriptorSets(device(), &ai, sets), VK_SUCCESS);
  EXPECT_EQ(p->sets.size(), 3u);
  EXPECT_EQ(p->used[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER], 9u);
  EXPECT_EQ(p->used[DescriptorTypeSlot(VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)], 192u);
  EXPECT_EQ(p->used_inline_blocks, 3u);
  for (const DescriptorSet* set : p->sets) EXPECT_EQ(p->sets[set->pool_index], set);

  const VkDescriptorSet to_free[2] = {sets[0], VK_NULL_HANDLE};
  EXPECT_EQ(api::FreeDescriptorSets(device(), pool, 2, to_free), VK_SUCCESS);
  EXPECT_EQ(p->sets.size(), 2u);
  EXPECT_EQ(p->used[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER], 6u);
  EXPECT_EQ(p->used_inline_blocks, 2u);
  for (const DescriptorSet* set : p->sets) EXPECT_EQ(p->sets[set->pool_index], set);

  EXPECT_EQ(api::ResetDescriptorPool(device(), pool, 0), VK_SUCCESS);
  EXPECT_TRUE(p->sets.empty());
  EXPECT_EQ(p->used[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER], 0u);
  EXPECT_EQ(p->used_inline_blocks, 0u);
}

TEST_F(DescriptorSets, PipelineLayoutCopiesBindingsAndNumbersDynamicOffsets) {
  VkDescriptorSetLayout a = MakeLayout({Binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2),
                                        Binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1)});
  VkDescriptorSetLayout b = MakeLayout({Binding(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 4)});
  const VkDescriptorSetLayout sets[4] = {a, VK_NULL_HANDLE, b, a};
  const VkPushConstantRange ranges[2] = {{VK_SHADER_STAGE_VERTEX_BIT, 0, 16},
                                         {VK_SHADER_STAGE_FRAGMENT_BIT, 64, 32}};
  VkPipelineLayoutCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  ci.setLayoutCount = 4;
  ci.pSetLayouts = sets;
  ci.pushConstantRangeCount = 2;
  ci.pPushConstantRanges = ranges;
  VkPipelineLayout handle = VK_NULL_HANDLE;
  ASSERT_EQ(api::CreatePipelineLayout(device(), &ci, nullptr, &handle), VK_SUCCESS);
  // The set layouts may go before the pipeline layout does.
  for (VkDescriptorSetLayout layout : layouts_) api::DestroyDescriptorSetLayout(device(), layout, nullptr);
  layouts_.clear();

  const PipelineLayout* layout = FromHandle<PipelineLayout>(handle);
  ASSERT_EQ(layout->set_bindings.size(), 4u);
  EXPECT_EQ(layout->set_bindings[0].size(), 2u);
  EXPECT_TRUE(layout->set_bindings[1].empty());
  ASSERT_EQ(layout->set_bindings[2].size(), 1u);
  EXPECT_EQ(layout->set_bindings[2][0].binding, 3u);
  EXPECT_EQ(layout->set_bindings[2][0].count, 4u);
  EXPECT_EQ(layout->set_dynamic_offset_start, (std::pmr::vector<uint32_t>{0, 3, 3, 7}));
  EXPECT_EQ(layout->dynamic_offset_count, 10u);
  EXPECT_EQ(layout->push_constant_size, 96u);
  EXPECT_EQ(layout->push_constant_ranges.size(), 2u);
  api::DestroyPipelineLayout(device(), handle, nullptr);
}

}  // namespace
}  // namespace duet

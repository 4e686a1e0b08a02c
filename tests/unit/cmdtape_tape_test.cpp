// Recording into command tapes through the generated vkCmd* entry points:
// order and growth, and deep copies that outlive the application's memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "cmdtape/command_buffer.h"
#include "cmdtape/tape_copy.h"
#include "cmdtape/tape_records.h"
#include "dispatch/entrypoints.h"

namespace duet {
namespace {

using namespace cmdtape;

// Handles are only stored, never dereferenced: any distinct value will do.
template <typename Handle>
Handle FakeHandle(uint64_t value) {
  if constexpr (std::is_pointer_v<Handle>) return reinterpret_cast<Handle>(static_cast<uintptr_t>(value));
  else return static_cast<Handle>(value);
}

// A command buffer in the recording state, built without a device.
class RecordingCommandBuffer {
 public:
  RecordingCommandBuffer() { buffer_.state = CommandBufferState::kRecording; }
  VkCommandBuffer handle() { return ToHandle(&buffer_); }
  const Tape& tape() const { return buffer_.tape; }
  const CommandBuffer& buffer() const { return buffer_; }

  // The only record on the tape, as type R.
  template <typename R>
  const R& OnlyRecord() const {
    EXPECT_EQ(tape().RecordCount(), 1u);
    EXPECT_EQ(tape().First()->op, R::kOp);
    return RecordOf<R>(tape().First());
  }

 private:
  CommandPool pool_{nullptr};
  CommandBuffer buffer_{&pool_, VK_COMMAND_BUFFER_LEVEL_PRIMARY};
};

// Overwrites and frees the application's copy, as an application may right
// after the vkCmd* call returns.
template <typename T>
void Scribble(std::unique_ptr<T[]>& array, size_t count) {
  std::memset(static_cast<void*>(array.get()), 0xab, sizeof(T) * count);
  array.reset();
}

TEST(CmdTape, GrowsPastManyChunksAndKeepsOrder) {
  RecordingCommandBuffer cb;
  constexpr uint32_t kDraws = 100000;
  for (uint32_t i = 0; i < kDraws; ++i) api::CmdDraw(cb.handle(), 3, 1, i, 0);

  ASSERT_EQ(cb.tape().RecordCount(), kDraws);
  EXPECT_GT(cb.tape().BytesUsed(), 100 * 16 * 1024u);  // far more than one 16 KiB chunk
  uint32_t expected = 0;
  for (const RecordHeader* h = cb.tape().First(); h != nullptr; h = h->next, ++expected) {
    ASSERT_EQ(h->op, Op::kCmdDraw);
    const auto& draw = RecordOf<CmdDrawRecord>(h);
    ASSERT_EQ(draw.firstVertex, expected);
    ASSERT_EQ(draw.vertexCount, 3u);
  }
  EXPECT_EQ(expected, kDraws);
}

TEST(CmdTape, NotRecordingRecordsNothing) {
  RecordingCommandBuffer cb;
  const_cast<CommandBuffer&>(cb.buffer()).state = CommandBufferState::kExecutable;
  api::CmdDraw(cb.handle(), 3, 1, 0, 0);
  EXPECT_EQ(cb.tape().RecordCount(), 0u);
  EXPECT_EQ(cb.buffer().record_error, VK_SUCCESS);
}

TEST(CmdTape, ScalarArgumentsAndFixedArrays) {
  RecordingCommandBuffer cb;
  const float constants[4] = {0.5f, 1.0f, 0.0f, 0.25f};
  api::CmdSetBlendConstants(cb.handle(), constants);
  const auto& record = cb.OnlyRecord<CmdSetBlendConstantsRecord>();
  EXPECT_EQ(std::memcmp(record.blendConstants, constants, sizeof constants), 0);
}

TEST(CmdTape, CopyBuffer2SurvivesTheApplicationFreeingItsStructs) {
  RecordingCommandBuffer cb;
  // An extension struct the driver does not know: left out of the copy.
  auto unknown = std::make_unique<VkSampleLocationsInfoEXT[]>(1);
  unknown[0] = {VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT};
  auto regions = std::make_unique<VkBufferCopy2[]>(3);
  for (uint64_t i = 0; i < 3; ++i)
    regions[i] = {VK_STRUCTURE_TYPE_BUFFER_COPY_2, unknown.get(), i * 100, i * 100 + 8, 16 + i};
  auto info = std::make_unique<VkCopyBufferInfo2[]>(1);
  info[0] = {VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2, unknown.get(), FakeHandle<VkBuffer>(0x1000),
             FakeHandle<VkBuffer>(0x2000), 3, regions.get()};
  const VkCopyBufferInfo2* app_info = info.get();
  const VkBufferCopy2* app_regions = regions.get();

  api::CmdCopyBuffer2(cb.handle(), info.get());
  Scribble(info, 1);
  Scribble(regions, 3);
  Scribble(unknown, 1);

  const auto& record = cb.OnlyRecord<CmdCopyBuffer2Record>();
  const VkCopyBufferInfo2* copy = record.pCopyBufferInfo;
  ASSERT_NE(copy, nullptr);
  EXPECT_NE(copy, app_info);
  EXPECT_EQ(copy->sType, VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2);
  EXPECT_EQ(copy->pNext, nullptr);
  EXPECT_EQ(copy->srcBuffer, FakeHandle<VkBuffer>(0x1000));
  EXPECT_EQ(copy->dstBuffer, FakeHandle<VkBuffer>(0x2000));
  ASSERT_EQ(copy->regionCount, 3u);
  ASSERT_NE(copy->pRegions, nullptr);
  EXPECT_NE(copy->pRegions, app_regions);
  for (uint64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(copy->pRegions[i].sType, VK_STRUCTURE_TYPE_BUFFER_COPY_2);
    EXPECT_EQ(copy->pRegions[i].pNext, nullptr);
    EXPECT_EQ(copy->pRegions[i].srcOffset, i * 100);
    EXPECT_EQ(copy->pRegions[i].dstOffset, i * 100 + 8);
    EXPECT_EQ(copy->pRegions[i].size, 16 + i);
  }
}

TEST(CmdTape, KnownChainStructsAreDeepCopiedInOrder) {
  Tape tape;
  const VkImageView views[2] = {FakeHandle<VkImageView>(0x11), FakeHandle<VkImageView>(0x22)};
  const VkRect2D areas[1] = {{{1, 2}, {30, 40}}};
  VkRenderPassAttachmentBeginInfo attachments{VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO, nullptr, 2, views};
  VkSampleLocationsInfoEXT unknown{VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT, &attachments};
  VkDeviceGroupRenderPassBeginInfo group{VK_STRUCTURE_TYPE_DEVICE_GROUP_RENDER_PASS_BEGIN_INFO, &unknown, 1, 1, areas};
  VkClearValue clear{};
  clear.color.float32[0] = 1.0f;
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, &group, FakeHandle<VkRenderPass>(0x5),
                              FakeHandle<VkFramebuffer>(0x6), {{0, 0}, {64, 64}}, 1, &clear};

  const VkRenderPassBeginInfo* copy = CopyVkRenderPassBeginInfo(tape, &begin, 1);
  std::memset(&attachments, 0, sizeof attachments);
  std::memset(&group, 0, sizeof group);
  std::memset(&clear, 0, sizeof clear);

  ASSERT_NE(copy, nullptr);
  ASSERT_EQ(copy->clearValueCount, 1u);
  EXPECT_EQ(copy->pClearValues[0].color.float32[0], 1.0f);
  auto* first = static_cast<const VkDeviceGroupRenderPassBeginInfo*>(copy->pNext);
  ASSERT_NE(first, nullptr);
  EXPECT_NE(static_cast<const void*>(first), static_cast<const void*>(&group));
  ASSERT_EQ(first->sType, VK_STRUCTURE_TYPE_DEVICE_GROUP_RENDER_PASS_BEGIN_INFO);
  EXPECT_EQ(first->deviceMask, 1u);
  ASSERT_EQ(first->deviceRenderAreaCount, 1u);
  EXPECT_NE(first->pDeviceRenderAreas, areas);
  EXPECT_EQ(first->pDeviceRenderAreas[0].extent.height, 40u);
  // The unknown struct between the two is dropped; the chain continues past it.
  auto* second = static_cast<const VkRenderPassAttachmentBeginInfo*>(first->pNext);
  ASSERT_NE(second, nullptr);
  ASSERT_EQ(second->sType, VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO);
  ASSERT_EQ(second->attachmentCount, 2u);
  EXPECT_NE(second->pAttachments, views);
  EXPECT_EQ(second->pAttachments[1], views[1]);
  EXPECT_EQ(second->pNext, nullptr);
}

TEST(CmdTape, RenderingInfoOptionalAttachments) {
  RecordingCommandBuffer cb;
  auto colors = std::make_unique<VkRenderingAttachmentInfo[]>(2);
  auto depth = std::make_unique<VkRenderingAttachmentInfo[]>(1);
  for (uint64_t i = 0; i < 2; ++i) {
    colors[i] = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    colors[i].imageView = FakeHandle<VkImageView>(0x100 + i);
    colors[i].clearValue.color.uint32[2] = 7 + static_cast<uint32_t>(i);
  }
  depth[0] = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth[0].imageView = FakeHandle<VkImageView>(0x200);
  depth[0].clearValue.depthStencil = {0.5f, 3};
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, 0}, {16, 16}};
  info.layerCount = 1;
  info.colorAttachmentCount = 2;
  info.pColorAttachments = colors.get();

  // Depth only, then depth and stencil sharing one attachment.
  info.pDepthAttachment = depth.get();
  api::CmdBeginRendering(cb.handle(), &info);
  info.pStencilAttachment = depth.get();
  api::CmdBeginRendering(cb.handle(), &info);
  const VkRenderingAttachmentInfo* app_depth = depth.get();
  Scribble(colors, 2);
  Scribble(depth, 1);

  ASSERT_EQ(cb.tape().RecordCount(), 2u);
  const VkRenderingInfo* depth_only = RecordOf<CmdBeginRenderingRecord>(cb.tape().First()).pRenderingInfo;
  const VkRenderingInfo* both = RecordOf<CmdBeginRenderingRecord>(cb.tape().First()->next).pRenderingInfo;
  for (const VkRenderingInfo* copy : {depth_only, both}) {
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(copy->renderArea.extent.width, 16u);
    ASSERT_EQ(copy->colorAttachmentCount, 2u);
    EXPECT_EQ(copy->pColorAttachments[1].imageView, FakeHandle<VkImageView>(0x101));
    EXPECT_EQ(copy->pColorAttachments[1].clearValue.color.uint32[2], 8u);
    ASSERT_NE(copy->pDepthAttachment, nullptr);
    EXPECT_NE(copy->pDepthAttachment, app_depth);
    EXPECT_EQ(copy->pDepthAttachment->imageView, FakeHandle<VkImageView>(0x200));
    EXPECT_EQ(copy->pDepthAttachment->clearValue.depthStencil.depth, 0.5f);
  }
  EXPECT_EQ(depth_only->pStencilAttachment, nullptr);
  ASSERT_NE(both->pStencilAttachment, nullptr);
  EXPECT_EQ(both->pStencilAttachment->clearValue.depthStencil.stencil, 3u);
}

TEST(CmdTape, UpdateBufferAndPushConstantBytes) {
  RecordingCommandBuffer cb;
  auto data = std::make_unique<uint8_t[]>(260);
  for (int i = 0; i < 260; ++i) data[i] = static_cast<uint8_t>(i * 7);
  std::vector<uint8_t> expected(data.get(), data.get() + 260);
  api::CmdUpdateBuffer(cb.handle(), FakeHandle<VkBuffer>(0x30), 4, 260, data.get());
  api::CmdPushConstants(cb.handle(), FakeHandle<VkPipelineLayout>(0x40), VK_SHADER_STAGE_FRAGMENT_BIT, 16, 12,
                        data.get() + 3);
  Scribble(data, 260);

  ASSERT_EQ(cb.tape().RecordCount(), 2u);
  const auto& update = RecordOf<CmdUpdateBufferRecord>(cb.tape().First());
  EXPECT_EQ(update.dstBuffer, FakeHandle<VkBuffer>(0x30));
  EXPECT_EQ(update.dstOffset, 4u);
  ASSERT_EQ(update.dataSize, 260u);
  EXPECT_EQ(std::memcmp(update.pData, expected.data(), 260), 0);
  const auto& push = RecordOf<CmdPushConstantsRecord>(cb.tape().First()->next);
  EXPECT_EQ(push.stageFlags, static_cast<VkShaderStageFlags>(VK_SHADER_STAGE_FRAGMENT_BIT));
  EXPECT_EQ(push.offset, 16u);
  ASSERT_EQ(push.size, 12u);
  EXPECT_EQ(std::memcmp(push.pValues, expected.data() + 3, 12), 0);
}

TEST(CmdTape, EmptyArraysAndNullOptionalArraysStayNull) {
  RecordingCommandBuffer cb;
  const VkBuffer buffers[2] = {FakeHandle<VkBuffer>(1), FakeHandle<VkBuffer>(2)};
  const VkDeviceSize offsets[2] = {0, 64};
  api::CmdBindVertexBuffers2(cb.handle(), 0, 2, buffers, offsets, nullptr, nullptr);
  const auto& bind = cb.OnlyRecord<CmdBindVertexBuffers2Record>();
  EXPECT_EQ(bind.pBuffers[1], buffers[1]);
  EXPECT_EQ(bind.pOffsets[1], 64u);
  EXPECT_EQ(bind.pSizes, nullptr);
  EXPECT_EQ(bind.pStrides, nullptr);

  Tape tape;
  EXPECT_EQ(CopyVkBufferCopy(tape, nullptr, 4), nullptr);
  const VkBufferCopy region{};
  EXPECT_EQ(CopyVkBufferCopy(tape, &region, 0), nullptr);
}

TEST(CmdTape, DebugLabelStringIsCopied) {
  RecordingCommandBuffer cb;
  auto name = std::make_unique<char[]>(16);
  std::strcpy(name.get(), "shadow pass");
  VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, nullptr, name.get(), {1, 0, 0, 1}};
  api::CmdBeginDebugUtilsLabelEXT(cb.handle(), &label);
  Scribble(name, 16);
  const auto& record = cb.OnlyRecord<CmdBeginDebugUtilsLabelEXTRecord>();
  ASSERT_NE(record.pLabelInfo, nullptr);
  EXPECT_STREQ(record.pLabelInfo->pLabelName, "shadow pass");
  EXPECT_EQ(record.pLabelInfo->color[3], 1.0f);
}

}  // namespace
}  // namespace duet

// The generated record visitor and the text dump of tapes.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "cmdtape/command_buffer.h"
#include "cmdtape/tape_dump.h"
#include "cmdtape/tape_records.h"
#include "dispatch/entrypoints.h"

namespace duet {
namespace {

using namespace cmdtape;

template <typename Handle>
Handle FakeHandle(uint64_t value) {
  if constexpr (std::is_pointer_v<Handle>) return reinterpret_cast<Handle>(static_cast<uintptr_t>(value));
  else return static_cast<Handle>(value);
}

class RecordingCommandBuffer {
 public:
  RecordingCommandBuffer() { buffer_.state = CommandBufferState::kRecording; }
  VkCommandBuffer handle() { return ToHandle(&buffer_); }
  const Tape& tape() const { return buffer_.tape; }

  // The dump lines of the tape, without their '\n'.
  std::vector<std::string> Lines() const {
    std::vector<std::string> lines;
    std::string text = DumpTape(buffer_.tape);
    for (size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
      lines.push_back(text.substr(start, end - start));
    return lines;
  }

 private:
  CommandPool pool_{nullptr};
  CommandBuffer buffer_{&pool_, VK_COMMAND_BUFFER_LEVEL_PRIMARY};
};

TEST(CmdTapeDump, CopyBufferLine) {
  RecordingCommandBuffer cb;
  const VkBufferCopy regions[2] = {{0, 16, 64}, {128, 256, 8}};
  api::CmdCopyBuffer(cb.handle(), FakeHandle<VkBuffer>(0x5581a0), FakeHandle<VkBuffer>(0xbeef), 2, regions);
  EXPECT_EQ(DumpRecord(cb.tape().First()),
            "vkCmdCopyBuffer srcBuffer=0x5581a0 dstBuffer=0xbeef regionCount=2 "
            "pRegions=[{srcOffset=0 dstOffset=16 size=64}, {srcOffset=128 dstOffset=256 size=8}]");
}

TEST(CmdTapeDump, ScalarsFloatsFlagsBytesAndUnions) {
  RecordingCommandBuffer cb;
  const float constants[4] = {0.5f, 1.0f, 0.0f, -2.25f};
  api::CmdSetBlendConstants(cb.handle(), constants);
  api::CmdDrawIndexed(cb.handle(), 36, 2, 0, -4, 1);
  const uint8_t bytes[5] = {0x01, 0x02, 0xfe, 0x00, 0x7f};
  api::CmdPushConstants(cb.handle(), FakeHandle<VkPipelineLayout>(0x9),
                        VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 5, bytes);
  VkClearColorValue color{};
  color.float32[0] = 1.0f;
  color.uint32[3] = 0xff;
  const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  api::CmdClearColorImage(cb.handle(), FakeHandle<VkImage>(0xa), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1,
                          &range);
  api::CmdEndRenderPass(cb.handle());

  std::vector<std::string> lines = cb.Lines();
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "vkCmdSetBlendConstants blendConstants=[0.5, 1, 0, -2.25]");
  EXPECT_EQ(lines[1], "vkCmdDrawIndexed indexCount=36 instanceCount=2 firstIndex=0 vertexOffset=-4 firstInstance=1");
  EXPECT_EQ(lines[2],
            "vkCmdPushConstants layout=0x9 stageFlags=0x11 offset=0 size=5 pValues=<5 bytes: 01 02 fe 00 7f>");
  EXPECT_EQ(lines[3],
            "vkCmdClearColorImage image=0xa imageLayout=7 pColor={0x3f800000 0x0 0x0 0xff} rangeCount=1 "
            "pRanges=[{aspectMask=0x1 baseMipLevel=0 levelCount=1 baseArrayLayer=0 layerCount=1}]");
  EXPECT_EQ(lines[4], "vkCmdEndRenderPass");
}

TEST(CmdTapeDump, NestedStructsOptionalPointersStringsAndChains) {
  RecordingCommandBuffer cb;
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = FakeHandle<VkImageView>(0x77);
  VkDeviceGroupRenderPassBeginInfo group{VK_STRUCTURE_TYPE_DEVICE_GROUP_RENDER_PASS_BEGIN_INFO, nullptr, 1, 0, nullptr};
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO, &group};
  info.renderArea = {{1, 2}, {3, 4}};
  info.layerCount = 1;
  info.colorAttachmentCount = 1;
  info.pColorAttachments = &color;
  api::CmdBeginRendering(cb.handle(), &info);
  VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, nullptr, "gbuffer", {1, 0.5f, 0, 1}};
  api::CmdInsertDebugUtilsLabelEXT(cb.handle(), &label);

  std::vector<std::string> lines = cb.Lines();
  ASSERT_EQ(lines.size(), 2u);
  const std::string& rendering = lines[0];
  EXPECT_EQ(rendering.rfind("vkCmdBeginRendering pRenderingInfo={flags=0x0 renderArea={offset={x=1 y=2} "
                            "extent={width=3 height=4}} layerCount=1 viewMask=0 colorAttachmentCount=1 "
                            "pColorAttachments=[{imageView=0x77 ",
                            0),
            0u)
      << rendering;
  EXPECT_NE(rendering.find(" pDepthAttachment=null pStencilAttachment=null"), std::string::npos) << rendering;
  EXPECT_NE(rendering.find(" pNext=VkDeviceGroupRenderPassBeginInfo{deviceMask=1 deviceRenderAreaCount=0 "
                           "pDeviceRenderAreas=null}}"),
            std::string::npos)
      << rendering;
  EXPECT_EQ(lines[1], "vkCmdInsertDebugUtilsLabelEXT pLabelInfo={pLabelName=\"gbuffer\" color=[1, 0.5, 0, 1]}");
}

// A visitor in the shape the replay loop uses: overloads for the records it
// handles, a template for the rest.
struct CountingVisitor {
  std::vector<std::string> seen;
  void operator()(const CmdDrawRecord& r) { seen.push_back("draw " + std::to_string(r.vertexCount)); }
  void operator()(const CmdCopyBufferRecord& r) { seen.push_back("copy " + std::to_string(r.regionCount)); }
  template <typename R>
  void operator()(const R&) {
    seen.push_back(std::string("other ") + OpName(R::kOp));
  }
};

TEST(CmdTapeVisit, DispatchesToTheOverloadOfEachOp) {
  RecordingCommandBuffer cb;
  const VkBufferCopy region{0, 0, 4};
  api::CmdDraw(cb.handle(), 3, 1, 0, 0);
  api::CmdCopyBuffer(cb.handle(), FakeHandle<VkBuffer>(1), FakeHandle<VkBuffer>(2), 1, &region);
  api::CmdDispatch(cb.handle(), 1, 1, 1);
  api::CmdDraw(cb.handle(), 6, 1, 0, 0);

  CountingVisitor visitor;
  for (const RecordHeader* h = cb.tape().First(); h != nullptr; h = h->next) VisitRecord(h, visitor);
  EXPECT_EQ(visitor.seen, (std::vector<std::string>{"draw 3", "copy 1", "other vkCmdDispatch", "draw 6"}));
}

// Every op reaches the record type of that op, has a name, and dumps without
// crashing even when all its members are zero (null arrays, zero counts).
TEST(CmdTapeVisit, EveryOpMatchesItsRecordTypeAndDumps) {
  struct alignas(std::max_align_t) ZeroedRecord {
    RecordHeader header;
    unsigned char storage[1024];
  };
  for (uint16_t value = 0; value < static_cast<uint16_t>(Op::kCount); ++value) {
    const Op op = static_cast<Op>(value);
    ZeroedRecord record;
    std::memset(&record, 0, sizeof record);
    record.header.op = op;
    bool visited = false;
    VisitRecord(&record.header, [&](const auto& r) {
      using R = std::decay_t<decltype(r)>;
      static_assert(sizeof(R) <= sizeof record.storage);
      EXPECT_EQ(R::kOp, op);
      visited = true;
    });
    EXPECT_TRUE(visited) << value;
    const std::string name = OpName(op);
    EXPECT_EQ(name.rfind("vkCmd", 0), 0u) << name;
    EXPECT_EQ(DumpRecord(&record.header).rfind(name, 0), 0u);
  }
}

}  // namespace
}  // namespace duet

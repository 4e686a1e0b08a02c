// Replays a tape: one visit per record, dispatched by the generated
// VisitRecord switch to an overload of TapeExecutor. Records without an
// overload yet are skipped with one log line per command kind.
#include "cmdtape/replay.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <set>
#include <type_traits>

#include "cmdtape/command_buffer.h"
#include "cmdtape/graphics_commands.h"
#include "cmdtape/tape_records.h"
#include "objects/buffer.h"
#include "objects/descriptor_set.h"
#include "objects/pipeline.h"
#include "objects/image.h"
#include "objects/query_pool.h"
#include "primitive/transform_feedback.h"
#include "objects/device.h"
#include "objects/sync.h"
#include "raster/transfer_buffer.h"
#include "raster/draw.h"
#include "raster/transfer_blit.h"
#include "raster/transfer_clear.h"
#include "raster/transfer_copy.h"
#include "raster/transfer_resolve.h"
#include "raster/render_pass_state.h"
#include "spirv_exec/compute_dispatch.h"
#include "util/log.h"

namespace duet::cmdtape {
namespace {

void LogSkippedOnce(Op op) {
  static std::mutex mutex;
  static std::set<Op> reported;
  std::lock_guard lock(mutex);
  if (reported.insert(op).second) DUET_WARN("%s is recorded but not executed yet; skipped", OpName(op));
}

// Records that write no image but attachments of the render pass instance
// they are in (which RenderPassState follows): state, barriers, events,
// render pass boundaries, draws (those whose shaders store count in
// TapeExecutor::Draw), queries, and writes of buffers only (the images
// KnownClear follows share their memory with no buffer). Every other
// record counts in Device::image_writes.
template <typename R>
constexpr bool kSetsDrawState = requires(const R& r, raster::DrawBindings& b) { ApplyDrawState(r, b); };
template <typename... R>
constexpr bool kOneOf = false;
template <typename R, typename... Of>
constexpr bool kOneOf<R, Of...> = (std::is_same_v<R, Of> || ...);
template <typename R>
constexpr bool WritesOnlyAttachments() {
  return kSetsDrawState<R> ||
         kOneOf<R, CmdPipelineBarrierRecord, CmdPipelineBarrier2Record, CmdBindPipelineRecord,
                CmdBindDescriptorSetsRecord, CmdPushDescriptorSetKHRRecord, CmdPushConstantsRecord, CmdDrawRecord, CmdDrawIndexedRecord,
                CmdDrawMultiEXTRecord, CmdDrawMultiIndexedEXTRecord,
                CmdDrawIndirectRecord, CmdDrawIndexedIndirectRecord, CmdDrawIndirectCountRecord,
                CmdDrawIndexedIndirectCountRecord, CmdBeginRenderPassRecord, CmdBeginRenderPass2Record,
                CmdNextSubpassRecord, CmdNextSubpass2Record, CmdEndRenderPassRecord, CmdEndRenderPass2Record,
                CmdBeginRenderingRecord, CmdEndRenderingRecord, CmdClearAttachmentsRecord, CmdExecuteCommandsRecord,
                CmdBeginDebugUtilsLabelEXTRecord, CmdEndDebugUtilsLabelEXTRecord, CmdInsertDebugUtilsLabelEXTRecord,
                CmdSetDeviceMaskRecord,
                CmdSetEventRecord, CmdSetEvent2Record, CmdResetEventRecord, CmdResetEvent2Record, CmdWaitEventsRecord,
                CmdWaitEvents2Record, CmdBeginQueryRecord, CmdEndQueryRecord, CmdResetQueryPoolRecord,
                CmdWriteTimestampRecord, CmdWriteTimestamp2Record, CmdCopyQueryPoolResultsRecord, CmdUpdateBufferRecord,
                CmdFillBufferRecord, CmdCopyBufferRecord, CmdCopyBuffer2Record, CmdCopyImageToBufferRecord,
                CmdCopyImageToBuffer2Record>;
}

class TapeExecutor {
 public:
  explicit TapeExecutor(Device* device) : device_(device), render_pass_(&device->image_writes) {}

  void Run(const Tape& tape) {
    auto visit = [this](const auto& record) {
      if constexpr (!WritesOnlyAttachments<std::decay_t<decltype(record)>>()) ++device_->image_writes;
      (*this)(record);
    };
    for (const RecordHeader* h = tape.First(); h != nullptr && !device_->lost; h = h->next) VisitRecord(h, visit);
  }

  // The Intel GPU's blitter for large fills and copies, when the device has one.
  intel_rcs::IntelTransfers* Gpu() const { return device_->intel_transfers.get(); }

  // Execution is in order on one thread, so barriers only need to exist.
  void operator()(const CmdPipelineBarrierRecord&) {}
  void operator()(const CmdPipelineBarrier2Record&) {}

  void operator()(const CmdSetEventRecord& r) { SetEvent(device_, FromHandle<Event>(r.event), true); }
  void operator()(const CmdSetEvent2Record& r) { SetEvent(device_, FromHandle<Event>(r.event), true); }
  void operator()(const CmdResetEventRecord& r) { SetEvent(device_, FromHandle<Event>(r.event), false); }
  void operator()(const CmdResetEvent2Record& r) { SetEvent(device_, FromHandle<Event>(r.event), false); }
  void operator()(const CmdWaitEventsRecord& r) { WaitFor(r.pEvents, r.eventCount); }
  void operator()(const CmdWaitEvents2Record& r) { WaitFor(r.pEvents, r.eventCount); }

  void operator()(const CmdExecuteCommandsRecord& r) {
    for (uint32_t i = 0; i < r.commandBufferCount; ++i) Run(FromHandle<CommandBuffer>(r.pCommandBuffers[i])->tape);
  }

  void operator()(const CmdFillBufferRecord& r) {
    raster::FillBuffer(FromHandle<Buffer>(r.dstBuffer), r.dstOffset, r.size, r.data, Gpu());
  }
  void operator()(const CmdUpdateBufferRecord& r) {
    std::memcpy(FromHandle<Buffer>(r.dstBuffer)->Data() + r.dstOffset, r.pData, r.dataSize);
  }
  void operator()(const CmdCopyBufferRecord& r) {
    raster::CopyBuffer(FromHandle<Buffer>(r.srcBuffer), FromHandle<Buffer>(r.dstBuffer), r.pRegions, r.regionCount,
                       Gpu());
  }
  void operator()(const CmdCopyBuffer2Record& r) {
    const VkCopyBufferInfo2& info = *r.pCopyBufferInfo;
    for (uint32_t i = 0; i < info.regionCount; ++i) {
      const VkBufferCopy2& region = info.pRegions[i];
      VkBufferCopy plain{region.srcOffset, region.dstOffset, region.size};
      raster::CopyBuffer(FromHandle<Buffer>(info.srcBuffer), FromHandle<Buffer>(info.dstBuffer), &plain, 1, Gpu());
    }
  }

  void operator()(const CmdCopyImageRecord& r) {
    for (uint32_t i = 0; i < r.regionCount; ++i) {
      const VkImageCopy& c = r.pRegions[i];
      raster::CopyImage(*FromHandle<Image>(r.srcImage), *FromHandle<Image>(r.dstImage),
                        {VK_STRUCTURE_TYPE_IMAGE_COPY_2, nullptr, c.srcSubresource, c.srcOffset, c.dstSubresource,
                         c.dstOffset, c.extent},
                        Gpu());
    }
  }
  void operator()(const CmdCopyImage2Record& r) {
    const VkCopyImageInfo2& info = *r.pCopyImageInfo;
    for (uint32_t i = 0; i < info.regionCount; ++i)
      raster::CopyImage(*FromHandle<Image>(info.srcImage), *FromHandle<Image>(info.dstImage), info.pRegions[i],
                        Gpu());
  }
  void operator()(const CmdCopyBufferToImageRecord& r) {
    for (uint32_t i = 0; i < r.regionCount; ++i)
      raster::CopyBufferToImage(*FromHandle<Buffer>(r.srcBuffer), *FromHandle<Image>(r.dstImage),
                                BufferImageCopy2(r.pRegions[i]));
  }
  void operator()(const CmdCopyBufferToImage2Record& r) {
    const VkCopyBufferToImageInfo2& info = *r.pCopyBufferToImageInfo;
    for (uint32_t i = 0; i < info.regionCount; ++i)
      raster::CopyBufferToImage(*FromHandle<Buffer>(info.srcBuffer), *FromHandle<Image>(info.dstImage),
                                info.pRegions[i]);
  }
  void operator()(const CmdCopyImageToBufferRecord& r) {
    for (uint32_t i = 0; i < r.regionCount; ++i)
      raster::CopyImageToBuffer(*FromHandle<Image>(r.srcImage), *FromHandle<Buffer>(r.dstBuffer),
                                BufferImageCopy2(r.pRegions[i]));
  }
  void operator()(const CmdCopyImageToBuffer2Record& r) {
    const VkCopyImageToBufferInfo2& info = *r.pCopyImageToBufferInfo;
    for (uint32_t i = 0; i < info.regionCount; ++i)
      raster::CopyImageToBuffer(*FromHandle<Image>(info.srcImage), *FromHandle<Buffer>(info.dstBuffer),
                                info.pRegions[i]);
  }

  void operator()(const CmdClearColorImageRecord& r) {
    for (uint32_t i = 0; i < r.rangeCount; ++i)
      raster::ClearColorImage(*FromHandle<Image>(r.image), *r.pColor, r.pRanges[i], Gpu());
  }
  void operator()(const CmdClearDepthStencilImageRecord& r) {
    for (uint32_t i = 0; i < r.rangeCount; ++i)
      raster::ClearDepthStencilImage(*FromHandle<Image>(r.image), *r.pDepthStencil, r.pRanges[i]);
  }
  void operator()(const CmdBlitImageRecord& r) {
    for (uint32_t i = 0; i < r.regionCount; ++i) {
      const VkImageBlit& b = r.pRegions[i];
      const VkImageBlit2 blit{VK_STRUCTURE_TYPE_IMAGE_BLIT_2, nullptr, b.srcSubresource,
                              {b.srcOffsets[0], b.srcOffsets[1]}, b.dstSubresource, {b.dstOffsets[0], b.dstOffsets[1]}};
      raster::BlitImage(*FromHandle<Image>(r.srcImage), *FromHandle<Image>(r.dstImage), blit, r.filter);
    }
  }
  void operator()(const CmdBlitImage2Record& r) {
    const VkBlitImageInfo2& info = *r.pBlitImageInfo;
    for (uint32_t i = 0; i < info.regionCount; ++i)
      raster::BlitImage(*FromHandle<Image>(info.srcImage), *FromHandle<Image>(info.dstImage), info.pRegions[i],
                        info.filter);
  }
  void operator()(const CmdResolveImageRecord& r) {
    for (uint32_t i = 0; i < r.regionCount; ++i) {
      const VkImageResolve& c = r.pRegions[i];
      raster::ResolveImage(*FromHandle<Image>(r.srcImage), *FromHandle<Image>(r.dstImage),
                           {VK_STRUCTURE_TYPE_IMAGE_RESOLVE_2, nullptr, c.srcSubresource, c.srcOffset,
                            c.dstSubresource, c.dstOffset, c.extent});
    }
  }
  void operator()(const CmdResolveImage2Record& r) {
    const VkResolveImageInfo2& info = *r.pResolveImageInfo;
    for (uint32_t i = 0; i < info.regionCount; ++i)
      raster::ResolveImage(*FromHandle<Image>(info.srcImage), *FromHandle<Image>(info.dstImage), info.pRegions[i]);
  }

  // Queries. Occlusion queries count samples that pass the depth and
  // stencil tests of draws between begin and end; pipeline statistics
  // queries what the draws and dispatches between them did (secondary
  // command buffers executed meanwhile included). Inside a multiview render
  // pass instance a query takes one index per view of the view mask: the
  // first holds the result of all views, the others 0 (timestamps: each
  // holds the time), as the spec lets an implementation choose.
  void operator()(const CmdResetQueryPoolRecord& r) {
    ResetQueries(device_, FromHandle<QueryPool>(r.queryPool), r.firstQuery, r.queryCount);
  }
  void operator()(const CmdWriteTimestampRecord& r) { WriteTimestamp(r.queryPool, r.query); }
  void operator()(const CmdWriteTimestamp2Record& r) { WriteTimestamp(r.queryPool, r.query); }
  void operator()(const CmdBeginQueryRecord& r) { BeginQuery(FromHandle<QueryPool>(r.queryPool), 0); }
  void operator()(const CmdEndQueryRecord& r) { EndQuery(FromHandle<QueryPool>(r.queryPool), r.query, 0); }
  // Transform feedback stream and primitives-generated queries count the
  // vertex stream `index`.
  void operator()(const CmdBeginQueryIndexedEXTRecord& r) {
    BeginQuery(FromHandle<QueryPool>(r.queryPool), r.index);
  }
  void operator()(const CmdEndQueryIndexedEXTRecord& r) {
    EndQuery(FromHandle<QueryPool>(r.queryPool), r.query, r.index);
  }
  void operator()(const CmdCopyQueryPoolResultsRecord& r) {
    WriteQueryResults(device_, FromHandle<QueryPool>(r.queryPool), r.firstQuery, r.queryCount,
                      FromHandle<Buffer>(r.dstBuffer)->Data() + r.dstOffset, r.stride, r.flags,
                      QueryResultsCaller::kQueue);
  }

  // Transform feedback (primitive/transform_feedback): buffers bound at
  // replay, written by draws between begin and end, resuming where counter
  // buffers say and leaving the byte counts there at the end.
  void operator()(const CmdBindTransformFeedbackBuffersEXTRecord& r) {
    for (uint32_t i = 0; i < r.bindingCount && r.firstBinding + i < 4; ++i) {
      raster::TransformFeedback::Binding& b = transform_feedback_.bindings[r.firstBinding + i];
      b.buffer = FromHandle<Buffer>(r.pBuffers[i]);
      b.offset = r.pOffsets[i];
      const VkDeviceSize size = r.pSizes != nullptr ? r.pSizes[i] : VK_WHOLE_SIZE;
      const VkDeviceSize available = b.buffer != nullptr && b.buffer->size > b.offset ? b.buffer->size - b.offset : 0;
      b.size = std::min(size, available);
    }
  }
  void operator()(const CmdBeginTransformFeedbackEXTRecord& r) {
    transform_feedback_.written = {};
    for (uint32_t i = 0; i < r.counterBufferCount && r.pCounterBuffers != nullptr; ++i) {
      const Buffer* counter = FromHandle<Buffer>(r.pCounterBuffers[i]);
      const VkDeviceSize at = r.pCounterBufferOffsets != nullptr ? r.pCounterBufferOffsets[i] : 0;
      uint32_t value = 0;
      if (counter != nullptr && counter->Data() != nullptr && at + 4 <= counter->size)
        std::memcpy(&value, counter->Data() + at, 4);
      if (r.firstCounterBuffer + i < 4) transform_feedback_.written[r.firstCounterBuffer + i] = value;
    }
    transform_feedback_active_ = true;
  }
  void operator()(const CmdEndTransformFeedbackEXTRecord& r) {
    for (uint32_t i = 0; i < r.counterBufferCount && r.pCounterBuffers != nullptr; ++i) {
      const Buffer* counter = FromHandle<Buffer>(r.pCounterBuffers[i]);
      const VkDeviceSize at = r.pCounterBufferOffsets != nullptr ? r.pCounterBufferOffsets[i] : 0;
      if (counter == nullptr || counter->Data() == nullptr || at + 4 > counter->size || r.firstCounterBuffer + i >= 4)
        continue;
      const uint32_t value = uint32_t(transform_feedback_.written[r.firstCounterBuffer + i]);
      std::memcpy(counter->Data() + at, &value, 4);
    }
    transform_feedback_active_ = false;
  }
  // As many vertices as a counter buffer's byte count holds records of `vertexStride`.
  void operator()(const CmdDrawIndirectByteCountEXTRecord& r) {
    const Buffer* counter = FromHandle<Buffer>(r.counterBuffer);
    uint32_t bytes = 0;
    if (counter != nullptr && counter->Data() != nullptr && r.counterBufferOffset + 4 <= counter->size)
      std::memcpy(&bytes, counter->Data() + r.counterBufferOffset, 4);
    const uint32_t vertices = r.vertexStride != 0 && bytes > r.counterOffset ? (bytes - r.counterOffset) / r.vertexStride : 0;
    Draw({false, vertices, r.instanceCount, 0, 0, r.firstInstance, 0});
  }

  // Compute: bindings are state of the command buffer's replay.
  ShaderBindings& BindPoint(VkPipelineBindPoint point) {
    return point == VK_PIPELINE_BIND_POINT_COMPUTE ? compute_ : graphics_.shader;
  }
  void operator()(const CmdBindPipelineRecord& r) { BindPoint(r.pipelineBindPoint).pipeline = FromHandle<Pipeline>(r.pipeline); }
  void operator()(const CmdBindDescriptorSetsRecord& r) {
    ShaderBindings& bound = BindPoint(r.pipelineBindPoint);
    uint32_t next_offset = 0;
    for (uint32_t i = 0; i < r.descriptorSetCount && r.firstSet + i < kMaxBoundDescriptorSets; ++i) {
      const DescriptorSet* set = FromHandle<DescriptorSet>(r.pDescriptorSets[i]);
      bound.sets[r.firstSet + i] = set;
      // Dynamic offsets are consumed in set order, binding order within a set.
      std::vector<uint32_t>& offsets = bound.dynamic_offsets[r.firstSet + i];
      offsets.clear();
      if (set == nullptr) continue;
      for (const DescriptorSetLayoutBinding& b : set->bindings) {
        if (b.type != VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC && b.type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)
          continue;
        for (uint32_t e = 0; e < b.count && next_offset < r.dynamicOffsetCount; ++e)
          offsets.push_back(r.pDynamicOffsets[next_offset++]);
      }
    }
  }
  // Push descriptors: the set was written when recorded (push_descriptor_recording.cpp).
  void operator()(const CmdPushDescriptorSetKHRRecord& r) {
    if (r.set >= kMaxBoundDescriptorSets) return;
    ShaderBindings& bound = BindPoint(r.pipelineBindPoint);
    bound.sets[r.set] = r.pushed;
    bound.dynamic_offsets[r.set].clear();  // push descriptor sets hold no dynamic buffers
  }
  // Push constants belong to the command buffer, not to a bind point.
  void operator()(const CmdPushConstantsRecord& r) {
    if (r.offset + r.size > kMaxPushConstantBytes) return;
    std::memcpy(compute_.push_constants.data() + r.offset, r.pValues, r.size);
    std::memcpy(graphics_.shader.push_constants.data() + r.offset, r.pValues, r.size);
  }

  // Draws. Indirect draws read their parameters from the buffer at replay.
  template <typename R>
    requires requires(const R& r, raster::DrawBindings& b) { ApplyDrawState(r, b); }
  void operator()(const R& r) {
    ApplyDrawState(r, graphics_);
  }
  void operator()(const CmdDrawRecord& r) {
    Draw({false, r.vertexCount, r.instanceCount, r.firstVertex, 0, r.firstInstance, 0});
  }
  void operator()(const CmdDrawIndexedRecord& r) {
    Draw({true, r.indexCount, r.instanceCount, r.firstIndex, r.vertexOffset, r.firstInstance, 0});
  }
  // VK_EXT_multi_draw: draws one after the other, gl_DrawID numbering them
  // (the tape holds the arrays packed).
  void operator()(const CmdDrawMultiEXTRecord& r) {
    for (uint32_t i = 0; i < r.drawCount && r.pVertexInfo != nullptr; ++i)
      Draw({false, r.pVertexInfo[i].vertexCount, r.instanceCount, r.pVertexInfo[i].firstVertex, 0, r.firstInstance, i});
  }
  void operator()(const CmdDrawMultiIndexedEXTRecord& r) {
    for (uint32_t i = 0; i < r.drawCount && r.pIndexInfo != nullptr; ++i) {
      const VkMultiDrawIndexedInfoEXT& d = r.pIndexInfo[i];
      const int32_t vertex_offset = r.pVertexOffset != nullptr ? *r.pVertexOffset : d.vertexOffset;
      Draw({true, d.indexCount, r.instanceCount, d.firstIndex, vertex_offset, r.firstInstance, i});
    }
  }
  void operator()(const CmdDrawIndirectRecord& r) { DrawIndirect(false, r.buffer, r.offset, r.drawCount, r.stride); }
  void operator()(const CmdDrawIndexedIndirectRecord& r) {
    DrawIndirect(true, r.buffer, r.offset, r.drawCount, r.stride);
  }
  void operator()(const CmdDrawIndirectCountRecord& r) {
    DrawIndirect(false, r.buffer, r.offset, IndirectCount(r.countBuffer, r.countBufferOffset, r.maxDrawCount), r.stride);
  }
  void operator()(const CmdDrawIndexedIndirectCountRecord& r) {
    DrawIndirect(true, r.buffer, r.offset, IndirectCount(r.countBuffer, r.countBufferOffset, r.maxDrawCount), r.stride);
  }
  void operator()(const CmdDispatchRecord& r) {
    const uint32_t base[3] = {0, 0, 0};
    const uint32_t count[3] = {r.groupCountX, r.groupCountY, r.groupCountZ};
    Dispatch(base, count);
  }
  void operator()(const CmdDispatchBaseRecord& r) {
    const uint32_t base[3] = {r.baseGroupX, r.baseGroupY, r.baseGroupZ};
    const uint32_t count[3] = {r.groupCountX, r.groupCountY, r.groupCountZ};
    Dispatch(base, count);
  }
  void operator()(const CmdDispatchIndirectRecord& r) {
    VkDispatchIndirectCommand command;
    std::memcpy(&command, FromHandle<Buffer>(r.buffer)->Data() + r.offset, sizeof command);
    const uint32_t base[3] = {0, 0, 0};
    const uint32_t count[3] = {command.x, command.y, command.z};
    Dispatch(base, count);
  }

  // Render pass instances: targets, load-op clears, resolves (raster/render_pass_state).
  void operator()(const CmdBeginRenderPassRecord& r) { render_pass_.BeginRenderPass(*r.pRenderPassBegin); }
  void operator()(const CmdBeginRenderPass2Record& r) { render_pass_.BeginRenderPass(*r.pRenderPassBegin); }
  void operator()(const CmdNextSubpassRecord&) { render_pass_.NextSubpass(); }
  void operator()(const CmdNextSubpass2Record&) { render_pass_.NextSubpass(); }
  void operator()(const CmdEndRenderPassRecord&) { render_pass_.EndRenderPass(); }
  void operator()(const CmdEndRenderPass2Record&) { render_pass_.EndRenderPass(); }
  void operator()(const CmdBeginRenderingRecord& r) { render_pass_.BeginRendering(*r.pRenderingInfo); }
  void operator()(const CmdEndRenderingRecord&) { render_pass_.EndRendering(); }
  void operator()(const CmdClearAttachmentsRecord& r) {
    if (condition_discards_) return;
    render_pass_.ClearAttachments(r.attachmentCount, r.pAttachments, r.rectCount, r.pRects);
  }

  // VK_EXT_conditional_rendering: draws, dispatches and vkCmdClearAttachments
  // are discarded while the 32-bit predicate read at the begin is zero
  // (non-zero when inverted). Secondary command buffers run here inherit it.
  // A predicate past the buffer's end reads as zero.
  void operator()(const CmdBeginConditionalRenderingEXTRecord& r) {
    const VkConditionalRenderingBeginInfoEXT& info = *r.pConditionalRenderingBegin;
    const Buffer* buffer = FromHandle<Buffer>(info.buffer);
    uint32_t predicate = 0;
    if (buffer != nullptr && buffer->Data() != nullptr && info.offset + sizeof predicate <= buffer->size)
      std::memcpy(&predicate, buffer->Data() + info.offset, sizeof predicate);
    const bool inverted = (info.flags & VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT) != 0;
    condition_discards_ = (predicate == 0) != inverted;
  }
  void operator()(const CmdEndConditionalRenderingEXTRecord&) { condition_discards_ = false; }

  // A device group has one device: every device mask is that device.
  void operator()(const CmdSetDeviceMaskRecord&) {}

  // Labels only annotate; the driver keeps no label stack yet.
  void operator()(const CmdBeginDebugUtilsLabelEXTRecord&) {}
  void operator()(const CmdEndDebugUtilsLabelEXTRecord&) {}
  void operator()(const CmdInsertDebugUtilsLabelEXTRecord&) {}

  template <typename Record>
  void operator()(const Record&) {
    LogSkippedOnce(Record::kOp);
  }

 private:
  // The query indices one query takes: one per view inside a multiview
  // render pass instance, otherwise one.
  uint32_t QueriesPerUse() const {
    const raster::RenderTargets& targets = render_pass_.Targets();
    return targets.active && targets.view_mask != 0 ? uint32_t(std::popcount(targets.view_mask)) : 1;
  }
  void BeginQuery(const QueryPool* pool, uint32_t index) {
    if (index >= 4) return;
    switch (pool->type) {
      case VK_QUERY_TYPE_PIPELINE_STATISTICS:
        statistics_ = {};
        statistics_active_ = true;
        break;
      case VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT:
        xfb_written_[index] = xfb_needed_[index] = 0;
        xfb_query_active_[index] = true;
        break;
      case VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT:
        primitives_generated_[index] = 0;
        primitives_generated_active_[index] = true;
        break;
      default:
        occlusion_samples_ = 0;
        occlusion_active_ = true;
        break;
    }
  }
  void EndQuery(QueryPool* pool, uint32_t query, uint32_t index) {
    if (index >= 4) return;
    std::array<uint64_t, QueryPool::kMaxValues> values{};
    uint32_t count = 1;
    switch (pool->type) {
      case VK_QUERY_TYPE_PIPELINE_STATISTICS:
        statistics_active_ = false;
        count = statistics_.Values(pool->statistics, values.data());
        break;
      case VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT:
        xfb_query_active_[index] = false;
        values[0] = xfb_written_[index];
        values[1] = xfb_needed_[index];
        count = 2;
        break;
      case VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT:
        primitives_generated_active_[index] = false;
        values[0] = primitives_generated_[index];
        break;
      default:
        occlusion_active_ = false;
        values[0] = occlusion_samples_;
        break;
    }
    CompleteQuery(device_, pool, query, {values.data(), count});
    const std::array<uint64_t, QueryPool::kMaxValues> zeros{};
    for (uint32_t view = 1; view < QueriesPerUse(); ++view)
      CompleteQuery(device_, pool, query + view, {zeros.data(), count});
  }
  void WriteTimestamp(VkQueryPool handle, uint32_t query) {
    QueryPool* pool = FromHandle<QueryPool>(handle);
    const uint64_t now = TimestampNow();
    for (uint32_t view = 0; view < QueriesPerUse(); ++view) CompleteQuery(device_, pool, query + view, now);
  }

  void WaitFor(const VkEvent* handles, uint32_t count) {
    std::vector<Event*> events(count);
    for (uint32_t i = 0; i < count; ++i) events[i] = FromHandle<Event>(handles[i]);
    WaitEvents(device_, events.data(), count);
  }

  void Draw(const raster::DrawCall& draw) {
    if (condition_discards_) return;
    const Pipeline* pipeline = graphics_.shader.pipeline;
    const raster::GraphicsPipelineState* g = pipeline != nullptr ? &pipeline->graphics : nullptr;
    if (g != nullptr && (g->vertex.writes_memory || g->fragment.writes_memory || g->geometry.writes_memory ||
                         g->tess_control.writes_memory || g->tess_evaluation.writes_memory))
      ++device_->image_writes;
    raster::DrawCounters counters{occlusion_active_ ? &occlusion_samples_ : nullptr,
                                  statistics_active_ ? &statistics_ : nullptr};
    for (uint32_t s = 0; s < 4; ++s) {
      if (primitives_generated_active_[s]) counters.primitives_generated[s] = &primitives_generated_[s];
      if (xfb_query_active_[s] && transform_feedback_active_) {
        counters.xfb_written[s] = &xfb_written_[s];
        counters.xfb_needed[s] = &xfb_needed_[s];
      }
    }
    if (transform_feedback_active_) counters.transform_feedback = &transform_feedback_;
    raster::ExecuteDraw(device_, graphics_, render_pass_.Targets(), draw, counters);
  }
  void Dispatch(const uint32_t base[3], const uint32_t count[3]) {
    if (condition_discards_) return;
    spirv_exec::RunComputeDispatch(device_, compute_, base, count);
    const Pipeline* pipeline = compute_.pipeline;
    if (statistics_active_ && pipeline != nullptr) {
      const uint32_t* local = pipeline->compute.local_size;
      statistics_.Add(VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT,
                      uint64_t(count[0]) * count[1] * count[2] * local[0] * local[1] * local[2]);
    }
  }
  static uint32_t IndirectCount(VkBuffer buffer, VkDeviceSize offset, uint32_t max_count) {
    uint32_t count = 0;
    std::memcpy(&count, FromHandle<Buffer>(buffer)->Data() + offset, 4);
    return std::min(count, max_count);
  }
  void DrawIndirect(bool indexed, VkBuffer handle, VkDeviceSize offset, uint32_t count, uint32_t stride) {
    const std::byte* data = FromHandle<Buffer>(handle)->Data() + offset;
    for (uint32_t i = 0; i < count; ++i, data += stride) {
      if (indexed) {
        VkDrawIndexedIndirectCommand c;
        std::memcpy(&c, data, sizeof c);
        Draw({true, c.indexCount, c.instanceCount, c.firstIndex, c.vertexOffset, c.firstInstance, i});
      } else {
        VkDrawIndirectCommand c;
        std::memcpy(&c, data, sizeof c);
        Draw({false, c.vertexCount, c.instanceCount, c.firstVertex, 0, c.firstInstance, i});
      }
    }
  }

  static VkBufferImageCopy2 BufferImageCopy2(const VkBufferImageCopy& c) {
    return {VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2, nullptr, c.bufferOffset, c.bufferRowLength, c.bufferImageHeight,
            c.imageSubresource, c.imageOffset, c.imageExtent};
  }

  Device* device_;
  uint64_t occlusion_samples_ = 0;  // samples passed since the active query began
  bool occlusion_active_ = false;
  raster::PipelineStatistics statistics_;  // counted since the active statistics query began
  bool statistics_active_ = false;
  bool condition_discards_ = false;  // inside conditional rendering whose predicate discards
  raster::TransformFeedback transform_feedback_;
  bool transform_feedback_active_ = false;
  // Per vertex stream: active transform feedback stream and primitives-generated queries.
  std::array<uint64_t, 4> xfb_written_{}, xfb_needed_{}, primitives_generated_{};
  std::array<bool, 4> xfb_query_active_{}, primitives_generated_active_{};
  ShaderBindings compute_;
  raster::DrawBindings graphics_;
  raster::RenderPassState render_pass_;
};

}  // namespace

void ReplayTape(Device* device, const Tape& tape) { TapeExecutor(device).Run(tape); }

}  // namespace duet::cmdtape

// vkCmdPushDescriptorSetKHR and vkCmdPushDescriptorSetWithTemplateKHR
// (VK_KHR_push_descriptor). The writes are applied as they are recorded, to
// a new set of the command buffer's own (PushedDescriptorSets): the set
// pushed before to the same bind point and set number, if its layout is the
// same, with the writes on top, since pushes update incrementally. The tape
// gets a vkCmdPushDescriptorSetKHR record holding that set, which replay
// binds. Resolving at record time means replay never looks at the pipeline
// layout, which may be destroyed once recording ends.
#include <algorithm>
#include <memory>
#include <new>
#include <span>

#include "cmdtape/command_buffer.h"
#include "cmdtape/tape_records.h"
#include "dispatch/entrypoints.h"
#include "objects/descriptor_set.h"
#include "objects/descriptor_update.h"
#include "util/log.h"

namespace duet {
namespace {

bool SameBindings(std::span<const DescriptorSetLayoutBinding> a, std::span<const DescriptorSetLayoutBinding> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].binding != b[i].binding || a[i].type != b[i].type || a[i].count != b[i].count ||
        a[i].first_descriptor != b[i].first_descriptor || a[i].inline_offset != b[i].inline_offset ||
        !std::ranges::equal(a[i].immutable_samplers, b[i].immutable_samplers))
      return false;
  }
  return true;
}

size_t BindPointIndex(VkPipelineBindPoint point) { return point == VK_PIPELINE_BIND_POINT_COMPUTE ? 1 : 0; }

// The set a push to (`point`, `set_number`) of `layout` writes into: a copy
// of the latest one when that has the same bindings, else a fresh one.
// nullptr (logged) when the layout has no such set. May throw std::bad_alloc.
DescriptorSet* NextPushedSet(CommandBuffer* buffer, VkPipelineBindPoint point, VkPipelineLayout layout_handle,
                             uint32_t set_number, const char* command) {
  const PipelineLayout* layout = FromHandle<PipelineLayout>(layout_handle);
  if (layout == nullptr || set_number >= layout->set_bindings.size() ||
      set_number >= limits::kMaxBoundDescriptorSets) {
    DUET_ERROR("%s: set %u is not in the pipeline layout; the push is ignored", command, set_number);
    return nullptr;
  }
  const std::pmr::vector<DescriptorSetLayoutBinding>& bindings = layout->set_bindings[set_number];
  const DescriptorSet*& latest = buffer->pushed_sets.latest[BindPointIndex(point)][set_number];

  const VkAllocationCallbacks* allocator = buffer->pool->Allocator();
  DescriptorSet* set = HostNew<DescriptorSet>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, &buffer->pool->memory);
  if (set == nullptr) throw std::bad_alloc();
  std::unique_ptr<DescriptorSet, PushedDescriptorSets::Delete> made(set, {allocator});
  made->bindings = bindings;
  InitializeSet(made.get());
  if (latest != nullptr && SameBindings(latest->bindings, bindings)) {
    // Copy what was pushed before; inline blocks' records point into the new set's bytes.
    made->descriptors = latest->descriptors;
    made->inline_data = latest->inline_data;
    for (const DescriptorSetLayoutBinding& b : made->bindings)
      if (b.IsInlineBlock()) made->descriptors[b.first_descriptor].data = made->inline_data.data() + b.inline_offset;
  }
  buffer->pushed_sets.made.reserve(buffer->pushed_sets.made.size() + 1);
  DescriptorSet* result = made.get();
  buffer->pushed_sets.made.push_back(std::move(made));
  latest = result;
  return result;
}

void AppendPush(cmdtape::Tape* tape, VkPipelineBindPoint point, VkPipelineLayout layout, uint32_t set_number,
                uint32_t write_count, const DescriptorSet* pushed) {
  cmdtape::CmdPushDescriptorSetKHRRecord record{};
  record.pipelineBindPoint = point;
  record.layout = layout;
  record.set = set_number;
  record.descriptorWriteCount = write_count;
  record.pushed = pushed;
  *tape->Append<cmdtape::CmdPushDescriptorSetKHRRecord>() = record;
}

}  // namespace
}  // namespace duet

namespace duet::api {

using namespace cmdtape;

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetKHR(VkCommandBuffer commandBuffer,
                                                   VkPipelineBindPoint pipelineBindPoint, VkPipelineLayout layout,
                                                   uint32_t set, uint32_t descriptorWriteCount,
                                                   const VkWriteDescriptorSet* pDescriptorWrites) {
  Tape* tape = RecordingTape(commandBuffer, "vkCmdPushDescriptorSetKHR");
  if (tape == nullptr) return;
  try {
    CommandBuffer* buffer = FromHandle<CommandBuffer>(commandBuffer);
    DescriptorSet* pushed = NextPushedSet(buffer, pipelineBindPoint, layout, set, "vkCmdPushDescriptorSetKHR");
    if (pushed == nullptr) return;
    for (uint32_t i = 0; i < descriptorWriteCount; ++i) ApplyDescriptorWrite(pushed, pDescriptorWrites[i]);
    AppendPush(tape, pipelineBindPoint, layout, set, descriptorWriteCount, pushed);
  } catch (const std::bad_alloc&) {
    NoteRecordingFailure(commandBuffer);
  }
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer commandBuffer,
                                                               VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                               VkPipelineLayout layout, uint32_t set,
                                                               const void* pData) {
  Tape* tape = RecordingTape(commandBuffer, "vkCmdPushDescriptorSetWithTemplateKHR");
  if (tape == nullptr) return;
  const auto* update_template = FromHandle<DescriptorUpdateTemplate>(descriptorUpdateTemplate);
  if (update_template == nullptr) return;
  try {
    CommandBuffer* buffer = FromHandle<CommandBuffer>(commandBuffer);
    const VkPipelineBindPoint point = update_template->bind_point;
    DescriptorSet* pushed = NextPushedSet(buffer, point, layout, set, "vkCmdPushDescriptorSetWithTemplateKHR");
    if (pushed == nullptr) return;
    ApplyDescriptorTemplate(pushed, *update_template, pData);
    AppendPush(tape, point, layout, set, uint32_t(update_template->entries.size()), pushed);
  } catch (const std::bad_alloc&) {
    NoteRecordingFailure(commandBuffer);
  }
}

}  // namespace duet::api

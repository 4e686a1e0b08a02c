#include "backends/virtio_gpu/queue_channel.h"

#include <cstring>

#include "util/log.h"

namespace duet::virtio_gpu {
namespace {

constexpr size_t kPageSize = 4096;

Command Make(uint32_t type) {
  Command c;
  c.header.type = type;
  return c;
}

}  // namespace

QueueChannel::~QueueChannel() {
  while (!pages_.empty()) UnrefResource(pages_.begin()->first);
}

std::optional<Response> QueueChannel::Send(const Command& command, uint32_t expected) {
  const std::vector<std::byte> bytes = queue_->Submit(EncodeCommand(command));
  std::optional<Response> response = DecodeResponse(bytes);
  if (!response || response->header.type != expected) {
    DUET_WARN("virtio-gpu: %s answered %s", TypeName(command.header.type).c_str(),
              response ? TypeName(response->header.type).c_str() : "nothing readable");
    return std::nullopt;
  }
  return response;
}

bool QueueChannel::GetDisplayInfo(std::vector<ScanoutInfo>* scanouts) {
  std::optional<Response> r = Send(Make(VIRTIO_GPU_CMD_GET_DISPLAY_INFO), VIRTIO_GPU_RESP_OK_DISPLAY_INFO);
  if (!r) return false;
  scanouts->clear();
  for (const DisplayOne& d : r->displays) scanouts->push_back({d.enabled, d.rect, {}});
  return true;
}

bool QueueChannel::ScanoutEnabled(uint32_t scanout) {
  std::vector<ScanoutInfo> scanouts;
  return GetDisplayInfo(&scanouts) && scanout < scanouts.size() && scanouts[scanout].enabled;
}

bool QueueChannel::GetEdid(uint32_t scanout, std::vector<uint8_t>* edid) {
  Command c = Make(VIRTIO_GPU_CMD_GET_EDID);
  c.scanout_id = scanout;
  std::optional<Response> r = Send(c, VIRTIO_GPU_RESP_OK_EDID);
  if (!r) return false;
  *edid = std::move(r->edid);
  return true;
}

uint32_t QueueChannel::CreateResource(uint32_t width, uint32_t height, Backing* backing) {
  const size_t stride = size_t{width} * 4;
  const size_t size = (stride * height + kPageSize - 1) / kPageSize * kPageSize;
  if (size == 0 || size > UINT32_MAX) return 0;  // one mem entry holds the whole resource
  std::unique_ptr<std::byte, FreePages> pages(static_cast<std::byte*>(std::aligned_alloc(kPageSize, size)));
  if (!pages) return 0;
  std::memset(pages.get(), 0, size);

  const uint32_t id = next_resource_++;
  Command create = Make(VIRTIO_GPU_CMD_RESOURCE_CREATE_2D);
  create.resource_id = id;
  create.format = kFormatB8G8R8X8;
  create.width = width;
  create.height = height;
  if (!Send(create)) return 0;
  Command attach = Make(VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING);
  attach.resource_id = id;
  attach.entries.push_back({reinterpret_cast<uintptr_t>(pages.get()), static_cast<uint32_t>(size)});
  if (!Send(attach)) {
    Command unref = Make(VIRTIO_GPU_CMD_RESOURCE_UNREF);
    unref.resource_id = id;
    Send(unref);
    return 0;
  }
  *backing = {pages.get(), stride};
  pages_[id] = std::move(pages);
  return id;
}

void QueueChannel::UnrefResource(uint32_t resource) {
  auto it = pages_.find(resource);
  if (it == pages_.end()) return;
  Command detach = Make(VIRTIO_GPU_CMD_RESOURCE_DETACH_BACKING);
  detach.resource_id = resource;
  Send(detach);
  Command unref = Make(VIRTIO_GPU_CMD_RESOURCE_UNREF);
  unref.resource_id = resource;
  Send(unref);
  pages_.erase(it);  // the device gave the pages back with the detach
}

bool QueueChannel::SetScanout(uint32_t scanout, uint32_t resource, const Rect& rect) {
  Command c = Make(VIRTIO_GPU_CMD_SET_SCANOUT);
  c.scanout_id = scanout;
  c.resource_id = resource;
  c.rect = rect;
  return Send(c).has_value();
}

bool QueueChannel::TransferToHost2D(uint32_t resource, const Rect& box, uint64_t offset) {
  Command c = Make(VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D);
  c.resource_id = resource;
  c.rect = box;
  c.offset = offset;
  return Send(c).has_value();
}

bool QueueChannel::Flush(uint32_t resource, const Rect& rect, uint64_t* fence) {
  Command c = Make(VIRTIO_GPU_CMD_RESOURCE_FLUSH);
  c.resource_id = resource;
  c.rect = rect;
  if (fence != nullptr) {
    c.header.flags |= VIRTIO_GPU_FLAG_FENCE;
    c.header.fence_id = *fence = next_fence_++;
  }
  return Send(c).has_value();
}

bool QueueChannel::WaitFence(uint64_t fence) { return queue_->WaitFence(fence); }

}  // namespace duet::virtio_gpu

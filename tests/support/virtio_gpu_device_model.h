// A virtio-gpu device model for the backend's unit tests: the device side
// of the 2D control queue. It decodes every command byte for byte
// (backends/virtio_gpu/protocol), checks it as the specification asks
// (known resources, rectangles inside them, backing attached), keeps a host
// copy of each resource and what each scanout shows, and answers with the
// specification's response structs.
//
// Like QEMU, it may read a transfer's guest pages later than the command
// arrives (defer_transfers): only when a fence is waited for, or a command
// that must see them (detach, unref) comes. A transfer whose pages changed
// between its command and that read is counted in torn_reads: the driver
// wrote pages the host had not read yet.
#pragma once

#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <vector>

#include "backends/virtio_gpu/protocol.h"
#include "backends/virtio_gpu/queue_channel.h"

namespace duet::virtio_gpu::testing {

class DeviceModel final : public ControlQueue {
 public:
  struct Resource {
    uint32_t format = 0, width = 0, height = 0;
    std::vector<MemEntry> backing;
    std::vector<uint8_t> host;  // width * height * 4 bytes
  };
  struct Scanout {
    bool enabled = false;
    Rect rect;  // GET_DISPLAY_INFO's size, then what SET_SCANOUT showed
    uint32_t resource = 0;
    std::vector<uint8_t> edid;
  };

  DeviceModel() = default;

  // --- what tests set
  std::array<Scanout, kMaxScanouts> scanouts{};
  bool defer_transfers = true;
  // SET_SCANOUT commands this returns true for fail with ERR_INVALID_PARAMETER.
  std::function<bool(const Command&)> refuse_scanout;

  // --- what tests read
  std::vector<Command> commands;  // every command, decoded, in order
  std::map<uint32_t, Resource> resources;
  int malformed = 0, errors = 0, torn_reads = 0;
  uint64_t completed_fence = 0;

  size_t Count(uint32_t type) const {
    size_t n = 0;
    for (const Command& c : commands) n += c.header.type == type;
    return n;
  }
  std::vector<Command> Since(size_t first, uint32_t type) const {
    std::vector<Command> out;
    for (size_t i = first; i < commands.size(); ++i)
      if (commands[i].header.type == type) out.push_back(commands[i]);
    return out;
  }
  size_t pending() const { return pending_.size(); }

  // The pixels scanout `index` shows (B8G8R8X8 rows), empty when it shows nothing.
  std::vector<uint8_t> Screen(uint32_t index) const {
    const Scanout& s = scanouts[index];
    auto it = resources.find(s.resource);
    if (s.resource == 0 || it == resources.end()) return {};
    std::vector<uint8_t> out;
    for (uint32_t y = 0; y < s.rect.height; ++y) {
      const uint8_t* row = it->second.host.data() + (size_t{s.rect.y + y} * it->second.width + s.rect.x) * 4;
      out.insert(out.end(), row, row + size_t{s.rect.width} * 4);
    }
    return out;
  }

  std::vector<std::byte> Submit(std::span<const std::byte> bytes) override {
    std::optional<Command> decoded = DecodeCommand(bytes);
    if (!decoded) {
      ++malformed;
      return Answer(Header{}, VIRTIO_GPU_RESP_ERR_UNSPEC);
    }
    const Command& c = *decoded;
    commands.push_back(c);
    Response response;
    response.header.type = Execute(c, &response);
    if (response.header.type >= VIRTIO_GPU_RESP_ERR_UNSPEC) ++errors;
    if (c.header.flags & VIRTIO_GPU_FLAG_FENCE) {
      response.header.flags = VIRTIO_GPU_FLAG_FENCE;
      response.header.fence_id = c.header.fence_id;
      fences_.push_back(c.header.fence_id);
      if (!defer_transfers) Complete();
    }
    return EncodeResponse(response);
  }

  bool WaitFence(uint64_t fence_id) override {
    if (std::find(fences_.begin(), fences_.end(), fence_id) == fences_.end()) return fence_id <= completed_fence;
    Complete();
    return true;
  }

  // The host gets to everything queued (QEMU's main loop running).
  void Complete() {
    RunPending();
    for (uint64_t f : fences_) completed_fence = std::max(completed_fence, f);
    fences_.clear();
  }

 private:
  struct PendingTransfer {
    Command command;
    std::vector<uint8_t> seen;  // the guest bytes when the command came
  };

  std::vector<std::byte> Answer(Header h, uint32_t type) {
    Response r;
    r.header = h;
    r.header.type = type;
    return EncodeResponse(r);
  }

  // The guest bytes the transfer reads, the way QEMU's 2D transfer reads
  // them: row r of the box from offset + r * (resource width * 4).
  bool ReadGuest(const Resource& res, const Command& c, std::vector<uint8_t>* out) const {
    const size_t stride = size_t{res.width} * 4;
    out->clear();
    for (uint32_t row = 0; row < c.rect.height; ++row) {
      for (size_t i = 0; i < size_t{c.rect.width} * 4; ++i) {
        size_t at = c.offset + row * stride + i;
        const uint8_t* byte = nullptr;
        for (const MemEntry& e : res.backing) {
          if (at < e.length) {
            byte = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(e.addr)) + at;
            break;
          }
          at -= e.length;
        }
        if (byte == nullptr) return false;
        out->push_back(*byte);
      }
    }
    return true;
  }

  void RunTransfer(const PendingTransfer& p) {
    auto it = resources.find(p.command.resource_id);
    if (it == resources.end()) return;
    Resource& res = it->second;
    std::vector<uint8_t> now;
    if (!ReadGuest(res, p.command, &now)) return;
    if (now != p.seen) ++torn_reads;
    const size_t row_bytes = size_t{p.command.rect.width} * 4;
    for (uint32_t row = 0; row < p.command.rect.height; ++row)
      std::memcpy(res.host.data() + (size_t{p.command.rect.y + row} * res.width + p.command.rect.x) * 4,
                  now.data() + row * row_bytes, row_bytes);
  }

  void RunPending() {
    for (const PendingTransfer& p : pending_) RunTransfer(p);
    pending_.clear();
  }

  static bool Inside(const Rect& r, const Resource& res) {
    return uint64_t{r.x} + r.width <= res.width && uint64_t{r.y} + r.height <= res.height;
  }

  uint32_t Execute(const Command& c, Response* response) {
    auto res = resources.find(c.resource_id);
    const bool known = res != resources.end();
    switch (c.header.type) {
      case VIRTIO_GPU_CMD_GET_DISPLAY_INFO:
        for (size_t i = 0; i < kMaxScanouts; ++i) response->displays[i] = {scanouts[i].rect, scanouts[i].enabled, 0};
        return VIRTIO_GPU_RESP_OK_DISPLAY_INFO;
      case VIRTIO_GPU_CMD_GET_EDID:
        if (c.scanout_id >= kMaxScanouts) return VIRTIO_GPU_RESP_ERR_INVALID_SCANOUT_ID;
        if (scanouts[c.scanout_id].edid.empty()) return VIRTIO_GPU_RESP_ERR_INVALID_PARAMETER;
        response->edid = scanouts[c.scanout_id].edid;
        return VIRTIO_GPU_RESP_OK_EDID;
      case VIRTIO_GPU_CMD_RESOURCE_CREATE_2D:
        if (c.resource_id == 0 || known) return VIRTIO_GPU_RESP_ERR_INVALID_RESOURCE_ID;
        if (c.format != VIRTIO_GPU_FORMAT_B8G8R8X8_UNORM || c.width == 0 || c.height == 0)
          return VIRTIO_GPU_RESP_ERR_INVALID_PARAMETER;
        resources[c.resource_id] = {c.format, c.width, c.height, {}, std::vector<uint8_t>(size_t{c.width} * c.height * 4)};
        return VIRTIO_GPU_RESP_OK_NODATA;
      case VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING:
        if (!known) return VIRTIO_GPU_RESP_ERR_INVALID_RESOURCE_ID;
        if (!res->second.backing.empty() || c.entries.empty()) return VIRTIO_GPU_RESP_ERR_UNSPEC;
        res->second.backing = c.entries;
        return VIRTIO_GPU_RESP_OK_NODATA;
      case VIRTIO_GPU_CMD_RESOURCE_DETACH_BACKING:
        if (!known) return VIRTIO_GPU_RESP_ERR_INVALID_RESOURCE_ID;
        RunPending();  // in order: earlier transfers read the pages first
        res->second.backing.clear();
        return VIRTIO_GPU_RESP_OK_NODATA;
      case VIRTIO_GPU_CMD_RESOURCE_UNREF:
        if (!known) return VIRTIO_GPU_RESP_ERR_INVALID_RESOURCE_ID;
        RunPending();
        for (Scanout& s : scanouts)
          if (s.resource == c.resource_id) s.resource = 0;  // the scanout goes dark
        resources.erase(res);
        return VIRTIO_GPU_RESP_OK_NODATA;
      case VIRTIO_GPU_CMD_SET_SCANOUT:
        if (c.scanout_id >= kMaxScanouts || !scanouts[c.scanout_id].enabled)
          return VIRTIO_GPU_RESP_ERR_INVALID_SCANOUT_ID;
        if (c.resource_id == 0) {
          scanouts[c.scanout_id].resource = 0;
          return VIRTIO_GPU_RESP_OK_NODATA;
        }
        if (!known) return VIRTIO_GPU_RESP_ERR_INVALID_RESOURCE_ID;
        if (!Inside(c.rect, res->second) || (refuse_scanout && refuse_scanout(c)))
          return VIRTIO_GPU_RESP_ERR_INVALID_PARAMETER;
        scanouts[c.scanout_id].resource = c.resource_id;
        scanouts[c.scanout_id].rect = c.rect;
        return VIRTIO_GPU_RESP_OK_NODATA;
      case VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D: {
        if (!known) return VIRTIO_GPU_RESP_ERR_INVALID_RESOURCE_ID;
        if (res->second.backing.empty() || !Inside(c.rect, res->second)) return VIRTIO_GPU_RESP_ERR_INVALID_PARAMETER;
        PendingTransfer p{c, {}};
        if (!ReadGuest(res->second, c, &p.seen)) return VIRTIO_GPU_RESP_ERR_INVALID_PARAMETER;
        pending_.push_back(std::move(p));
        if (!defer_transfers) RunPending();
        return VIRTIO_GPU_RESP_OK_NODATA;
      }
      case VIRTIO_GPU_CMD_RESOURCE_FLUSH:
        if (!known) return VIRTIO_GPU_RESP_ERR_INVALID_RESOURCE_ID;
        if (!Inside(c.rect, res->second)) return VIRTIO_GPU_RESP_ERR_INVALID_PARAMETER;
        return VIRTIO_GPU_RESP_OK_NODATA;
      default: return VIRTIO_GPU_RESP_ERR_UNSPEC;
    }
  }

  std::vector<PendingTransfer> pending_;
  std::vector<uint64_t> fences_;  // fenced commands not completed yet
};

}  // namespace duet::virtio_gpu::testing

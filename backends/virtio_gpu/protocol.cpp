#include "backends/virtio_gpu/protocol.h"

#include <algorithm>

namespace duet::virtio_gpu {
namespace {

// The structs' sizes in the specification; the encoder writes exactly these.
static_assert(sizeof(virtio_gpu_ctrl_hdr) == 24);
static_assert(sizeof(virtio_gpu_resource_create_2d) == 40);
static_assert(sizeof(virtio_gpu_resource_unref) == 32);
static_assert(sizeof(virtio_gpu_set_scanout) == 48);
static_assert(sizeof(virtio_gpu_resource_flush) == 48);
static_assert(sizeof(virtio_gpu_transfer_to_host_2d) == 56);
static_assert(sizeof(virtio_gpu_resource_attach_backing) == 32);
static_assert(sizeof(virtio_gpu_mem_entry) == 16);
static_assert(sizeof(virtio_gpu_resource_detach_backing) == 32);
static_assert(sizeof(virtio_gpu_cmd_get_edid) == 32);
static_assert(sizeof(virtio_gpu_resp_display_info) == 24 + kMaxScanouts * 24);
static_assert(sizeof(virtio_gpu_resp_edid) == 32 + kMaxEdidSize);

class Writer {
 public:
  void U8(uint8_t v) { bytes_.push_back(std::byte{v}); }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) U8(static_cast<uint8_t>(v >> (8 * i)));
  }
  void U64(uint64_t v) {
    U32(static_cast<uint32_t>(v));
    U32(static_cast<uint32_t>(v >> 32));
  }
  void Pad(size_t n) { bytes_.insert(bytes_.end(), n, std::byte{0}); }
  void RectOf(const Rect& r) {
    U32(r.x);
    U32(r.y);
    U32(r.width);
    U32(r.height);
  }
  void HeaderOf(const Header& h) {
    U32(h.type);
    U32(h.flags);
    U64(h.fence_id);
    U32(h.ctx_id);
    U8(h.ring_idx);
    Pad(3);
  }
  std::vector<std::byte> Take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

class Reader {
 public:
  explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  bool Has(size_t n) const { return bytes_.size() - at_ >= n; }
  uint8_t U8() { return std::to_integer<uint8_t>(bytes_[at_++]); }
  uint32_t U32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t{U8()} << (8 * i);
    return v;
  }
  uint64_t U64() {
    const uint64_t low = U32();
    return low | uint64_t{U32()} << 32;
  }
  void Skip(size_t n) { at_ += n; }
  Rect RectOf() {
    Rect r;
    r.x = U32();
    r.y = U32();
    r.width = U32();
    r.height = U32();
    return r;
  }
  Header HeaderOf() {
    Header h;
    h.type = U32();
    h.flags = U32();
    h.fence_id = U64();
    h.ctx_id = U32();
    h.ring_idx = U8();
    Skip(3);
    return h;
  }

 private:
  std::span<const std::byte> bytes_;
  size_t at_ = 0;
};

// Bytes of the whole struct of a command type (attach backing: without its entries).
size_t CommandSize(uint32_t type) {
  switch (type) {
    case VIRTIO_GPU_CMD_GET_DISPLAY_INFO: return sizeof(virtio_gpu_ctrl_hdr);
    case VIRTIO_GPU_CMD_RESOURCE_CREATE_2D: return sizeof(virtio_gpu_resource_create_2d);
    case VIRTIO_GPU_CMD_RESOURCE_UNREF: return sizeof(virtio_gpu_resource_unref);
    case VIRTIO_GPU_CMD_SET_SCANOUT: return sizeof(virtio_gpu_set_scanout);
    case VIRTIO_GPU_CMD_RESOURCE_FLUSH: return sizeof(virtio_gpu_resource_flush);
    case VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D: return sizeof(virtio_gpu_transfer_to_host_2d);
    case VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING: return sizeof(virtio_gpu_resource_attach_backing);
    case VIRTIO_GPU_CMD_RESOURCE_DETACH_BACKING: return sizeof(virtio_gpu_resource_detach_backing);
    case VIRTIO_GPU_CMD_GET_EDID: return sizeof(virtio_gpu_cmd_get_edid);
    default: return 0;
  }
}

}  // namespace

std::vector<std::byte> EncodeCommand(const Command& c) {
  Writer w;
  w.HeaderOf(c.header);
  switch (c.header.type) {
    case VIRTIO_GPU_CMD_GET_DISPLAY_INFO: break;
    case VIRTIO_GPU_CMD_RESOURCE_CREATE_2D:
      w.U32(c.resource_id);
      w.U32(c.format);
      w.U32(c.width);
      w.U32(c.height);
      break;
    case VIRTIO_GPU_CMD_RESOURCE_UNREF:
    case VIRTIO_GPU_CMD_RESOURCE_DETACH_BACKING:
      w.U32(c.resource_id);
      w.Pad(4);
      break;
    case VIRTIO_GPU_CMD_SET_SCANOUT:
      w.RectOf(c.rect);
      w.U32(c.scanout_id);
      w.U32(c.resource_id);
      break;
    case VIRTIO_GPU_CMD_RESOURCE_FLUSH:
      w.RectOf(c.rect);
      w.U32(c.resource_id);
      w.Pad(4);
      break;
    case VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D:
      w.RectOf(c.rect);
      w.U64(c.offset);
      w.U32(c.resource_id);
      w.Pad(4);
      break;
    case VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING:
      w.U32(c.resource_id);
      w.U32(static_cast<uint32_t>(c.entries.size()));
      for (const MemEntry& e : c.entries) {
        w.U64(e.addr);
        w.U32(e.length);
        w.Pad(4);
      }
      break;
    case VIRTIO_GPU_CMD_GET_EDID:
      w.U32(c.scanout_id);
      w.Pad(4);
      break;
    default: return {};
  }
  return w.Take();
}

std::optional<Command> DecodeCommand(std::span<const std::byte> bytes) {
  Reader r(bytes);
  if (!r.Has(kHeaderSize)) return std::nullopt;
  Command c;
  c.header = r.HeaderOf();
  const size_t size = CommandSize(c.header.type);
  if (size == 0 || bytes.size() < size) return std::nullopt;
  switch (c.header.type) {
    case VIRTIO_GPU_CMD_RESOURCE_CREATE_2D:
      c.resource_id = r.U32();
      c.format = r.U32();
      c.width = r.U32();
      c.height = r.U32();
      break;
    case VIRTIO_GPU_CMD_RESOURCE_UNREF:
    case VIRTIO_GPU_CMD_RESOURCE_DETACH_BACKING: c.resource_id = r.U32(); break;
    case VIRTIO_GPU_CMD_SET_SCANOUT:
      c.rect = r.RectOf();
      c.scanout_id = r.U32();
      c.resource_id = r.U32();
      break;
    case VIRTIO_GPU_CMD_RESOURCE_FLUSH:
      c.rect = r.RectOf();
      c.resource_id = r.U32();
      break;
    case VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D:
      c.rect = r.RectOf();
      c.offset = r.U64();
      c.resource_id = r.U32();
      break;
    case VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING: {
      c.resource_id = r.U32();
      const uint32_t count = r.U32();
      if ((bytes.size() - size) / sizeof(virtio_gpu_mem_entry) < count) return std::nullopt;
      c.entries.resize(count);
      for (MemEntry& e : c.entries) {
        e.addr = r.U64();
        e.length = r.U32();
        r.Skip(4);
      }
      break;
    }
    case VIRTIO_GPU_CMD_GET_EDID: c.scanout_id = r.U32(); break;
    default: break;
  }
  return c;
}

std::vector<std::byte> EncodeResponse(const Response& response) {
  Writer w;
  w.HeaderOf(response.header);
  if (response.header.type == VIRTIO_GPU_RESP_OK_DISPLAY_INFO) {
    for (const DisplayOne& d : response.displays) {
      w.RectOf(d.rect);
      w.U32(d.enabled ? 1 : 0);
      w.U32(d.flags);
    }
  } else if (response.header.type == VIRTIO_GPU_RESP_OK_EDID) {
    const size_t size = std::min(response.edid.size(), kMaxEdidSize);
    w.U32(static_cast<uint32_t>(size));
    w.Pad(4);
    for (size_t i = 0; i < kMaxEdidSize; ++i) w.U8(i < size ? response.edid[i] : 0);
  }
  return w.Take();
}

std::optional<Response> DecodeResponse(std::span<const std::byte> bytes) {
  Reader r(bytes);
  if (!r.Has(kHeaderSize)) return std::nullopt;
  Response response;
  response.header = r.HeaderOf();
  if (response.header.type == VIRTIO_GPU_RESP_OK_DISPLAY_INFO) {
    if (bytes.size() < sizeof(virtio_gpu_resp_display_info)) return std::nullopt;
    for (DisplayOne& d : response.displays) {
      d.rect = r.RectOf();
      d.enabled = r.U32() != 0;
      d.flags = r.U32();
    }
  } else if (response.header.type == VIRTIO_GPU_RESP_OK_EDID) {
    if (bytes.size() < sizeof(virtio_gpu_resp_edid)) return std::nullopt;
    const uint32_t size = std::min<uint32_t>(r.U32(), kMaxEdidSize);
    r.Skip(4);
    response.edid.resize(size);
    for (uint8_t& b : response.edid) b = r.U8();
  }
  return response;
}

std::string TypeName(uint32_t type) {
  switch (type) {
    case VIRTIO_GPU_CMD_GET_DISPLAY_INFO: return "GET_DISPLAY_INFO";
    case VIRTIO_GPU_CMD_RESOURCE_CREATE_2D: return "RESOURCE_CREATE_2D";
    case VIRTIO_GPU_CMD_RESOURCE_UNREF: return "RESOURCE_UNREF";
    case VIRTIO_GPU_CMD_SET_SCANOUT: return "SET_SCANOUT";
    case VIRTIO_GPU_CMD_RESOURCE_FLUSH: return "RESOURCE_FLUSH";
    case VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D: return "TRANSFER_TO_HOST_2D";
    case VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING: return "RESOURCE_ATTACH_BACKING";
    case VIRTIO_GPU_CMD_RESOURCE_DETACH_BACKING: return "RESOURCE_DETACH_BACKING";
    case VIRTIO_GPU_CMD_GET_EDID: return "GET_EDID";
    case VIRTIO_GPU_RESP_OK_NODATA: return "OK_NODATA";
    case VIRTIO_GPU_RESP_OK_DISPLAY_INFO: return "OK_DISPLAY_INFO";
    case VIRTIO_GPU_RESP_OK_EDID: return "OK_EDID";
    case VIRTIO_GPU_RESP_ERR_UNSPEC: return "ERR_UNSPEC";
    case VIRTIO_GPU_RESP_ERR_OUT_OF_MEMORY: return "ERR_OUT_OF_MEMORY";
    case VIRTIO_GPU_RESP_ERR_INVALID_SCANOUT_ID: return "ERR_INVALID_SCANOUT_ID";
    case VIRTIO_GPU_RESP_ERR_INVALID_RESOURCE_ID: return "ERR_INVALID_RESOURCE_ID";
    case VIRTIO_GPU_RESP_ERR_INVALID_CONTEXT_ID: return "ERR_INVALID_CONTEXT_ID";
    case VIRTIO_GPU_RESP_ERR_INVALID_PARAMETER: return "ERR_INVALID_PARAMETER";
    default: return "type " + std::to_string(type);
  }
}

}  // namespace duet::virtio_gpu

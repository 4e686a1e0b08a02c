// The virtio-gpu 2D control-queue protocol as the virtio specification
// (5.7.6 "Device Operation") lays it out: every command and response is a
// little-endian struct that starts with the control header. Encoding and
// decoding go byte by byte, so the layout is the specification's whatever
// the host's byte order or struct packing; linux/virtio_gpu.h supplies the
// numbers and its structs the sizes the encoder is checked against.
#pragma once

#include <linux/virtio_gpu.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backends/framebuffer/framebuffer.h"

namespace duet::virtio_gpu {

using framebuffer::Rect;

inline constexpr uint32_t kMaxScanouts = VIRTIO_GPU_MAX_SCANOUTS;  // 16
inline constexpr uint32_t kFormatB8G8R8X8 = VIRTIO_GPU_FORMAT_B8G8R8X8_UNORM;
inline constexpr size_t kHeaderSize = sizeof(virtio_gpu_ctrl_hdr);  // 24
inline constexpr size_t kMaxEdidSize = 1024;

struct Header {
  uint32_t type = 0;
  uint32_t flags = 0;  // VIRTIO_GPU_FLAG_FENCE
  uint64_t fence_id = 0;
  uint32_t ctx_id = 0;
  uint8_t ring_idx = 0;
};

struct MemEntry {
  uint64_t addr = 0;
  uint32_t length = 0;
};

// One command, decoded (what a device reads) or to encode (what a driver
// writes). Only the fields of `header.type`'s struct are meaningful.
struct Command {
  Header header;
  Rect rect;                 // SET_SCANOUT, RESOURCE_FLUSH, TRANSFER_TO_HOST_2D
  uint32_t resource_id = 0;  // all but GET_DISPLAY_INFO / GET_EDID
  uint32_t scanout_id = 0;   // SET_SCANOUT, GET_EDID
  uint32_t format = 0, width = 0, height = 0;  // RESOURCE_CREATE_2D
  uint64_t offset = 0;                          // TRANSFER_TO_HOST_2D
  std::vector<MemEntry> entries;                // RESOURCE_ATTACH_BACKING
};

struct DisplayOne {
  Rect rect;
  bool enabled = false;
  uint32_t flags = 0;
};

struct Response {
  Header header;                            // type: VIRTIO_GPU_RESP_*
  std::array<DisplayOne, kMaxScanouts> displays{};  // OK_DISPLAY_INFO
  std::vector<uint8_t> edid;                // OK_EDID
};

// The bytes of a command; empty for a type this encoder does not know.
std::vector<std::byte> EncodeCommand(const Command& command);
// A command from its bytes; nullopt when they are too short for its type
// or the type is not a 2D command.
std::optional<Command> DecodeCommand(std::span<const std::byte> bytes);

std::vector<std::byte> EncodeResponse(const Response& response);
std::optional<Response> DecodeResponse(std::span<const std::byte> bytes);

// "RESOURCE_FLUSH", "ERR_INVALID_PARAMETER", ... for logs.
std::string TypeName(uint32_t type);

}  // namespace duet::virtio_gpu

// The Channel of a Linux guest: the virtio_gpu DRM driver's uAPI for
// resources and transfers (DRM_IOCTL_VIRTGPU_RESOURCE_CREATE in 2D mode,
// MAP, TRANSFER_TO_HOST with a box, WAIT) and KMS for the scanouts
// (ADDFB2 per resource, SETCRTC for a mode, PAGE_FLIP between resources,
// DIRTYFB as the flush). What the uAPI leaves out is done the way the
// kernel allows:
//  - GET_DISPLAY_INFO / GET_EDID: the kernel asked the device already; its
//    connectors (scanout i is the i-th connector) and their EDID property.
//  - A fence: 2D transfers and flushes carry none, but resource creation
//    does and the control queue runs in order, so a 1x1 resource created
//    after a frame's commands, waited on with VIRTGPU_WAIT, is its fence.
//  - A page flip makes the kernel send SET_SCANOUT and a whole-plane
//    RESOURCE_FLUSH itself, so a flush right after a flip sends nothing more.
#pragma once

#include <memory>

#include "backends/framebuffer/drm.h"
#include "backends/virtio_gpu/channel.h"

namespace duet::virtio_gpu {

// nullptr, with one log line saying why, when the card is not a virtio-gpu
// device this backend can drive (not virtio_gpu, virgl 3D mode, no KMS,
// resources or fences that do not work).
std::unique_ptr<Channel> OpenLinuxChannel(std::shared_ptr<framebuffer::DrmCard> card);

}  // namespace duet::virtio_gpu

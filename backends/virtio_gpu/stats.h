// Counters of the virtio-gpu backend. DUET_STATS=1 prints them to stderr
// when the driver is unloaded (or the process exits), one line after the
// WSI's present line:
//   duet stats: virtio_gpu frames=N clean=N transfers=N bytes=N flushes=N fence_waits=N fence_wait_ms=T
// frames        presents that changed something (transfers and a flip)
// clean         presents identical to the frame on screen: nothing sent
// transfers     TRANSFER_TO_HOST_2D commands; bytes: the pixels they carried
// flushes       RESOURCE_FLUSH commands
// fence_waits   waits for the host to finish a frame before its pages are
//               written again; fence_wait_ms: the time spent in them
#pragma once

#include <cstdint>

namespace duet::virtio_gpu {

struct Counts {
  uint64_t frames = 0, clean = 0, transfers = 0, bytes = 0, flushes = 0, fence_waits = 0, fence_wait_ns = 0;
};

void CountFrame();
void CountClean();
void CountTransfer(uint64_t bytes);
void CountFlush();
void CountFenceWait(uint64_t nanoseconds);
Counts CurrentCounts();

}  // namespace duet::virtio_gpu

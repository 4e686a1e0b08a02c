// Channel over the i915 kernel driver: GEM objects (GEM_CREATE +
// MMAP_OFFSET, or USERPTR over the driver's own pages), EXECBUFFER2 with
// soft-pinned addresses and no relocations on the render or blitter ring,
// GEM_WAIT on the batch for completion.
#pragma once

#include <memory>
#include <string>

#include "backends/intel_rcs/channel.h"

namespace duet::intel_rcs {

// The first render node driven by i915 whose GPU the encoder knows, with a
// blitter engine, soft-pinning and userptr; else nothing and `why_not`
// says what was missing.
std::unique_ptr<Channel> OpenI915Channel(std::string* why_not);

}  // namespace duet::intel_rcs

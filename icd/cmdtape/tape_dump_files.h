// DUET_TAPE_DUMP=<dir>: every submitted command buffer's tape is written
// to <dir>/tape-<submission>-<n>.txt, one line per record.
#pragma once

#include <vector>

namespace duet {

struct CommandBuffer;

namespace cmdtape {

void DumpSubmittedTapes(const std::vector<CommandBuffer*>& command_buffers);

}  // namespace cmdtape
}  // namespace duet

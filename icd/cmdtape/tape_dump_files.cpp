#include "cmdtape/tape_dump_files.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cmdtape/command_buffer.h"
#include "cmdtape/tape_dump.h"
#include "util/log.h"

namespace duet::cmdtape {

void DumpSubmittedTapes(const std::vector<CommandBuffer*>& command_buffers) {
  static const char* const directory = std::getenv("DUET_TAPE_DUMP");
  if (directory == nullptr || *directory == '\0') return;
  static std::atomic<uint64_t> submission_counter{0};
  const uint64_t submission = submission_counter++;
  for (size_t i = 0; i < command_buffers.size(); ++i) {
    const std::string path =
        std::string(directory) + "/tape-" + std::to_string(submission) + "-" + std::to_string(i) + ".txt";
    FILE* file = std::fopen(path.c_str(), "w");
    if (file == nullptr) {
      DUET_WARN("DUET_TAPE_DUMP: cannot write %s", path.c_str());
      continue;
    }
    const std::string text = DumpTape(command_buffers[i]->tape);
    std::fwrite(text.data(), 1, text.size(), file);
    std::fclose(file);
  }
}

}  // namespace duet::cmdtape

// Runs this executable again as a child process (fork + execve) and
// collects what it prints. Each ICD gets its own process because the
// Vulkan loader reads VK_ICD_FILENAMES once per process.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace duet_bench {

// Environment changes that make the loader see exactly one ICD and no
// implicit or explicit layers: (name, value), a missing value unsets.
using EnvChanges = std::vector<std::pair<std::string, std::optional<std::string>>>;
EnvChanges LoaderEnvironment(const std::string& manifest);
// Applies the changes to this process (for a child run by hand); call
// before the first loader call.
void ApplyEnvironment(const EnvChanges& changes);

struct ChildOutcome {
  std::string out;  // stdout
  std::string err;  // stderr
  bool timed_out = false;  // killed after the timeout
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it
  bool Succeeded() const { return !timed_out && signal == 0 && exit_code == 0; }
  std::string Describe() const;  // "exit 0", "killed by signal 11 (Segmentation fault)", ...
};

// The path of the running executable (/proc/self/exe).
std::string SelfExecutable();

// Runs `argv` (argv[0] is the program path) with this process's environment
// plus `changes`; kills it (SIGKILL) if it has not finished after `timeout`.
ChildOutcome RunChildProcess(const std::vector<std::string>& argv, const EnvChanges& changes,
                             std::chrono::milliseconds timeout);

}  // namespace duet_bench

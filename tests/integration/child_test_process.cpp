#include "child_test_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

namespace duet_test {

bool IsChildFor(const std::string& test) {
  const char* child = std::getenv("DUET_TEST_CHILD");
  return child != nullptr && test == child;
}

bool LimitAddressSpace(uint64_t headroom) {
  std::ifstream status("/proc/self/status");
  uint64_t in_use = 0;
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmSize:", 0) == 0) in_use = std::stoull(line.substr(7)) * 1024;  // kB
  const rlimit limit{in_use + headroom, in_use + headroom};
  return in_use != 0 && setrlimit(RLIMIT_AS, &limit) == 0;
}

ChildResult RunTestInChild(const std::string& test, const std::vector<std::pair<std::string, std::string>>& env,
                           std::chrono::milliseconds timeout) {
  ChildResult result;
  int fds[2];
  if (pipe(fds) != 0) return result;
  const std::string filter = "--gtest_filter=" + test;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
    setenv("DUET_TEST_CHILD", test.c_str(), 1);
    char self[4096];
    const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) _exit(126);
    self[length] = '\0';
    char* argv[] = {self, const_cast<char*>(filter.c_str()), nullptr};
    execv(self, argv);
    _exit(127);
  }
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    return result;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(pid, SIGKILL);
      result.timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, int(left.count())) <= 0) continue;
    char buffer[4096];
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n <= 0) break;  // the child closed its end: it is exiting
    result.output.append(buffer, size_t(n));
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!result.timed_out && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

}  // namespace duet_test

#include "child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace duet_bench {
namespace {

class Pipe {
 public:
  Pipe() {
    if (pipe2(fds_, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
  ~Pipe() {
    CloseRead();
    CloseWrite();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  void CloseRead() { Close(fds_[0]); }
  void CloseWrite() { Close(fds_[1]); }

 private:
  static void Close(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
  }
  int fds_[2] = {-1, -1};
};

std::vector<std::string> ChildEnvironment(const EnvChanges& changes) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool changed = false;
    for (const auto& change : changes) changed = changed || change.first == name;
    if (!changed) env.push_back(entry);
  }
  for (const auto& [name, value] : changes)
    if (value) env.push_back(name + "=" + *value);
  return env;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Reads both pipes until they close or the deadline passes; returns false
// on timeout.
bool DrainUntil(int out_fd, int err_fd, std::chrono::steady_clock::time_point deadline, ChildOutcome& outcome) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&outcome.out, &outcome.err};
  int open = 2;
  while (open > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    const int ready = poll(fds, 2, int(std::min<long long>(left.count(), INT_MAX)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[4096];
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, size_t(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;  // closed (or broken): poll ignores negative descriptors
        --open;
      }
    }
  }
  return true;
}

}  // namespace

EnvChanges LoaderEnvironment(const std::string& manifest) {
  return {
      {"VK_ICD_FILENAMES", manifest},
      // Newer loaders prefer VK_DRIVER_FILES; VK_ADD_DRIVER_FILES adds drivers.
      {"VK_DRIVER_FILES", std::nullopt},
      {"VK_ADD_DRIVER_FILES", std::nullopt},
      // Only the driver is measured: no explicit layers, no implicit ones
      // (Mesa's device-select layer among them).
      {"VK_INSTANCE_LAYERS", std::nullopt},
      {"VK_LOADER_LAYERS_ENABLE", std::nullopt},
      {"VK_LOADER_LAYERS_DISABLE", "~implicit~"},
      {"NODEVICE_SELECT", "1"},
  };
}

void ApplyEnvironment(const EnvChanges& changes) {
  for (const auto& [name, value] : changes) {
    if (value)
      setenv(name.c_str(), value->c_str(), 1);
    else
      unsetenv(name.c_str());
  }
}

std::string ChildOutcome::Describe() const {
  if (timed_out) return "timed out and was killed";
  if (signal != 0) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit " + std::to_string(exit_code);
}

std::string SelfExecutable() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) throw std::runtime_error(std::string("readlink /proc/self/exe: ") + std::strerror(errno));
  return std::string(path, size_t(n));
}

ChildOutcome RunChildProcess(const std::vector<std::string>& argv, const EnvChanges& changes,
                             std::chrono::milliseconds timeout) {
  // Everything execve needs is built before fork: the child only calls
  // async-signal-safe functions.
  std::vector<std::string> args = argv;
  std::vector<std::string> env = ChildEnvironment(changes);
  std::vector<char*> c_args = CStrings(args);
  std::vector<char*> c_env = CStrings(env);
  Pipe out, err;
  std::fflush(nullptr);

  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    dup2(out.write_end(), STDOUT_FILENO);  // dup2'd descriptors lose O_CLOEXEC
    dup2(err.write_end(), STDERR_FILENO);
    execve(c_args[0], c_args.data(), c_env.data());
    _exit(127);
  }
  out.CloseWrite();
  err.CloseWrite();

  ChildOutcome outcome;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  if (!DrainUntil(out.read_end(), err.read_end(), deadline, outcome)) {
    kill(pid, SIGKILL);
    outcome.timed_out = true;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status) && !outcome.timed_out) outcome.signal = WTERMSIG(status);
  return outcome;
}

}  // namespace duet_bench

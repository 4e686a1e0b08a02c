#include "util/log.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace duet {
namespace {

LogLevel LevelFromEnvironment() {
  const char* value = std::getenv("DUET_LOG");
  if (value == nullptr) return LogLevel::kWarn;
  static constexpr const char* kNames[] = {"error", "warn", "info", "debug"};
  for (int i = 0; i < 4; ++i)
    if (std::strcmp(value, kNames[i]) == 0) return static_cast<LogLevel>(i);
  return LogLevel::kWarn;
}

struct Sink {
  void* context;
  LogSinkFunction function;
};

struct LoggerState {
  LogLevel stderr_level = LevelFromEnvironment();
  std::mutex mutex;
  std::vector<Sink> sinks;
  std::set<std::string> unimplemented_reported;
};

LoggerState& State() {
  // Destroyed when the loader unloads the driver, so nothing outlives it.
  static LoggerState state;
  return state;
}

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kError: return "error";
    case LogLevel::kWarn: return "warn";
    case LogLevel::kInfo: return "info";
    case LogLevel::kDebug: return "debug";
  }
  return "?";
}

}  // namespace

void Log(LogLevel level, const char* format, ...) {
  LoggerState& state = State();
  std::vector<Sink> sinks;
  {
    std::lock_guard lock(state.mutex);
    sinks = state.sinks;
  }
  bool to_stderr = level <= state.stderr_level;
  if (!to_stderr && sinks.empty()) return;

  char message[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, sizeof message, format, args);
  va_end(args);

  if (to_stderr) std::fprintf(stderr, "duet[%s]: %s\n", LevelName(level), message);
  // Called without the lock held, so a callback may itself call the driver.
  for (const Sink& sink : sinks) sink.function(sink.context, level, message);
}

void LogUnimplemented(const char* command) {
  {
    LoggerState& state = State();
    std::lock_guard lock(state.mutex);
    if (!state.unimplemented_reported.insert(command).second) return;
  }
  Log(LogLevel::kWarn, "%s is not implemented yet; it fails safely", command);
}

void AddLogSink(void* context, LogSinkFunction function) {
  LoggerState& state = State();
  std::lock_guard lock(state.mutex);
  state.sinks.push_back({context, function});
}

void RemoveLogSink(void* context) {
  LoggerState& state = State();
  std::lock_guard lock(state.mutex);
  std::erase_if(state.sinks, [&](const Sink& s) { return s.context == context; });
}

}  // namespace duet

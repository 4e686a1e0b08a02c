// One logger for the whole driver, switched by DUET_LOG=error|warn|info|debug
// (default warn). Messages also reach every VK_EXT_debug_utils messenger
// registered as a sink, whatever DUET_LOG says.
#pragma once

namespace duet {

enum class LogLevel { kError = 0, kWarn = 1, kInfo = 2, kDebug = 3 };

void Log(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Logs "not implemented" once per command name.
void LogUnimplemented(const char* command);

// A sink receives every message; `context` identifies it for removal.
using LogSinkFunction = void (*)(void* context, LogLevel level, const char* message);
void AddLogSink(void* context, LogSinkFunction function);
void RemoveLogSink(void* context);

}  // namespace duet

#define DUET_ERROR(...) ::duet::Log(::duet::LogLevel::kError, __VA_ARGS__)
#define DUET_WARN(...) ::duet::Log(::duet::LogLevel::kWarn, __VA_ARGS__)
#define DUET_INFO(...) ::duet::Log(::duet::LogLevel::kInfo, __VA_ARGS__)
#define DUET_DEBUG(...) ::duet::Log(::duet::LogLevel::kDebug, __VA_ARGS__)

// Tests that need a fresh process (an environment variable read when the
// driver starts or a device is created, or a run that may hang) run one
// test of this binary again in a child: the child test runs only when
// DUET_TEST_CHILD names it, and is skipped otherwise.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace duet_test {

struct ChildResult {
  std::string output;      // stdout and stderr, interleaved
  int exit_code = -1;      // -1 unless it exited
  bool timed_out = false;  // killed after the timeout
};

// Runs this executable with --gtest_filter=`test` and the environment plus
// `env` and DUET_TEST_CHILD=`test`; kills it after `timeout`.
ChildResult RunTestInChild(const std::string& test, const std::vector<std::pair<std::string, std::string>>& env,
                           std::chrono::milliseconds timeout);

// True inside the child started for `test`.
bool IsChildFor(const std::string& test);

// Limits the address space of this process (RLIMIT_AS) to what it uses now
// plus `headroom` bytes, for children that must run out of memory; false
// when the limit cannot be set.
bool LimitAddressSpace(uint64_t headroom);

}  // namespace duet_test

// The timing rule every number in the tables follows: warm up once, pick a
// repetition count N so one timed run takes about 100 ms (50-200 ms), then
// take the best of 5 timed runs of N repetitions. A repetition slower than
// the target runs once per timed run (N = 1), and once the timed runs have
// taken `budget_seconds` the best of at least 3 is taken, so a slow driver
// finishes a row in reasonable time.
#pragma once

#include <cstdint>
#include <functional>

namespace duet_bench {

struct TimingPlan {
  double target_seconds = 0.1;
  uint32_t timed_runs = 5;
  uint32_t min_timed_runs = 3;   // when the budget runs out
  double budget_seconds = 10.0;  // of timed runs
  uint32_t max_reps = 100000;
  bool quick = false;  // N = 1, warm-up plus one timed run
};

struct Timing {
  uint32_t reps = 0;
  double best_seconds = 0;  // of one run of `reps` repetitions
};

// run(reps) performs `reps` repetitions and returns the wall time it took,
// in seconds. It may throw; the exception passes through.
using TimedRun = std::function<double(uint32_t reps)>;

Timing MeasureBest(const TimedRun& run, const TimingPlan& plan);

// The table's line on how it measures (not for --quick): the timing rule
// above (with the environment's changes, as MeasureBest makes them), and
// `rounds` child processes per ICD (RunOnBoth).
void PrintTimingRule(const TimingPlan& plan, uint32_t rounds);

// Units (bytes, invocations, frames) per second over the best run.
double RatePerSecond(double units_per_rep, const Timing& t);
// Decimal gigabytes (1e9 bytes) per second.
double GigabytesPerSecond(uint64_t bytes_per_rep, const Timing& t);

}  // namespace duet_bench

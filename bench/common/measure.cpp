#include "measure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace duet_bench {

namespace {

// `given` as the environment changes it. On a machine that is shared (a
// virtual one losing time to its host), more and shorter runs find a quiet
// stretch more often: DUET_BENCH_RUNS=N timed runs, DUET_BENCH_TARGET_MS=M
// per run.
TimingPlan EffectivePlan(const TimingPlan& given) {
  TimingPlan plan = given;
  if (const char* runs = std::getenv("DUET_BENCH_RUNS"); runs != nullptr && std::atoi(runs) > 0)
    plan.timed_runs = plan.min_timed_runs = uint32_t(std::atoi(runs));
  if (const char* ms = std::getenv("DUET_BENCH_TARGET_MS"); ms != nullptr && std::atof(ms) > 0)
    plan.target_seconds = std::atof(ms) / 1000.0;
  return plan;
}

}  // namespace

Timing MeasureBest(const TimedRun& run, const TimingPlan& given) {
  Timing t;
  const TimingPlan plan = EffectivePlan(given);
  run(1);  // warm-up: first touch of pages, caches, lazily built driver state
  if (plan.quick) {
    t.reps = 1;
    t.best_seconds = run(1);
    return t;
  }
  // A fixed amount of work, for profilers and cycle counters
  // (DUET_BENCH_REPS=N: one timed run of N repetitions).
  if (const char* fixed = std::getenv("DUET_BENCH_REPS"); fixed != nullptr && std::atoi(fixed) > 0) {
    t.reps = uint32_t(std::atoi(fixed));
    t.best_seconds = run(t.reps);
    return t;
  }
  // Calibrate on a single repetition; grow once more if the first guess
  // still lands far below the target (a single repetition that is mostly
  // submission overhead underestimates the per-repetition rate).
  const double one = std::max(run(1), 1e-7);
  t.reps = uint32_t(std::clamp(std::ceil(plan.target_seconds / one), 1.0, double(plan.max_reps)));
  uint32_t runs = 0;
  double spent = 0;
  if (t.reps == 1) {
    // Already at or past the target: the calibration run was a timed run
    // of the (warm) one-repetition command buffer.
    t.best_seconds = one;
    runs = 1;
    spent = one;
  } else {
    double seconds = run(t.reps);  // also warms the N-repetition command buffer
    if (seconds < plan.target_seconds / 2 && t.reps < plan.max_reps) {
      const double per_rep = std::max(seconds / t.reps, 1e-9);
      t.reps = uint32_t(std::clamp(std::ceil(plan.target_seconds / per_rep), 1.0, double(plan.max_reps)));
      run(t.reps);
    }
  }
  while (runs < plan.timed_runs && !(runs >= plan.min_timed_runs && spent >= plan.budget_seconds)) {
    const double seconds = run(t.reps);
    t.best_seconds = runs == 0 ? seconds : std::min(t.best_seconds, seconds);
    spent += seconds;
    ++runs;
  }
  return t;
}

double RatePerSecond(double units_per_rep, const Timing& t) {
  if (t.best_seconds <= 0) return 0;
  return units_per_rep * t.reps / t.best_seconds;
}

double GigabytesPerSecond(uint64_t bytes_per_rep, const Timing& t) {
  return RatePerSecond(double(bytes_per_rep), t) / 1e9;
}

void PrintTimingRule(const TimingPlan& given, uint32_t rounds) {
  // (The children inherit the environment: the plan they follow.)
  const TimingPlan plan = EffectivePlan(given);
  std::printf("Warm-up once, N chosen for ~%.0f ms per run, best of %u runs (of %u once they took %.0f s);\n"
              "%u child processes per ICD and row, the ICDs taking turns, the best one counting.\n\n",
              plan.target_seconds * 1000, plan.timed_runs, plan.min_timed_runs, plan.budget_seconds, rounds);
}

}  // namespace duet_bench

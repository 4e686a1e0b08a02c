#include "child_mode.h"

#include <cstdio>
#include <exception>
#include <map>
#include <string>

#include "child_process.h"
#include "measure.h"
#include "result_line.h"

namespace duet_bench {
namespace {

void Emit(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
}

}  // namespace

int RunChildMode(const Options& options, const ChildSpec& spec) {
  // Before the first loader call: the loader reads these once per process.
  ApplyEnvironment(LoaderEnvironment(*options.icd));
  const TimingPlan plan{.quick = options.quick};

  std::unique_ptr<BenchDevice> device;
  std::unique_ptr<BenchWorkload> workload;
  try {
    device = std::make_unique<BenchDevice>(spec.app_name, spec.features);
    Emit(DeviceLine(device->DeviceName()));
    workload = spec.prepare(*device, options.quick);
    // One command buffer per repetition count, recorded on first use.
    std::map<uint32_t, VkCommandBuffer> recorded;
    const TimedRun run = [&](uint32_t reps) {
      auto [it, inserted] = recorded.try_emplace(reps, VK_NULL_HANDLE);
      if (inserted) {
        it->second = device->Record([&](VkCommandBuffer cb) {
          for (uint32_t i = 0; i < reps; ++i) {
            if (i != 0) workload->RecordBetween(cb);
            workload->RecordOnce(cb);
          }
        });
      }
      return device->SubmitAndWait(it->second);
    };
    const Timing timing = MeasureBest(run, plan);
    workload->Verify(*device);
    const std::string fingerprint = workload->Fingerprint();
    if (!fingerprint.empty()) Emit(FingerprintLine(fingerprint));
    Emit(OkLine(RatePerSecond(spec.units_per_rep, timing), timing));
  } catch (const std::exception& e) {
    Emit(NaLine(e.what()));
  }
  // Torn down only after the result is out: a teardown that hangs or
  // crashes cannot lose it (the parent notes the exit status).
  workload.reset();
  device.reset();
  return 0;
}

}  // namespace duet_bench

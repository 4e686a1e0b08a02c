#!/usr/bin/env bash
# Usage: run_with_intel_simulator.sh GEN TEST_BINARY [gtest args...]
# Runs integration tests with the device's fills, copies, clears and
# present copies on the Intel command-streamer simulator of generation GEN
# (DUET_INTEL=simulate): the tests' checks hold the results to the CPU
# path's bytes, and DUET_STATS=1 must show the simulated GPU did the work
# (batches beyond the self-test's four) with no fallback to the CPU.
set -uo pipefail
gen=${1:?}; bin=${2:?}; shift 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
DUET_INTEL=simulate DUET_INTEL_GEN=$gen DUET_STATS=1 "$bin" "$@" > "$log" 2>&1
status=$?
if [[ $status -ne 0 ]]; then
  grep -E '^\[  FAILED|Failure' "$log" | head -40
  echo "intel_simulator: Gen$gen: the tests failed"
  exit 1
fi
# The tests' own process prints the largest counts (child processes run one scene each).
line=$(grep -o 'intel_rcs batches=[0-9]* gpu_bytes=[0-9]* fallbacks=[0-9]*' "$log" | sort -t= -k2 -n | tail -1)
echo "intel_simulator: Gen$gen: $line"
batches=$(sed -E 's/.*batches=([0-9]+).*/\1/' <<< "$line")
if [[ -z $line || $batches -le 100 ]]; then
  echo "intel_simulator: FAILED: too few batches ran on the simulator"
  exit 1
fi
# Child processes (the tests' scenes) print their own lines: none may have fallen back.
if grep -o 'intel_rcs batches=[0-9]* gpu_bytes=[0-9]* fallbacks=[0-9]*' "$log" | grep -qv 'fallbacks=0$'; then
  grep 'intel_rcs' "$log" | grep -v 'fallbacks=0$' | head
  echo "intel_simulator: FAILED: some commands fell back to the CPU"
  exit 1
fi
if grep -q 'intel_rcs:.*CPU from now on' "$log"; then
  grep 'intel_rcs:' "$log" | head
  echo "intel_simulator: FAILED: the GPU was turned off"
  exit 1
fi
echo "intel_simulator: passed"

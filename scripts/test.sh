#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (unit, integration,
# exported symbols, install, vulkaninfo, validation layer, leak check) with
# ctest; then builds the driver and the integration tests with
# ThreadSanitizer (./build-tsan) and runs the queue, synchronization and
# multi-threaded draw tests there. Exits non-zero on any failure.
#
# DUET_SKIP_TSAN=1 skips the ThreadSanitizer step (quick local runs; CI
# runs it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/build.sh

# The tests choose their own driver; a caller's settings must not leak in.
unset VK_DRIVER_FILES VK_ADD_DRIVER_FILES VK_ICD_FILENAMES VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE

status=0
ctest --test-dir build --output-on-failure -j2 || status=$?

# ThreadSanitizer over the queue worker threads: the suites that submit from
# several threads, block queues on host-signalled events and semaphores and
# poll fences and queries while queues signal them, and the present engine's
# thread (presents in flight while other threads create, record and submit). DUET_SANITIZE=thread
# instruments everything the project builds, so the test binary carries the
# TSan runtime and the driver it dlopen()s through the (uninstrumented)
# loader is instrumented too. halt_on_error makes the first report fatal.
DUET_TSAN_TESTS='Sync*:CommandBuffers*:Queries*:LoadOp*:DrawCall*:SceneTest.EarlyAndLate*:SceneTest.OneLongDraw*:WsiStress*:WsiPresentWait*:WsiPresentModes*'
if [[ ${DUET_SKIP_TSAN:-0} == 1 ]]; then
  echo "test: ThreadSanitizer step skipped (DUET_SKIP_TSAN=1)"
else
  echo "test: ThreadSanitizer build (build-tsan) and run of ${DUET_TSAN_TESTS}"
  tsan_status=0
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDUET_SANITIZE=thread \
    -DDUET_BUILD_BENCH=OFF >/dev/null || tsan_status=$?
  if [[ $tsan_status == 0 ]]; then
    cmake --build build-tsan -j2 --target duet_vk duet_integration_tests || tsan_status=$?
  fi
  if [[ $tsan_status == 0 ]]; then
    # The kernel's ASLR entropy can exceed what the TSan runtime maps
    # around; setarch -R runs the tests without address randomization.
    runner=()
    if setarch "$(uname -m)" -R true 2>/dev/null; then runner=(setarch "$(uname -m)" -R); fi
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
      "${runner[@]}" build-tsan/tests/duet_integration_tests --gtest_filter="${DUET_TSAN_TESTS}" || tsan_status=$?
  fi
  if [[ $tsan_status == 0 ]]; then
    echo "test: ThreadSanitizer step passed"
  else
    echo "test: ThreadSanitizer step FAILED (exit ${tsan_status})"
    status=$tsan_status
  fi
fi

exit "$status"

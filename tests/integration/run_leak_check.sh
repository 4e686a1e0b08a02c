#!/usr/bin/env bash
# Usage: run_leak_check.sh valgrind|lsan SUPPRESSIONS TEST_BINARY [gtest args...]
# Runs the integration tests under valgrind memcheck (normal build) or with
# LeakSanitizer (DUET_SANITIZE=address build). Fails on a definite leak or a
# memory error (exit 99) and on a crash; a plain test failure (gtest exit 1)
# is left to the per-test ctest entries so one driver bug is not reported
# twice.
set -uo pipefail
tool=${1:?}; supp=${2:?}; bin=${3:?}; shift 3

case $tool in
  valgrind)
    valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite \
      --errors-for-leak-kinds=definite --error-exitcode=99 \
      --num-callers=40 --keep-debuginfo=yes --suppressions="$supp" \
      "$bin" "$@"
    rc=$? ;;
  lsan)
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:exitcode=99 \
    LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$supp:exitcode=99 \
      "$bin" "$@"
    rc=$? ;;
  *) echo "unknown tool $tool"; exit 2 ;;
esac

case $rc in
  0) echo "leak check ($tool): no definite leak, no memory error" ;;
  1) echo "leak check ($tool): no definite leak, no memory error (some tests failed: see their own results)"; rc=0 ;;
  99) echo "leak check ($tool): FAILED: definite leaks or memory errors (see above)" ;;
  *) echo "leak check ($tool): FAILED: the test binary exited with status $rc (crash?)" ;;
esac
exit $rc

#!/usr/bin/env bash
# Builds the shader-execution fuzzer (tools/fuzz_exec: the whole driver with
# clang, AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer) and runs
# it over shaders: first every kept regression input
# (tools/fuzz_exec/regressions/), then mutations seeded with the test
# shaders' compute, vertex, geometry, tessellation and fragment modules and
# tools/fuzz_exec/seeds/.
#
#   scripts/fuzz_exec.sh [BUILD_DIR] [--build-only | libFuzzer options...]
#
# Default: build/fuzz-exec, 60 seconds. Exits 77 when clang is not installed.
# The ctest test fuzz_shader_execute_smoke runs it briefly (-runs=...).
# An input that fails is written to BUILD_DIR (crash-*, timeout-*); rerun it
# with BUILD_DIR/tools/fuzz_exec/fuzz_shader_execute BUILD_DIR/crash-<hash>, and once fixed
# keep it in tools/fuzz_exec/regressions/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/fuzz_report.sh
source "$root/scripts/fuzz_report.sh"
build=$(realpath -m "${1:-$root/build/fuzz-exec}")
shift || true
options=("$@")
[[ ${#options[@]} -gt 0 ]] || options=(-max_total_time=60)

clang=$(command -v clang++ || command -v clang++-14 || true)
if [[ -z $clang ]]; then
  echo "fuzz_exec: clang++ not found (scripts/setup.sh installs it)" >&2
  exit 77
fi
cc=$(command -v clang || command -v clang-14)
# -O1 with line tables: the build is most of a short run's time, and
# sanitizer reports still name every source line.
configure=(-DCMAKE_CXX_COMPILER="$clang" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo
           "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
           "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
           -DDUET_SANITIZE=address,undefined -DDUET_BUILD_EXEC_FUZZ=ON
           -DDUET_BUILD_TESTS=OFF -DDUET_BUILD_BENCH=OFF -DDUET_BUILD_SAMPLES=OFF)
command -v ninja >/dev/null && configure+=(-G Ninja)
[[ -f $build/CMakeCache.txt ]] || cmake -S "$root" -B "$build" "${configure[@]}" >/dev/null
cmake --build "$build" -j2 --target fuzz_shader_execute
[[ ${options[0]} == --build-only ]] && exit 0

# Seeds: the test shaders' compute, vertex, geometry, tessellation and fragment modules,
# and tools/fuzz_exec/seeds (descriptor kinds the tests seldom combine).
corpus=$build/corpus
mkdir -p "$corpus"
for shader in "$root"/tests/shaders/*.comp "$root"/tests/shaders/*.vert "$root"/tests/shaders/*.frag \
  "$root"/tests/shaders/*.geom "$root"/tests/shaders/*.tesc "$root"/tests/shaders/*.tese \
  "$root"/tools/fuzz_exec/seeds/*; do
  out=$corpus/$(basename "$shader").spv
  [[ $out -nt $shader ]] || glslangValidator -V --target-env vulkan1.3 --quiet -I"$root/tests/shaders" \
    -o "$out" "$shader" >/dev/null || rm -f "$out"
done

cd "$build"
log=$build/fuzz-exec.log
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
status=0
# Every regression input once, then the run proper; new inputs go to a
# fresh scratch directory so that a run with a fixed -seed is reproducible.
regressions=("$root"/tools/fuzz_exec/regressions/*)
if [[ -e ${regressions[0]} ]]; then
  tools/fuzz_exec/fuzz_shader_execute -timeout=20 "${regressions[@]}" >"$log" 2>&1 || status=$?
fi
scratch=$build/corpus-run
rm -rf "$scratch"
mkdir -p "$scratch"
if [[ $status -eq 0 ]]; then
  tools/fuzz_exec/fuzz_shader_execute -timeout=20 -rss_limit_mb=4096 "${options[@]}" "$scratch" "$corpus" >>"$log" 2>&1 || status=$?
fi
fuzz_report fuzz_shader_execute "$status" "$log" "$build"
exit $status

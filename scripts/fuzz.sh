#!/usr/bin/env bash
# Builds the libFuzzer targets (tools/fuzz, with clang) and runs
# fuzz_spirv_ingest seeded with the test shaders' SPIR-V.
#
#   scripts/fuzz.sh [BUILD_DIR] [--build-only | libFuzzer options...]
#
# Default: build/fuzz, 60 seconds. Exits 77 when clang is not installed.
# The ctest test fuzz_spirv_ingest_smoke runs it briefly (-runs=...).
# Inputs that crash are written to BUILD_DIR (crash-*); rerun one with
#   BUILD_DIR/fuzz_spirv_ingest BUILD_DIR/crash-<hash>
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/fuzz_report.sh
source "$root/scripts/fuzz_report.sh"
build=$(realpath -m "${1:-$root/build/fuzz}")
shift || true
options=("$@")
[[ ${#options[@]} -gt 0 ]] || options=(-max_total_time=60)

clang=$(command -v clang++ || command -v clang++-14 || true)
if [[ -z $clang ]]; then
  echo "fuzz: clang++ not found (scripts/setup.sh installs it)" >&2
  exit 77
fi
configure=(-DCMAKE_CXX_COMPILER="$clang" -DCMAKE_BUILD_TYPE=RelWithDebInfo)
command -v ninja >/dev/null && configure+=(-G Ninja)
command -v ccache >/dev/null && configure+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
[[ -f $build/CMakeCache.txt ]] || cmake -S "$root/tools/fuzz" -B "$build" "${configure[@]}" >/dev/null
cmake --build "$build" -j2
[[ ${options[0]} == --build-only ]] && exit 0

# Seeds: every test shader, compiled (GLSL) or assembled (SPIR-V assembly).
corpus=$build/corpus
mkdir -p "$corpus"
for shader in "$root"/tests/shaders/*.comp "$root"/tests/shaders/*.vert "$root"/tests/shaders/*.frag; do
  [[ -e $shader ]] || continue
  out=$corpus/$(basename "$shader").spv
  [[ $out -nt $shader ]] || glslangValidator -V --target-env vulkan1.3 --quiet -o "$out" "$shader" >/dev/null
done
for source in "$root"/tests/shaders/*.spvasm; do
  [[ -e $source ]] || continue
  out=$corpus/$(basename "$source").spv
  [[ $out -nt $source ]] || spirv-as --target-env vulkan1.3 -o "$out" "$source"
done

# New inputs go to a scratch directory, fresh for every run so that a run
# (the smoke test's, with a fixed -seed) is reproducible; keep a longer
# campaign's finds by passing a corpus directory of your own as an option.
scratch=$build/corpus-run
rm -rf "$scratch"
mkdir -p "$scratch"
cd "$build"
# libFuzzer's progress goes to fuzz.log (fuzz_report prints what it found).
# Options given later win (-timeout=...).
log=$build/fuzz.log
status=0
./fuzz_spirv_ingest -timeout=10 -rss_limit_mb=4096 "${options[@]}" "$scratch" "$corpus" >"$log" 2>&1 || status=$?
fuzz_report fuzz_spirv_ingest "$status" "$log" "$build"
exit $status

#!/usr/bin/env bash
# Usage: run_from_disk_cache.sh CACHE_DIR TEST_BINARY [gtest args...]
# Runs the integration tests twice over an empty on-disk pipeline cache:
# the first run compiles and stores every stage, the second must pass with
# every stage loaded from the disk (DUET_STATS=1 says compiled=0), so each
# test's pipelines are checked both freshly compiled and from the cache.
set -uo pipefail
dir=${1:?}; bin=${2:?}; shift 2
rm -rf "$dir"
mkdir -p "$dir"
export XDG_CACHE_HOME=$dir DUET_STATS=1
unset DUET_CACHE

"$bin" "$@" > "$dir/cold.log" 2>&1 || { tail -40 "$dir/cold.log"; echo "from_disk_cache: the cold run failed"; exit 1; }
cold=$(grep -o 'pipeline_cache stages=[0-9]* compiled=[0-9]*' "$dir/cold.log" | tail -1)
"$bin" "$@" > "$dir/warm.log" 2>&1 || { tail -40 "$dir/warm.log"; echo "from_disk_cache: the warm run failed"; exit 1; }
warm=$(grep -o 'pipeline_cache stages=[0-9]* compiled=[0-9]* app_hits=[0-9]* disk_hits=[0-9]*' "$dir/warm.log" | tail -1)
echo "from_disk_cache: cold: $cold"
echo "from_disk_cache: warm: $warm"
files=$(find "$dir/duet" -name '*.ir' | wc -l)
echo "from_disk_cache: $files files, $(du -sk "$dir/duet" | cut -f1) KiB"
if [[ ! $warm =~ compiled=0\  ]] || [[ $warm =~ disk_hits=0$ ]]; then
  echo "from_disk_cache: FAILED: the warm run compiled stages (or loaded none)"
  exit 1
fi
echo "from_disk_cache: passed"

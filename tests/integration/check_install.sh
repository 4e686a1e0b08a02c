#!/usr/bin/env bash
# Usage: check_install.sh BUILD_DIR FULL_LIBDIR FULL_DATADIR
# `cmake --install` into a scratch DESTDIR puts libduet_vk.so in the libdir
# and a manifest in share/vulkan/icd.d that names it; the installed library
# loads through the stock loader (vulkaninfo --summary).
set -euo pipefail
build=${1:?}; libdir=${2:?}; datadir=${3:?}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

DESTDIR=$stage cmake --install "$build" >"$stage.log" 2>&1 || {
  echo "FAIL: cmake --install failed"; cat "$stage.log"; rm -f "$stage.log"; exit 1; }
rm -f "$stage.log"

lib=$stage$libdir/libduet_vk.so
manifest=$stage$datadir/vulkan/icd.d/duet_icd.json
[[ -f $lib ]] || { echo "FAIL: $lib not installed"; find "$stage" -type f; exit 1; }
[[ -f $manifest ]] || { echo "FAIL: $manifest not installed"; find "$stage" -type f; exit 1; }

path=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ICD"]["library_path"])' "$manifest")
if [[ $path != "$libdir/libduet_vk.so" ]]; then
  echo "FAIL: installed manifest names '$path', expected '$libdir/libduet_vk.so'"
  exit 1
fi

# Point a copy of the installed manifest at the staged library and load it.
python3 - "$manifest" "$lib" "$stage/staged_icd.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
data["ICD"]["library_path"] = sys.argv[2]
json.dump(data, open(sys.argv[3], "w"))
PY
unset VK_DRIVER_FILES VK_ADD_DRIVER_FILES
if ! out=$(VK_ICD_FILENAMES=$stage/staged_icd.json vulkaninfo --summary 2>&1); then
  echo "FAIL: vulkaninfo --summary on the installed library failed"
  echo "$out" | tail -40
  exit 1
fi
echo "OK: installed $libdir/libduet_vk.so and $datadir/vulkan/icd.d/duet_icd.json; vulkaninfo loads it"

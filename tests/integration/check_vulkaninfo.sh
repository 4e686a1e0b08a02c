#!/usr/bin/env bash
# Usage: check_vulkaninfo.sh MANIFEST summary|full|validation
# vulkaninfo (Debian's vulkan-tools) through the stock loader on the ICD
# named by MANIFEST exits 0 and lists one CPU device whose name contains
# "Duet". "validation" runs the full report under VK_LAYER_KHRONOS_validation
# and fails on any validation error it prints.
set -euo pipefail
manifest=${1:?usage: check_vulkaninfo.sh MANIFEST MODE}
mode=${2:?usage: check_vulkaninfo.sh MANIFEST MODE}

export VK_ICD_FILENAMES=$manifest
unset VK_DRIVER_FILES VK_ADD_DRIVER_FILES VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE
args=()
case $mode in
  summary) args=(--summary) ;;
  full) ;;
  validation) export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac

out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
vulkaninfo "${args[@]}" >"$out" 2>&1 || rc=$?

fail() {
  echo "FAIL ($mode): $*"
  echo "--- last lines of vulkaninfo output (exit status $rc):"
  tail -n 60 "$out"
  exit 1
}

[[ $rc -eq 0 ]] || fail "vulkaninfo exited with status $rc"
grep -Eq 'deviceName[[:space:]]*=[[:space:]]*.*Duet' "$out" || fail "no device named *Duet* listed"
grep -Eq 'deviceType[[:space:]]*=[[:space:]]*(VK_)?PHYSICAL_DEVICE_TYPE_CPU' "$out" || fail "device type is not CPU"
gpus=$(grep -Ec '^GPU[0-9]+:?$' "$out" || true)
if [[ $mode == summary && $gpus -ne 1 ]]; then fail "expected exactly one device, vulkaninfo lists $gpus"; fi

if [[ $mode == validation ]]; then
  if grep -Eq 'Validation Error|VUID-' "$out"; then
    echo "FAIL (validation): the validation layer reported errors:"
    grep -E 'Validation Error|VUID-' "$out" | sort | uniq -c | sort -rn | head -n 40
    exit 1
  fi
fi
echo "OK ($mode): vulkaninfo exit 0, $(grep -Em1 'deviceName' "$out" | sed 's/^[[:space:]]*//')"

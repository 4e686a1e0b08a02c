#!/usr/bin/env bash
# Direct3D 12 programs on libduet_vk.so: Debian's vkd3d-demos (vkd3d-gears,
# vkd3d-triangle) through vkd3d, each check under a private Xvfb server
# (tests/CMakeLists.txt, "vkd3d" block).
#
#   check_vkd3d.sh <program> <tools> <out_dir> <duet.json> <lavapipe.json>
#
# The demos never end by themselves: libduet_vkcube_capture.so saves the
# window at an event poll (gears: the 60th, after ~60 frames; triangle,
# which draws once on Expose and then waits: the 2nd) and ends the process.
# Each check:
#   - the demo runs on Duet under the validation layer (the loader's log
#     shows it inserted) to that screenshot, and neither the layer nor the
#     driver reports an error;
#   - the screenshot is not one colour, and red, green and blue each cover
#     part of it (gears: three coloured gears; triangle: its corners);
#   - vkd3d-triangle only: the picture is lavapipe's (a still frame).
# Skipped (status 77) when vkd3d-demos is not installed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=xvfb.sh
source "$here/xvfb.sh"

program=$1 tools=$2 out=$3 duet=$4 lavapipe=$5
capture_lib=$tools/libduet_vkcube_capture.so
png_tool=$tools/duet_vkcube_png
command -v "$program" >/dev/null || {
  echo "check_vkd3d: $program is not installed (Debian package vkd3d-demos): skipped"
  exit 77
}
mkdir -p "$out"
case $program in
  vkd3d-gears) poll=60 min_percent=1 ;;
  vkd3d-triangle) poll=2 min_percent=0.2 ;;
  *) echo "check_vkd3d: unknown program $program" >&2; exit 2 ;;
esac

duet_start_xvfb 1024x768x24
trap duet_stop_xvfb EXIT
echo "check_vkd3d: $program on a private Xvfb ($DISPLAY), screenshot at event poll $poll"

unset VK_DRIVER_FILES VK_ADD_DRIVER_FILES VK_LOADER_LAYERS_ENABLE
export NODEVICE_SELECT=1
run() {  # run <manifest> <tag> [environment...]: the demo to its screenshot
  local icd=$1 tag=$2
  shift 2
  local preload=$capture_lib
  [[ -n ${LD_PRELOAD:-} ]] && preload="$LD_PRELOAD:$capture_lib"  # a sanitizer runtime stays first
  # The driver presents on its queue thread: a program that presents once
  # and then waits may get there first, so the screenshot waits 500 ms.
  env "$@" VK_ICD_FILENAMES="$icd" LD_PRELOAD="$preload" DUET_VKCUBE_EARLY_POLL=$poll \
    DUET_VKCUBE_EARLY_DELAY_MS=500 DUET_VKCUBE_EXIT_AFTER_EARLY=1 DUET_VKCUBE_EARLY_PNG="$out/$program-$tag.png" \
    timeout 120 "$program" >"$out/$program-$tag.log" 2>&1
}

status=0
if ! run "$duet" duet VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LOADER_DEBUG=layer DUET_LOG=warn; then
  echo "FAIL: $program did not reach its screenshot on Duet; its output:"
  cat "$out/$program-duet.log"
  exit 1
fi
log=$out/$program-duet.log
# The loader's own log (VK_LOADER_DEBUG=layer) proves the layer was there.
if ! grep -q 'Insert instance layer "VK_LAYER_KHRONOS_validation"' "$log"; then
  echo "FAIL: the validation layer was not loaded (is vulkan-validationlayers installed?)"
  status=1
fi
if grep -qE 'Validation Error|VUID-|duet\[error\]' "$log"; then
  echo "FAIL: errors under the validation layer:"
  grep -E -A2 'Validation Error|VUID-|duet\[error\]' "$log" | head -n 40
  status=1
else
  echo "no validation error and no driver error"
fi
"$png_tool" colours "$out/$program-duet.png" "$min_percent" || status=1
if [[ $program == vkd3d-triangle ]]; then
  if [[ -f $lavapipe ]]; then
    if run "$lavapipe" lavapipe; then
      "$png_tool" compare "$out/$program-duet.png" "$out/$program-lavapipe.png" || status=1
    else
      echo "lavapipe's run failed (not Duet's problem): comparison skipped"
      cat "$out/$program-lavapipe.log"
    fi
  else
    echo "no lavapipe manifest at $lavapipe (Debian package mesa-vulkan-drivers): comparison skipped"
  fi
fi
exit $status

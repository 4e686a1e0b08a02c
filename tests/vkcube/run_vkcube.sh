#!/usr/bin/env bash
# Runs Debian's vkcube (or vkcubepp) for a fixed number of frames on one
# Vulkan driver, optionally saving screenshots, and prints its frame rate.
# Used by scripts/run.sh (the main job), the ctest checks
# (check_vkcube.sh) and the benchmark (bench/vkcube/run.sh).
#
#   run_vkcube.sh --icd <manifest.json> [options] [-- <more vkcube arguments>]
#
#   --icd <file>          the driver's ICD manifest (VK_ICD_FILENAMES); required
#   --program <name>      vkcube (default) or vkcubepp
#   --frames <n>          frames to draw: vkcube's --c (default 300)
#   --capture-lib <file>  libduet_vkcube_capture.so (LD_PRELOAD): needed for
#                         screenshots and for the frame-loop time
#   --png <file>          the window after the last frame (frame <n> exactly)
#   --early-png <file>    the window at vkcube's 100th event poll (mid-run)
#   --log <file>          also write vkcube's output there
#   --xvfb                always on a private Xvfb (default: only when DISPLAY
#                         is unset)
#   --timeout <s>         kill vkcube after this long (default 300; status 124)
#   --quiet               print only the result line, not vkcube's output
#
# Result line: "<program> on <driver>: <n> frames in <t> s = <f> frames/s
# (...)". With the capture library, t is the frame loop (first event poll
# to window destroyed, which includes the final vkDeviceWaitIdle); without
# it, the wall time of the whole process (start-up included).
# Exit status: vkcube's.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=xvfb.sh
source "$here/xvfb.sh"

icd='' program=vkcube frames=300 capture_lib='' png='' early_png='' log='' force_xvfb=0 timeout_s=300 quiet=0
extra=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --icd) icd=$2; shift 2 ;;
    --program) program=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --capture-lib) capture_lib=$2; shift 2 ;;
    --png) png=$2; shift 2 ;;
    --early-png) early_png=$2; shift 2 ;;
    --log) log=$2; shift 2 ;;
    --xvfb) force_xvfb=1; shift ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --quiet) quiet=1; shift ;;
    --help | -h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "run_vkcube: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -n $icd ]] || { echo "run_vkcube: --icd <manifest> is required" >&2; exit 2; }
[[ -f $icd ]] || { echo "run_vkcube: no ICD manifest $icd" >&2; exit 2; }
command -v "$program" >/dev/null || { echo "run_vkcube: $program is not installed (Debian package vulkan-tools)" >&2; exit 2; }
if [[ -n $png || -n $early_png ]] && [[ ! -f $capture_lib ]]; then
  echo "run_vkcube: screenshots need the capture library (--capture-lib; built as tests/vkcube/libduet_vkcube_capture.so)" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/duet-vkcube.XXXXXX")
# shellcheck disable=SC2317  # called by the trap
cleanup() {
  duet_stop_xvfb
  rm -rf "$work"
}
trap cleanup EXIT

where="DISPLAY=${DISPLAY:-}"
if [[ $force_xvfb == 1 || -z ${DISPLAY:-} ]]; then
  duet_start_xvfb 1024x768x24
  where="private Xvfb $DISPLAY"
fi

# Only this driver: the loader's other ways of finding drivers and layers
# stay out (vkcube --validate adds the validation layer itself).
unset VK_DRIVER_FILES VK_ADD_DRIVER_FILES VK_LOADER_LAYERS_ENABLE
export VK_ICD_FILENAMES=$icd
# Mesa's implicit device-select layer is not the driver under test.
export NODEVICE_SELECT=1
# vkcube alone gets the capture library, after any preload already there
# (a sanitizer runtime must stay first).
preload=${LD_PRELOAD:-}
[[ -n $capture_lib ]] && preload=${preload:+$preload:}$(realpath "$capture_lib")
if [[ -n $png ]]; then
  DUET_VKCUBE_PNG=$(realpath -m "$png")
  export DUET_VKCUBE_PNG
fi
if [[ -n $early_png ]]; then
  DUET_VKCUBE_EARLY_PNG=$(realpath -m "$early_png")
  export DUET_VKCUBE_EARLY_PNG
fi

output=$work/output.txt
start=$(date +%s.%N)
set +e
if [[ $quiet == 1 ]]; then
  timeout --kill-after=10 "$timeout_s" env LD_PRELOAD="$preload" "$program" --c "$frames" "${extra[@]}" >"$output" 2>&1
  status=$?
else
  timeout --kill-after=10 "$timeout_s" env LD_PRELOAD="$preload" "$program" --c "$frames" "${extra[@]}" 2>&1 |
    tee "$output"
  status=${PIPESTATUS[0]}
fi
set -e
end=$(date +%s.%N)
[[ -n $log ]] && cp "$output" "$log"

driver=$(basename "$icd" .json)
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
loop=$(sed -n 's/^duet-vkcube: loop_seconds=\([0-9.]*\).*/\1/p' "$output" | tail -n 1)
if [[ $status -eq 124 || $status -eq 137 ]]; then
  echo "$program on $driver: killed after ${timeout_s} s ($where)"
elif [[ $status -ne 0 ]]; then
  echo "$program on $driver: exited with status $status after $wall s ($where)"
elif [[ -n $loop ]]; then
  awk -v p="$program" -v d="$driver" -v n="$frames" -v t="$loop" -v w="$wall" -v where="$where" 'BEGIN {
    printf "%s on %s: %d frames in %.3f s = %.1f frames/s (frame loop; %.2f s wall, %s)\n", p, d, n, t, n / t, w, where }'
else
  awk -v p="$program" -v d="$driver" -v n="$frames" -v w="$wall" -v where="$where" 'BEGIN {
    printf "%s on %s: %d frames in %.3f s = %.1f frames/s (wall time, start-up included; %s)\n", p, d, n, w, n / w, where }'
fi
[[ -n $png && -f $png ]] && echo "screenshot of frame $frames: $png"
[[ -n $early_png && -f $early_png ]] && echo "screenshot during the run: $early_png"
exit "$status"

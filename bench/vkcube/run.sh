#!/usr/bin/env bash
# vkcube benchmark: Debian's vkcube for a fixed number of frames in
# IMMEDIATE present mode (--present_mode 0: nothing waits for a refresh)
# under a private Xvfb server, on libduet_vk.so and on lavapipe in the same
# run; prints a Markdown table of frames per second and the ratio.
#
#   bash bench/vkcube/run.sh [--quick] [--frames N] [--runs R] [--size WxH]
#                            [--duet manifest] [--lavapipe manifest] [--build dir]
#
#   --frames N    frames per run (default 1000; --quick: 100)
#   --runs R      runs per driver, alternating drivers; the best counts
#                 (default 3; --quick: 1)
#   --size WxH    vkcube's window (default 500x500, vkcube's own default)
#   --build dir   the build tree with duet_icd.json and tests/vkcube/
#                 (default ./build)
# Other options (scripts/bench.sh passes its arguments to every benchmark)
# are ignored.
#
# Timing: with the build's tests/vkcube/libduet_vkcube_capture.so
# (LD_PRELOAD), the frame loop: from vkcube's first event poll (after its
# set-up: pipelines, texture upload) until it destroys its window after the
# last frame and a vkDeviceWaitIdle. Without it (a build without tests),
# the wall time of the whole process, start-up included.
# Check: the last frame's screenshot on Duet must be lavapipe's last frame
# (tests/vkcube/duet_vkcube_png compare); otherwise Duet's cell is n/a.
# No test asserts any of these numbers.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../tests/vkcube/xvfb.sh
source "$root/tests/vkcube/xvfb.sh"

build=$root/build duet='' lavapipe=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
frames='' runs='' size=500x500 quick=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --quick) quick=1; shift ;;
    --frames) frames=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --duet) duet=$2; shift 2 ;;
    --lavapipe) lavapipe=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --help | -h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) shift ;;
  esac
done
if [[ $quick == 1 ]]; then
  frames=${frames:-100}
  runs=${runs:-1}
fi
frames=${frames:-1000}
runs=${runs:-3}
duet=${duet:-$build/duet_icd.json}
width=${size%x*} height=${size#*x}
capture_lib=$build/tests/vkcube/libduet_vkcube_capture.so
png_tool=$build/tests/vkcube/duet_vkcube_png

unset VK_DRIVER_FILES VK_ADD_DRIVER_FILES VK_ICD_FILENAMES VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE
work=$(mktemp -d "${TMPDIR:-/tmp}/duet-bench-vkcube.XXXXXX")
# shellcheck disable=SC2317  # called by the trap
cleanup() {
  duet_stop_xvfb
  rm -rf "$work"
}
trap cleanup EXIT
duet_start_xvfb "$((width > 1024 ? width : 1024))x$((height > 768 ? height : 768))x24"

notes=()
timing="frame loop (libduet_vkcube_capture.so)"
capture_args=()
if [[ -f $capture_lib ]]; then
  capture_args=(--capture-lib "$capture_lib")
else
  timing="wall time of the process, start-up included"
  notes+=("no $capture_lib (tests not built): wall time per run, start-up included; frames not checked")
fi

declare -A best device
# One timed run; sets best[<tag>] to the higher frames/s.
run_one() {  # run_one <tag> <manifest> <run number>
  local tag=$1 icd=$2 n=$3 line fps name
  local png=$work/$tag-$n.png
  local args=("${capture_args[@]}")
  [[ ${#capture_args[@]} -gt 0 ]] && args+=(--png "$png")
  if ! line=$(bash "$root/tests/vkcube/run_vkcube.sh" --icd "$icd" --frames "$frames" "${args[@]}" \
      --log "$work/$tag-$n.log" --timeout 600 --quiet -- --present_mode 0 --width "$width" --height "$height"); then
    notes+=("$tag: ${line%%$'\n'*}")
    return
  fi
  name=$(sed -n 's/^Selected GPU [0-9]*: \(.*\), type: .*/\1/p' "$work/$tag-$n.log" | head -n 1)
  [[ -n $name ]] && device[$tag]=$name
  fps=$(sed -n 's/.* = \([0-9.]*\) frames\/s.*/\1/p' <<<"$line" | head -n 1)
  [[ -n $fps ]] || return
  if [[ -z ${best[$tag]:-} ]] || awk -v a="$fps" -v b="${best[$tag]}" 'BEGIN { exit !(a > b) }'; then
    best[$tag]=$fps
    [[ -f $png ]] && cp "$png" "$work/$tag-best.png"
  fi
}

have_lavapipe=1
[[ -f $lavapipe ]] || { have_lavapipe=0; notes+=("lavapipe: no manifest $lavapipe (Debian package mesa-vulkan-drivers)"); }
for ((n = 1; n <= runs; n++)); do
  run_one duet "$duet" "$n"
  [[ $have_lavapipe == 1 ]] && run_one lavapipe "$lavapipe" "$n"
done

# Duet's frame must be lavapipe's (same program, frame count and window).
if [[ -n ${best[duet]:-} && -f $work/duet-best.png ]]; then
  if [[ -f $work/lavapipe-best.png && -x $png_tool ]]; then
    if ! "$png_tool" compare "$work/duet-best.png" "$work/lavapipe-best.png" >"$work/compare.txt"; then
      notes+=("duet: frame $frames differs from lavapipe's: $(grep -m1 FAIL "$work/compare.txt")")
      unset 'best[duet]'
    fi
  else
    notes+=("frame $frames not compared with lavapipe's (no lavapipe frame or no duet_vkcube_png)")
  fi
fi

workload="vkcube ${width}x${height}"
ratio=n/a
if [[ -n ${best[duet]:-} && -n ${best[lavapipe]:-} ]]; then
  ratio=$(awk -v a="${best[duet]}" -v b="${best[lavapipe]}" 'BEGIN { printf "%.2fx", a / b }')
fi
echo "vkcube: $frames frames, IMMEDIATE present mode, private Xvfb; best of $runs run(s) per driver; timing: $timing"
echo
printf '| %-16s | %s | %s | %s |\n' workload "duet frames/s" "lavapipe frames/s" "duet/lavapipe"
printf '|-%s-|%s:|%s:|%s:|\n' "----------------" "--------------" "------------------" "--------------"
printf '| %-16s | %13s | %17s | %13s |\n' "$workload" "${best[duet]:-n/a}" "${best[lavapipe]:-n/a}" "$ratio"
echo
for tag in duet lavapipe; do
  [[ -n ${device[$tag]:-} ]] && printf '%-16s %s\n' "$tag device:" "${device[$tag]}"
done
if [[ ${#notes[@]} -gt 0 ]]; then
  echo
  echo "notes:"
  for note in "${notes[@]}"; do echo "  - $note"; done
fi
[[ -n ${best[duet]:-} ]]

#!/usr/bin/env bash
# The ctest checks of Debian's vkcube / vkcubepp on libduet_vk.so, each
# under a private Xvfb server (tests/CMakeLists.txt, "vkcube" block).
#
#   check_vkcube.sh frames <program> <frames> <tools> <out_dir> <duet.json> <lavapipe.json> [vkcube args...]
#     <program> --c <frames> on Duet exits 0; the window during the run (at
#     the 100th event poll) and after the last frame each show a centred,
#     lit, LunarG-textured cube (duet_vkcube_png cube); and the last frame
#     is the frame lavapipe draws for the same program, arguments and frame
#     count (duet_vkcube_png compare). vkcube turns the cube by a fixed
#     angle per frame, so frame N is the same picture on every driver.
#     Without lavapipe's manifest the comparison is skipped with a message.
#
#   check_vkcube.sh validation <program> <frames> <tools> <out_dir> <duet.json> [vkcube args...]
#     <program> --validate --c <frames> on Duet exits 0 and prints no
#     validation error (vkcube's messenger: "ERROR :", "Validation Error",
#     "VUID-") and no driver error ("duet[error]"); warnings are listed.
#     A control run with vkcube's --force_errors must show errors, which
#     proves that the layer is loaded and that the errors would be seen.
#
# <tools> is the build directory holding libduet_vkcube_capture.so and
# duet_vkcube_png; screenshots and logs are left in <out_dir> as
# <program>-<mode>-<driver>[-early].{png,log}.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=xvfb.sh
source "$here/xvfb.sh"

mode=$1 program=$2 frames=$3 tools=$4 out=$5 duet=$6
shift 6
lavapipe=
if [[ $mode == frames ]]; then
  lavapipe=$1
  shift
fi
extra=("$@")
capture_lib=$tools/libduet_vkcube_capture.so
png_tool=$tools/duet_vkcube_png
mkdir -p "$out"

duet_start_xvfb 1024x768x24
trap duet_stop_xvfb EXIT
echo "check_vkcube: $mode, $program --c $frames ${extra[*]} on a private Xvfb ($DISPLAY)"

# Files of this check: <out>/<program>-<frames|validation>-<driver>.{png,log}
# (the checks may run in parallel).
prefix=$out/$program-$mode
run() {  # run <manifest> <driver tag> [run_vkcube options...] [-- vkcube args]
  local icd=$1 tag=$2
  shift 2
  bash "$here/run_vkcube.sh" --icd "$icd" --program "$program" --frames "$frames" --capture-lib "$capture_lib" \
    --log "$prefix-$tag.log" --timeout 120 --quiet "$@"
}

status=0
case $mode in
  frames)
    run "$duet" duet --png "$prefix-duet.png" --early-png "$prefix-duet-early.png" -- "${extra[@]}" || {
      echo "FAIL: $program exited with status $? on Duet; its output:"
      cat "$prefix-duet.log"
      exit 1
    }
    echo "--- the window during the run (event poll 100)"
    "$png_tool" cube "$prefix-duet-early.png" || status=1
    echo "--- the window after frame $frames"
    "$png_tool" cube "$prefix-duet.png" || status=1
    if [[ -f $lavapipe ]]; then
      echo "--- frame $frames on Duet against frame $frames on lavapipe"
      if run "$lavapipe" lavapipe --png "$prefix-lavapipe.png" -- "${extra[@]}"; then
        "$png_tool" compare "$prefix-duet.png" "$prefix-lavapipe.png" || status=1
      else
        echo "lavapipe's run failed (not Duet's problem): comparison skipped"
        cat "$prefix-lavapipe.log"
      fi
    else
      echo "no lavapipe manifest at $lavapipe (Debian package mesa-vulkan-drivers): comparison skipped"
    fi
    ;;
  validation)
    run_status=0
    run "$duet" duet -- --validate "${extra[@]}" || run_status=$?
    log=$prefix-duet.log
    errors=$(grep -cE '^ERROR :|Validation Error|VUID-|duet\[error\]' "$log" || true)
    warnings=$(grep -E '^WARNING :|duet\[warn\]' "$log" || true)
    [[ -n $warnings ]] && { echo "warnings (not failures):"; echo "$warnings"; }
    if [[ $run_status -ne 0 ]]; then
      echo "FAIL: $program --validate exited with status $run_status"
      status=1
    fi
    if [[ $errors -ne 0 ]]; then
      echo "FAIL: $errors error lines under the validation layer:"
      grep -E -A2 '^ERROR :|Validation Error|VUID-|duet\[error\]' "$log" | head -n 60
      status=1
    else
      echo "no validation error and no driver error in $frames frames"
    fi
    # Control: deliberate API misuse must be reported.
    frames=5
    run "$duet" control -- --validate --force_errors "${extra[@]}" >/dev/null || true
    if grep -qE 'Validation Error|VUID-' "$prefix-control.log"; then
      echo "control: --force_errors is reported, so the layer is active"
    else
      echo "FAIL: the --force_errors control run printed no validation error: is VK_LAYER_KHRONOS_validation installed?"
      cat "$prefix-control.log"
      status=1
    fi
    ;;
  *)
    echo "check_vkcube: unknown mode $mode" >&2
    exit 2
    ;;
esac
exit $status

#!/usr/bin/env bash
# One sample as a test (tests/CMakeLists.txt, "samples" block):
#
#   check_sample.sh <sample> <png_tool> <out_dir> <icd.json> <expected.png> <compare limits> [-- sample args]
#
# Runs the sample on the driver under the Khronos validation layer with
# --out <out_dir>/<name>.png; it must exit 0 (samples that can check their
# own results, such as compute, do so and fail otherwise) with no
# validation or driver error in its output. Its picture is then compared
# with <expected.png> by `duet_vkcube_png compare` with <compare limits>
# ("max_mean max_bad_percent bad_threshold"). With DUET_SAMPLE_EXPECT set,
# a line of the output must match that regular expression; with
# DUET_SAMPLE_DUMPS=1 (headless presents), the last frame the driver dumped
# (DUET_DUMP_FRAMES) must be the sample's picture. The expected pictures are
# lavapipe's (Mesa's CPU driver), made by the same script with
# DUET_SAMPLE_EXPECTED=write and <icd.json> lavapipe's manifest.
set -euo pipefail
sample=$1 png_tool=$2 out=$3 icd=$4 expected=$5 limits=$6
shift 6
[[ ${1:-} == -- ]] && shift
name=$(basename "$sample")
mkdir -p "$out"
picture=$out/$name.png log=$out/$name.log

unset VK_DRIVER_FILES VK_ADD_DRIVER_FILES VK_LOADER_LAYERS_ENABLE
export NODEVICE_SELECT=1
if [[ ${DUET_SAMPLE_EXPECTED:-} == write ]]; then
  VK_ICD_FILENAMES=$icd "$sample" --out "$expected" "$@"
  exit
fi

status=0
dumps=()
if [[ -n ${DUET_SAMPLE_DUMPS:-} ]]; then  # the driver's headless frame dumps (backends/framebuffer/headless.cpp)
  rm -rf "$out/frames"
  dumps=(DUET_DUMP_FRAMES="$out/frames")
fi
env "${dumps[@]}" VK_ICD_FILENAMES=$icd VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LOADER_DEBUG=layer DUET_LOG=warn \
  timeout 300 "$sample" --out "$picture" "$@" >"$log" 2>&1 || status=$?
grep -v 'LAYER:' "$log" || true
if [[ $status -ne 0 ]]; then
  echo "FAIL: $name exited with status $status"
  exit 1
fi
if ! grep -q 'Insert instance layer "VK_LAYER_KHRONOS_validation"' "$log"; then
  echo "FAIL: the validation layer was not inserted (Debian package vulkan-validationlayers)"
  exit 1
fi
if grep -qE 'VUID-|Validation Error|duet\[error\]' "$log"; then
  echo "FAIL: $name ran with validation or driver errors (above)"
  exit 1
fi
if [[ -n ${DUET_SAMPLE_EXPECT:-} ]] && ! grep -qE "$DUET_SAMPLE_EXPECT" "$log"; then
  echo "FAIL: no line of $name's output matches: $DUET_SAMPLE_EXPECT"
  exit 1
fi
read -r max_mean max_bad threshold <<<"$limits"
"$png_tool" compare "$picture" "$expected" "$max_mean" "$max_bad" "$threshold" || exit 1
if [[ -n ${DUET_SAMPLE_DUMPS:-} ]]; then
  # What the driver presented last is what the sample drew last, exactly.
  last=$(find "$out/frames" -name 'frame_*.png' 2>/dev/null | sort | tail -n 1)
  [[ -n $last ]] || { echo "FAIL: the driver dumped no frame into $out/frames"; exit 1; }
  echo "the driver's last presented frame: $last"
  "$png_tool" compare "$last" "$picture" 0 0 0
fi

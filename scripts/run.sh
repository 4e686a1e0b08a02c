#!/usr/bin/env bash
# The main job. Installs what is missing, builds, and runs Debian's vkcube
# (vulkan-tools) through the stock Vulkan loader on the freshly built
# libduet_vk.so for a fixed number of frames: 300 (or $VKCUBE_FRAMES), in
# IMMEDIATE present mode so that the rate is the driver's and not a refresh
# rate's. Without a DISPLAY it runs in a private Xvfb server (started with
# -displayfd, killed at exit). Saves the window after the last frame as
# build/vkcube.png and prints frames per second (the frame loop's; see
# tests/vkcube/run_vkcube.sh). Arguments go to vkcube after the defaults
# (e.g. --present_mode 2 for FIFO, --width 800 --height 600).
# Exits with vkcube's status.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/build.sh

capture=()
if [[ -f build/tests/vkcube/libduet_vkcube_capture.so ]]; then
  capture=(--capture-lib build/tests/vkcube/libduet_vkcube_capture.so --png build/vkcube.png)
else
  echo "run: build/tests/vkcube/libduet_vkcube_capture.so is missing (tests not built): no screenshot" >&2
fi
exec bash tests/vkcube/run_vkcube.sh --icd "$PWD/build/duet_icd.json" --frames "${VKCUBE_FRAMES:-300}" \
  "${capture[@]}" -- --present_mode 0 "$@"

#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (unit, integration,
# exported symbols, install, vulkaninfo, validation layer, leak check) with
# ctest. Exits non-zero on any failure; ctest's summary is the last output.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/build.sh

# The tests choose their own driver; a caller's settings must not leak in.
unset VK_DRIVER_FILES VK_ADD_DRIVER_FILES VK_ICD_FILENAMES VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE
exec ctest --test-dir build --output-on-failure -j2

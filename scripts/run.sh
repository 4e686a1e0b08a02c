#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job: vulkaninfo
# through the stock Vulkan loader on the freshly built ICD. Exits with
# vulkaninfo's status.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/build.sh

unset VK_DRIVER_FILES VK_ADD_DRIVER_FILES
export VK_ICD_FILENAMES=$PWD/build/duet_icd.json
exec vulkaninfo --summary

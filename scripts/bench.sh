#!/usr/bin/env bash
# Installs what is missing, builds (./build, as scripts/build.sh does) and
# prints the benchmark tables: Duet next to lavapipe and memcpy, measured
# on this machine in this run. Arguments go to duet_bench_transfer
# (e.g. --quick, --workload copy_buffer; --help lists them).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/build.sh -DDUET_BUILD_BENCH=ON

# The benchmark chooses each child's driver itself; a caller's loader
# settings must not leak into the parent either.
unset VK_DRIVER_FILES VK_ADD_DRIVER_FILES VK_ICD_FILENAMES VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE
exec build/bench/duet_bench_transfer --duet "$PWD/build/duet_icd.json" "$@"

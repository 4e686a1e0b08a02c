#!/usr/bin/env bash
# Installs what is missing, builds (./build, as scripts/build.sh does) and
# prints every benchmark table: Duet next to lavapipe (and memcpy for the
# transfers), measured on this machine in this run. Arguments go to each
# benchmark (e.g. --quick; --help on one of them lists its options).
#
#   bash scripts/bench.sh                 transfer, compute, graphics, pipeline and vkcube tables
#   bash scripts/bench.sh --quick         the same, one repetition each (smoke run)
#   BENCHES="compute graphics" bash scripts/bench.sh    only these tables
#   BENCHES=graphics bash scripts/bench.sh --workload textured_cube
#                                         one row (workload names are per benchmark)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
bash scripts/build.sh -DDUET_BUILD_BENCH=ON

# The benchmarks choose each child's driver themselves; a caller's loader
# settings must not leak into the parent either.
unset VK_DRIVER_FILES VK_ADD_DRIVER_FILES VK_ICD_FILENAMES VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE

status=0
first=1
for bench in ${BENCHES:-transfer compute graphics pipeline vkcube}; do
  [[ $first == 1 ]] || echo
  first=0
  if [[ $bench == vkcube ]]; then
    # Debian's vkcube under Xvfb (bench/vkcube/run.sh), not a C++ program.
    bash bench/vkcube/run.sh --duet "$PWD/build/duet_icd.json" "$@" || status=$?
  else
    build/bench/duet_bench_"$bench" --duet "$PWD/build/duet_icd.json" "$@" || status=$?
  fi
done
exit $status

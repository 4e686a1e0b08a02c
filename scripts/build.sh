#!/usr/bin/env bash
# Configures (Ninja, RelWithDebInfo) into ./build and builds with two jobs.
# Extra arguments go to the configure step (e.g. -DDUET_SANITIZE=address).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build build -j2

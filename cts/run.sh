#!/usr/bin/env bash
# Runs Khronos CTS cases (deqp-vk) on this build's driver; see cts/README.md.
#   cts/run.sh --deqp <dir with deqp-vk> (--list <caselist> | --include <glob>...)
#              [--jobs N] [--baseline <results.csv>] [--timeout S] [--out DIR] [--icd <manifest>]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
icd=()
case " $* " in
  *" --icd "*) ;;
  *) icd=(--icd "$root/build/duet_icd.json") ;;
esac
exec python3 "$root/cts/deqp_runner.py" "${icd[@]}" "$@"

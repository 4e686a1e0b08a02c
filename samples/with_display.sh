#!/usr/bin/env bash
# Runs a command with a private display server for the `present` sample's
# tests (tests/CMakeLists.txt, "samples" block):
#
#   with_display.sh xvfb <command...>     a private Xvfb (DISPLAY)
#   with_display.sh weston <command...>   a private headless weston (WAYLAND_DISPLAY)
#
# Exits 77 (skipped) when the server is not installed or does not start.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
server=$1
shift
case $server in
  xvfb)
    command -v Xvfb >/dev/null || { echo "with_display: Xvfb is not installed: skipped"; exit 77; }
    # shellcheck source=../tests/vkcube/xvfb.sh
    source "$here/../tests/vkcube/xvfb.sh"
    duet_start_xvfb 1024x768x24 || { echo "with_display: Xvfb did not start: skipped"; exit 77; }
    trap duet_stop_xvfb EXIT
    unset WAYLAND_DISPLAY
    "$@"
    ;;
  weston)
    command -v weston >/dev/null || { echo "with_display: weston is not installed: skipped"; exit 77; }
    runtime=$(mktemp -d)
    export XDG_RUNTIME_DIR=$runtime WAYLAND_DISPLAY=duet-sample-$$
    weston --backend=headless-backend.so --socket="$WAYLAND_DISPLAY" --idle-time=0 >"$runtime/weston.log" 2>&1 &
    weston_pid=$!
    trap 'kill $weston_pid 2>/dev/null; wait $weston_pid 2>/dev/null; rm -rf "$runtime"' EXIT
    for _ in $(seq 100); do
      [[ -S $runtime/$WAYLAND_DISPLAY ]] && break
      sleep 0.1
    done
    [[ -S $runtime/$WAYLAND_DISPLAY ]] || { echo "with_display: weston did not start: skipped"; cat "$runtime/weston.log"; exit 77; }
    unset DISPLAY
    "$@"
    ;;
  *) echo "with_display: unknown server $server" >&2; exit 2 ;;
esac

# shellcheck shell=bash
# Sourced by the vkcube scripts (tests/vkcube/, bench/vkcube/).
#
#   duet_start_xvfb [WxHxDEPTH]   starts a private Xvfb server and exports
#                                 DISPLAY; the server picks a free display
#                                 number itself (-displayfd), so parallel
#                                 runs never collide
#   duet_stop_xvfb                kills it (safe to call twice); callers
#                                 `trap duet_stop_xvfb EXIT`
#
# Only the process started here is ever killed, by its pid.

DUET_XVFB_PID=
DUET_XVFB_DIR=

duet_start_xvfb() {
  local screen=${1:-1024x768x24}
  if ! command -v Xvfb >/dev/null; then
    echo "xvfb: Xvfb is not installed (Debian package xvfb; scripts/setup.sh installs it)" >&2
    return 1
  fi
  DUET_XVFB_DIR=$(mktemp -d "${TMPDIR:-/tmp}/duet-xvfb.XXXXXX")
  # (Without the caller's LD_PRELOAD: a sanitizer runtime is for the driver.)
  env -u LD_PRELOAD Xvfb -displayfd 9 -screen 0 "$screen" -nolisten tcp 9>"$DUET_XVFB_DIR/display" \
    2>"$DUET_XVFB_DIR/log" &
  DUET_XVFB_PID=$!
  local number='' i
  # Xvfb writes "<number>\n" once it accepts connections; read succeeds
  # only when the whole line is there.
  for ((i = 0; i < 400; i++)); do
    if read -r number 2>/dev/null <"$DUET_XVFB_DIR/display" && [[ -n $number ]]; then
      export DISPLAY=":$number"
      return 0
    fi
    if ! kill -0 "$DUET_XVFB_PID" 2>/dev/null; then
      echo "xvfb: Xvfb exited before accepting connections:" >&2
      cat "$DUET_XVFB_DIR/log" >&2
      DUET_XVFB_PID=
      duet_stop_xvfb
      return 1
    fi
    sleep 0.05
  done
  echo "xvfb: Xvfb did not start within 20 s" >&2
  duet_stop_xvfb
  return 1
}

duet_stop_xvfb() {
  if [[ -n $DUET_XVFB_PID ]]; then
    kill "$DUET_XVFB_PID" 2>/dev/null || true
    wait "$DUET_XVFB_PID" 2>/dev/null || true
    DUET_XVFB_PID=
  fi
  if [[ -n $DUET_XVFB_DIR ]]; then
    rm -rf "$DUET_XVFB_DIR"
    DUET_XVFB_DIR=
  fi
}

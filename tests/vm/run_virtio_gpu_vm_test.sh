#!/usr/bin/env bash
# End-to-end test of VK_KHR_display on virtio-gpu: boots Debian's kernel in
# QEMU (TCG) with -device virtio-gpu-pci and a busybox initramfs holding the
# scene (virtio_gpu_scene.cpp) and the Duet driver, drives the scene's phases
# over the serial port, screendumps the guest's screen through QMP after each
# and compares it with the frames the scene describes, checks that the fifo
# stream never shows a torn frame, and counts the transfers QEMU traced
# (-trace virtio_gpu_cmd_*; the log is split at the traced screendump QMP
# commands) and the driver logged (DUET_LOG=info) between phases.
#
#   run_virtio_gpu_vm_test.sh SCENE LIBDUET_VK WORK_DIR
#
# WORK_DIR keeps the downloaded kernel (WORK_DIR/kernel) and one folder per
# run (WORK_DIR/runs/<time>-<pid>: serial.log, trace.log, qemu.stderr,
# <phase>.ppm/.png, result.txt, cmdline; the last 5 runs are kept).
# Env:
#   VM_TEST_SKIP_TRANSFER_CHECKS=1  report the transfer counts without failing on them
#   VM_TEST_ACCEL=tcg|kvm           (default tcg)
#   VM_TEST_DISPLAYS=1|2            virtio-gpu scanouts the guest must see (default 2)
#   VM_TEST_TIMEOUT=<s>             the guest's budget from boot to power-off (default 100)
#   VM_TEST_SCENE_ARGS=...          extra scene arguments
#   VM_TEST_QEMU_EXTRA=...          extra QEMU arguments
#   INITRD_COMPRESS=none|gzip       passed to build_guest.sh
# Exit: 0 pass, 1 fail, 77 skipped (the reason is printed: no QEMU, the
# guest kernel cannot be downloaded, ...).
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# == 3 ]] || { echo "usage: $0 SCENE LIBDUET_VK WORK_DIR" >&2; exit 2; }
SCENE=$(realpath "$1"); DRIVER=$(realpath "$2"); WORK=$3
XRES=640; YRES=480
skip() { echo "SKIP: $*"; exit 77; }

command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed (package qemu-system-x86)"
command -v python3 >/dev/null || skip "python3 is not installed"
[[ -x $SCENE ]] || { echo "FAIL: no scene binary $SCENE"; exit 1; }
[[ -f $DRIVER ]] || { echo "FAIL: no driver $DRIVER"; exit 1; }

mkdir -p "$WORK/runs" || exit 1
WORK=$(realpath "$WORK")
O=$WORK/runs/$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$O" "$O/expected" || exit 1
ln -sfn "$O" "$WORK/runs/latest"
# keep the last 5 runs
find "$WORK/runs" -mindepth 1 -maxdepth 1 -type d -name '2*-*' | sort | head -n -5 | xargs -r rm -rf
LOG=$O/serial.log; RES=$O/result.txt
: >"$LOG"; : >"$RES"
t_start=$(date +%s.%N)
el() { awk -v a="$(date +%s.%N)" -v b="${1:-$t_start}" 'BEGIN{printf "%.2f", a-b}'; }
note() { echo "$*" >>"$RES"; }

# --- guest ---------------------------------------------------------------------------------------
INITRD_COMPRESS=${INITRD_COMPRESS:-none} bash "$HERE/build_guest.sh" "$SCENE" "$DRIVER" "$WORK" "$O/guest" >"$O/build.log" 2>&1
rc=$?
if ((rc == 77)); then
  skip "$(grep '^SKIP:' "$O/build.log" | sed 's/^SKIP: //' | tail -1)"
elif ((rc != 0)); then
  cat "$O/build.log"
  echo "FAIL: building the guest failed ($O/build.log)"; exit 1
fi
rm -rf "$O/guest/initramfs"   # the tree is in the archive
note "guest built in $(el) s: $(grep -o 'kernel [^;]*' "$O/build.log" | head -1), $(grep -o 'initramfs .*' "$O/build.log")"
"$SCENE" --write-expected "$O/expected" $XRES $YRES || { echo "FAIL: $SCENE --write-expected"; exit 1; }

# --- QEMU ----------------------------------------------------------------------------------------
ACCEL=${VM_TEST_ACCEL:-tcg}
TIMEOUT=${VM_TEST_TIMEOUT:-100}
NDISPLAYS=${VM_TEST_DISPLAYS:-2}
mkfifo "$O/ser.in" "$O/ser.out" "$O/qmp.in" "$O/qmp.out" || exit 1
# shellcheck disable=SC2054 # commas inside QEMU options
QEMU=(qemu-system-x86_64 -accel "$ACCEL" -cpu max -m 512 -smp 1 -nodefaults -no-user-config
  -vga none -display none -no-reboot
  -device "virtio-gpu-pci,id=gpu0,xres=$XRES,yres=$YRES,max_outputs=$NDISPLAYS"
  -serial pipe:"$O/ser"
  -chardev pipe,id=qmp0,path="$O/qmp" -mon chardev=qmp0,mode=control
  -trace 'enable=virtio_gpu_cmd_*' -trace 'enable=handle_qmp_command' -D "$O/trace.log"
  -kernel "$O/guest/vmlinux" -initrd "$O/guest/initramfs.cpio"
  -append "console=ttyS0 quiet panic=-1${VM_TEST_SCENE_ARGS:+ SCENE_ARGS=\"$VM_TEST_SCENE_ARGS\"}"
  )
read -r -a extra <<<"${VM_TEST_QEMU_EXTRA:-}"
QEMU+=("${extra[@]}")
# Without a UI, QEMU enables only scanout 0: the second connector stays
# disconnected. A VNC server bound to head 1 and a client asking it for a
# desktop size (RFB SetDesktopSize) enable scanout 1 (dpy_set_ui_info).
((NDISPLAYS == 2)) && QEMU+=(-vnc "unix:$O/vnc1.sock,display=gpu0,head=1")
echo "${QEMU[*]}" >"$O/cmdline"
t_boot=$(date +%s.%N)
"${QEMU[@]}" 2>"$O/qemu.stderr" &
QPID=$!
exec 3<>"$O/ser.out" 4>"$O/ser.in" 5<>"$O/qmp.out" 6>"$O/qmp.in"   # <> never blocks on open
cleanup() {
  if kill -0 $QPID 2>/dev/null; then
    echo '{"execute":"quit"}' >&6 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 $QPID 2>/dev/null || break; sleep 0.1; done
    kill $QPID 2>/dev/null
  fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM   # ctest's timeout: still stop QEMU
trap '' PIPE             # a dead QEMU: writes fail instead of killing the runner
DEADLINE=$((SECONDS + TIMEOUT))

qmp() {   # one QMP command; waits for its return (0) or error (1)
  echo "$1" 2>/dev/null >&6 || { note "QMP: cannot send $1 (QEMU gone?)"; return 1; }
  local l
  while IFS= read -r -t 30 l <&5; do
    case $l in *'"return"'*) return 0 ;; *'"error"'*) note "QMP error: $l"; return 1 ;; esac
  done
  note "QMP: no answer to $1"; return 1
}
buf=""
LINE=""
next_line() {   # $1 = milliseconds to wait for a line to begin; sets LINE, logs it
  # Short `read -t` timeouts can fire while read consumes the newline, which
  # then joins two lines: wait for input with `read -t 0` (no reading), then
  # read the line with a long timeout.
  local l rc=0 ms=$1
  until read -r -t 0 -u 3; do
    ((ms > 0)) || return 1
    sleep 0.01; ms=$((ms - 10))
  done
  IFS= read -r -t 10 l <&3 || rc=$?
  if ((rc == 0)); then
    LINE=${buf}${l%$'\r'}; buf=""
    printf '%s\n' "$LINE" >>"$LOG"
    return 0
  fi
  ((rc > 128)) && buf+=$l   # 10 s inside one line: keep what came
  return 1
}

fails=()
fail() { fails+=("$*"); note "FAIL: $*"; }
finish() {
  local verdict=PASS
  ((${#fails[@]})) && verdict=FAIL
  note "total $(el) s (guest build, boot, phases, checks)"
  if ((${#fails[@]})); then
    echo "failed checks:" >>"$RES"
    printf '  %s\n' "${fails[@]}" >>"$RES"
  fi
  cat "$RES"
  rm -f "$O"/ser.* "$O"/qmp.*
  [[ $verdict == PASS ]] && rm -f "$O/guest/initramfs.cpio"   # 20 MB; kept when a run fails
  echo "RESULT: $verdict  (output: $O)"
  [[ $verdict == PASS ]] && exit 0 || exit 1
}

IFS= read -r -t 30 _ <&5 || { cat "$O/qemu.stderr"; fail "QEMU did not start (no QMP greeting; $O/qemu.stderr)"; finish; }
qmp '{"execute":"qmp_capabilities"}' || { fail "qmp_capabilities"; finish; }
if ((NDISPLAYS == 2)); then
  python3 "$HERE/check_screen.py" vnc-set-size "$O/vnc1.sock" $XRES $YRES >>"$RES" 2>&1 ||
    fail "could not enable the second scanout through VNC"
  note "scanout 1 enabled at $(el "$t_boot") s after boot"
fi

# --- the phases ----------------------------------------------------------------------------------
declare -A phase_ok=()
displays=""; display0=""; display1=""; guest_rc=""; unplug_lost=0
trace_flush_yes=0; trace_flush_no=0
W=$XRES; H=$YRES

screendump() {   # $1 = file
  qmp "{\"execute\":\"screendump\",\"arguments\":{\"filename\":\"$1\"}}"
}

do_phase() {   # $1 = phase, $2 = WxH the guest reports
  local phase=$1 size=$2 ts
  note "phase $phase ready at $(el "$t_boot") s after boot ($size)"
  case $phase in
    full) W=${size%x*}; H=${size#*x}
          [[ $size == "${XRES}x${YRES}" ]] || fail "full: the guest presents at $size, the screen is ${XRES}x${YRES}"
          "$SCENE" --write-expected "$O/expected" "$W" "$H" ;;
    mode) "$SCENE" --write-expected "$O/expected" "$W" "$H" "${size%x*}" "${size#*x}"
          [[ $size != "${W}x${H}" ]] || fail "mode: the new mode has the old size $size" ;;
  esac
  ts=$(date +%s.%N)
  if [[ $phase == second ]]; then   # display 1 = head 1; display 0 must still show the mode phase's frame
    screendump "$O/second-head0.ppm" || { fail "second: screendump of head 0 failed"; return; }
    python3 "$HERE/check_screen.py" compare second-head0 "$O/second-head0.ppm" "$O/expected/mode.ppm" >>"$RES" 2>&1 ||
      fail "second: display 0 changed while display 1 was presented to (see $O/second-head0.png)"
    qmp "{\"execute\":\"screendump\",\"arguments\":{\"filename\":\"$O/second.ppm\",\"device\":\"gpu0\",\"head\":1}}" ||
      { fail "second: screendump of head 1 failed"; return; }
  else
    screendump "$O/$phase.ppm" || { fail "$phase: screendump failed"; return; }
  fi
  # Does QEMU write trace lines out at once? The screendump's own
  # handle_qmp_command line is in the file when the command has returned.
  if grep -q "$O/$phase.ppm" "$O/trace.log"; then ((trace_flush_yes++)); else ((trace_flush_no++)); fi
  if [[ -f $O/expected/$phase.ppm ]]; then
    if python3 "$HERE/check_screen.py" compare "$phase" "$O/$phase.ppm" "$O/expected/$phase.ppm" >>"$RES" 2>&1; then
      phase_ok[$phase]=1
    else
      fail "$phase: the screen is not the expected frame (see $O/$phase.png)"
    fi
  else
    fail "unknown phase $phase"
  fi
  note "  screendump + check $(el "$ts") s"
  echo go >&4
}

do_stream() {   # the host screendumps until the guest prints STREAM <name> END
  local name=$1 n=0 ended=0 ts
  ts=$(date +%s.%N)
  mkdir -p "$O/stream-$name"
  while ((SECONDS < DEADLINE && n < 1500)); do
    n=$((n + 1))
    screendump "$O/stream-$name/$(printf %04d $n).ppm" || { fail "stream: screendump failed"; break; }
    while next_line 0; do
      [[ $LINE == *"STREAM $name END"* ]] && { ended=1; break; }
      [[ $LINE == *"PHASE "*" READY"* || $LINE == *GUEST-TEST-DONE* ]] && { ended=2; break; }
      handle_line || true
    done
    ((ended)) && break
  done
  ((ended == 1)) || fail "stream $name: no STREAM $name END"
  note "stream $name: $n screendumps in $(el "$ts") s"
  python3 "$HERE/check_screen.py" stream "$O/stream-$name" "$O/expected" >>"$RES" 2>&1 ||
    fail "stream $name: a screendump showed a torn or unexpected frame (see $O/stream-$name/)"
  ((ended == 2)) && { handle_line; return; }   # the line after a missing END
  return 0
}

handle_line() {   # the serial line in LINE; returns 1 when the guest is done
  local f
  read -r -a f <<<"$LINE"
  case $LINE in
    "PHASE "*" READY "*) do_phase "${f[1]}" "${f[3]}" ;;
    "STREAM "*" BEGIN"*) do_stream "${f[1]}" || return 1 ;;
    "UNPLUG 1 REQUEST"*)
      # Width 0 disables the scanout (QEMU's virtio-gpu ui_info), as an unplugged monitor.
      python3 "$HERE/check_screen.py" vnc-set-size "$O/vnc1.sock" 0 0 >>"$RES" 2>&1 ||
        fail "unplug: could not disable scanout 1 through VNC"
      note "scanout 1 disabled at $(el "$t_boot") s after boot"
      echo go >&4 ;;
    "UNPLUG 1 SURFACE_LOST"*) unplug_lost=1 ;;
    "DISPLAYS "*) displays=${f[1]} ;;
    "DISPLAY 0 "*) display0=${f[3]} ;;
    "DISPLAY 1 "*) display1=${f[3]} ;;
    FAIL*) fail "guest: ${LINE#FAIL }" ;;
    *GUEST-MODULES-LOADED*) note "modules loaded at $(el "$t_boot") s after boot" ;;
    *SCENE-START*) note "scene started at $(el "$t_boot") s after boot" ;;
    *"GUEST-TEST-DONE rc="*) guest_rc=${LINE#*rc=}; guest_rc=${guest_rc%% *}; return 1 ;;
  esac
  return 0
}

while ((SECONDS < DEADLINE)); do
  if next_line 1000; then
    handle_line || break
  else
    kill -0 $QPID 2>/dev/null || break
  fi
done
if [[ -z $guest_rc ]]; then
  if kill -0 $QPID 2>/dev/null; then
    fail "the guest did not finish within ${TIMEOUT} s"
  else
    fail "QEMU exited before the guest finished (see $O/qemu.stderr)"
  fi
  tail -5 "$LOG" | sed 's/^/  serial: /' >>"$RES"
fi
note "guest done at $(el "$t_boot") s after boot: rc=${guest_rc:-none}"
[[ $guest_rc == 0 ]] || fail "the scene exited with status ${guest_rc:-none}"
for _ in $(seq 50); do kill -0 $QPID 2>/dev/null || break; sleep 0.1; done
while next_line 20; do :; done   # the rest of the serial output
cleanup

# --- checks over the whole run -------------------------------------------------------------------
note "displays the guest sees: ${displays:-none} (display 0: ${display0:-none}, display 1: ${display1:-none}; expected $NDISPLAYS)"
[[ -n $displays ]] || fail "the guest printed no DISPLAYS line"
[[ -z $displays || $displays == "$NDISPLAYS" ]] || fail "the guest sees $displays displays, expected $NDISPLAYS"
((NDISPLAYS < 2)) || [[ -z $displays || $display1 == "${XRES}x${YRES}" ]] || fail "display 1 is ${display1:-missing}, expected ${XRES}x${YRES}"
[[ -z $display0 || $display0 == "${XRES}x${YRES}" ]] || fail "display 0 is $display0, expected ${XRES}x${YRES}"
phases="full small same fifo mode"
((NDISPLAYS == 2)) && phases+=" second"
for p in $phases; do
  [[ -n ${phase_ok[$p]:-} ]] || [[ " ${fails[*]} " == *" $p:"* ]] || fail "phase $p did not run"
done
((NDISPLAYS < 2 || unplug_lost)) || fail "unplug: presents to the disabled display 1 never returned VK_ERROR_SURFACE_LOST_KHR"
note "trace.log flushed per line: $( ((trace_flush_no == 0 && trace_flush_yes > 0)) && echo yes || echo "no ($trace_flush_no of $((trace_flush_yes + trace_flush_no)) markers missing at the QMP return)") (counts below are split at the traced screendump commands)"
info=""
[[ ${VM_TEST_SKIP_TRANSFER_CHECKS:-0} == 1 ]] && info=--info-only
python3 "$HERE/check_screen.py" transfers "$O/trace.log" "$LOG" "$O/expected" $info >>"$RES" 2>&1 ||
  fail "transfers: see the counts above"
grep -h 'duet stats:' "$LOG" | sed 's/^/guest /' >>"$RES"
finish

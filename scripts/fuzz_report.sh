# Sourced by scripts/fuzz.sh and scripts/fuzz_exec.sh: prints what a
# libFuzzer run found. libFuzzer's progress (hundreds of lines) stays in the
# log; on failure the report from its first error on is printed, so that a
# CI log cut short still shows why, and the inputs it wrote are listed.
#   fuzz_report NAME STATUS LOG BUILD_DIR
fuzz_report() {
  local name=$1 status=$2 log=$3 build=$4 first
  if [[ $status -eq 0 ]]; then
    grep -E '^(#[0-9]+[[:space:]]+DONE|Done )' "$log" || tail -n 3 "$log"
    return
  fi
  echo "fuzz: $name exited with status $status; its report (whole log: $log):"
  first=$(grep -n -m1 -E 'ERROR|==[0-9]+==|runtime error|Timeout|out-of-memory|deadly signal' "$log" | cut -d: -f1 || true)
  if [[ -n $first ]]; then
    sed -n "$((first > 5 ? first - 5 : 1)),\$p" "$log" | grep -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)' | head -n 120
  else
    tail -n 60 "$log"
  fi
  ls "$build"/crash-* "$build"/timeout-* "$build"/oom-* "$build"/leak-* 2>/dev/null || true
}

#!/usr/bin/env python3
"""Runs Khronos CTS cases (deqp-vk) on a Vulkan driver, the way Mesa's CI
runs them: the case list split into shards, one deqp-vk process per shard,
a timeout per case, and a crashed or hung process restarted after the case
it died on. Results go to results.csv (case,status,seconds), failures.txt,
notsupported.txt (with deqp-vk's reasons) and a one-line summary; against a baseline of the same format only the
changes are printed, and a regression makes the exit status non-zero.

deqp-vk reports each case in its log (--deqp-log-filename) between
"#beginTestCaseResult <case>" and "#endTestCaseResult" (or
"#terminateTestCaseResult <status>"), with <Result StatusCode="...">reason
</Result> inside; this reads that log as it grows.
"""
import argparse
import csv
import fnmatch
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

PASSING = {'Pass', 'QualityWarning', 'CompatibilityWarning'}
FAILING = {'Fail', 'Crash', 'Timeout', 'InternalError', 'ResourceError'}
RESULT_RE = re.compile(r'<Result StatusCode="([^"]+)"[^>]*>(.*?)</Result>', re.S)
DURATION_RE = re.compile(r'<Number Name="TestDuration"[^>]*>(\d+)</Number>')


class CaseResult:
    def __init__(self, name, status, seconds, reason=''):
        self.name, self.status, self.seconds, self.reason = name, status, seconds, reason


def read_case_list(args):
    """The cases to run, in order: from --list (names or globs per line),
    else every case of deqp-vk's own list matching --include."""
    patterns = []
    if args.list:
        with open(args.list) as f:
            for line in f:
                line = line.split('#')[0].strip()
                if line:
                    patterns.append(line)
        if not any(any(c in p for c in '*?[') for p in patterns):
            return patterns
    else:
        patterns = args.include
    every = deqp_case_list(args)
    out, seen = [], set()
    for p in patterns:
        for case in (fnmatch.filter(every, p) if any(c in p for c in '*?[') else [p]):
            if case not in seen:
                seen.add(case)
                out.append(case)
    return out


def deqp_case_list(args):
    with tempfile.TemporaryDirectory(prefix='deqp-list-') as tmp:
        subprocess.run([args.deqp_binary, '--deqp-runmode=txt-caselist', f'--deqp-archive-dir={args.deqp}'],
                       cwd=tmp, env=args.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        listing = os.path.join(tmp, 'dEQP-VK-cases.txt')
        if not os.path.exists(listing):
            sys.exit(f'run: {args.deqp_binary} wrote no case list')
        with open(listing) as f:
            return [line[6:].strip() for line in f if line.startswith('TEST: ')]


class Shard:
    """Runs a list of cases in one deqp-vk process at a time, restarting it
    after a case that crashed or hung."""

    def __init__(self, args, cases, index):
        self.args, self.cases, self.index = args, list(cases), index
        self.results = []
        self.workdir = tempfile.mkdtemp(prefix=f'deqp-shard{index}-')

    def run(self):
        try:
            while self.cases:
                self.run_process()
        finally:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def run_process(self):
        case_file = os.path.join(self.workdir, 'cases.txt')
        log_file = os.path.join(self.workdir, 'log.qpa')
        with open(case_file, 'w') as f:
            f.write('\n'.join(self.cases) + '\n')
        if os.path.exists(log_file):
            os.remove(log_file)
        command = [self.args.deqp_binary, f'--deqp-caselist-file={case_file}', f'--deqp-log-filename={log_file}',
                   f'--deqp-archive-dir={self.args.deqp}', '--deqp-log-images=disable',
                   '--deqp-log-shader-sources=disable',
                   f'--deqp-shadercache-filename={os.path.join(self.workdir, "shadercache.bin")}']
        process = subprocess.Popen(command, cwd=self.workdir, env=self.args.env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        offset, text = 0, ''
        current, started = None, time.monotonic()
        done = set()

        def consume():
            # Takes the complete case records the log holds so far.
            nonlocal text, current, started
            while True:
                begin = text.find('#beginTestCaseResult ')
                if begin < 0:
                    return
                line_end = text.find('\n', begin)
                if line_end < 0:
                    return
                name = text[begin + len('#beginTestCaseResult '):line_end].strip()
                if current != name:
                    current, started = name, time.monotonic()
                end = text.find('#endTestCaseResult', line_end)
                term = text.find('#terminateTestCaseResult', line_end)
                if end < 0 and term < 0:
                    return
                if term >= 0 and (end < 0 or term < end):
                    term_end = text.find('\n', term)
                    if term_end < 0:
                        return
                    status = text[term + len('#terminateTestCaseResult'):term_end].strip() or 'Crash'
                    reason, stop = status, term_end
                else:
                    match = RESULT_RE.search(text, line_end, end)
                    status, reason = (match.group(1), match.group(2).strip()) if match else ('InternalError', 'no result')
                    stop = end + len('#endTestCaseResult')
                # deqp-vk's own measure when it logs one; else the time seen here.
                duration = DURATION_RE.search(text, line_end, stop)
                seconds = int(duration.group(1)) / 1e6 if duration else time.monotonic() - started
                self.record(name, status, seconds, reason)
                done.add(name)
                text = text[stop:]
                current = None

        while True:
            exited = process.poll() is not None
            if os.path.exists(log_file):
                with open(log_file, errors='replace') as f:
                    f.seek(offset)
                    chunk = f.read()
                    offset = f.tell()
                text += chunk
                consume()
            if exited:
                break
            if current is not None and time.monotonic() - started > self.args.timeout:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                self.record(current, 'Timeout', time.monotonic() - started, f'no result after {self.args.timeout} s')
                done.add(current)
                current = None
                break
            time.sleep(0.05)
        if current is not None and current not in done:
            # The process died inside a case.
            self.record(current, 'Crash', time.monotonic() - started, f'deqp-vk exited ({process.returncode})')
            done.add(current)
        remaining = [c for c in self.cases if c not in done]
        if len(remaining) == len(self.cases):
            # Nothing ran (it could not start): do not loop for ever.
            for c in remaining:
                self.record(c, 'InternalError', 0.0, f'deqp-vk ran no case (exit {process.returncode})')
            remaining = []
        elif process.returncode == 0 and current is None:
            # A normal exit: cases it skipped (not in its build) did not run.
            for c in remaining:
                self.record(c, 'Missing', 0.0, 'not run by deqp-vk')
            remaining = []
        self.cases = remaining

    def record(self, name, status, seconds, reason):
        self.results.append(CaseResult(name, status, seconds, reason))
        if self.args.verbose:
            print(f'[{self.index}] {status:13} {seconds:7.2f}s {name}', flush=True)


def run_cases(args, cases):
    shards = [Shard(args, cases[i::args.jobs], i) for i in range(min(args.jobs, max(len(cases), 1)))]
    threads = [threading.Thread(target=s.run) for s in shards]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {r.name: r for s in shards for r in s.results}


def read_results(path):
    out = {}
    with open(path) as f:
        for row in csv.reader(f):
            if len(row) >= 2 and row[0] != 'case':
                out[row[0]] = row[1]
    return out


def main():
    ap = argparse.ArgumentParser(description='Run deqp-vk cases on the driver in shards.')
    ap.add_argument('--deqp', required=True, help='directory holding deqp-vk (and its vulkan/ data)')
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument('--list', help='file of case names or globs, one per line')
    group.add_argument('--include', action='append', help='case glob (repeatable)')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--baseline', help='results.csv of an earlier run to compare with')
    ap.add_argument('--timeout', type=float, default=120.0, help='seconds a case may take (default 120)')
    ap.add_argument('--icd', required=True, help='ICD manifest (VK_ICD_FILENAMES)')
    ap.add_argument('--out', default='cts-results', help='directory for results.csv and failures.txt')
    ap.add_argument('--verbose', action='store_true', help='print every case as it finishes')
    args = ap.parse_args()
    args.deqp = os.path.abspath(args.deqp)
    args.deqp_binary = os.path.join(args.deqp, 'deqp-vk')
    if not os.access(args.deqp_binary, os.X_OK):
        sys.exit(f'run: no executable deqp-vk in {args.deqp}')
    args.env = dict(os.environ)
    for var in ('VK_DRIVER_FILES', 'VK_ADD_DRIVER_FILES', 'VK_INSTANCE_LAYERS', 'VK_LOADER_LAYERS_ENABLE'):
        args.env.pop(var, None)
    args.env['VK_ICD_FILENAMES'] = os.path.abspath(args.icd)
    args.jobs = max(1, args.jobs)

    start = time.monotonic()
    cases = read_case_list(args)
    if not cases:
        sys.exit('run: no case matches')
    results = run_cases(args, cases)

    baseline = read_results(args.baseline) if args.baseline else {}
    # Regression candidates run once more: passing then is a flake.
    retry = [c for c in cases if c in results and results[c].status in FAILING and baseline.get(c) in PASSING]
    if retry:
        for name, r in run_cases(args, retry).items():
            if r.status in PASSING:
                results[name].status = 'Flake'

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'results.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['case', 'status', 'seconds'])
        for c in cases:
            r = results.get(c)
            if r is not None:
                w.writerow([c, r.status, f'{r.seconds:.3f}'])
    with open(os.path.join(args.out, 'failures.txt'), 'w') as f:
        for c in cases:
            r = results.get(c)
            if r is not None and r.status in FAILING:
                f.write(f'{c} {r.status} {r.reason}\n')
    # What is missing, for deciding what to implement next.
    with open(os.path.join(args.out, 'notsupported.txt'), 'w') as f:
        for c in cases:
            r = results.get(c)
            if r is not None and r.status == 'NotSupported':
                f.write(f'{c} {r.reason}\n')

    counts = {}
    for r in results.values():
        key = 'pass' if r.status in PASSING else r.status.lower()
        counts[key] = counts.get(key, 0) + 1
    order = ['pass', 'fail', 'notsupported', 'crash', 'timeout', 'flake']
    summary = ' '.join(f'{k} {counts.get(k, 0)}' for k in order)
    others = ' '.join(f'{k} {v}' for k, v in sorted(counts.items()) if k not in order)
    print(f'cts: {len(results)} cases: {summary}{" " + others if others else ""} '
          f'({time.monotonic() - start:.0f} s, results in {args.out})')

    regressions = 0
    if baseline:
        for c in cases:
            r = results.get(c)
            if r is None or c not in baseline:
                continue
            was, now = baseline[c], r.status
            if was in PASSING and now in FAILING:
                regressions += 1
                kind = 'NEW CRASH' if now in ('Crash', 'Timeout') else 'NEW FAIL'
                print(f'{kind} {c}: {now} (was {was}): {r.reason}')
            elif was not in PASSING and now in PASSING:
                print(f'NEW PASS {c} (was {was})')
            elif was != now and now in ('Crash', 'Timeout'):
                print(f'NEW CRASH {c}: {now} (was {was}): {r.reason}')
    return 1 if regressions else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""A stand-in for deqp-vk, for testing cts/deqp_runner.py without the CTS.

It takes deqp-vk's options (--deqp-runmode=txt-caselist,
--deqp-caselist-file, --deqp-log-filename, the rest ignored) and writes the
same log records. What a case does comes from its name:
  ...pass...         Pass
  ...fail...         Fail
  ...unsupported...  NotSupported
  ...crash...        the process dies inside the case (SIGSEGV)
  ...hang...         the process sleeps inside the case
  ...flake...        Fail the first time (per FAKE_DEQP_STATE directory), Pass after
  ...missing...      not in this build: skipped without a record
Every process start is counted in FAKE_DEQP_STATE/starts.
"""
import os
import signal
import sys
import time

CASES = ['dEQP-VK.fake.a.pass_1', 'dEQP-VK.fake.a.fail_1', 'dEQP-VK.fake.a.unsupported_1',
         'dEQP-VK.fake.b.pass_2', 'dEQP-VK.fake.b.crash_1', 'dEQP-VK.fake.b.pass_3',
         'dEQP-VK.fake.c.hang_1', 'dEQP-VK.fake.c.pass_4', 'dEQP-VK.fake.c.flake_1', 'dEQP-VK.fake.c.pass_5']


def option(name):
    for arg in sys.argv[1:]:
        if arg.startswith(name + '='):
            return arg.split('=', 1)[1]
    return None


def main():
    state = os.environ.get('FAKE_DEQP_STATE')
    if state:
        with open(os.path.join(state, 'starts'), 'a') as f:
            f.write('1\n')
    if option('--deqp-runmode') == 'txt-caselist':
        with open('dEQP-VK-cases.txt', 'w') as f:
            f.write('GROUP: dEQP-VK.fake\n')
            for case in CASES:
                f.write(f'TEST: {case}\n')
        return 0
    with open(option('--deqp-caselist-file')) as f:
        cases = [line.strip() for line in f if line.strip()]
    log = open(option('--deqp-log-filename'), 'w', buffering=1)
    log.write('#sessionInfo releaseName fake\n#beginSession\n')
    for case in cases:
        if 'missing' in case:
            continue
        log.write(f'#beginTestCaseResult {case}\n<TestCaseResult CasePath="{case}">\n')
        log.flush()
        if 'crash' in case:
            os.kill(os.getpid(), signal.SIGSEGV)
        if 'hang' in case:
            time.sleep(3600)
        status, reason = 'Pass', 'ok'
        if 'fail' in case:
            status, reason = 'Fail', 'wrong pixels'
        elif 'unsupported' in case:
            status, reason = 'NotSupported', 'no such feature'
        elif 'flake' in case:
            marker = os.path.join(state or '.', 'flaked_' + case)
            if not os.path.exists(marker):
                open(marker, 'w').close()
                status, reason = 'Fail', 'flaky'
        log.write(f' <Number Name="TestDuration" Unit="us">1500</Number>\n'
                  f' <Result StatusCode="{status}">{reason}</Result>\n</TestCaseResult>\n#endTestCaseResult\n')
    log.write('#endSession\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())

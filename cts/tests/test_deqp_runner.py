#!/usr/bin/env python3
"""cts/run.sh against a stand-in deqp-vk (fake_deqp.py): sharding, restarts
after crashes and hangs, timeouts, the summary, baselines, flakes and the
exit status."""
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = os.path.join(HERE, '..', 'run.sh')


class DeqpRunnerTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='cts-runner-test-')
        self.deqp = os.path.join(self.dir, 'deqp')
        os.makedirs(self.deqp)
        shutil.copy(os.path.join(HERE, 'fake_deqp.py'), os.path.join(self.deqp, 'deqp-vk'))
        os.chmod(os.path.join(self.deqp, 'deqp-vk'), 0o755)
        self.state = os.path.join(self.dir, 'state')
        os.makedirs(self.state)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_cts(self, *extra, out='out'):
        env = dict(os.environ, FAKE_DEQP_STATE=self.state)
        result = subprocess.run([RUN, '--deqp', self.deqp, '--icd', os.path.join(self.dir, 'icd.json'),
                                 '--out', os.path.join(self.dir, out), '--timeout', '2', *extra],
                                env=env, capture_output=True, text=True, timeout=120)
        return result

    def results(self, out='out'):
        with open(os.path.join(self.dir, out, 'results.csv')) as f:
            return {row['case']: row['status'] for row in csv.DictReader(f)}

    def starts(self):
        with open(os.path.join(self.state, 'starts')) as f:
            return len(f.readlines())

    def test_every_case_gets_a_status_despite_crashes_and_hangs(self):
        for jobs in ('1', '3'):
            with self.subTest(jobs=jobs):
                shutil.rmtree(self.state)
                os.makedirs(self.state)
                r = self.run_cts('--include', 'dEQP-VK.fake.*', '--jobs', jobs, out=f'out{jobs}')
                self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
                res = self.results(f'out{jobs}')
                self.assertEqual(len(res), 10)
                self.assertEqual(res['dEQP-VK.fake.b.crash_1'], 'Crash')
                self.assertEqual(res['dEQP-VK.fake.c.hang_1'], 'Timeout')
                self.assertEqual(res['dEQP-VK.fake.a.fail_1'], 'Fail')
                self.assertEqual(res['dEQP-VK.fake.a.unsupported_1'], 'NotSupported')
                self.assertEqual(res['dEQP-VK.fake.c.flake_1'], 'Fail')  # no baseline: no retry
                for i in range(1, 6):
                    self.assertEqual(res[f'dEQP-VK.fake.{"abbcc"[i - 1]}.pass_{i}'], 'Pass')
                self.assertIn('pass 5 fail 2 notsupported 1 crash 1 timeout 1 flake 0', r.stdout)
                with open(os.path.join(self.dir, f'out{jobs}', 'failures.txt')) as f:
                    failures = f.read()
                self.assertIn('dEQP-VK.fake.a.fail_1 Fail wrong pixels', failures)
                self.assertIn('dEQP-VK.fake.b.crash_1 Crash', failures)
                self.assertNotIn('pass_1', failures)

    def test_a_crash_restarts_the_shard_after_the_crashed_case(self):
        r = self.run_cts('--include', 'dEQP-VK.fake.b.*', '--jobs', '1')
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        res = self.results()
        self.assertEqual(res['dEQP-VK.fake.b.pass_3'], 'Pass', 'the case after the crash ran in a new process')
        self.assertEqual(self.starts(), 3)  # the case list, the crashing process, the restart

    def test_a_list_file_of_names_and_globs(self):
        listing = os.path.join(self.dir, 'list.txt')
        with open(listing, 'w') as f:
            f.write('# a comment\ndEQP-VK.fake.a.pass_1\ndEQP-VK.fake.c.pass*\n')
        r = self.run_cts('--list', listing, '--jobs', '2')
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(set(self.results()), {'dEQP-VK.fake.a.pass_1', 'dEQP-VK.fake.c.pass_4', 'dEQP-VK.fake.c.pass_5'})

    def test_against_a_baseline_only_changes_are_printed_and_regressions_fail(self):
        baseline = os.path.join(self.dir, 'baseline.csv')
        with open(baseline, 'w') as f:
            f.write('case,status,seconds\n'
                    'dEQP-VK.fake.a.pass_1,Pass,0.1\n'        # unchanged
                    'dEQP-VK.fake.a.fail_1,Pass,0.1\n'        # now fails: regression
                    'dEQP-VK.fake.b.pass_2,Fail,0.1\n'        # now passes
                    'dEQP-VK.fake.c.flake_1,Pass,0.1\n'       # fails, then passes on the retry: a flake
                    'dEQP-VK.fake.b.crash_1,Fail,0.1\n')      # now crashes
        listing = os.path.join(self.dir, 'list.txt')
        with open(listing, 'w') as f:
            f.write('\n'.join(['dEQP-VK.fake.a.pass_1', 'dEQP-VK.fake.a.fail_1', 'dEQP-VK.fake.b.pass_2',
                               'dEQP-VK.fake.c.flake_1', 'dEQP-VK.fake.b.crash_1']) + '\n')
        r = self.run_cts('--list', listing, '--baseline', baseline, '--jobs', '2')
        self.assertNotEqual(r.returncode, 0, 'a regression must fail the run')
        self.assertIn('NEW FAIL dEQP-VK.fake.a.fail_1', r.stdout)
        self.assertIn('NEW PASS dEQP-VK.fake.b.pass_2', r.stdout)
        self.assertIn('NEW CRASH dEQP-VK.fake.b.crash_1', r.stdout)
        self.assertNotIn('pass_1', r.stdout.replace('dEQP-VK.fake.b.pass_2', ''))
        self.assertNotIn('flake_1', r.stdout.split('\n', 1)[1] if '\n' in r.stdout else '')
        self.assertEqual(self.results()['dEQP-VK.fake.c.flake_1'], 'Flake')
        self.assertIn('flake 1', r.stdout)

    def test_no_regression_exits_zero(self):
        baseline = os.path.join(self.dir, 'baseline.csv')
        with open(baseline, 'w') as f:
            f.write('case,status,seconds\ndEQP-VK.fake.a.fail_1,Fail,0.1\ndEQP-VK.fake.a.pass_1,Pass,0.1\n')
        r = self.run_cts('--include', 'dEQP-VK.fake.a.*', '--baseline', baseline)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


if __name__ == '__main__':
    unittest.main()

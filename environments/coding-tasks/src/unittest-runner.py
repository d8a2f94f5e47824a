"""Runs a coding task's hidden unittest files against the repository the agent left.

usage: python3 -I unittest-runner.py MARKER ROOT TEST_FILE...

Run isolated (-I), so neither the working folder nor PYTHON* variables come first on sys.path: the
repository's root is appended after the standard library, where a file of the repository cannot
shadow `unittest` or `json`. Each test file is loaded by its path; one that fails to import counts
as one failed test. The last line of stdout is MARKER and a JSON object {"tests": N, "passed": M};
the test report goes to stderr.
"""

import importlib.util
import json
import sys
import traceback
import unittest


def load(path, index):
    spec = importlib.util.spec_from_file_location(f"vf_hidden_test_{index}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return unittest.defaultTestLoader.loadTestsFromModule(module)


def main():
    marker, root, *files = sys.argv[1:]
    sys.path.append(root)
    suite = unittest.TestSuite()
    broken = 0
    for index, path in enumerate(files):
        try:
            suite.addTests(load(path, index))
        except BaseException:  # a syntax or import error of the repository, or a SystemExit at import
            broken += 1
            print(f"cannot load {path}:", file=sys.stderr)
            traceback.print_exc()
    result = unittest.TextTestRunner(stream=sys.stderr, verbosity=2).run(suite)
    not_passed = len(result.failures) + len(result.errors) + len(result.skipped)
    not_passed += len(result.unexpectedSuccesses)
    passed = max(0, result.testsRun - not_passed)
    sys.stdout.flush()
    print(marker, json.dumps({"tests": result.testsRun + broken, "passed": passed}), flush=True)


main()

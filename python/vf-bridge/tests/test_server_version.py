"""`python -m vf_bridge info`: which vf serves an address, and whether this bridge works with it."""

import subprocess
import sys
import unittest

from tests.support import env
from vf_bridge import __version__
from vf_bridge.server_version import check_server


def info(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vf_bridge", "info", *args], capture_output=True, text=True,
                          timeout=60)


class ServerVersion(unittest.TestCase):
    def test_names_the_vf_that_serves_the_address(self) -> None:
        server = check_server(env("VF_ADDRESS"), timeout=30)
        self.assertEqual(server.vf_version, env("VF_VERSION"))
        result = info(env("VF_ADDRESS"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), f"{env('VF_ADDRESS')}: vf {env('VF_VERSION')} (1 worker), "
                                                f"vf-bridge {__version__} works with it")

    def test_says_in_one_line_when_nothing_answers(self) -> None:
        result = info("tcp://127.0.0.1:9", "--timeout", "1")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr.strip(), f"vf-bridge {__version__}: env server at tcp://127.0.0.1:9 did not "
                                                "answer `stats` in 1 s: is `vf env serve` running there?")


if __name__ == "__main__":
    unittest.main()

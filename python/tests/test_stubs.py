"""The type stubs say what the native module has: mypy's stubtest
compares them with the module at run time (names, signatures,
positional-only markers)."""

import subprocess
import sys

import pytest


def test_stubs_match_the_module():
    pytest.importorskip("mypy")
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "uriscan._uriscan"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr

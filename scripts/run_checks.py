"""Run the checks of a make target in phases, each timed, and say which failed.

``make test`` runs ``python scripts/run_checks.py test``: ruff, mypy, the unit tests (pytest
with one worker per core, ``-n auto``), then the browser tests (their own workers, each with its
own server on its own port and its own Chromium). Every phase runs even when one before it
failed; the table at the end gives each phase's time and result, and the exit status is 1 if
any phase failed.

Other plans: ``engines`` (the smoke tier in Firefox and WebKit), ``slow`` (the slow unit
tests and every property test under the thorough Hypothesis profile, then the browser tests
marked slow: every bad link, the whole layout audit), ``soak`` (the crash matrix and the long
soak), ``twice`` (the browser tests twice in a row, each in a random order: the flake gate).
Extra pytest arguments come from ``PYTEST_ARGS`` (split like a shell's words) and go to every
pytest phase.

Usage: ``python scripts/run_checks.py PLAN`` (with the virtual environment's tools on
``VENV``, default ``.venv``).
"""

from __future__ import annotations

import os
import random
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Phase:
    """One command of a plan: its name in the table, and the command line."""

    name: str
    command: tuple[str, ...]
    environment: tuple[tuple[str, str], ...] = ()


def _tool(name: str) -> str:
    return str(ROOT / os.environ.get("VENV", ".venv") / "bin" / name)


def _pytest(*args: str) -> tuple[str, ...]:
    return (_tool("pytest"), *args, *shlex.split(os.environ.get("PYTEST_ARGS", "")))


E2E_WORKERS = os.environ.get("E2E_WORKERS") or str((os.cpu_count() or 1) + 1)
"""Workers of the browser tests (pytest-xdist's ``-n``): one more than the cores by default,
as a page waits on its server and timers part of the time (docs/testing.md)."""


BYTECODE = ROOT / ".pycache"
"""Where every Python process of a phase keeps the bytecode it compiled (``PYTHONPYCACHEPREFIX``),
written even where the environment says ``PYTHONDONTWRITEBYTECODE``: else each worker and each
command-line run compiled pytest, Playwright, Hypothesis and our modules from source, and pytest
rewrote every test module again in each worker."""


CRASH_RERUN = ("--reruns", "1", "--only-rerun", "Page crashed", "--only-rerun", "Target crashed",
               "--only-rerun", "Pyodide has suffered a fatal error")
"""A browser test whose page's renderer crashed (Chromium's own "Page crashed", about one boot
in several hundred under three workers on two cores, none in 80 boots alone) runs once more
(pytest-rerunfailures, shown as R in the summary); any other failure fails at once. So does a
runtime that WebKit's engine broke ("Pyodide has suffered a fatal error": an out-of-bounds
memory access inside JavaScriptCore, seen once in WebKitGTK 2.50's smoke test, in a run of
the whole browser suite on 2 cores, 2026-12-03; none in its other runs)."""


HANG = ("--timeout", "300", "--timeout-method", "thread")
"""A browser test still running after 300 s (the longest takes about 30 s) is taken to
hang: pytest-timeout prints every thread's stack and ends the worker, pytest-xdist starts
another, and pytest-rerunfailures (with ``--reruns``) runs the test once more there. Else a
page that never answers an ``evaluate`` would hold its worker until CI's time limit."""


def plan(name: str) -> list[Phase]:
    """The phases of plan ``name`` (``test``, ``engines``, ``slow``, ``soak`` or ``twice``).

    Raises:
        SystemExit: no plan of that name.
    """
    mypy_paths = [p for p in ("nestor", "nestor_web", "scripts") if (ROOT / p).is_dir()]
    if name == "test":
        return [
            Phase("ruff", (_tool("ruff"), "check", ".")),
            Phase("mypy", (_tool("mypy"), *mypy_paths)),
            Phase("unit tests", _pytest("-n", "auto", "tests")),
            Phase("browser tests",
                  _pytest("-n", E2E_WORKERS, "--dist", "worksteal", "--durations=8",
                          *CRASH_RERUN, *HANG, "e2e")),
        ]
    if name == "slow":
        return [
            Phase("unit tests, slow and thorough",
                  _pytest("-n", "auto", "-m", "slow or not slow", "tests"),
                  (("HYPOTHESIS_PROFILE", "thorough"),)),
            Phase("browser tests, slow",
                  _pytest("-n", E2E_WORKERS, *CRASH_RERUN, "-m", "slow", "e2e")),
        ]
    if name == "engines":
        return [Phase("browser tests in Firefox and WebKit",
                      _pytest("-n", "2", "--durations=2", *CRASH_RERUN, *HANG,
                              "-m", "engines", "e2e"))]
    if name == "soak":
        return [Phase("soak and crash matrix", _pytest("-m", "soak", "e2e"))]
    if name == "twice":
        seeds = [random.randrange(1 << 32) for _ in range(2)]
        return [
            Phase(f"browser tests, random order {seed}",
                  _pytest("-n", E2E_WORKERS, *HANG,
                          f"--random-order-seed={seed}", "e2e"))
            for seed in seeds
        ]
    raise SystemExit(f"run_checks: no plan {name!r} (test, engines, slow, soak, twice)")


def run(phases: list[Phase]) -> int:
    """Run every phase, print the table of times; 0 if all passed, else 1."""
    results: list[tuple[str, float, int]] = []
    began = time.perf_counter()
    for phase in phases:
        print(f"== {phase.name}", flush=True)
        start = time.perf_counter()
        environment = {**os.environ, "PYTHONPYCACHEPREFIX": str(BYTECODE),
                       **dict(phase.environment)}
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        status = subprocess.call(phase.command, cwd=ROOT, env=environment)
        results.append((phase.name, time.perf_counter() - start, status))
    total = time.perf_counter() - began
    width = max(len(name) for name, _, _ in results)
    print("\n== phases")
    for name, seconds, status in results:
        print(f"  {name:<{width}}  {seconds:7.1f} s  {'ok' if status == 0 else 'FAILED'}")
    print(f"  {'all':<{width}}  {total:7.1f} s")
    failed = [name for name, _, status in results if status != 0]
    if failed:
        print(f"FAILED: {', '.join(failed)} (see above)", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the plan named by the one argument."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        raise SystemExit(__doc__)
    return run(plan(args[0]))


if __name__ == "__main__":
    sys.exit(main())

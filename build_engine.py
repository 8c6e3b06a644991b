"""Build the engine compiled by mypyc where a C compiler and the Python headers are present, and
pure Python otherwise, then say in one line which build was made and why.

    python build_engine.py                  a checkout: compile engine/_compiled/ in place
                                            (make build; make run and make test call it)
    python build_engine.py --install SRC    install the project from SRC into this Python's
                                            environment, not editable (deploy/install.sh)

Run it with the environment's own Python. ``SHOWDOWN_MYPYC`` chooses: ``auto`` (the default)
compiles when a test extension builds, ``1`` compiles or fails, ``0`` builds pure Python.

Whether a compiler is there is found out the way the build itself would fail: setuptools builds
a one-function C extension that includes ``Python.h``, with the compiler sysconfig (or ``$CC``)
names, and its error becomes the reason (no compiler, no headers, a compiler that fails). When
that test passes but the engine's own compile fails, the build fails (``make`` stops: the code
broke the compiled build), unless ``--fallback`` asks for the pure build then (the install
script: a Pi with too little memory for the compiler must still get a working service).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
MODES = {"auto", "1", "0"}

_PROBE_C = """\
#include <Python.h>
static struct PyModuleDef probe = {PyModuleDef_HEAD_INIT, "showdown_probe", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_showdown_probe(void) { return PyModule_Create(&probe); }
"""

_PROBE_PY = """\
import sys
from setuptools import Distribution, Extension
from setuptools.command.build_ext import build_ext
where = sys.argv[1]
dist = Distribution({"ext_modules": [Extension("showdown_probe", [where + "/probe.c"])]})
command = build_ext(dist)
command.build_lib, command.build_temp = where + "/lib", where + "/temp"
command.ensure_finalized()
try:
    command.run()
except Exception as error:
    causes = [error]
    while causes[-1].__cause__ is not None or causes[-1].__context__ is not None:
        causes.append(causes[-1].__cause__ or causes[-1].__context__)
    for cause in causes:
        print(f"probe failed: {type(cause).__name__}: {cause}", file=sys.stderr)
    sys.exit(1)
"""


def compiler_name() -> str:
    """The C compiler setuptools will call: ``$CC``, else the one Python was built with."""
    return (os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")).split()[0]


def probe() -> str | None:
    """Why a C extension cannot be built here, or None when a test extension builds."""
    with tempfile.TemporaryDirectory(prefix="showdown-probe-") as where:
        Path(where, "probe.c").write_text(_PROBE_C, encoding="utf-8")
        try:
            done = subprocess.run(
                [sys.executable, "-c", _PROBE_PY, where],
                capture_output=True, text=True, timeout=300, check=False,
            )
        except subprocess.TimeoutExpired:
            return "the C compiler took over 5 minutes on a test file"
    if done.returncode == 0:
        return None
    return explain(done.stdout + done.stderr)


def explain(output: str) -> str:
    """The reason, in words, from the output of a failed test build (the compiler's messages,
    then ``probe failed:`` lines for the exception and its causes)."""
    version = sysconfig.get_python_version()
    failures = [line for line in output.splitlines() if line.startswith("probe failed: ")]
    if re.search(r"Python\.h: No such file|'Python\.h' file not found", output):
        return (f"no Python {version} headers (Python.h not found; on Debian: apt install "
                "python3-dev)")
    if "No module named 'setuptools'" in output:
        return "setuptools is not installed in this environment"
    if any("No such file or directory" in line for line in failures):
        return f"no C compiler ({compiler_name()} not found; on Debian: apt install gcc)"
    status = re.search(r"exit (?:status|code) (-?\d+)", "\n".join(failures))
    if status:
        return (f"the C compiler {compiler_name()} failed on a test file (exit status "
                f"{status.group(1)})")
    last = failures[-1] if failures else (output.strip().splitlines() or ["no output"])[-1]
    return f"a test C extension did not build ({last.removeprefix('probe failed: ')})"


def build_requirements(kind: str) -> list[str]:
    """What building needs in this environment: pyproject's build requirements, and to compile,
    the dev extra's mypy (which ships mypyc); the versions are written down once, there."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    needed = list(project["build-system"]["requires"])
    if kind == "mypyc":
        needed += [
            spec for spec in project["project"]["optional-dependencies"]["dev"]
            if re.match(r"mypy\b(?![-_])", spec)
        ]
    return needed


def _pip(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True, text=True, env=env, check=False,
    )


def _tail(output: str, lines: int = 15) -> str:
    return "\n".join(output.strip().splitlines()[-lines:])


def build(kind: str, why: str, install: Path | None) -> subprocess.CompletedProcess[str]:
    """Make the build: compiled (``kind == "mypyc"``) or pure, in place or installed from
    ``install``; ``why`` goes into the build record."""
    # mypyc's type analysis keeps its cache apart from mypy's own (.mypy_cache): `make test`
    # runs the two side by side, and they must not write one cache at once.
    env = {**os.environ, "SHOWDOWN_MYPYC": "1" if kind == "mypyc" else "0",
           "SHOWDOWN_MYPYC_WHY": why, "MYPY_CACHE_DIR": str(ROOT / "build" / "mypyc-cache")}
    if install is not None:
        return _pip("install", "--quiet", "--no-build-isolation", "--no-deps",
                    "--force-reinstall", str(install), env=env)
    # Whatever was compiled before goes first: a module no longer compiled must not linger.
    shutil.rmtree(ROOT / "engine" / "_compiled", ignore_errors=True)
    return subprocess.run(
        [sys.executable, "setup.py", "--quiet", "build_ext", "--inplace"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )


def _make(kind: str, why: str, install: Path | None) -> subprocess.CompletedProcess[str]:
    """Install what the pure build needs (setuptools), then build."""
    tools = _pip("install", "--quiet", *build_requirements(kind))
    return build(kind, why, install) if tools.returncode == 0 else tools


def describe(install: Path | None) -> str:
    """The installed engine's own line (``engine.build.describe``), from a fresh interpreter
    started where the checkout cannot shadow what was installed."""
    done = subprocess.run(
        [sys.executable, "-c", "import engine.build as b; print(b.describe())"],
        cwd=tempfile.gettempdir() if install is not None else ROOT,
        capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        return f"engine: does not import ({_tail(done.stderr, 1)})"
    return done.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    """Decide, build, say which; exit 1 when the build asked for cannot be made."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--install", type=Path, metavar="SRC",
                        help="install the project from SRC (not editable) instead")
    parser.add_argument("--fallback", action="store_true",
                        help="when the compiled build fails, install the pure one and say why")
    args = parser.parse_args(argv)
    mode = os.environ.get("SHOWDOWN_MYPYC", "auto") or "auto"
    if mode not in MODES:
        print(f"build_engine.py: SHOWDOWN_MYPYC={mode!r}: use auto, 1 or 0", file=sys.stderr)
        return 2
    started = time.monotonic()
    kind, why = "python", "SHOWDOWN_MYPYC=0"
    if mode != "0":
        problem = probe()
        if problem is None:
            kind = "mypyc"
            why = f"{compiler_name()} and the Python {sysconfig.get_python_version()} headers found"
        elif mode == "1":
            print(f"build_engine.py: SHOWDOWN_MYPYC=1 but {problem}", file=sys.stderr)
            return 1
        else:
            why = problem
    if kind == "mypyc":
        tools = _pip("install", "--quiet", *build_requirements(kind))
        done = build(kind, why, args.install) if tools.returncode == 0 else tools
        if done.returncode != 0:
            failed = "installing the build tools" if tools.returncode else "the compiled build"
            print(_tail(done.stdout + done.stderr), file=sys.stderr)
            if not args.fallback or mode == "1":
                print(f"build_engine.py: {failed} failed (above); SHOWDOWN_MYPYC=0 builds the "
                      "pure-Python engine", file=sys.stderr)
                return 1
            kind, why = "python", f"{failed} failed: {_tail(done.stdout + done.stderr, 1)}"
    if kind == "python":
        done = _make(kind, why, args.install)
        if done.returncode != 0:
            print(_tail(done.stdout + done.stderr), file=sys.stderr)
            print("build_engine.py: the pure-Python build failed (above)", file=sys.stderr)
            return 1
    print(f"{describe(args.install)} [built in {time.monotonic() - started:.0f} s]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

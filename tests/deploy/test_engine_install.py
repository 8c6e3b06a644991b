"""build_engine.py: the compiled engine where a C compiler and the Python headers are present, the
pure one otherwise, and one line that says which and why.

The compiler is hidden the ways a machine lacks one: ``CC`` naming a compiler that fails
(``/bin/false``), a ``PATH`` without the compiler, and a compiler that cannot see the Python
headers (a wrapper that drops their directory, as a machine without python3-dev has none). The
installs go into fresh virtual environments, not editable, as ``deploy/install.sh`` makes them.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

import build_engine
from engine import build

REPO = Path(__file__).resolve().parents[2]


def _env(**changes: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "PYTHONHOME", "CC", "SHOWDOWN_MYPYC", build.ENV}}
    return {**env, **changes}


def _probe(monkeypatch: pytest.MonkeyPatch, **env: str) -> str | None:
    monkeypatch.delenv("CC", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return build_engine.probe()


def test_a_compiler_that_fails_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _probe(monkeypatch, CC="/bin/false") == (
        "the C compiler /bin/false failed on a test file (exit status 1)"
    )


def test_no_compiler_on_the_path_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CC", raising=False)
    name = build_engine.compiler_name()
    if Path(name).is_absolute():
        pytest.skip(f"this Python names its compiler by path ({name}): PATH cannot hide it")
    assert _probe(monkeypatch, PATH=str(tmp_path)) == (
        f"no C compiler ({name} not found; on Debian: apt install gcc)"
    )


def _compiler_works() -> None:
    problem = build_engine.probe()
    if problem is not None:
        pytest.skip(f"no working C compiler here: {problem}")


def test_missing_python_headers_are_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CC", raising=False)
    _compiler_works()
    real = shutil.which(build_engine.compiler_name())
    assert real is not None
    hidden = {sysconfig.get_paths()["include"], str(Path(sys.prefix) / "include")}
    wrapper = tmp_path / "cc-without-python-headers"
    cases = "\n".join(f"        -I{path}) ;;" for path in sorted(hidden))
    wrapper.write_text(
        "#!/bin/sh\n"
        "# the compiler, minus the Python headers' directories\n"
        'for arg in "$@"; do\n'
        "    shift\n"
        '    case "$arg" in\n'
        f"{cases}\n"
        '        *) set -- "$@" "$arg" ;;\n'
        "    esac\n"
        "done\n"
        f'exec {real} "$@"\n',
        encoding="utf-8",
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    version = sysconfig.get_python_version()
    assert _probe(monkeypatch, CC=str(wrapper)) == (
        f"no Python {version} headers (Python.h not found; on Debian: apt install python3-dev)"
    )


def test_the_reason_of_an_unknown_failure_is_its_last_line() -> None:
    output = "some noise\nprobe failed: DistutilsPlatformError: no compiler for this platform\n"
    assert build_engine.explain(output) == (
        "a test C extension did not build (DistutilsPlatformError: no compiler for this platform)"
    )


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment that finds the dependencies, pip and the build tools in the test's own
    one, added as a plain path (its .pth files, the checkout's editable finder among them, are
    not run), as test_installed_package does; shared by the installs below, each of which
    replaces the one before."""
    where = tmp_path_factory.mktemp("engine-install") / "venv"
    venv.EnvBuilder(with_pip=False).create(where)
    python = where / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    (Path(purelib) / "showdown-test-deps.pth").write_text(sysconfig.get_paths()["purelib"])
    return python


def _install(python: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), str(REPO / "build_engine.py"), "--install", str(REPO), "--fallback"],
        cwd=python.parents[2], env=_env(**env), capture_output=True, text=True, timeout=600,
        check=False,
    )


def _bench(python: Path, **env: str) -> dict[str, object]:
    done = subprocess.run(
        [str(python.parent / "showdown"), "bench", "engine", "--games", "100", "--seed", "3",
         "--no-rlcard", "--repeat", "1", "--json"],
        cwd=python.parents[2], env=_env(**env), capture_output=True, text=True, timeout=300,
        check=True,
    )
    figures: dict[str, object] = json.loads(done.stdout)
    return figures


def test_without_a_compiler_the_install_is_pure_and_says_why(python: Path) -> None:
    done = _install(python, CC="/bin/false")
    assert done.returncode == 0, done.stderr
    why = "the C compiler /bin/false failed on a test file (exit status 1)"
    assert done.stdout.startswith(f"engine: pure Python ({why}) [built in ")
    assert done.stdout.count("\n") == 1
    figures = _bench(python)
    assert (figures["engine_build"], figures["engine_build_why"]) == ("python", why)


def test_with_a_compiler_the_install_is_compiled_and_plays_the_same_rounds(python: Path) -> None:
    """What a Pi with gcc and python3-dev gets from deploy/install.sh."""
    _compiler_works()
    done = _install(python)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"engine: compiled by mypyc ({len(build.COMPILED)} modules; ")
    compiled, pure = _bench(python), _bench(python, SHOWDOWN_ENGINE="python")
    assert (compiled["engine_build"], pure["engine_build"]) == ("mypyc", "python")
    assert compiled["digest"] == pure["digest"]
    where = subprocess.run(
        [str(python), "-c", "import engine.round as r; print(r.__file__)"],
        cwd=python.parents[2], env=_env(), capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert where.startswith(str(python.parents[1])) and Path(where).is_file(), where

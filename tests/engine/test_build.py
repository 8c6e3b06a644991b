"""The engine's two builds (engine.build): the suite runs on the one installed, the compiled and the
pure engine play the same rounds, every module is placed in or out of the compiled build on
purpose, and a compiled build older than its sources never runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import build

REPO = Path(__file__).resolve().parents[2]
ENGINE_DIR = REPO / "engine"
RECORD = ENGINE_DIR / "_compiled" / build.RECORD
HOT = 0.05
"""Calls per command from which a module counts as hot: once every 20 commands."""


def _recorded_build() -> str:
    if not RECORD.exists():
        return "python"
    return str(json.loads(RECORD.read_text(encoding="utf-8"))["build"])


def _compiled_installed() -> bool:
    return _recorded_build() == "mypyc" and os.environ.get(build.ENV) != "python"


def _env(**changes: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", build.ENV}}
    for key, value in changes.items():
        if value is not None:
            env[key] = value
    return env


def test_the_suite_runs_on_the_build_installed() -> None:
    """``make test`` builds the engine (compiled where a compiler is present), then this suite
    must be running that build, not the sources beside it."""
    if os.environ.get(build.ENV) == "python":
        pytest.skip(f"{build.ENV}=python: the suite was asked to run the sources")
    assert build.running() == _recorded_build()
    if build.running() == "mypyc":
        for name in build.COMPILED:
            module = sys.modules[f"engine.{name}"]
            assert module.__spec__ is not None and module.__spec__.origin is not None
            origin = Path(module.__spec__.origin)
            assert origin.parent == ENGINE_DIR / "_compiled" / "engine", name
            assert origin.is_file() and Path(str(module.__file__)) == origin
        assert build.describe().startswith("engine: compiled by mypyc (")
    else:
        assert build.describe().startswith("engine: pure Python (")


def _bench(env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "showdown", "bench", "engine", "--games", "150", "--players", "4",
         "--seed", "1", "--no-rlcard", "--repeat", "1", "--json"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=True,
    )
    figures: dict[str, object] = json.loads(done.stdout)
    return figures


def test_the_compiled_and_the_pure_engine_play_the_same_rounds() -> None:
    """The digest of ``showdown bench engine`` covers every round's commands and end state."""
    if not _compiled_installed():
        pytest.skip(f"the pure engine is installed ({build.select()[1].why}): nothing to compare")
    compiled, pure = _bench(_env()), _bench(_env(SHOWDOWN_ENGINE="python"))
    assert (compiled["engine_build"], pure["engine_build"]) == ("mypyc", "python")
    assert compiled["digest"] == pure["digest"]
    assert compiled["actions_per_game"] == pure["actions_per_game"]


def test_every_engine_module_is_placed_in_or_out_of_the_compiled_build() -> None:
    """A new module fails here until it is listed: compiled, or interpreted with the reason."""
    modules = {path.stem for path in ENGINE_DIR.glob("*.py")} - {"__init__"}
    compiled, cannot, interpreted = set(build.COMPILED), set(build.CANNOT_COMPILE), set(
        build.INTERPRETED
    )
    assert len(build.COMPILED) == len(compiled)
    assert not (compiled & cannot or compiled & interpreted or cannot & interpreted)
    unlisted = modules - compiled - cannot - interpreted
    assert not unlisted, f"engine modules in no list of engine/build.py: {sorted(unlisted)}"
    assert not (compiled | cannot | interpreted) - modules, "listed modules that do not exist"


def test_every_module_a_round_calls_per_command_is_compiled() -> None:
    """Profiled on the sources under every preset: a module called at least once every 20
    commands is compiled, unless mypyc cannot compile it (and the list says why)."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.engine.hot_modules"],
        cwd=REPO, env=_env(SHOWDOWN_ENGINE="python"), capture_output=True, text=True,
        timeout=300, check=True,
    )
    measured: dict[str, dict[str, float]] = json.loads(done.stdout)
    hot = {module for calls in measured.values() for module, n in calls.items() if n >= HOT}
    assert {"round", "actions", "bots"} <= hot  # the profile sees the inner loop
    left_out = hot - set(build.COMPILED) - set(build.CANNOT_COMPILE)
    assert not left_out, f"hot modules neither compiled nor uncompilable: {sorted(left_out)}"


def _copy_engine(into: Path, *, checkout: bool) -> Path:
    """A copy of the engine package (with whatever is compiled), importable from ``into``."""
    shutil.copytree(ENGINE_DIR, into / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    if checkout:
        (into / "Makefile").write_text("build:\n", encoding="utf-8")
        (into / "setup.py").write_text("", encoding="utf-8")
    return into / "engine"


def _import(where: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=where, env=_env(**env), capture_output=True,
        text=True, timeout=120, check=False,
    )


def _fake_compiled_record(engine: Path) -> None:
    """Records a compiled build of the sources as they are (no extension files needed: the
    sources are compared first)."""
    compiled = engine / "_compiled"
    compiled.mkdir(exist_ok=True)
    (compiled / build.RECORD).write_text(build.record("mypyc", "test", engine), encoding="utf-8")


@pytest.mark.parametrize("checkout", [True, False], ids=["checkout", "installed"])
def test_an_edited_source_refuses_the_stale_compiled_build(tmp_path: Path, checkout: bool) -> None:
    engine = _copy_engine(tmp_path, checkout=checkout)
    _fake_compiled_record(engine)
    with (engine / "round.py").open("a", encoding="utf-8") as source:
        source.write("\nEDITED: int = 1\n")
    refused = _import(tmp_path, "import engine")
    assert refused.returncode != 0
    last = refused.stderr.strip().splitlines()[-1]
    assert last.startswith("engine.build.StaleBuildError: the compiled engine is older than its")
    assert "engine/round.py changed" in last and "SHOWDOWN_ENGINE=python" in last
    hint = "make build" if checkout else "install again"
    assert hint in last
    # The command line says it in one line, without a traceback.
    command = subprocess.run(
        [sys.executable, "-m", "showdown", "demo", "--seed", "1"], cwd=tmp_path, env=_env(),
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert command.returncode == 1
    assert command.stderr == f"showdown: error: {last.split(': ', 1)[1]}\n"
    # The edit runs the moment the sources are asked for.
    sources = _import(tmp_path, "import engine.round as r; print(r.EDITED, r.__file__)",
                      SHOWDOWN_ENGINE="python")
    assert sources.returncode == 0, sources.stderr
    assert sources.stdout.split() == ["1", str(engine / "round.py")]


def test_a_new_or_removed_source_is_a_change_too(tmp_path: Path) -> None:
    engine = _copy_engine(tmp_path, checkout=True)
    _fake_compiled_record(engine)
    (engine / "legality.py").write_text('"""New."""\n', encoding="utf-8")
    (engine / "dealer.py").unlink()
    refused = _import(tmp_path, "import engine")
    assert "(engine/dealer.py, engine/legality.py changed since" in refused.stderr


def test_showdown_engine_mypyc_refuses_the_sources(tmp_path: Path) -> None:
    engine = _copy_engine(tmp_path, checkout=True)
    shutil.rmtree(engine / "_compiled", ignore_errors=True)
    refused = _import(tmp_path, "import engine", SHOWDOWN_ENGINE="mypyc")
    assert refused.returncode != 0
    assert "SHOWDOWN_ENGINE=mypyc but the engine is not compiled: not compiled here" in (
        refused.stderr
    )
    wrong = _import(tmp_path, "import engine", SHOWDOWN_ENGINE="fast")
    assert "SHOWDOWN_ENGINE='fast': use python, mypyc, or leave it unset" in wrong.stderr
    plain = _import(tmp_path, "import engine.build as b; print(b.describe())")
    assert plain.stdout.strip() == (
        "engine: pure Python (not compiled here (no engine/_compiled/build.json))"
    )


def test_an_unreadable_record_is_refused_unless_the_sources_are_asked_for(tmp_path: Path) -> None:
    engine = _copy_engine(tmp_path, checkout=True)
    shutil.rmtree(engine / "_compiled", ignore_errors=True)
    (engine / "_compiled").mkdir()
    (engine / "_compiled" / build.RECORD).write_text("{not json", encoding="utf-8")
    unreadable = _import(tmp_path, "import engine")
    assert "engine/_compiled/build.json is unreadable (" in unreadable.stderr
    assert "run `make build`" in unreadable.stderr
    sources = _import(tmp_path, "import engine.build as b; print(b.describe())",
                      SHOWDOWN_ENGINE="python")
    assert sources.stdout == "engine: pure Python (SHOWDOWN_ENGINE=python)\n"


def _compiled_copy(tmp_path: Path) -> Path:
    if not _compiled_installed():
        pytest.skip(f"the pure engine is installed ({build.select()[1].why})")
    return _copy_engine(tmp_path, checkout=True)


def test_a_fresh_compiled_build_runs_compiled_from_wherever_it_is(tmp_path: Path) -> None:
    engine = _compiled_copy(tmp_path)
    done = _import(tmp_path, "import engine.build as b, engine.round as r; "
                   "print(b.running(), r.__spec__.origin)")
    assert done.returncode == 0, done.stderr
    kind, origin = done.stdout.split()
    assert kind == "mypyc" and Path(origin).parent == engine / "_compiled" / "engine"
    assert Path(origin).is_file()


def test_a_compiled_module_missing_is_refused(tmp_path: Path) -> None:
    engine = _compiled_copy(tmp_path)
    next((engine / "_compiled" / "engine").glob("bots.*")).unlink()
    refused = _import(tmp_path, "import engine")
    assert "engine/_compiled lacks modules its build made (bots): run `make build`" in (
        refused.stderr
    )


def test_a_compiled_module_its_build_did_not_make_is_refused(tmp_path: Path) -> None:
    """A leftover of an older build (a module compiled then, not now) would shadow its source."""
    engine = _compiled_copy(tmp_path)
    extension = next((engine / "_compiled" / "engine").glob("round.*"))
    shutil.copy(extension, extension.with_name(extension.name.replace("round", "cards", 1)))
    refused = _import(tmp_path, "import engine")
    assert "engine/_compiled holds modules its build did not make (cards)" in refused.stderr

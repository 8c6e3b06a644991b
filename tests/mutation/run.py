"""``make mutation``: mutmut over each group of ``groups.toml``, then each group's score and the
mutants no test caught.

A mutant is a small change to the code (``<`` for ``<=``, ``True`` for ``False``, a call left out).
A test suite that can fail makes some test fail on it: the mutant is *caught*. One that survives
is either a gap in the tests or a change nothing can notice (a log message, an equivalent bound);
those are listed in ``equivalent.toml`` with the line the mutant writes and why, and a survivor
not listed there fails the run.

Each group runs in its own ``build/mutation/<group>/`` (links to the packages and the tests, and a
``pyproject.toml`` with the group's ``[tool.mutmut]``), so groups never share mutmut's cache and
``mutmut show`` and ``mutmut browse`` work there on that group's mutants (``mutmut apply`` would
write a mutant into the repository's own files, through the links).

    python -m tests.mutation.run                 # every group, from scratch
    python -m tests.mutation.run unit --keep     # one group, keeping what mutmut already decided
    python -m tests.mutation.run unit --again    # again only the mutants not caught last time
    python -m tests.mutation.run unit --report   # the last run judged again, nothing run
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
GROUPS_FILE = HERE / "groups.toml"
EQUIVALENT_FILE = HERE / "equivalent.toml"
WORK = REPO / "build" / "mutation"

CAUGHT = ("killed", "timeout", "segfault", "caught by type check")
"""mutmut's statuses in which a test failed, hung past mutmut's limit or crashed on the mutant."""

UNCHECKED = "not checked"
"""mutmut's status of a mutant no test has run against yet: a run stopped before its end."""

RESULT_LINE = re.compile(r"^\s+(\S+): (.+)$")

ENGINE_SOURCES = {"SHOWDOWN_ENGINE": "python"}
"""Set for mutmut and every test it runs: the engine's Python sources, the ones mutmut changes.
Without it a compiled engine (``engine/_compiled``, copied into ``mutants/`` with the rest) would
either run unchanged machine code past every mutant, or refuse to load beside edited sources."""


class MutationError(Exception):
    """A mistake in the configuration or the command line: one line, no traceback."""


@dataclass(frozen=True)
class Group:
    """Modules that mutmut changes and the tests run against them."""

    name: str
    mutate: tuple[str, ...]
    tests: tuple[str, ...]


@dataclass(frozen=True)
class Equivalent:
    """A mutant no behaviour can tell apart from the code: the line it writes, and why."""

    becomes: str
    why: str


@dataclass
class Report:
    """One group's figures."""

    group: str
    statuses: dict[str, str]
    diffs: dict[str, list[str]] = field(default_factory=dict)
    explained: list[str] = field(default_factory=list)
    unexplained: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def caught(self) -> int:
        return sum(status in CAUGHT for status in self.statuses.values())

    @property
    def unchecked(self) -> int:
        return sum(status == UNCHECKED for status in self.statuses.values())

    @property
    def score(self) -> float:
        """Caught, in per cent of the mutants checked."""
        checked = len(self.statuses) - self.unchecked
        return 100.0 * self.caught / checked if checked else 0.0

    @property
    def ok(self) -> bool:
        return bool(self.statuses) and not self.unexplained and not self.unchecked

    def summary(self) -> str:
        counts = Counter(self.statuses.values())
        how = ", ".join(f"{counts[s]} {s}" for s in CAUGHT if counts[s])
        partial = (f" (a partial run: {self.unchecked} not checked yet; the score is of the "
                   f"{len(self.statuses) - self.unchecked} checked)" if self.unchecked else "")
        return (
            f"{self.group}: {len(self.statuses)} mutants, {self.caught} caught "
            f"({self.score:.1f} %{': ' + how if how else ''}); "
            f"{len(self.explained)} listed as equivalent; "
            f"{len(self.unexplained)} not caught and not listed{partial}"
        )


# -- configuration --------------------------------------------------------------------------


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise MutationError(f"{where} must be a non-empty list of strings")
    return tuple(value)


def load_groups(text: str, where: str = "groups.toml") -> tuple[dict[str, Any], dict[str, Group]]:
    """The shared mutmut settings and the groups, checked."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MutationError(f"{where}: {error}") from None
    shared = data.get("mutmut", {})
    if not isinstance(shared, dict):
        raise MutationError(f"{where}: [mutmut] must be a table")
    for key in ("only_mutate", "pytest_add_cli_args_test_selection"):
        if key in shared:
            raise MutationError(f"{where}: {key} is per group (mutate, tests), not in [mutmut]")
    tables = data.get("groups")
    if not isinstance(tables, dict) or not tables:
        raise MutationError(f"{where}: no [groups.<name>] table")
    groups = {}
    for name, table in tables.items():
        if not isinstance(table, dict):
            raise MutationError(f"{where}: groups.{name} must be a table")
        unknown = set(table) - {"mutate", "tests"}
        if unknown:
            raise MutationError(f"{where}: groups.{name} has unknown keys {sorted(unknown)}")
        groups[name] = Group(
            name,
            _strings(table.get("mutate"), f"{where}: groups.{name}.mutate"),
            _strings(table.get("tests"), f"{where}: groups.{name}.tests"),
        )
    return shared, groups


def load_equivalents(text: str, where: str = "equivalent.toml") -> dict[str, Equivalent]:
    """``{mutant name: Equivalent}`` from the list, each entry checked."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MutationError(f"{where}: {error}") from None
    found = {}
    for name, entry in data.items():
        if "__mutmut_" not in name:
            raise MutationError(f"{where}: [{name!r}] is not a mutmut mutant name")
        if not isinstance(entry, dict) or set(entry) != {"becomes", "why"}:
            raise MutationError(f"{where}: [{name!r}] needs exactly 'becomes' and 'why'")
        becomes, why = entry["becomes"], entry["why"]
        if not isinstance(becomes, str) or not becomes.strip():
            raise MutationError(f"{where}: [{name!r}] 'becomes' must be the mutant's line")
        if not isinstance(why, str) or not why.strip() or "\n" in why.strip():
            raise MutationError(f"{where}: [{name!r}] 'why' must be one line")
        found[name] = Equivalent(becomes.strip(), why.strip())
    return found


def _toml_value(value: object) -> str:
    """A TOML value for the settings' types (strings, numbers, booleans, lists of them): JSON's
    spelling of each is also TOML's."""
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, str | bool | int | float):
        return json.dumps(value)
    raise MutationError(f"groups.toml: cannot write {value!r} into [tool.mutmut]")


def pyproject_for(group: Group, shared: dict[str, Any], project: str) -> str:
    """The repository's pyproject.toml (pytest's settings) with the group's ``[tool.mutmut]``."""
    if "mutmut" in tomllib.loads(project).get("tool", {}):
        raise MutationError("pyproject.toml has its own [tool.mutmut]; set it in groups.toml")
    settings = {
        **shared,
        "only_mutate": list(group.mutate),
        "pytest_add_cli_args_test_selection": list(group.tests),
    }
    table = "\n".join(f"{key} = {_toml_value(value)}" for key, value in settings.items())
    text = f"{project.rstrip()}\n\n[tool.mutmut]\n{table}\n"
    tomllib.loads(text)  # what mutmut will read must parse
    return text


# -- mutmut's answers -----------------------------------------------------------------------


def parse_results(text: str) -> dict[str, str]:
    """``{mutant name: status}`` from ``mutmut results --all true``."""
    return {m[1]: m[2].strip() for line in text.splitlines() if (m := RESULT_LINE.match(line))}


def changed_lines(diff: str) -> list[str]:
    """The lines a mutant writes, from ``mutmut show``'s unified diff, stripped."""
    return [
        line[1:].strip()
        for line in diff.splitlines()
        if line.startswith("+") and not line.startswith("+++")
    ]


def diff_lines(diff: str) -> list[str]:
    """The removed and added lines of a unified diff, for printing."""
    return [
        line
        for line in diff.splitlines()
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def module_of(mutant: str) -> str:
    """The module a mutant changes: ``showdown.unit.verdict`` for
    ``showdown.unit.verdict.x_decide__mutmut_3`` (mutmut's names start functions with ``x_``
    and methods with ``xǁ``)."""
    parts = mutant.split(".")
    for index, part in enumerate(parts):
        if part.startswith(("x_", "xǁ")):
            return ".".join(parts[:index])
    return mutant.rpartition(".")[0]


def judge(
    group: str,
    statuses: dict[str, str],
    diffs: dict[str, str],
    equivalents: dict[str, Equivalent],
) -> Report:
    """Sort the mutants not caught into listed-and-still-true and the rest; note stale entries.

    *diffs* holds ``mutmut show`` for every mutant not caught and every listed one."""
    report = Report(group, statuses)
    for name, status in sorted(statuses.items()):
        listed = equivalents.get(name)
        if status == UNCHECKED:
            continue
        if status in CAUGHT:
            if listed is not None:
                report.notes.append(f"{name} is listed as equivalent but is now caught: "
                                    "take it off the list")
            continue
        report.diffs[name] = diff_lines(diffs.get(name, ""))
        if listed is None:
            report.unexplained.append(name)
        elif listed.becomes in changed_lines(diffs.get(name, "")):
            report.explained.append(name)
        else:
            report.unexplained.append(name)
            report.notes.append(f"{name} is listed as writing {listed.becomes!r}, but it now "
                                "changes another line: look at it again")
    modules = {module_of(name) for name in statuses}
    for name in sorted(set(equivalents) - set(statuses)):
        if module_of(name) in modules:
            report.notes.append(f"{name} is listed as equivalent but mutmut made no such mutant")
    return report


# -- running --------------------------------------------------------------------------------


def _mutmut() -> str:
    found = Path(sys.executable).parent / "mutmut"
    if not found.exists():
        raise MutationError("mutmut is not installed here: make mutation installs it "
                            "(pip install -e '.[dev,mutation]')")
    return str(found)


def linked(shared: dict[str, Any]) -> list[str]:
    """What a group's directory links to: the packages mutmut copies (and mutates), what it copies
    beside them, and the tests."""
    names = [*shared.get("source_paths", []), *shared.get("also_copy", []), "tests"]
    return [name for name in dict.fromkeys(names) if (REPO / name).exists()]


def prepare(group: Group, shared: dict[str, Any], *, fresh: bool) -> Path:
    """The group's directory: links to the code and tests, and its pyproject.toml."""
    work = WORK / group.name
    if fresh and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    for name in linked(shared):
        link = work / name
        if not link.is_symlink():
            link.symlink_to(REPO / name, target_is_directory=(REPO / name).is_dir())
    project = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    (work / "pyproject.toml").write_text(pyproject_for(group, shared, project), encoding="utf-8")
    return work


def mutmut_environment() -> dict[str, str]:
    """This process's environment with :data:`ENGINE_SOURCES`."""
    return {**os.environ, **ENGINE_SOURCES}


def _capture(args: Sequence[str], work: Path) -> str:
    done = subprocess.run(args, cwd=work, capture_output=True, text=True, check=False,
                          env=mutmut_environment())
    if done.returncode != 0:
        raise MutationError(f"{' '.join(args[1:])} failed in {work}: {done.stderr.strip()}")
    return done.stdout


def results(work: Path) -> dict[str, str]:
    """What mutmut decided for each mutant of the group in *work*."""
    return parse_results(_capture([_mutmut(), "results", "--all", "true"], work))


SHOW = """\
import json, sys
from mutmut.mutation.diff_apply import get_diff_for_mutant
json.dump({name: get_diff_for_mutant(name) for name in json.load(sys.stdin)}, sys.stdout)
"""
"""What ``mutmut show`` prints for each mutant, for many mutants in one process (a ``mutmut
show`` each takes seconds: hundreds of them took minutes)."""


def show(work: Path, names: Iterable[str]) -> dict[str, str]:
    """The diff ``mutmut show`` prints, for each of *names*."""
    done = subprocess.run([sys.executable, "-c", SHOW], input=json.dumps(list(names)), cwd=work,
                          capture_output=True, text=True, check=False, env=mutmut_environment())
    if done.returncode != 0:
        raise MutationError(f"could not read the mutants' changes in {work}: "
                            f"{done.stderr.strip().splitlines()[-1:]}")
    diffs: dict[str, str] = json.loads(done.stdout)
    return diffs


def _mutmut_run(group: Group, work: Path, jobs: int | None, names: list[str]) -> None:
    command = [_mutmut(), "run", *(["--max-children", str(jobs)] if jobs else []), *names]
    if subprocess.run(command, cwd=work, check=False, env=mutmut_environment()).returncode != 0:
        raise MutationError(f"mutmut run failed for {group.name}; its output is above")


def judge_group(group: Group, work: Path) -> Report:
    """Judge what mutmut decided for *group* in *work* against the equivalent list."""
    statuses = results(work)
    equivalents = load_equivalents(EQUIVALENT_FILE.read_text(encoding="utf-8"))
    wanted = [n for n, s in statuses.items() if s not in (*CAUGHT, UNCHECKED)] + [
        n for n in equivalents if n in statuses]
    return judge(group.name, statuses, show(work, sorted(set(wanted))), equivalents)


def run_group(group: Group, shared: dict[str, Any], *, keep: bool, again: bool,
              jobs: int | None) -> Report:
    """Run mutmut for *group* and judge what it found."""
    uncaught: list[str] = []
    if again:
        previous = WORK / group.name
        if not (previous / "mutants").exists():
            raise MutationError(f"--again: no earlier run of {group.name} in {previous}")
        uncaught = [n for n, s in results(previous).items() if s not in CAUGHT]
    work = prepare(group, shared, fresh=not (keep or again))
    print(f"== {group.name}: mutmut in {work.relative_to(REPO)}", flush=True)
    # A fresh run tries every mutant; a kept one only those of code changed since.
    _mutmut_run(group, work, jobs, [])
    if uncaught:
        statuses = results(work)
        again_names = [n for n in uncaught if statuses.get(n) not in (None, *CAUGHT)]
        print(f"== {group.name}: again for the {len(again_names)} mutants not caught last time",
              flush=True)
        if again_names:
            _mutmut_run(group, work, jobs, again_names)
    return judge_group(group, work)


def print_report(report: Report, *, verbose: bool) -> None:
    """The group's score, each mutant not caught and not listed with its change, the notes."""
    print(report.summary())
    for name in report.unexplained:
        print(f"  {report.statuses[name]}: {name}")
        for line in report.diffs.get(name, []):
            print(f"      {line}")
    if verbose:
        for name in report.explained:
            print(f"  equivalent: {name}")
    for note in report.notes:
        print(f"  note: {note}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.mutation.run",
        description="mutmut over each group of tests/mutation/groups.toml; prints each group's "
        "score and the mutants no test caught that equivalent.toml does not explain. "
        'Through make: make mutation MUTATION_ARGS="unit --again".',
    )
    parser.add_argument("groups", nargs="*", help="groups to run (default: all)")
    parser.add_argument("--keep", action="store_true",
                        help="keep mutmut's earlier results (new or changed code is run again)")
    parser.add_argument("--again", action="store_true",
                        help="run again only the mutants not caught last time (after new tests)")
    parser.add_argument("--report", action="store_true",
                        help="run nothing: judge the last run again (after editing the list)")
    parser.add_argument("--jobs", type=int, help="mutants at once (default: one per core)")
    parser.add_argument("--verbose", action="store_true", help="also list the equivalent mutants")
    options = parser.parse_args(argv)
    try:
        shared, groups = load_groups(GROUPS_FILE.read_text(encoding="utf-8"))
        load_equivalents(EQUIVALENT_FILE.read_text(encoding="utf-8"))
        unknown = [name for name in options.groups if name not in groups]
        if unknown:
            raise MutationError(f"no group {', '.join(unknown)}; groups: {', '.join(groups)}")
        chosen = [groups[name] for name in options.groups or groups]
        reports = []
        for group in chosen:
            if options.report:
                work = WORK / group.name
                if not (work / "mutants").exists():
                    raise MutationError(f"--report: no earlier run of {group.name} in {work}")
                reports.append(judge_group(group, work))
            else:
                reports.append(run_group(group, shared, keep=options.keep, again=options.again,
                                         jobs=options.jobs))
            print_report(reports[-1], verbose=options.verbose)
    except MutationError as error:
        print(f"make mutation: {error}", file=sys.stderr)
        return 2
    if len(reports) > 1:
        print("\n".join(report.summary() for report in reports))
    return 0 if all(report.ok for report in reports) else 1


if __name__ == "__main__":
    sys.exit(main())

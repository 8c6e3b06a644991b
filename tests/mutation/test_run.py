"""``make mutation``'s own logic, without running mutmut: the configuration is checked with clear
messages, each group gets its own ``[tool.mutmut]``, and a survivor counts as explained only while
the equivalent list still describes the change it makes."""

from __future__ import annotations

import os
import tomllib

import pytest

from tests.mutation.run import (
    EQUIVALENT_FILE,
    GROUPS_FILE,
    REPO,
    Equivalent,
    MutationError,
    changed_lines,
    judge,
    linked,
    load_equivalents,
    load_groups,
    module_of,
    mutmut_environment,
    parse_results,
    pyproject_for,
)

NAME = "showdown.unit.verdict.x_decide__mutmut_9"
DIFF = """--- showdown/unit/verdict.py
+++ showdown/unit/verdict.py
@@ -1,3 +1,3 @@
 def decide(
-    if len(early) == 2:
+    if len(early) == 3:
     return"""


def test_the_committed_groups_and_equivalents_are_valid() -> None:
    shared, groups = load_groups(GROUPS_FILE.read_text(encoding="utf-8"))
    equivalents = load_equivalents(EQUIVALENT_FILE.read_text(encoding="utf-8"))
    for group in groups.values():
        for pattern in group.mutate + group.tests:
            path = pattern.split("::")[0]  # a test file, or one test in it
            assert list(REPO.glob(path)), f"{group.name}: {pattern} matches nothing"
    assert "unit" in groups and shared["source_paths"]
    for name in equivalents:
        assert (REPO / module_of(name).replace(".", "/")).with_suffix(".py").exists(), name


def test_each_group_gets_its_own_mutmut_table_on_top_of_the_projects_settings() -> None:
    shared, groups = load_groups(GROUPS_FILE.read_text(encoding="utf-8"))
    project = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    written = tomllib.loads(pyproject_for(groups["unit"], shared, project))
    table = written["tool"]["mutmut"]
    assert table["only_mutate"] == list(groups["unit"].mutate)
    assert table["pytest_add_cli_args_test_selection"] == list(groups["unit"].tests)
    assert table["source_paths"] == shared["source_paths"]
    assert set(linked(shared)) >= {*shared["source_paths"], *shared["also_copy"], "tests"}
    assert written["tool"]["pytest"] == tomllib.loads(project)["tool"]["pytest"]
    with pytest.raises(MutationError, match=r"pyproject.toml has its own \[tool.mutmut\]"):
        pyproject_for(groups["unit"], shared, project + "\n[tool.mutmut]\ndebug = true\n")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[groups.unit]\nmutate = ['a.py']\n", "groups.unit.tests must be a non-empty list"),
        ("[groups.unit]\nmutate = []\ntests = ['t']\n", "groups.unit.mutate must be a non-empty"),
        ("[groups.unit]\nmutate = ['a.py']\ntests = ['t']\nextra = 1\n", "unknown keys ['extra']"),
        ("[mutmut]\nonly_mutate = ['a.py']\n[groups.u]\nmutate = ['a']\ntests = ['t']\n",
         "only_mutate is per group"),
        ("[mutmut]\n", "no [groups.<name>] table"),
        ("[groups.unit\n", "groups.toml: "),
    ],
)
def test_a_mistake_in_the_groups_is_named(text: str, says: str) -> None:
    with pytest.raises(MutationError) as error:
        load_groups(text)
    assert says in str(error.value)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('["not a mutant"]\nbecomes = "x"\nwhy = "y"\n', "is not a mutmut mutant name"),
        (f'["{NAME}"]\nbecomes = "x"\n', "needs exactly 'becomes' and 'why'"),
        (f'["{NAME}"]\nbecomes = " "\nwhy = "y"\n', "'becomes' must be the mutant's line"),
        (f'["{NAME}"]\nbecomes = "x"\nwhy = """a\nb"""\n', "'why' must be one line"),
        ('["x__mutmut_1"\n', "equivalent.toml: "),
    ],
)
def test_a_mistake_in_the_equivalent_list_is_named(text: str, says: str) -> None:
    with pytest.raises(MutationError) as error:
        load_equivalents(text)
    assert says in str(error.value)


def test_mutmut_results_and_diffs_are_read() -> None:
    arm = "showdown.unit.machine.xǁShowdownMachineǁarm__mutmut_1"
    text = f"    {NAME}: survived\n    {arm}: no tests\n"
    assert parse_results(text) == {NAME: "survived", arm: "no tests"}
    assert changed_lines(DIFF) == ["if len(early) == 3:"]
    assert module_of("showdown.unit.machine.xǁShowdownMachineǁarm__mutmut_1") == (
        "showdown.unit.machine")
    assert module_of(NAME) == "showdown.unit.verdict"


def test_a_survivor_is_explained_only_while_the_list_describes_its_change() -> None:
    statuses = {NAME: "survived", "showdown.unit.verdict.x_decide__mutmut_1": "killed",
                "showdown.unit.verdict.x_decide__mutmut_2": "timeout",
                "showdown.unit.verdict.x_decide__mutmut_3": "no tests"}
    listed = {NAME: Equivalent("if len(early) == 3:", "why")}
    report = judge("unit", statuses, {NAME: DIFF}, listed)
    assert (report.explained, report.caught, report.ok) == ([NAME], 2, False)
    assert report.unexplained == ["showdown.unit.verdict.x_decide__mutmut_3"]
    assert report.summary() == (
        "unit: 4 mutants, 2 caught (50.0 %: 1 killed, 1 timeout); 1 listed as equivalent; "
        "1 not caught and not listed")

    partial = judge("unit", statuses | {"showdown.unit.verdict.x_decide__mutmut_4": "not checked"},
                    {NAME: DIFF}, listed)
    assert (partial.unexplained, partial.unchecked, partial.ok) == (report.unexplained, 1, False)
    assert partial.summary() == (
        "unit: 5 mutants, 2 caught (50.0 %: 1 killed, 1 timeout); 1 listed as equivalent; "
        "1 not caught and not listed (a partial run: 1 not checked yet; the score is of the 4 "
        "checked)")

    changed = {NAME: Equivalent("if len(early) == 4:", "why")}
    report = judge("unit", {NAME: "survived"}, {NAME: DIFF}, changed)
    assert report.unexplained == [NAME] and not report.ok
    assert "now changes another line" in report.notes[0]

    stale = {"showdown.unit.verdict.x_decide__mutmut_1": Equivalent("x", "why"),
             "showdown.unit.verdict.x_decide__mutmut_99": Equivalent("x", "why"),
             "engine.round.x_deal__mutmut_1": Equivalent("x", "another group's")}
    report = judge("unit", statuses | {NAME: "killed"}, {}, stale)
    assert [note.split(" is ")[0] for note in report.notes] == [
        "showdown.unit.verdict.x_decide__mutmut_1", "showdown.unit.verdict.x_decide__mutmut_99"]
    assert "now caught" in report.notes[0] and "no such mutant" in report.notes[1]


def test_mutmut_runs_the_engine_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """A compiled engine would run unchanged machine code past every mutant of the engine (or
    refuse to load beside the mutated sources): mutmut and its tests get the sources."""
    monkeypatch.setenv("SHOWDOWN_ENGINE", "mypyc")
    environment = mutmut_environment()
    assert environment["SHOWDOWN_ENGINE"] == "python"
    assert environment["PATH"] == os.environ["PATH"]

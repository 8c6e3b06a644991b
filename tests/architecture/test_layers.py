"""The layering: imports only go down, so the layout cannot silently decay.

Layers, bottom up (docs/architecture.md draws them): ``engine``, ``firmware_bridge`` and the
translations' catalogues (``showdown.locale``); the unit (``showdown.unit``); the simulator
(``hw_sim``, which may use only the unit); the game session (``showdown.game``); the event over MQTT
(``showdown.tournament``); the scoreboard and, beside it, the phone page (``showdown.web``): layers
of one rank never import each other; the simulation drivers (``showdown.playtest``); the application
(``showdown.app``), the one place that wires the others together. Every import is read from the
source with :mod:`ast`, including those inside functions. Outside the layers, above them all: the
drivers that draw the documentation's pictures (``tools``) and the tests, which may import any layer
and which no layer imports.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

RANK = {
    "engine": 0,
    "firmware_bridge": 0,
    "showdown.locale": 0,
    "showdown.unit": 1,
    "hw_sim": 2,
    "showdown.game": 3,
    "showdown.tournament": 4,
    "showdown.scoreboard": 5,
    "showdown.web": 5,
    "showdown.playtest": 6,
    "showdown.app": 7,
    "showdown.__main__": 7,  # ``python -m showdown``: the application's entry
}
ALLOWED_BESIDE = {"hw_sim": {"showdown.unit", "engine", "firmware_bridge"}, "engine": set()}
"""Layers held to a stricter rule than "anything below": hw_sim sees only the unit."""
ENTRY = {("showdown.__main__", "showdown.app")}
"""The one import between layers of one rank: ``python -m showdown`` runs the application."""


def layer(module: str) -> str | None:
    for name in sorted(RANK, key=len, reverse=True):
        if module == name or module.startswith(name + "."):
            return name
    return None


def imports() -> list[tuple[str, str]]:
    """(importing module, imported module) for every import between our packages."""
    found = []
    for package in ("engine", "firmware_bridge", "hw_sim", "showdown"):
        for path in sorted((REPO / package).rglob("*.py")):
            if "pico" in path.relative_to(REPO).parts:
                continue  # MicroPython firmware: flat module names, imports nothing of ours
            parts = path.relative_to(REPO).with_suffix("").parts
            module = ".".join(parts).removesuffix(".__init__")
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found += [(module, alias.name) for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    found.append((module, node.module))
                    found += [(module, f"{node.module}.{alias.name}") for alias in node.names]
                elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") in {
                    "import_module"
                } and node.args and isinstance(node.args[0], ast.Constant):
                    found.append((module, str(node.args[0].value)))
    return found


def test_every_module_belongs_to_a_layer() -> None:
    modules = {source for source, _target in imports()}
    assert modules, "no modules found"
    assert [m for m in modules if layer(m) is None and m != "showdown"] == []


def violations(pairs: list[tuple[str, str]]) -> list[str]:
    """The imports among *pairs* that go up a layer, or sideways where a layer may not."""
    upward = []
    for source, target in pairs:
        low, high = layer(target), layer(source)
        if low is None or high is None or low == high:
            continue
        allowed = ALLOWED_BESIDE.get(high)
        beside = RANK[low] == RANK[high] and (high, low) not in ENTRY
        if RANK[low] > RANK[high] or beside or (allowed is not None and low not in allowed):
            upward.append(f"{source} imports {target}")
    return sorted(set(upward))


def test_imports_only_go_down() -> None:
    assert violations(imports()) == []


OUTSIDE = ("tools", "tests")
"""Top-level packages beside the product, not in it: nothing the product ships may need them."""


def outside_imports(pairs: list[tuple[str, str]]) -> list[str]:
    """The imports among *pairs* by which the product would reach into tools or tests."""
    return sorted({f"{source} imports {target}" for source, target in pairs
                   if target.partition(".")[0] in OUTSIDE})


def test_the_product_imports_neither_tools_nor_tests() -> None:
    assert outside_imports(imports()) == []
    assert outside_imports([("showdown.app.subcommands.bench_scoreboard",
                             "tools.screenshots.games")]) != []


def test_the_layer_graph_stays_small() -> None:
    links = {(layer(s), layer(t)) for s, t in imports() if layer(s) and layer(t)}
    links = {(a, b) for a, b in links if a != b}
    # At most one link more than when this bound was last set: a jump means a layer started
    # reaching past its neighbours.
    assert len(links) <= 33, sorted(links)


def test_the_checker_sees_an_upward_import() -> None:
    """The rule itself can fail: upward and forbidden sideways imports are caught."""
    assert violations([("hw_sim.pins", "showdown.game.session")]) == [
        "hw_sim.pins imports showdown.game.session"]
    assert violations([("showdown.unit.machine", "hw_sim.pins")]) != []
    assert violations([("engine.round", "showdown.unit.clock")]) != []
    assert violations([("showdown.app.cli", "showdown.unit.clock")]) == []
    assert violations([("showdown.web.app", "showdown.scoreboard.theme")]) != []
    assert violations([("showdown.scoreboard.i18n", "showdown.web.words")]) != []
    assert violations([("showdown.web.words", "showdown.locale.catalogues")]) == []
    assert violations([("showdown.tournament.host", "showdown.scoreboard.app")]) != []
    assert violations([("showdown.tournament.host", "showdown.web.app")]) != []
    assert violations([("showdown.game.session", "showdown.tournament.host")]) != []
    assert violations([("showdown.scoreboard.screens.tournament",
                        "showdown.tournament.view")]) == []
    assert violations([("showdown.web.tournament", "showdown.tournament.view")]) == []


def cycles(pairs: list[tuple[str, str]]) -> list[list[str]]:
    """Groups of our modules that import one another, directly or round a loop (every import
    counts: inside functions, or for the types only). An imported name is resolved to the
    module that holds it."""
    modules = {source for source, _target in pairs}
    graph: dict[str, set[str]] = {module: set() for module in modules}
    for source, target in pairs:
        parts = target.split(".")
        found = next((".".join(parts[:n]) for n in range(len(parts), 0, -1)
                      if ".".join(parts[:n]) in modules), None)
        if found is not None and found != source and not source.startswith(found + "."):
            graph[source].add(found)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(groups)


def run_time_imports() -> list[tuple[str, str]]:
    """:func:`imports` without those under ``if TYPE_CHECKING:``, which only a type checker
    follows (an annotation naming a class that imports this module is no loop at run time)."""
    typing_only: set[tuple[str, str]] = set()
    for package in ("engine", "firmware_bridge", "hw_sim", "showdown"):
        for path in sorted((REPO / package).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            module = ".".join(parts).removesuffix(".__init__")
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
                    for inner in ast.walk(node):
                        if isinstance(inner, ast.ImportFrom) and inner.module:
                            typing_only.add((module, inner.module))
                            typing_only |= {(module, f"{inner.module}.{alias.name}")
                                            for alias in inner.names}
    return [pair for pair in imports() if pair not in typing_only]


def test_no_two_modules_import_each_other() -> None:
    """A module that needs another which needs it back has no clear place: the shared piece
    goes where both can import it."""
    assert cycles(run_time_imports()) == []


def test_the_checker_sees_a_loop_of_imports() -> None:
    pairs = [("a.fonts", "a.face.Face"), ("a.face", "a.fonts.FontSet"), ("a.text", "a.face")]
    assert cycles(pairs) == [["a.face", "a.fonts"]]
    assert cycles([("a.face", "a.fonts.load"), ("a.fonts", "os")]) == []


@pytest.mark.parametrize("name", ["gpio", "serial"])
def test_one_registry_of_back_ends_by_name(name: str) -> None:
    from hw_sim.sim_unit import SIM_BACKENDS
    from showdown.unit.backends import BACKENDS
    from tests.showdown.conftest import BACKENDS as RIGS

    assert set(BACKENDS) == set(SIM_BACKENDS) == set(RIGS)
    assert BACKENDS[name].name == name  # type: ignore[index]


def module_cycles(pairs: list[tuple[str, str]], package: str) -> list[list[str]]:
    """Import cycles between the modules of ``package`` (its ``__init__`` left out: it gathers
    the public names, and ``from engine import actions`` is an import of ``engine.actions``)."""
    modules = {source for source, _ in pairs if source.startswith(package + ".")}
    graph: dict[str, set[str]] = {module: set() for module in modules}
    for source, imported in pairs:
        if source not in graph:
            continue
        target = imported
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != source:
            graph[source].add(target)
    cycles: list[list[str]] = []
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            cycles.append([*path[path.index(module):], module])
            return
        if module in done:
            return
        for target in sorted(graph[module]):
            visit(target, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    return cycles


def test_the_engine_modules_import_one_another_without_a_cycle() -> None:
    """A module of the engine never imports one that imports it back, not even for type checks
    (``engine.actions`` lists commands from the round's data and does not import
    ``engine.round``): each can be read, tested and compiled by mypyc on its own."""
    assert module_cycles(imports(), "engine") == []


def test_the_cycle_checker_sees_a_cycle() -> None:
    pairs = [("engine.round", "engine.actions"), ("engine.actions", "engine.round.Round"),
             ("engine.state", "engine.rules")]
    assert module_cycles(pairs, "engine") == [["engine.actions", "engine.round", "engine.actions"]]

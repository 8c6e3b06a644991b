"""Every docstring example in the product runs, so an example a reader copies still works.

The examples are found in the sources (every module, class and function docstring of the
product's packages that holds a ``>>>``), not through the imported module: a module compiled by
mypyc keeps no function docstrings for :mod:`doctest` to find. Each runs in its module's globals,
as ``doctest.testmod`` would run it. (A few test modules also run their modules' examples with
``doctest.testmod``: the mutation groups list those tests, not this one.)
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "firmware_bridge", "hw_sim", "showdown")


def _modules_with_examples() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            relative = path.relative_to(REPO)
            if "pico" in relative.parts or "_compiled" in relative.parts:
                continue  # MicroPython firmware; the engine's build output
            if ">>>" in path.read_text(encoding="utf-8"):
                found.append(".".join(relative.with_suffix("").parts).removesuffix(".__init__"))
    return found


MODULES = _modules_with_examples()


def _docstrings(source: str) -> list[tuple[str, str, int]]:
    """(qualified name, docstring, line) of every docstring in *source* holding an example."""
    found = []
    tree = ast.parse(source)

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}.{child.name}"
                text = ast.get_docstring(child, clean=False)
                if text and ">>>" in text:
                    found.append((name, text, child.body[0].lineno))
                visit(child, name)

    module_doc = ast.get_docstring(tree, clean=False)
    if module_doc and ">>>" in module_doc:
        found.append(("", module_doc, 1))
    visit(tree, "")
    return found


def test_the_examples_are_found() -> None:
    """The search itself works: these modules are known to hold examples."""
    assert {"engine.scoring", "showdown.unit.clock", "firmware_bridge.rto"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_run(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an example that writes a file leaves nothing in the repository
    module = importlib.import_module(name)
    source = (REPO / Path(*name.split("."))).with_suffix(".py")
    if not source.exists():
        source = REPO / Path(*name.split(".")) / "__init__.py"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for qualified, text, line in _docstrings(source.read_text(encoding="utf-8")):
        test = parser.get_doctest(text, dict(vars(module)), name + qualified, str(source), line)
        examples += len(test.examples)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert examples > 0, f"{name}: no example found although its source holds '>>>'"
    assert result.failed == 0, f"{name}: {result.failed} of its examples failed (printed above)"

"""The documents stay true to the repository: links, paths, modules, the layers and their picture.

README.md is a short front page; it, CONTRIBUTING.md and every ``docs/*.md`` link only to files
inside the repository, and every file path or module they name in code spans exists, so a moved
or renamed file cannot leave the documents pointing at nothing.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tests.architecture.test_layers import RANK, imports, layer
from tools.diagrams import launcher, layers

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").glob("*.md"))]
README_MAX_LINES = 200

LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+)["']""")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
TOP_FOLDERS = (
    "engine", "showdown", "firmware_bridge", "hw_sim", "deploy", "tests", "docs", "tools")
PATH = re.compile(r"(?<![\w/.~-])(?:" + "|".join(TOP_FOLDERS) + r")/[^\s`'\"()\[\]|,;]*")
MODULE = re.compile(r"^(?:engine|showdown|firmware_bridge|hw_sim|tools)(?:\.[A-Za-z_]\w*)+$")
FILE_SUFFIXES = {"toml", "db", "service", "po", "pot", "mo", "md", "py", "json", "png", "rules"}
"""``showdown.toml``, ``showdown.db``: file names that look like module paths."""


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file."""
    text = _strip_fences(path.read_text(encoding="utf-8"))
    return {slug(match) for match in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", text, re.M)}


def _strip_fences(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def link_problems(text: str, where: Path) -> list[str]:
    """What is wrong with the links of *text*, a document at *where* in the repository."""
    problems = []
    if "../shared" in text:
        problems.append(f"{where.name}: mentions ../shared, which is outside the repository")
    prose = _strip_fences(text)
    for target in LINK.findall(prose) + HTML_LINK.findall(prose):
        if SCHEME.match(target) or target.startswith(("/", "//", "~")):
            problems.append(f"{where.name}: {target} leaves the repository")
            continue
        file_part, _, anchor = target.partition("#")
        linked = (where.parent / file_part).resolve() if file_part else where
        if not linked.is_relative_to(REPO):
            problems.append(f"{where.name}: {target} leaves the repository")
        elif not linked.exists():
            problems.append(f"{where.name}: {target} does not exist")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            problems.append(f"{where.name}: {target}: no heading #{anchor} in {linked.name}")
    return problems


def path_problems(text: str, where: Path) -> list[str]:
    """Repository paths named in *text* (``showdown/unit/machine.py``) that do not exist."""
    problems = []
    for found in PATH.findall(text):
        mention = found.rstrip(".:")
        pattern = re.sub(r"<[^>]*>", "*", mention).split("<", 1)[0].rstrip("/")
        if not pattern or not list(REPO.glob(pattern)):
            problems.append(f"{where.name}: {mention} does not exist")
    return problems


def module_problems(text: str, where: Path) -> list[str]:
    """Dotted names in code spans (``showdown.game.recorder``, ``engine.rules.RuleSet``) that
    name no module, or a name the module does not define."""
    problems = []
    for span in set(re.findall(r"`([^`\s]+)`", text)):
        if not MODULE.match(span):
            continue
        parts = span.split(".")
        if parts[1] in FILE_SUFFIXES:
            continue
        for cut in range(len(parts), 0, -1):
            base = REPO.joinpath(*parts[:cut])
            source = base.with_suffix(".py") if base.with_suffix(".py").exists() else (
                base / "__init__.py")
            if source.exists():
                break
        else:  # pragma: no cover - every span starts with a package
            continue
        rest = parts[cut:]
        code = source.read_text(encoding="utf-8")
        if cut < 2 or len(rest) > 2 or any(not re.search(rf"\b{name}\b", code) for name in rest):
            problems.append(f"{where.name}: `{span}` names no module or name in the code")
    return problems


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(REPO)))
def test_links_stay_inside_the_repository_and_resolve(document: Path) -> None:
    assert link_problems(document.read_text(encoding="utf-8"), document) == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_path_and_module_named_exists(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    assert path_problems(text, document) + module_problems(text, document) == []


def test_the_checks_fail_on_what_they_guard() -> None:
    """A broken link, a link out of the repository, a stale path and a stale module are caught."""
    readme = REPO / "README.md"
    assert link_problems("[a](docs/nothing.md)", readme) == [
        "README.md: docs/nothing.md does not exist"]
    assert link_problems("[a](../shared/design/rules.md)", readme) != []
    assert link_problems("[a](https://example.org/)", readme) == [
        "README.md: https://example.org/ leaves the repository"]
    assert link_problems("[a](docs/unit.md#no-such-heading)", readme) != []
    assert link_problems("[a](docs/unit.md#wiring) ![b](docs/layers.png)", readme) == []
    assert path_problems("see `showdown/session.py`", readme) != []
    assert path_problems("see `showdown/game/session.py` and `engine/decks/*.json`", readme) == []
    assert module_problems("`showdown.service` and `showdown.table`", readme) == [
        "README.md: `showdown.table` names no module or name in the code"]
    assert module_problems("`showdown.app.cli.UserError`, `showdown.toml`", readme) == []


def test_readme_is_a_short_front_page() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < README_MAX_LINES, "move detail into docs/ and link to it"
    text = "\n".join(lines)
    assert "make run" in text and "make test" in text
    assert all(f"(docs/{doc.name})" in text for doc in (REPO / "docs").glob("*.md"))


def test_every_dependency_has_a_reason_in_the_readme() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        wanted += extra
    names = {re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0].lower() for spec in wanted}
    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text.split("## Why each dependency is here", 1)[1]
    listed = set()
    for row in re.findall(r"^\| ([^|]+) \|", table, re.M):
        listed |= {re.sub(r"\s*\(.*", "", name).strip().lower() for name in row.split(",")}
    assert names - listed == set()


def _same_picture(drawn: object, committed_png: Path, command: str) -> None:
    """The committed PNG is what the script draws (another pygame-ce may anti-alias text a
    little differently: up to 0.5 % of the pixels may differ)."""
    import pygame

    assert isinstance(drawn, pygame.Surface)
    committed = pygame.image.load(str(committed_png))
    assert committed.get_size() == drawn.get_size(), f"run: {command}"
    ours, theirs = (pygame.image.tobytes(s, "RGB") for s in (drawn, committed))
    if ours != theirs:
        differing = sum(ours[i : i + 3] != theirs[i : i + 3] for i in range(0, len(ours), 3))
        assert differing < 0.005 * len(ours) / 3, f"run: {command}"


def test_the_picture_draws_the_layers_the_test_enforces() -> None:
    drawn = {name: entry.rank for entry in layers.LAYERS for name in entry.names}
    enforced = {name: rank for name, rank in RANK.items() if name != "showdown.__main__"}
    assert drawn == enforced, "update LAYERS in tools/diagrams/layers.py, run make diagram-layers"


def test_the_committed_layers_png_is_what_the_script_draws() -> None:
    _same_picture(layers.draw(), REPO / "docs" / "layers.png", "make diagram-layers")


def test_the_committed_launcher_png_is_what_the_script_draws() -> None:
    """docs/launcher.png shows the configuration's timings and count pins: a change to either
    fails here until the picture is drawn again."""
    _same_picture(launcher.draw(), REPO / "docs" / "launcher.png", "make diagram-launcher")


def test_the_mermaid_diagram_shows_the_imports_between_layers() -> None:
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = re.search(r"```mermaid\n(.*?)```", text, re.S)
    assert block, "docs/architecture.md has no mermaid diagram"
    labels = dict(re.findall(r"^\s*(\w+)\[\"([^\"]+)\"\]", block[1], re.M))
    drawn = {(labels[a], labels[b]) for a, b in re.findall(r"^\s*(\w+) --> (\w+)", block[1], re.M)}
    actual = {(layer(s), layer(t)) for s, t in imports()}
    actual = {
        (a, b) for a, b in actual
        if a and b and a != b and "showdown.__main__" not in (a, b)
    }
    assert set(labels.values()) == set(RANK) - {"showdown.__main__"}
    assert drawn - actual == set(), "edges drawn in docs/architecture.md that no import makes"
    assert actual - drawn == set(), "imports between layers missing from docs/architecture.md"


def test_the_engine_examples_run() -> None:
    text = (REPO / "docs" / "engine.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    for index, block in enumerate(blocks):
        exec(compile(block, f"docs/engine.md example {index + 1}", "exec"), {})

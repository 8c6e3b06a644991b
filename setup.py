"""The engine's optional mypyc build; pyproject.toml holds all the metadata.

``SHOWDOWN_MYPYC=1`` compiles the modules :data:`engine.build.COMPILED` names into
``engine/_compiled/`` with mypyc (it ships with mypy); anything else builds pure Python. Either way
the build writes ``engine/_compiled/build.json``, the record :mod:`engine.build` checks at import
so that compiled modules older than their sources never run. ``build_engine.py`` decides whether
this machine can compile, installs mypy for it and runs this file (``make build``, ``make run``,
``make test``, ``deploy/install.sh``); ``SHOWDOWN_MYPYC_WHY`` carries its reason into the record.

Compiling needs mypy in the building environment and no build isolation (``pip install
--no-build-isolation``, or ``setup.py build_ext --inplace`` in a checkout), so that mypyc
type-checks against the pydantic the engine will run with. ``engine/build.py`` is loaded by its
path: the module list and the source digests are the engine's own, not copies.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _engine_build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_engine_build", ROOT / "engine" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


ENGINE = _engine_build()
COMPILING = os.environ.get("SHOWDOWN_MYPYC") == "1"
KIND = "mypyc" if COMPILING else "python"
WHY = os.environ.get("SHOWDOWN_MYPYC_WHY") or (
    "compiled with SHOWDOWN_MYPYC=1" if COMPILING
    else "installed by pip alone: build_engine.py compiles it where a C compiler is present"
)


def _write_record(compiled_dir: Path) -> None:
    compiled_dir.mkdir(parents=True, exist_ok=True)
    text = ENGINE.record(KIND, WHY, ROOT / "engine")
    (compiled_dir / ENGINE.RECORD).write_text(text, encoding="utf-8")


def _is_extension(path: Path) -> bool:
    return path.suffix in {".so", ".pyd"}


def _made_now(inside: Path) -> bool:
    """Whether this build makes the extension at ``inside`` (a path in ``engine/_compiled``):
    the shared library at the top, the compiled modules in ``engine/``."""
    name = inside.name.split(".")[0]
    if not COMPILING:
        return False
    if inside.parent == Path("engine"):
        return name in ENGINE.COMPILED
    return inside.parent == Path(".") and name == ENGINE.shared_library()


class BuildPy(build_py):
    """Also writes the build record into the package being built, after clearing what an earlier
    build left in ``engine/_compiled`` that this one does not make (the build directory is
    reused; a module no longer compiled must not be packaged)."""

    def run(self) -> None:
        super().run()
        compiled_dir = Path(self.build_lib) / "engine" / "_compiled"
        for path in compiled_dir.rglob("*"):
            if _is_extension(path) and not _made_now(path.relative_to(compiled_dir)):
                path.unlink()
        _write_record(compiled_dir)


class BuildExt(build_ext):
    """In place (a checkout), the record goes beside the compiled modules in the sources."""

    def run(self) -> None:
        if self.inplace:
            (ROOT / "engine" / "_compiled" / "engine").mkdir(parents=True, exist_ok=True)
        super().run()
        if self.inplace:
            _write_record(ROOT / "engine" / "_compiled")


# pip runs this file three times (build requirements, metadata, then the wheel): only the runs
# that build extensions need mypyc's minute of type analysis and code generation.
METADATA_ONLY = bool({"egg_info", "dist_info"} & set(sys.argv[1:]))


def _extensions() -> list[object]:
    if not COMPILING or METADATA_ONLY:
        return []
    try:
        from mypyc.build import mypycify  # noqa: PLC0415 - only for the compiled build
    except ImportError:
        sys.exit(
            "SHOWDOWN_MYPYC=1 needs mypy in the building environment: pip install mypy, then "
            "pip install --no-build-isolation . (build_engine.py does both)"
        )
    paths = [f"engine/{name}.py" for name in ENGINE.COMPILED]
    extensions = mypycify(paths, opt_level="3", target_dir="build/mypyc", group_name=ENGINE.GROUP)
    library = ENGINE.shared_library()
    for extension in extensions:
        # Into engine/_compiled, not beside the sources: engine.build puts it on engine.__path__
        # only while the record matches the sources (its docstring has the layout).
        name = extension.name.rsplit(".", 1)[-1]
        extension.name = f"engine._compiled.{'' if name == library else 'engine.'}{name}"
    return list(extensions)


setup(ext_modules=_extensions(), cmdclass={"build_py": BuildPy, "build_ext": BuildExt})

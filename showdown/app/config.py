"""The configuration: one TOML file plus ``SHOWDOWN_*`` environment overrides.

The root :class:`Settings` holds one section per area, each defined in its own module (``unit`` in
:mod:`showdown.unit.config`, ``scoreboard`` in :mod:`showdown.scoreboard.touch_matrix`); an area
adds its section as one field here. Environment variables
override the file, nested with ``__``: ``SHOWDOWN_UNIT__TIMING__TIE_WINDOW_MS=2``.

:func:`load_settings` turns every mistake into :class:`ConfigError` (a ``UserError``)
whose one line names the file, the TOML line number when it can be found, and the setting at fault.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)

from showdown.app.errors import UserError
from showdown.game.storage import StorageSettings
from showdown.scoreboard.touch_matrix import ScoreboardSettings
from showdown.unit.config import UnitSettings
from showdown.web.http_address import WebSettings

__all__ = ["ConfigError", "Settings", "load_settings"]

#: Environment variable naming the configuration file when none is given on the command line.
CONFIG_ENV = "SHOWDOWN_CONFIG"

#: The largest configuration file read: a real one is a few KiB.
MAX_CONFIG_BYTES = 1 << 20


class ConfigError(UserError):
    """The configuration cannot be used; the message names what is wrong and where."""


class Settings(BaseSettings):
    """The whole configuration. Sections: ``unit`` (pins, timings, sounds), ``storage``,
    ``scoreboard`` (the touch panel's correction), ``web`` (where the phone page is served)."""

    model_config = SettingsConfigDict(
        env_prefix="SHOWDOWN_", env_nested_delimiter="__", extra="forbid", frozen=True
    )

    unit: UnitSettings = Field(default_factory=UnitSettings)
    storage: StorageSettings = Field(default_factory=StorageSettings)
    scoreboard: ScoreboardSettings = Field(default_factory=ScoreboardSettings)
    web: WebSettings = Field(default_factory=WebSettings)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The environment wins over the file's values (passed as init arguments)."""
        return (env_settings, init_settings)


def _toml_line(text: str, loc: tuple[str | int, ...]) -> int | None:
    """The line of *text* that best matches the setting at *loc* (longest matching key path)."""
    want = [str(part) for part in loc]
    table: list[str] = []
    best: tuple[int, int] | None = None  # (matched depth, line number)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            table = [part.strip().strip("\"'") for part in line.strip("[]").split(".")]
            path = table
        elif "=" in line:
            key = line.split("=", 1)[0].strip()
            path = table + [part.strip().strip("\"'") for part in key.split(".")]
            inline = line.split("=", 1)[1]
            for part in want[len(path) :]:
                if f"{part} " in inline or f"{part}=" in inline:
                    path = [*path, part]
                else:
                    break
        else:
            continue
        depth = 0
        while depth < min(len(path), len(want)) and path[depth] == want[depth]:
            depth += 1
        if depth == len(path) and depth > 0 and (best is None or depth > best[0]):
            best = (depth, number)
    return None if best is None else best[1]


def _env_variable(loc: tuple[str | int, ...]) -> str | None:
    """The set ``SHOWDOWN_*`` variable that gave the setting at *loc* (or a section holding it)."""
    names = {name.upper(): name for name in os.environ}
    for depth in range(len(loc), 0, -1):
        wanted = "SHOWDOWN_" + "__".join(str(part) for part in loc[:depth]).upper()
        if wanted in names:
            return names[wanted]
    return None


def _describe(error: ValidationError, source: Path | None, text: str) -> str:
    problems = []
    for item in error.errors():
        loc = tuple(item["loc"])
        message = str(item["msg"]).removeprefix("Value error, ")
        # A section's own check names the setting first ("paddle_left: GPIO17 is ...", or
        # "pins.launcher_pwm: missing ..." from the section above it): point there.
        head, sep, rest = message.partition(": ")
        if sep and all(part.isidentifier() for part in head.split(".")):
            loc, message = (*loc, *head.split(".")), rest
        where = ".".join(str(part) for part in loc) or "(top level)"
        if item["type"] == "extra_forbidden":
            message = "unknown setting (check its spelling)"
        prefix = ""
        variable = _env_variable(loc)
        if variable is not None:
            prefix = f"environment variable {variable}: "
        elif source is not None:
            number = _toml_line(text, loc)
            prefix = f"{source}:{number}: " if number else f"{source}: "
        problems.append(f"{prefix}{where}: {message}")
    return "; ".join(problems)


def _complex(annotation: Any) -> bool:
    """Whether pydantic-settings reads a field of this type from one variable as JSON."""
    for option in typing.get_args(annotation) or (annotation,):
        if isinstance(option, type) and issubclass(option, BaseModel):
            return True
        if typing.get_origin(option) in (tuple, list, dict, set, frozenset):
            return True
    return False


def _section(annotation: Any) -> type[BaseModel] | None:
    for option in typing.get_args(annotation) or (annotation,):
        if isinstance(option, type) and issubclass(option, BaseModel):
            return option
    return None


def _check_environment() -> None:
    """Refuse a ``SHOWDOWN_*`` variable that gives a whole section (or list) a value that is not
    JSON, naming it: pydantic-settings would stop with a traceback that names neither."""
    for name, value in sorted(os.environ.items()):
        upper = name.upper()
        if not upper.startswith("SHOWDOWN_") or upper == CONFIG_ENV:
            continue
        model: type[BaseModel] | None = Settings
        annotation: Any = None
        for part in upper.removeprefix("SHOWDOWN_").lower().split("__"):
            if model is None or part not in model.model_fields:
                annotation = None
                break
            annotation = model.model_fields[part].annotation
            model = _section(annotation)
        if annotation is None or not _complex(annotation):
            continue
        try:
            json.loads(value)
        except RecursionError:
            raise ConfigError(
                f"environment variable {name}: nested too deeply to be a setting"
            ) from None
        except ValueError as error:
            hint = f"; or set one value with {name}__<SETTING>" if model is not None else ""
            raise ConfigError(
                f"environment variable {name}: not valid JSON ({getattr(error, 'msg', error)}); "
                f"this setting takes a JSON value{hint}"
            ) from None


def _deep_line(text: str) -> int:
    """The line where brackets nest deepest (for a file too deeply nested to parse)."""
    depth = deepest = 0
    line = best = 1
    for char in text:
        if char == "\n":
            line += 1
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest, best = depth, line
        elif char in "]}":
            depth -= 1
    return best


def _key_on(text: str, number: int) -> str:
    raw = text.splitlines()[number - 1] if 0 < number <= len(text.splitlines()) else ""
    match = re.match(r"\s*([A-Za-z0-9_.\"' -]+?)\s*=", raw)
    return match.group(1).strip() if match else "(value)"


def _read_file(source: Path) -> bytes:
    """The bytes of a configuration: a regular file of at most :data:`MAX_CONFIG_BYTES`.

    Opened without blocking and looked at before it is read: a FIFO nobody writes to would
    wait for ever, and a device such as ``/dev/zero`` never ends."""
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise ConfigError(f"{source}: cannot read the configuration: {exc.strerror}") from None
    kind = os.fstat(fd).st_mode
    if not stat.S_ISREG(kind):
        os.close(fd)
        what = "a folder" if stat.S_ISDIR(kind) else "a device, a FIFO or a socket"
        raise ConfigError(f"{source}: {what}, not a file: a configuration is a TOML file")
    with os.fdopen(fd, "rb") as file:
        try:
            data = file.read(MAX_CONFIG_BYTES + 1)
        except OSError as exc:
            raise ConfigError(
                f"{source}: cannot read the configuration: {exc.strerror}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{source}: larger than {MAX_CONFIG_BYTES // 1024} KiB: not a "
                          "configuration (the example in deploy/ is under 3 KiB)")
    return data


def load_settings(path: Path | str | None = None) -> Settings:
    """Read *path* (or ``$SHOWDOWN_CONFIG``, or nothing: the defaults) plus the environment.

    Raises :class:`ConfigError` with a one-line message naming the file, line and setting.
    """
    if path is None and os.environ.get(CONFIG_ENV):
        path = os.environ[CONFIG_ENV]
    source = None if path is None else Path(path)
    text = ""
    data: dict[str, Any] = {}
    if source is not None:
        try:
            text = _read_file(source).decode("utf-8-sig")  # a BOM from a Windows editor is fine
        except UnicodeDecodeError as exc:
            raise ConfigError(
                f"{source}: not a text file in UTF-8 (byte {exc.start}); a configuration is TOML"
            ) from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{source}: not valid TOML: {exc}") from None
        except RecursionError:
            number = _deep_line(text)
            raise ConfigError(
                f"{source}:{number}: {_key_on(text, number)}: nested too deeply to be a setting"
            ) from None
    _check_environment()
    try:
        return Settings(**data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, source, text)) from None
    except SettingsError as exc:  # an environment variable the check above did not foresee
        variables = ", ".join(n for n in os.environ if n.upper().startswith("SHOWDOWN_"))
        raise ConfigError(f"environment variables ({variables}): {exc}") from None

"""Configuration: defaults work, mistakes are one line naming the file, line and setting."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showdown.app.cli import UserError, main
from showdown.app.config import ConfigError, load_settings
from showdown.unit.config import normalise_pin


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "showdown.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file() -> None:
    settings = load_settings()
    assert settings.unit.timing.tie_window_ms == 1.0
    assert settings.unit.timing.anticipation_ms == 0
    assert settings.unit.pins.paddle_left.pin == "GPIO17"


def test_file_values_and_environment_overrides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(
        tmp_path,
        "[unit.timing]\ntie_window_ms = 2.5\nbeats = 4\n\n"
        '[unit.pins]\npaddle_left = { pin = 13, active = "high" }\n',
    )
    monkeypatch.setenv("SHOWDOWN_UNIT__TIMING__BEATS", "5")
    settings = load_settings(path)
    assert settings.unit.timing.tie_window_ms == 2.5
    assert settings.unit.timing.beats == 5, "the environment wins over the file"
    assert settings.unit.pins.paddle_left.pin == "GPIO13"
    assert settings.unit.pins.paddle_left.active_high


def test_config_file_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "[unit.timing]\ntimeout_ms = 7000\n")
    monkeypatch.setenv("SHOWDOWN_CONFIG", str(path))
    assert load_settings().unit.timing.timeout_ms == 7000


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '[unit.pins]\npaddle_left = { pin = "GPIO27", active = "low" }\n',
            "unit.pins.paddle_right: GPIO27 is already used by paddle_left",
        ),
        (
            '[unit.pins]\n\narrow_left = { pin = "GPIO0", active = "high" }\n',
            ":3: unit.pins.arrow_left.pin: GPIO0 is reserved",
        ),
        (
            '[unit.pins]\narrow_left = { pin = "GPIO42", active = "high" }\n',
            ":2: unit.pins.arrow_left.pin: unknown pin name",
        ),
        (
            '[unit.pins]\narrow_left = { pin = "SPI0", active = "high" }\n',
            "unknown pin name 'SPI0'",
        ),
        (
            "[unit.pins]\npadle_left = { pin = 5, active = 'low' }\n",
            ":2: unit.pins.padle_left: unknown setting",
        ),
        (
            "[unit.pins.buzzer]\npin = 12\nactive = 'up'\n",
            ":3: unit.pins.buzzer.active: Input should be 'high' or 'low'",
        ),
        (
            "[unit.timing]\nhold_min_ms = 3000\nhold_max_ms = 100\n",
            "hold_max_ms (100.0) is below hold_min_ms",
        ),
        ("[unit.go_tone]\nhz = 440\npattern_ms = [100]\n", "go_tone: its pitch must differ"),
        ("[unit\n", "not valid TOML"),
    ],
)
def test_mistakes_are_one_line_naming_the_line_at_fault(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as exc:
        load_settings(path)
    message = str(exc.value)
    assert expected in message
    assert str(path) in message and "\n" not in message
    assert isinstance(exc.value, UserError)


def test_missing_file_is_a_user_error_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["sim", "duels", "--count", "1", "--config", str(tmp_path / "nope.toml")])
    assert status == 2
    err = capsys.readouterr().err
    assert "cannot read the configuration" in err and "Traceback" not in err


@given(st.integers(min_value=2, max_value=27), st.sampled_from(["", "GPIO", "gpio", "BCM"]))
def test_every_header_pin_name_normalises(number: int, prefix: str) -> None:
    assert normalise_pin(f"{prefix}{number}") == f"GPIO{number}"


@given(st.text(max_size=12))
def test_pin_names_are_accepted_or_refused_with_a_message(text: str) -> None:
    try:
        name = normalise_pin(text)
    except ValueError as exc:
        assert str(exc)
    else:
        assert name.startswith("GPIO") and 2 <= int(name[4:]) <= 27


@given(
    st.dictionaries(
        st.sampled_from(["tie_window_ms", "beats", "timeout_ms", "hold_min_ms", "bouncy"]),
        st.one_of(st.integers(-5, 5000), st.floats(allow_nan=True), st.text(max_size=5)),
        max_size=4,
    )
)
def test_any_timing_table_loads_or_gives_one_line(
    tmp_path_factory: pytest.TempPathFactory, table: dict[str, object]
) -> None:
    lines = ["[unit.timing]"]
    for key, value in table.items():
        if isinstance(value, str):
            lines.append(
                f"{key} = {value!r}".replace("'", '"')
                if '"' not in value and "\\" not in value
                else f"{key} = 1"
            )
        elif isinstance(value, float) and math.isnan(value):
            lines.append(f"{key} = nan")
        elif isinstance(value, float) and value in (float("inf"), float("-inf")):
            lines.append(f"{key} = {'inf' if value > 0 else '-inf'}")
        else:
            lines.append(f"{key} = {value}")
    path = tmp_path_factory.mktemp("cfg") / "c.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        settings = load_settings(path)
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc)
    else:
        assert settings.unit.timing.beats >= 1


@pytest.mark.parametrize(
    "argv",
    [
        ["sim", "duels", "--count", "1", "--config", "{bad}"],
        ["run", "--sim", "--headless", "--games", "1", "--config", "{bad}"],
        ["check", "--config", "{bad}"],
        ["export", "--list"],
        ["sim", "games", "--count", "1"],
    ],
)
def test_a_file_that_is_not_utf8_is_one_line_naming_it(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe garbage")
    monkeypatch.setenv("SHOWDOWN_CONFIG", str(bad))
    monkeypatch.chdir(tmp_path)
    assert main([part.format(bad=bad) for part in argv]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "UTF-8" in err and "Traceback" not in err
    assert err.strip().count("\n") == 0
    assert bad.read_bytes() == b"\xff\xfe garbage"


def test_a_bad_environment_override_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHOWDOWN_UNIT__TIMING__TIE_WINDOW_MS", "abc")
    with pytest.raises(ConfigError) as exc:
        load_settings()
    assert "SHOWDOWN_UNIT__TIMING__TIE_WINDOW_MS" in str(exc.value)

"""Configuration: defaults work, mistakes are one line naming the file, line and setting."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showdown.app.cli import main
from showdown.app.config import ConfigError, load_settings
from showdown.app.errors import UserError
from showdown.unit.config import TimingConfig, normalise_pin


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
            ":3: unit.timing.hold_max_ms: 100 is below hold_min_ms (3000)",
        ),
        (
            "[unit.timing]\ntimeout_ms = 60000\n",
            ":2: unit.timing.timeout_ms: 60000 plus launch_wait_ms (10000) is more than the "
            "64235 ms a unit keeps its launcher armed after go",
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


TIMING_FIELDS = TimingConfig.model_fields


def _bounds(name: str) -> tuple[float, bool, float]:
    """(lowest, lowest allowed?, highest) of a timing, read from its field."""
    low, inclusive, high = -math.inf, True, math.inf
    for rule in TIMING_FIELDS[name].metadata:
        if getattr(rule, "ge", None) is not None:
            low, inclusive = rule.ge, True
        if getattr(rule, "gt", None) is not None:
            low, inclusive = rule.gt, False
        if getattr(rule, "le", None) is not None:
            high = rule.le
    return low, inclusive, high


def test_every_timing_has_a_finite_stated_range() -> None:
    for name in TIMING_FIELDS:
        low, _inclusive, high = _bounds(name)
        assert math.isfinite(low) and math.isfinite(high), name


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(value)


@given(
    st.sampled_from(sorted(set(TIMING_FIELDS) - {"beats"})),
    st.one_of(
        st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
        st.integers(-10**30, 10**30), st.sampled_from([1e300, 1e12, 2000.0, 0.0, -0.0]),
    ),
)
def test_a_timing_is_taken_exactly_when_it_is_a_finite_number_in_its_range(
    tmp_path_factory: pytest.TempPathFactory, name: str, value: float | bool | int
) -> None:
    path = tmp_path_factory.mktemp("cfg") / "t.toml"
    path.write_text(f"[unit.timing]\n# {name}\n{name} = {_toml_value(value)}\n", encoding="utf-8")
    low, inclusive, high = _bounds(name)
    in_range = (
        not isinstance(value, bool) and math.isfinite(value)
        and (value >= low if inclusive else value > low) and value <= high
    )
    try:
        settings = load_settings(path)
    except ConfigError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith(f"{path}:")
        if in_range:  # only the cross checks may refuse it (a hold, a flash longer than a beat,
            # a race and launch wait longer than the launcher's arm window, a race too short
            # to press in)
            assert ("is below hold_min_ms" in message or "is longer than" in message
                    or "keeps its launcher armed" in message
                    or "leaves no time to press" in message), message
        else:
            assert message.startswith(f"{path}:3: unit.timing.{name}: "), message
    else:
        assert in_range, f"{name} = {value!r} was taken"
        assert getattr(settings.unit.timing, name) == value


@given(st.text(max_size=200))
def test_any_text_as_a_configuration_loads_or_gives_one_line(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    path = tmp_path_factory.mktemp("cfg") / "any.toml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        load_settings(path)
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc)


@given(st.integers(1, 20_000), st.sampled_from(["[", "{ a = "]))
def test_values_nested_at_any_depth_load_or_give_one_line(
    tmp_path_factory: pytest.TempPathFactory, depth: int, opener: str
) -> None:
    closer = "]" if opener == "[" else " }"
    path = tmp_path_factory.mktemp("cfg") / "deep.toml"
    path.write_text(f"[unit.timing]\nbeats = {opener * depth}1{closer * depth}\n",
                    encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        load_settings(path)
    assert "\n" not in str(exc.value) and f"{path}:2: " in str(exc.value)


def test_a_bom_at_the_start_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes("\ufeff[unit.timing]\ntie_window_ms = 2.5\n".encode())
    assert load_settings(path).unit.timing.tie_window_ms == 2.5


@given(
    st.sampled_from(["SHOWDOWN_UNIT", "SHOWDOWN_UNIT__PINS", "SHOWDOWN_UNIT__PINS__PADDLE_LEFT",
                     "SHOWDOWN_UNIT__TIMING", "SHOWDOWN_UNIT__BEAT_TONE__PATTERN_MS",
                     "SHOWDOWN_STORAGE", "SHOWDOWN_UNIT__TIMING__BEATS"]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
            max_size=20),
)
def test_any_environment_value_loads_or_gives_one_line_naming_the_variable(
    name: str, value: str
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(name, value)
        try:
            load_settings()
        except ConfigError as exc:
            assert "\n" not in str(exc) and name in str(exc)


@given(st.sampled_from("０１２３４５６７８９٠١٢٣٤٥٦٧٨٩"), st.integers(2, 27))
def test_pin_numbers_take_ascii_digits_only(digit: str, number: int) -> None:
    with pytest.raises(ValueError, match="unknown pin name"):
        normalise_pin(f"GPIO{number}{digit}")
    with pytest.raises(ValueError, match="unknown pin name"):
        normalise_pin(f"GPIO{digit}")

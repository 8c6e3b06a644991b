"""`showdown check` when it cannot open the unit: one line, with the hint that fits the cause."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device

from showdown.app import cli

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "showdown.toml"
ON_A_PI = Path("/proc/device-tree/model").exists()


@pytest.fixture
def fresh_factory() -> Iterator[None]:
    """No pin factory chosen yet (as in a new process), and none left behind."""
    Device.pin_factory = None
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.close()
    Device.pin_factory = None


@pytest.mark.skipif(ON_A_PI, reason="a Pi has GPIO")
@pytest.mark.usefixtures("fresh_factory")
def test_no_gpio_here_is_one_line_suggesting_serial_or_the_simulator(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert cli.main(["check", "--config", str(EXAMPLE)]) == 2
    assert [w for w in seen if "PinFactoryFallback" in w.category.__name__] == []
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert "no GPIO on this machine" in err and "--serial" in err
    assert "GPIOZERO_PIN_FACTORY=mock" in err and "service running" not in err


@pytest.mark.usefixtures("fresh_factory")
def test_mock_pins_without_pwm_say_which_variable_to_set(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.delenv("GPIOZERO_MOCK_PIN_CLASS", raising=False)
    assert cli.main(["check", "--config", str(EXAMPLE)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert "GPIOZERO_MOCK_PIN_CLASS=mockpwmpin" in err and "service running" not in err


def test_a_serial_device_that_does_not_exist_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "ttyACM9"
    assert cli.main(["check", "--config", str(EXAMPLE), "--serial", str(missing)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"showdown: error: cannot open the microcontroller: {missing} does not exist (is the "
        "board plugged in? the udev rule names it /dev/showdown-unit)"
    )

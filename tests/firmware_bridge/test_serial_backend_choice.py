"""Choosing the serial back end in the configuration, and the one-line error without a Pico."""

from __future__ import annotations

from pathlib import Path

import pytest

from showdown.app.cli import main
from showdown.unit.config import UnitSettings


def test_the_serial_back_end_is_a_configuration_choice() -> None:
    settings = UnitSettings(backend="serial", serial_port="/dev/showdown-unit")
    assert (settings.backend, settings.serial_port) == ("serial", "/dev/showdown-unit")
    assert UnitSettings().backend == "gpio"


def test_run_without_a_pico_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)  # the serial back end needs no Pi
    config = tmp_path / "showdown.toml"
    config.write_text(f'[unit]\nbackend = "serial"\nserial_port = "{tmp_path / "nothing"}"\n')
    status = main(["run", "--headless", "--config", str(config), "--db", str(tmp_path / "j.db")])
    err = capsys.readouterr().err
    assert status == 2
    assert "no answer from the unit's microcontroller" in err and "Traceback" not in err

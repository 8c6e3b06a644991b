"""``deploy/install.sh --event-host``: Mosquitto under systemd with persistence on, the event
host's service, the path unit that reloads the broker; and the configuration it installs runs
on the real Mosquitto, keeping retained state across a restart."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from pydantic import SecretStr

from showdown.tournament.broker_files import BrokerFiles, acl_text
from showdown.tournament.brokers import BrokerProcess, free_port, mosquitto_binary
from showdown.tournament.client_id_plugin import build
from showdown.tournament.credentials import hash_password
from showdown.tournament.messages import Topics
from tests.deploy.test_install_scripts import INSTALL, UNINSTALL, listed, run_script, tree

EVENT_FILES = {
    "/etc/mosquitto/conf.d/showdown.conf",
    "/etc/systemd/system/mosquitto.service.d/showdown.conf",
    "/etc/systemd/system/showdown-event.service",
    "/etc/systemd/system/showdown-broker-reload.path",
    "/etc/systemd/system/showdown-broker-reload.service",
    "/etc/showdown/event.env",
    "/var/lib/showdown-event/passwords",
    "/var/lib/showdown-event/acl",
}


def test_the_event_host_adds_mosquitto_and_its_units(tmp_path: Path) -> None:
    plain = listed(run_script(INSTALL, "--dry-run", "--root", str(tmp_path)))
    lines = run_script(INSTALL, "--dry-run", "--event-host", "--root", str(tmp_path))
    assert listed(lines) - plain == EVENT_FILES
    commands = [line.removeprefix("would run: ") for line in lines if line.startswith("would")]
    assert "apt-get install -y --no-install-recommends mosquitto gcc libc6-dev" in commands
    assert any(c.endswith("-m showdown.tournament.client_id_plugin "
                          "/opt/showdown/mosquitto-client-ids.so") for c in commands)
    assert ("systemctl enable mosquitto.service showdown-broker-reload.path "
            "showdown-event.service") in commands
    assert lines[-1] == "dry run: nothing was changed"
    assert list(tmp_path.iterdir()) == []


def test_install_into_a_root_writes_the_event_files_with_their_modes(tmp_path: Path) -> None:
    real = run_script(INSTALL, "--event-host", "--root", str(tmp_path))
    assert EVENT_FILES <= tree(tmp_path) == listed(real)
    folder = tmp_path / "var/lib/showdown-event"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o2750
    assert stat.S_IMODE((folder / "passwords").stat().st_mode) == 0o640
    conf = (tmp_path / "etc/mosquitto/conf.d/showdown.conf").read_text()
    assert "allow_anonymous false" in conf and "acl_file /var/lib/showdown-event/acl" in conf
    assert "plugin /opt/showdown/mosquitto-client-ids.so" in conf
    unit = (tmp_path / "etc/systemd/system/showdown-event.service").read_text()
    assert "--broker system" in unit and "User=showdown" in unit
    assert "Requires=mosquitto.service" in unit
    # The broker's life follows the host's: stopped and restarted with it, restarted alone.
    drop_in = (tmp_path / "etc/systemd/system/mosquitto.service.d/showdown.conf").read_text()
    assert "PartOf=showdown-event.service" in drop_in and "Restart=always" in drop_in


def test_the_host_writes_group_readable_files_in_a_setgid_folder(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    os.chmod(folder, 0o2750)
    BrokerFiles(folder).write({"host": hash_password("x")}, "user host\n")
    assert stat.S_IMODE((folder / "passwords").stat().st_mode) == 0o640
    plain = BrokerFiles(tmp_path / "plain")
    plain.write({"host": hash_password("x")}, "user host\n")
    assert stat.S_IMODE(plain.passwords.stat().st_mode) == 0o600


def retained(port: int, password: str, topic: str) -> bytes | None:
    """What the broker holds retained on ``topic`` (None if nothing within 5 s)."""
    got: list[bytes] = []
    done = threading.Event()
    client = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2, client_id="host-abc123",
                         protocol=mqtt.MQTTv311)
    client.username_pw_set("host", password)
    client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
    client.on_message = lambda _c, _u, m: (got.append(bytes(m.payload)), done.set())
    client.connect("127.0.0.1", port)
    client.loop_start()
    done.wait(5)
    client.loop_stop()
    client.disconnect()
    return got[0] if got else None


@pytest.mark.skipif(mosquitto_binary() is None, reason="Mosquitto is not installed here")
def test_the_installed_configuration_keeps_retained_state_across_a_restart(
    tmp_path: Path,
) -> None:
    """Debian's persistence settings plus ours, with the paths moved into the test's folder."""
    port = free_port()
    files = BrokerFiles(tmp_path / "event")
    topics = Topics("abc123")
    files.write({"host": hash_password("pw")}, acl_text(topics, ["t1"]))
    ours = (INSTALL.parent / "mosquitto-showdown.conf").read_text()
    ours = ours.replace("/var/lib/showdown-event", str(files.folder))
    ours = ours.replace("listener 1883", f"listener {port} 127.0.0.1")
    ours = ours.replace("/opt/showdown/mosquitto-client-ids.so", str(build(tmp_path)))
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(f"persistence true\npersistence_location {tmp_path}/\n"
                    f"user {os.environ.get('USER') or 'root'}\n{ours}")
    broker = BrokerProcess("mosquitto", files, port=port, log=tmp_path / "broker.log")
    broker.command = lambda: [str(mosquitto_binary()), "-c", str(conf)]  # type: ignore[method-assign]
    broker.start()
    try:
        client = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                             client_id="host-abc123",
                             protocol=mqtt.MQTTv311)
        client.username_pw_set("host", SecretStr("pw").get_secret_value())
        client.connect("127.0.0.1", port)
        client.loop_start()
        client.publish(topics.standings, b'{"kept": true}', qos=1, retain=True).wait_for_publish(5)
        client.loop_stop()
        client.disconnect()
        broker.restart()
        assert retained(port, "pw", topics.standings) == b'{"kept": true}'
        assert retained(port, "wrong", topics.standings) is None
    finally:
        broker.stop()


def test_uninstall_removes_the_event_hosts_units_and_broker_configuration(
        tmp_path: Path) -> None:
    run_script(INSTALL, "--event-host", "--root", str(tmp_path))
    lines = run_script(UNINSTALL, "--root", str(tmp_path))
    assert ("skip (--root): systemctl disable --now showdown-event.service "
            "showdown-broker-reload.path") in lines
    assert "skip (--root): systemctl try-restart mosquitto.service" in lines
    left = tree(tmp_path)
    assert left & EVENT_FILES == {"/etc/showdown/event.env", "/var/lib/showdown-event/passwords",
                                  "/var/lib/showdown-event/acl"}  # configuration and data kept
    assert all(path.startswith(("/etc/showdown", "/var/lib/showdown")) for path in left)


def test_purge_removes_the_events_folder_too(tmp_path: Path) -> None:
    run_script(INSTALL, "--event-host", "--root", str(tmp_path))
    lines = run_script(UNINSTALL, "--purge", "--root", str(tmp_path))
    assert "remove /var/lib/showdown-event" in lines
    assert tree(tmp_path) == set()

"""One paho-mqtt client as every side of the event uses it.

MQTT 3.1.1 (the embedded broker speaks no 5), a fixed client id with ``clean_session=False`` (a
persistent session: the broker keeps the subscriptions and queues QoS 1 messages while the
client is away), a last will, and paho's own reconnection with a bounded back-off. paho calls
back on its network thread; :class:`Connection` only records whether it is connected and hands
every message to one handler.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode
from pydantic import BaseModel, SecretStr

from showdown.tournament.messages import to_payload

__all__ = ["Connection", "Will"]

log = logging.getLogger(__name__)

Handler = Callable[[str, bytes], None]


class Will(BaseModel):
    """The message the broker publishes for a client that vanishes."""

    topic: str
    payload: bytes
    retain: bool = True


class Connection:
    """A connected paho client (see the module docstring); :meth:`start` returns at once."""

    def __init__(
        self,
        *,
        client_id: str,
        username: str,
        password: SecretStr,
        host: str,
        port: int,
        on_message: Handler,
        subscriptions: list[str],
        on_connect: Callable[[], None] | None = None,
        on_disconnect: Callable[[], None] | None = None,
        will: Will | None = None,
        keepalive: int = 30,
        clean: bool = False,
    ) -> None:
        self.host, self.port, self.keepalive = host, port, keepalive
        self.subscriptions = subscriptions
        self._on_message = on_message
        self._on_connect = on_connect
        self._on_disconnect = on_disconnect
        """Told when the link drops (what a screen shows of the event is news no more)."""
        self.connected = threading.Event()
        self.refused: str | None = None
        """Why the broker last refused the connection (bad credentials), if it did."""
        self.answered = threading.Event()
        """Set once the broker answered a connection attempt, accepting it or not."""
        self.client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2, client_id=client_id,
            clean_session=clean, protocol=mqtt.MQTTv311)
        self.client.username_pw_set(username, password.get_secret_value())
        self.client.reconnect_delay_set(min_delay=1, max_delay=5)
        self.client.max_inflight_messages_set(100)
        if will is not None:
            self.client.will_set(will.topic, will.payload, qos=1, retain=will.retain)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_message = self._message

    def start(self) -> None:
        """Connect in the background (and again whenever the link drops)."""
        self.client.connect_async(self.host, self.port, keepalive=self.keepalive)
        self.client.loop_start()

    def stop(self, last: tuple[str, BaseModel] | None = None) -> None:
        """Publish ``last`` (a goodbye status) if connected, then disconnect cleanly."""
        try:
            if last is not None and self.connected.is_set():
                info = self.client.publish(last[0], to_payload(last[1]), qos=1, retain=True)
                info.wait_for_publish(timeout=2)
        except (RuntimeError, ValueError) as error:  # the link went down meanwhile
            log.info("the goodbye to %s:%d was not sent: %s", self.host, self.port, error)
        finally:
            self.client.disconnect()
            self.client.loop_stop()  # always: a network thread left behind would reconnect

    def publish(self, topic: str, message: BaseModel, *, retain: bool = False) -> None:
        """Publish with QoS 1 (paho queues it while the link is down)."""
        self.client.publish(topic, to_payload(message), qos=1, retain=retain)

    def _connected(self, client: mqtt.Client, _userdata: object, _flags: object,
                   reason: ReasonCode, _properties: object) -> None:
        if reason.is_failure:
            self.refused = str(reason)
            log.warning("the broker at %s:%d refused the connection: %s", self.host, self.port,
                        reason)
            self.answered.set()
            return
        self.refused = None
        for topic in self.subscriptions:
            client.subscribe(topic, qos=1)
        self.connected.set()
        self.answered.set()
        if self._on_connect is not None:
            self._on_connect()

    def _disconnected(self, _client: mqtt.Client, _userdata: object, _flags: object,
                      reason: ReasonCode, _properties: object) -> None:
        if self.connected.is_set():
            log.info("lost the broker at %s:%d (%s); reconnecting", self.host, self.port, reason)
            self.connected.clear()
            if self._on_disconnect is not None:
                self._on_disconnect()
        self.connected.clear()

    def _message(self, _client: mqtt.Client, _userdata: object,
                 message: mqtt.MQTTMessage) -> None:
        try:
            self._on_message(message.topic, bytes(message.payload))
        except Exception:  # one bad message must not stop the network thread
            log.exception("handling a message on %s failed", message.topic)

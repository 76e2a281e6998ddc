"""The ports the tests hand to the servers they start beside the emulator (a bot's game pages,
a PostgreSQL cluster): free, and never from the range the system takes outgoing connections'
ports from, where a port found free could be taken by a connection the moment after."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from fakediscord import runner
from fakediscord.runner import free_port


def test_a_free_port_is_below_the_outgoing_range_and_can_be_bound() -> None:
    outgoing = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    ports = {free_port() for _ in range(20)}
    assert all(runner._LOWEST <= port < outgoing for port in ports), ports
    assert len(ports) > 1, "picked at random, not the same each time"
    with socket.socket() as server:
        server.bind(("127.0.0.1", ports.pop()))


def test_a_port_taken_is_passed_over(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    outgoing = tmp_path / "ip_local_port_range"
    outgoing.write_text("65000\t65535\n")
    monkeypatch.setattr(runner, "_OUTGOING", outgoing)
    with socket.socket() as taken, socket.socket() as other:
        taken.bind(("127.0.0.1", 0))
        other.bind(("127.0.0.1", 0))
        free = other.getsockname()[1]
        other.close()
        picks = iter([taken.getsockname()[1], free])
        monkeypatch.setattr(runner._PICK, "randrange", lambda low, high: next(picks))
        assert free_port() == free

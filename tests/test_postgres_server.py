"""The tests' PostgreSQL server (tests.helpers.postgres): reached through its Unix socket by the
URLs the tests are given, through TCP by ``tcp_url``, and its CPU read from its processes."""

from __future__ import annotations

import asyncpg

from tests.helpers.postgres import PostgresServer


async def test_the_tests_reach_the_server_through_its_socket_and_its_cpu_is_read(
    postgres_server: PostgresServer,
) -> None:
    url, tcp = postgres_server.url(), postgres_server.tcp_url()
    assert f"host={postgres_server.folder}" in url and "127.0.0.1" not in url
    before = postgres_server.cpu()
    assert before is not None and before > 0
    for where, through in ((url, "unix"), (tcp, "tcp")):
        connection = await asyncpg.connect(where)
        try:
            # The server says how its own backend was reached: no client address on a socket.
            address = await connection.fetchval("SELECT inet_client_addr()")
            assert (address is None) == (through == "unix"), (through, address)
            await connection.fetch("SELECT count(*) FROM generate_series(1, 2000000)")
        finally:
            await connection.close()
    after = postgres_server.cpu()
    assert after is not None and after > before

"""One live connection to an MCP server, through the official SDK's ``Client``, on the
domain's own loop (``_loop``): started on first use, restarted after the server died.

    Connection(server)                       a ServerSpec: stdio command or HTTP URL
      └─ open() ─▶ an owner task enters ``mcp.Client`` over the transport (stdio: the
                   server's stderr goes to a temporary file, read back by ``stderr_tail``)
                   and holds it until ``close()``; the read stream is watched, so a server
                   that died is known (``alive``) without a call
      └─ call_tool(name, arguments, on_progress) ─▶ the SDK's CallToolResult, or raises
      └─ close()  ─▶ the owner leaves ``Client`` (the SDK stops the server: stdin closed,
                   then SIGTERM, then SIGKILL), the stderr file is dropped

Everything here runs on the domain's loop; nothing here touches the kernel's.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import tempfile
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: How much of the server's stderr is kept for an error message (the last lines of it).
STDERR_LINES = 12
STDERR_LINE_CHARS = 300
_STDERR_BYTES = 16_384
#: Pages of ``tools/list`` followed at most.
MAX_PAGES = 20


@dataclass(frozen=True)
class ServerSpec:
    """How to reach a server: ``command`` (stdio) or ``url`` (streamable HTTP)."""

    name: str
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] | None = None
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] | None = field(default=None, repr=False)
    allow_sampling: bool = False
    #: The SDK's ``Client(mode=…)``: 'legacy' (the initialize handshake, where a server may
    #: ask questions over the same connection), 'auto', or a modern protocol version.
    mode: str = "legacy"


class _Watched:
    """A transport's read stream that notes when it ends (the server closed or died)."""

    def __init__(self, stream: Any, ended: Callable[[], None]) -> None:
        self._stream, self._ended = stream, ended

    def __getattr__(self, name: str) -> Any:  # last_context and the like
        return getattr(self._stream, name)

    async def receive(self) -> Any:
        try:
            return await self._stream.receive()
        except Exception:
            self._ended()
            raise

    def __aiter__(self) -> _Watched:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self._stream.__anext__()
        except (StopAsyncIteration, Exception):
            self._ended()
            raise

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def __aenter__(self) -> _Watched:
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        self._ended()
        return await self._stream.__aexit__(*exc)


def _callbacks(spec: ServerSpec, ask: Any) -> dict[str, Any]:
    """The elicitation and sampling callbacks (``_elicit``), bound to this server and to
    ``ask`` (the ask seam, or None: nobody to ask)."""
    from ._elicit import elicitation_callback, sampling_callback

    return {
        "elicitation_callback": functools.partial(elicitation_callback, spec.name, ask=ask),
        "sampling_callback": functools.partial(sampling_callback, spec.name,
                                               spec.allow_sampling, ask=ask),
    }


class Connection:
    """One session with the server (see the header). Use on the domain's loop only."""

    def __init__(self, spec: ServerSpec, ask: Any = None) -> None:
        self.spec = spec
        self._ask = ask
        self.client: Any = None
        self._ended = False
        self._stderr: Any = None
        self._stop: asyncio.Event | None = None
        self._owner: asyncio.Task[None] | None = None

    @property
    def alive(self) -> bool:
        """Open, and its server has not gone away."""
        return self.client is not None and not self._ended and not (
            self._owner is not None and self._owner.done())

    def _note_end(self) -> None:
        self._ended = True

    @contextlib.asynccontextmanager
    async def _transport(self) -> AsyncIterator[Any]:
        spec = self.spec
        if spec.url is not None:
            import httpx2
            from mcp.client.streamable_http import streamable_http_client
            from mcp.shared._httpx_utils import create_mcp_http_client

            http: httpx2.AsyncClient = create_mcp_http_client(headers=dict(spec.headers or {}))
            async with http, streamable_http_client(spec.url, http_client=http) as (read, write):
                yield _Watched(read, self._note_end), write
            return
        from mcp.client.stdio import StdioServerParameters, stdio_client

        assert spec.command is not None
        params = StdioServerParameters(command=spec.command, args=list(spec.args),
                                       env=dict(spec.env) if spec.env else None, cwd=spec.cwd)
        async with stdio_client(params, errlog=self._stderr) as (read, write):
            yield _Watched(read, self._note_end), write

    async def open(self) -> None:
        """Start the server (stdio) or reach it (HTTP), and make the handshake."""
        from mcp import Client

        if self.spec.command is not None:
            self._stderr = tempfile.TemporaryFile(  # noqa: SIM115 - closed by release()
                "w+", encoding="utf-8", errors="replace")
        self._stop = asyncio.Event()
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def own() -> None:
            try:
                async with Client(self._transport(), mode=self.spec.mode,
                                  **_callbacks(self.spec, self._ask)) as client:
                    self.client = client
                    ready.set_result(None)
                    assert self._stop is not None
                    await self._stop.wait()
            except BaseException as error:
                if not ready.done():
                    ready.set_exception(error if isinstance(error, Exception)
                                        else ConnectionError("the connection was cancelled"))
                if not isinstance(error, Exception):
                    raise
            finally:
                self.client = None
                self._ended = True

        self._owner = asyncio.ensure_future(own())
        try:
            await asyncio.shield(ready)
        except BaseException:
            await self.close()  # the stderr file stays, for the error message
            raise

    async def list_tools(self) -> list[Any]:
        """Every tool the server lists (``MAX_PAGES`` pages at most)."""
        tools: list[Any] = []
        cursor = None
        for _ in range(MAX_PAGES):
            page = await self.client.list_tools(cursor=cursor)
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                break
        return tools

    async def call_tool(self, name: str, arguments: dict[str, Any], *, timeout: float | None,
                        on_progress: Callable[[float, float | None, str | None], None] | None,
                        ) -> Any:
        """The SDK's ``CallToolResult``; raises what the SDK raises (``MCPError``, …)."""
        progress = None
        if on_progress is not None:
            async def progress(done: float, total: float | None, message: str | None) -> None:
                on_progress(done, total, message)

        return await self.client.call_tool(name, arguments, read_timeout_seconds=timeout,
                                           progress_callback=progress)

    async def close(self) -> None:
        """Leave the session (the SDK stops a stdio server). Idempotent; the stderr file
        stays readable until ``release``."""
        if self._stop is not None:
            self._stop.set()
        if self._owner is not None and not self._owner.done():
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(self._owner), 8.0)

    def release(self) -> None:
        """Drop the server's stderr file (after ``close``)."""
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr (stdio), each cut short; '' for none."""
        handle = self._stderr
        if handle is None:
            return ""
        try:
            descriptor = handle.fileno()
            size = os.fstat(descriptor).st_size
            start = max(0, size - _STDERR_BYTES)
            raw = os.pread(descriptor, size - start, start)  # never moves the server's offset
        except (OSError, ValueError):
            return ""
        lines = raw.decode("utf-8", "replace").splitlines()[-STDERR_LINES:]
        return "\n".join(line[:STDERR_LINE_CHARS] for line in lines if line.strip())

"""MCP servers' tools as a DIAL domain, through the official ``mcp`` SDK (the ``mcp`` extra).

``McpDomain.stdio(command, args)`` or ``McpDomain.http(url)``: each tool an action whose
card the person decides; annotations are the server's hints, trusted only when the person
says so (``trust_annotations``, ``read_only``, ``destructive``). See ``_domain`` for the
whole life of a call.
"""

from ._domain import McpDomain, McpServerError

__all__ = ["McpDomain", "McpServerError"]

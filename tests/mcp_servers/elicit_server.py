"""An MCP server (the official SDK's ``MCPServer``, over stdio) whose tools ask the client.

Run as a script by tests/unit/test_mcp_elicit.py: each tool puts one ``elicitation/create``
(form or URL mode) or ``sampling/createMessage`` request to the client and returns, as text,
what the client answered, so the test can read the answer the server actually received.

    book_table  form mode, a flat schema of every kind: text, integer, number, yes/no, a choice
    sign_in     URL mode: an https address to open out of band
    nested      form mode with a nested object (the client must refuse it)
    summarise   sampling: asks the client's model to write a message
"""

from __future__ import annotations

import json
import warnings
from typing import Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.types import SamplingMessage, TextContent
from pydantic import BaseModel, Field

# sampling is deprecated in the protocol's next version; this server still asks, to test refusals
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

server = MCPServer("elicit-server")


class Booking(BaseModel):
    name: str = Field(title="Your name")
    guests: int = Field(title="How many guests?", ge=1, le=12)
    budget: float = Field(title="Budget per person", description="In euros.")
    vegetarian: bool = Field(title="Vegetarian menu?")
    seating: Literal["inside", "terrace"] = Field(title="Where to sit?")


@server.tool()
async def book_table(ctx: Context) -> str:
    """Ask the person for a booking's details and say what came back."""
    result = await ctx.elicit("Tell me about your booking.", schema=Booking)
    data = result.data.model_dump() if result.action == "accept" else None
    return json.dumps({"action": result.action, "data": data}, sort_keys=True)


@server.tool()
async def sign_in(ctx: Context) -> str:
    """Ask the person to sign in on a web page (URL mode)."""
    result = await ctx.elicit_url("Sign in to the booking service.",
                                  "https://example.com/sign-in?session=42", "sign-in-1")
    return json.dumps({"action": result.action})


@server.tool()
async def nested(ctx: Context) -> str:
    """Send a form with a nested object, which a client must refuse; say how it was refused."""
    schema = {"type": "object", "properties": {
        "address": {"type": "object", "properties": {"city": {"type": "string"}}}}}
    try:
        result = await ctx.request_context.session.elicit_form("Where do you live?", schema)
    except Exception as error:  # the client's ErrorData arrives as an MCPError
        return json.dumps({"error": str(error)})
    return json.dumps({"action": result.action})


@server.tool()
async def summarise(ctx: Context) -> str:
    """Ask the client's model for a summary (sampling); say what came back or why not."""
    message = SamplingMessage(role="user", content=TextContent(type="text", text="Summarise: hi"))
    try:
        result = await ctx.request_context.session.create_message([message], max_tokens=50)
    except Exception as error:
        return json.dumps({"error": str(error)})
    return json.dumps({"text": getattr(result.content, "text", None), "model": result.model})


if __name__ == "__main__":
    server.run("stdio")

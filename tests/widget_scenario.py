"""The conversation the kernel and browser tests play: an agent that answers the
person's words by rule (replies are DIAL XML strings), and the real notes domain. The file is pasted into a notebook cell as it is, so it imports only what a
notebook has."""

from __future__ import annotations

import asyncio
import json

from dial_notebook.domains.notes import NotesDomain

XSS = [
    "<img src=x onerror=\"window.__xss=1\">",
    "<svg onload=\"window.__xss=2\"></svg>",
    "<iframe srcdoc=\"<script>parent.__xss=3</script>\"></iframe>",
    "<a href=\"javascript:window.__xss=4\">click</a>",
    "<details open ontoggle=\"window.__xss=5\">",
]


def notes_domain() -> NotesDomain:
    """The real notes domain, with two notes to start with (ids 1 and 2)."""
    return NotesDomain(["buy milk", "call Sam"])


def _dial(*elements: str) -> str:
    return "<dial version=\"0.1\" actor=\"agent\">" + "".join(elements) + "</dial>"


def _esc(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _payload(value: object) -> str:
    return f"<dial-payload type=\"application/json\">{_esc(json.dumps(value))}</dial-payload>"


class RuleAgent:
    """Replies by rule to the person's words (the message's last paragraph)."""

    def __init__(self, slow_seconds: float = 4.0) -> None:
        self.messages: list[str] = []
        self.slow_seconds = slow_seconds
        self.slow_once = True

    async def send(self, message: str) -> str:
        self.messages.append(message)
        spoken = [part for part in message.split("\n\n") if not part.startswith("<")]
        words = spoken[-1].strip() if spoken else ""
        if not words:
            return _dial("<dial-acknowledge>Noted.</dial-acknowledge>")
        verb, _, rest = words.partition(" ")
        if verb == "add":
            return _dial(
                f"<dial-suggest id=\"add-{_esc(rest)}\" action=\"add-note\">"
                f"Shall I add \u201c{_esc(rest)}\u201d?{_payload({'text': rest})}</dial-suggest>")
        if verb == "remove":
            return _dial(
                f"<dial-suggest id=\"remove-{_esc(rest)}\" action=\"remove-note\">"
                f"This cannot be undone from here.{_payload({'id': int(rest)})}</dial-suggest>")
        if words == "list":
            return _dial(f"<dial-suggest id=\"list\" action=\"list-notes\">{_payload({})}"
                         "</dial-suggest>")
        if words == "poll":
            poll = {"question": "Lunch?", "options": ["pizza", "salad"]}
            return _dial(f"<dial-suggest id=\"poll\" action=\"open-poll\">{_payload(poll)}"
                         "</dial-suggest>")
        if words == "ask":
            return _dial(
                "<dial-ask id=\"list\" response-type=\"choice\">Which list should I use?"
                "<dial-option value=\"home\" default=\"true\">Home</dial-option>"
                "<dial-option value=\"work\">Work</dial-option>"
                "<dial-option value=\"archive\" disabled=\"true\">Archive</dial-option>"
                "</dial-ask>"
                "<dial-ask id=\"why\" response-type=\"text\">Anything I should know?</dial-ask>")
        if words in ("confirm", "number", "file"):
            question = {"confirm": "Clear the whole list?", "number": "How many notes to keep?",
                        "file": "Send me the file to import."}[words]
            return _dial(f"<dial-ask response-type=\"{words}\">{question}</dial-ask>")
        if words == "slow":
            if self.slow_once:
                self.slow_once = False
                await asyncio.sleep(self.slow_seconds)
            return _dial("<dial-inform>Sorry for the wait \u2014 I'm here now.</dial-inform>")
        if words == "show":
            rows = [{"note": f"note {i}", "priority": i % 3, "score": i * 1.5} for i in range(320)]
            return _dial(
                f"<dial-inform render=\"table\">Your notes:{_payload(rows)}</dial-inform>",
                "<dial-inform render=\"code\">print(\"hello\")\nfor n in notes: pass</dial-inform>",
                "<dial-inform render=\"card-list\">Top picks:"
                f"{_payload([{'title': 'Milk', 'price': 1.2}, {'title': 'Eggs', 'price': 3}])}"
                "</dial-inform>",
                "<dial-inform render=\"media\">A picture:"
                f"{_payload({'src': 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', 'alt': 'dot'})}"
                "</dial-inform>")
        if words == "xss":
            text = " ".join(XSS)
            media = [{"src": "javascript:window.__xss=6", "alt": XSS[0]}, "java\tscript:x"]
            cards = [{"title": XSS[1], "url": "javascript:window.__xss=7"}]
            return (text + _dial(
                f"<dial-inform>{_esc(text)}</dial-inform>",
                f"<dial-inform render=\"media\">{_esc(text)}"
                f"{_payload(media)}"
                "</dial-inform>",
                f"<dial-inform render=\"card-list\">x{_payload(cards)}"
                "</dial-inform>",
                f"<dial-inform render=\"table\">t{_payload([{XSS[2]: XSS[3]}])}</dial-inform>",
                f"<dial-suggest id=\"xss\" action=\"add-note\">{_esc(XSS[3])}"
                f"{_payload({'text': XSS[0]})}</dial-suggest>",
                f"<dial-ask response-type=\"choice\">{_esc(XSS[0])}"
                f"<dial-option value=\"{_esc(XSS[1])}\">{_esc(XSS[4])}</dial-option></dial-ask>"))
        return _dial(f"<dial-inform>You said: {_esc(words)}</dial-inform>")

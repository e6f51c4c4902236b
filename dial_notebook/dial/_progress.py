"""A reply as it is being written, in words a person can read: so no surface parses DIAL.

An agent that streams hands its reply over piece by piece. ``Progress`` reads the pieces as
they come and says, at any moment, what a person could already read — never raw markup:

    prose     the text outside the envelope, and the text of the informs and
              acknowledgements written so far (entities decoded, whitespace tidied)
    writing   what the agent is writing now, when it is inside another element:
              "proposing: add-note", "asking a question", "writing commands to run",
              "noting a fact", "handing over to billing", or None

It is incremental (each piece is read once; a tag cut between two pieces waits for its end)
and tolerant (unknown tags, stray ``<`` and ``&`` are text): it only describes, the complete
reply is parsed as usual when it has arrived.

    >>> progress = Progress()
    >>> progress.feed('Sure.\\n<dial version="0.1" actor="agent"><dial-inform>Adding')
    >>> progress.prose, progress.writing
    ('Sure.\\n\\nAdding', None)
    >>> progress.feed(' it.</dial-inform><dial-suggest action="add-note"><dial-payl')
    >>> progress.prose, progress.writing
    ('Sure.\\n\\nAdding it.', 'proposing: add-note')
"""

from __future__ import annotations

import html
import re

_TAG = re.compile(r"<(/?)([A-Za-z][\w.:-]*)((?:[^<>\"']|\"[^\"]*\"|'[^']*')*)(/?)>")
_ATTRIBUTE = re.compile(r"([\w:-]+)\s*=\s*(\"[^\"]*\"|'[^']*')")
#: A tag that is not closed yet may not run on for ever: past this it is text.
_LONGEST_TAG = 4096
#: Longer than any character reference (``&CounterClockwiseContourIntegral;`` is 33): a tail
#: from an '&' longer than this decodes the same now as with whatever follows.
_LONGEST_ENTITY = 40
#: Elements whose text is for the person.
_SHOWN = frozenset({"dial-inform", "dial-acknowledge"})
#: Elements whose text is not: a payload, the commands of a step, options …
_HIDDEN = frozenset({"dial-payload", "step", "dial-option", "dial-context"})


def _attributes(text: str) -> dict[str, str]:
    return {name: html.unescape(value[1:-1]) for name, value in _ATTRIBUTE.findall(text)}


#: The longest name (an action, an actor) said in ``writing``.
_LONGEST_NAME = 60


def _name(attributes: dict[str, str], key: str) -> str:
    """An attribute the agent wrote, as a short name on one line."""
    name = " ".join(attributes.get(key, "").split())
    return name if len(name) <= _LONGEST_NAME else name[:_LONGEST_NAME - 1] + "…"


def _writing(tag: str, attributes: dict[str, str]) -> str | None:
    """What writing element ``tag`` means, in words."""
    if tag == "dial-suggest":
        action = _name(attributes, "action")
        return f"proposing: {action}" if action else "proposing an action"
    if tag == "dial-ask":
        return "asking a question"
    if tag == "dial-execute":
        return "writing commands to run"
    if tag == "dial-declare":
        return "noting a fact"
    if tag == "dial-delegate":
        to = _name(attributes, "to")
        return f"handing over to {to}" if to else "handing over"
    return None


class Progress:
    """The readable state of a reply being written; ``feed`` it each piece."""

    def __init__(self) -> None:
        self._text = ""  # what is not read yet: at most the beginning of a tag
        self._pos = 0
        self._inside = False  # inside a <dial> envelope
        #: The open DIAL elements, innermost last, each with what it means in words (or None).
        self._stack: list[tuple[str, str | None]] = []
        self._pieces: list[str] = []  # readable text, in order, each tidied
        #: the readable text being added to now: decoded as far as it can be (an entity may
        #: still be cut at the end), then the undecoded rest (from its last '&', a few
        #: characters): each character is decoded once, whatever the number of pieces
        self._current: list[str] = []
        self._tail = ""
        self._escaped = False  # whether the current text is XML (inside the envelope)
        self._skipping = False  # inside a tag too long to read, until its '>'

    @property
    def prose(self) -> str:
        """What a person can read of the reply so far."""
        current = self._readable().strip()
        return "\n\n".join([*self._pieces, current] if current else self._pieces)

    @property
    def writing(self) -> str | None:
        """What the agent is writing now, when it is inside an element not for reading."""
        return next((meaning for _, meaning in self._stack if meaning), None)

    def feed(self, piece: str) -> None:
        """Read the next piece of the reply."""
        self._text += piece
        text = self._text
        while self._pos < len(text):
            if self._skipping:  # the rest of a tag too long to be read: never shown
                end = text.find(">", self._pos)
                self._pos = len(text) if end < 0 else end + 1
                self._skipping = end < 0
                continue
            start = text.find("<", self._pos)
            if start < 0:
                self._add(text[self._pos:])
                self._pos = len(text)
                break
            self._add(text[self._pos:start])
            self._pos = start
            match = _TAG.match(text, start)
            if match is None:
                follows = text[start + 1:start + 2]
                could_be_tag = follows == "" or follows.isalpha() or follows in "/?!"
                if could_be_tag and text.find(">", start) < 0 and \
                        len(text) - start <= _LONGEST_TAG:
                    break  # a tag still being written: wait for the rest
                if could_be_tag and self._inside:
                    self._skipping = True  # markup too long to read, in the envelope: hidden
                    self._pos = start + 1
                    continue
                self._add("<")  # a stray '<': text
                self._pos = start + 1
                continue
            self._tag(match)
            self._pos = match.end()
        self._text = self._text[self._pos:]  # keep only what is not read yet (a cut tag)
        self._pos = 0

    def _shown(self) -> bool:
        """Whether text here is for the person to read."""
        if not self._inside:
            return True
        return bool(self._stack) and self._stack[-1][0] in _SHOWN

    def _add(self, text: str) -> None:
        if not (text and self._shown()):
            return
        self._escaped = self._inside  # the same for all of one current text (see _tag)
        if not self._escaped:
            self._current.append(text)
            return
        # Entities are decoded once: everything before the last '&' is final (an entity
        # never spans an '&'); the rest waits, unless it is too long to be an entity's start.
        text = self._tail + text
        cut = text.rfind("&")
        if cut < 0 or len(text) - cut > _LONGEST_ENTITY:
            self._current.append(html.unescape(text))
            self._tail = ""
            return
        if cut:
            self._current.append(html.unescape(text[:cut]))
        self._tail = text[cut:]

    def _readable(self) -> str:
        """The current text, entities decoded when it is XML (one cut at the end, between two
        pieces, decoded as it stands)."""
        return "".join(self._current) + (html.unescape(self._tail) if self._tail else "")

    def _break(self) -> None:
        readable = self._readable().strip()
        if readable:
            self._pieces.append(readable)
        self._current = []
        self._tail = ""

    def _tag(self, match: re.Match[str]) -> None:
        closing, name, attributes, empty = match.groups()
        if name == "dial":
            self._break()
            self._inside = not closing and not empty
            self._stack.clear()
            return
        if not self._inside:
            self._add(match.group(0))  # markup outside the envelope is the agent's text
            return
        if not (name.startswith("dial-") or name == "step") or empty:
            return
        if name in _SHOWN:
            self._break()
        if closing:
            names = [open_name for open_name, _ in self._stack]
            if name in names:
                del self._stack[len(names) - 1 - names[::-1].index(name):]
            return
        meaning = None if name in _SHOWN or name in _HIDDEN else _writing(
            name, _attributes(attributes))
        self._stack.append((name, meaning))

"""Who made a session file: a signature with the person's own Jupyter secret, as Jupyter signs
notebooks (``nbformat.sign.NotebookNotary``: an HMAC keyed with ``notebook_secret`` in the
Jupyter data directory, made there, readable only by its owner, the first time it is needed).

    signed(text)   the JSON object ``text`` ─▶ the same text ending ``,"signature":"sha256:…"}``,
                   the HMAC of everything before it (closed with ``}``)
    verify(text)   ─▶ True only when the text ends with such a signature and it is this user's;
                   an unsigned, edited or foreign file ─▶ False (it opens read-only)

A session file saved by appending (JSON Lines, ``_session_file.py``) is signed the same way,
line by line, the HMAC chained over every byte before each signature line (an HMAC's state is
copied, so a save signs only what it adds)::

    new_mac()                 ─▶ an HMAC keyed with this user's secret, fed every byte written
    signature_line(mac)       ─▶ the line {"signature":"sha256:…"}, the HMAC of all bytes so far
    verify_line(body, line)   ─▶ True only when ``line`` is that signature of exactly ``body``

The signature covers the file's exact bytes (no re-serialising, so nothing can differ between
what was signed and what is read): any change anywhere, or a file signed with another secret,
fails. Nothing here decides what an untrusted file may do; ``_snapshot.py`` reads it, the
surface shows it read-only until the person trusts it (which signs it again, with this
user's secret).

    >>> text = signed('{"a":1}', secret=b"k")
    >>> text.startswith('{"a":1,"signature":"sha256:'), verify(text, secret=b"k")
    (True, True)
    >>> verify(text.replace("1", "2", 1), secret=b"k"), verify(text, secret=b"other")
    (False, False)
    >>> mac = new_mac(secret=b"k")
    >>> mac.update(b'{"a":1}')
    >>> verify_line(b'{"a":1}', signature_line(mac), secret=b"k")
    True
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re

#: The key the signature is kept under, last in the file's object.
KEY = "signature"
_TAIL = re.compile(r',"signature":"([a-z0-9_]{1,20}):([0-9a-f]{16,256})"\}\s*\Z')
_LINE = re.compile(rb'\{"signature":"([a-z0-9_]{1,20}):([0-9a-f]{16,256})"\}\n?\Z')
_LONGEST_TAIL = 400  # ',"signature":"<algorithm>:<digest>"}' and trailing space, at most
_SECRETS: dict[str, tuple[bytes, str]] = {}


def _tail(text: str) -> re.Match[str] | None:
    """The signature at the end of ``text`` (only its end is searched)."""
    return _TAIL.search(text, max(0, len(text) - _LONGEST_TAIL))


def _notary_secret() -> tuple[bytes, str]:
    """The user's notebook secret and its algorithm (nbformat's notary; cached per data dir)."""
    place = os.environ.get("JUPYTER_DATA_DIR", "")
    known = _SECRETS.get(place)
    if known is None:
        from nbformat.sign import NotebookNotary

        # an in-memory store: only the secret is used, no notebook signature is recorded
        with NotebookNotary(db_file=":memory:") as notary:
            known = (bytes(notary.secret), str(notary.algorithm))
        _SECRETS[place] = known
    return known


def _digest(body: str, secret: bytes | None, algorithm: str | None) -> tuple[str, str]:
    if secret is None:
        secret, found = _notary_secret()
        algorithm = algorithm or found
    algorithm = algorithm or "sha256"
    if algorithm not in hashlib.algorithms_guaranteed or algorithm.startswith("shake_"):
        raise ValueError(f"signature algorithm {algorithm!r} is not one HMAC can use")
    return algorithm, hmac.new(secret, body.encode("utf-8"), algorithm).hexdigest()


def signed(text: str, *, secret: bytes | None = None) -> str:
    """The JSON object ``text`` with this user's signature as its last key (see the header).
    ``secret``: for tests and examples; by default the user's Jupyter notebook secret."""
    body = text.rstrip()
    if not body.endswith("}") or body.lstrip() == "{}" or _tail(body):
        raise ValueError("only a non-empty, unsigned JSON object can be signed")
    algorithm, digest = _digest(body, secret, None)
    return f'{body[:-1]},"{KEY}":"{algorithm}:{digest}"}}'


def verify(text: str, *, secret: bytes | None = None) -> bool:
    """Whether ``text`` carries a signature made with this user's secret over all of it."""
    found = _tail(text)
    if found is None:
        return False
    body = text[:found.start()] + "}"
    algorithm, claimed = found.group(1), found.group(2)
    # the user's own algorithm only: a file does not choose how it is checked
    if algorithm != (_notary_secret()[1] if secret is None else "sha256"):
        return False
    try:
        _, digest = _digest(body, secret, algorithm)
    except ValueError:
        return False
    return hmac.compare_digest(digest, claimed)


def user_key(secret: bytes | None) -> tuple[bytes, str]:
    """The secret and algorithm a signature is made and checked with: this user's own (a
    ``secret`` given: for tests and examples, with sha256)."""
    return _notary_secret() if secret is None else (secret, "sha256")


def new_mac(*, secret: bytes | None = None) -> hmac.HMAC:
    """An HMAC keyed with this user's secret, to be fed a session file's bytes as written."""
    key, algorithm = user_key(secret)
    return hmac.new(key, digestmod=algorithm)


def signature_line(mac: hmac.HMAC) -> bytes:
    """The line that signs every byte ``mac`` was fed (``mac`` itself is not changed)."""
    return b'{"%s":"%s:%s"}\n' % (KEY.encode(), mac.name.removeprefix("hmac-").encode(),
                                  mac.hexdigest().encode())


def verify_line(body: bytes | memoryview, line: bytes, *, secret: bytes | None = None) -> bool:
    """Whether ``line`` is this user's signature of exactly ``body`` (the bytes before it)."""
    found = _LINE.match(line)
    if found is None:
        return False
    key, algorithm = user_key(secret)
    if found.group(1).decode() != algorithm:  # a file does not choose how it is checked
        return False
    digest = hmac.new(key, body, algorithm).hexdigest()
    return hmac.compare_digest(digest.encode(), found.group(2))

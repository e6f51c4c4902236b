"""The person in the browser: what the widget asks them, and what their clicks do.

The widget is the conversation's human. ``decide`` and ``answer`` put what the person is asked
in the synced ``pending`` trait (a reloaded view shows the same card, still answerable) and
return futures that the front end's messages resolve (see ``_bridge``). A click travels as a
custom message carrying the token of what it answers; a message for a card that no longer
waits (stale, or repeated) is ignored.

    decide(suggestion) ──▶ pending = {kind: 'decide', token, id, issue, errors} ──▶ click
    answer(ask)        ──▶ pending = {kind: 'answer', token, index, options}     ──▶ click
    {type: 'decide', token, decision, reason?, comments?} ──▶ accept | dismiss | edit
    {type: 'answer', token, value | file} ──▶ the answer (a confirm takes only yes or no)
    on a card, "Always allow like this…" ─▶ 'rule-draft' (what would it accept?) ─▶ 'allow'
        (saved, and the card accepted with it); 'dry-run' ─▶ the edited payload's dry run
    say, retry, stop, undo, revoke, confirm-rule, trust ─▶ the widget's own methods
    ping ─▶ pong (the kernel still holds this widget); sync ─▶ the whole transcript, once
    read-only (``untrusted``) ─▶ only ping, sync and trust are heard; a say is told why not

Messages can arrive on a kernel subshell thread: each is handled on the widget's loop.
``ChatWidget`` mixes ``PersonInBrowser`` in.
"""

from __future__ import annotations

from typing import Any

import traitlets

from dial_notebook.runtime import MAX_COMMENTS, SnapshotError, read_comment

from ._chat_traffic import running_loop
from ._human import ASK_FIELDS, SUGGESTION_FIELDS, as_dict, issue_of, options_of
from ._rules import draft_answer
from ._serialise import json_safe
from ._session import untrusted_message

_MAX_UPLOAD = 50 * 1024 * 1024


class PersonInBrowser(traitlets.HasTraits):
    """The human half of ``ChatWidget``: ``decide`` and ``answer`` (called by the runtime),
    and the front end's messages. Uses the widget's ``pending``, ``untrusted``, ``rules``,
    ``running`` and ``transcript`` traits, its ``files``, the state its constructor sets
    (``_bridge``, ``_tokens``, ``_loop``, ``_outbox``) and its methods (``say``, ``retry``,
    ``stop``, ``undo``, ``trust``, ``allow``, ``confirm``, ``revoke``, ``_start``,
    ``_dry_run``, ``_use_loop``, ``_append``, ``_append_person``, ``_changed``)."""

    # ---- the human the runtime calls ------------------------------------------------------

    async def decide(self, suggestion: Any) -> dict[str, Any]:
        """Wait for the person's decision on ``suggestion`` (accept, dismiss, edit or say)."""
        self._use_loop()
        shown = as_dict(suggestion, SUGGESTION_FIELDS)
        issue, errors = issue_of(shown)
        token = f"d{next(self._tokens)}"
        future = self._bridge.open(token)
        self.pending = json_safe({
            "kind": "decide", "token": token, "id": shown.get("id"),
            "action": shown.get("action"), "payload": shown.get("payload"),
            "issue": issue, "errors": errors, "edits_left": shown.get("edits_left"),
        })
        self._changed(urgent=True)  # a card waits: what must survive the kernel
        try:
            return await future
        finally:
            if self.pending.get("token") == token:
                self.pending = {}

    async def answer(self, ask: Any) -> str | None:
        """Wait for the person's answer to ``ask``; ``None`` when the widget was closed."""
        self._use_loop()
        shown = as_dict(ask, ASK_FIELDS)
        token = f"a{next(self._tokens)}"
        future = self._bridge.open(token)
        index = self._latest_index("ask")
        response_type = shown.get("response_type") or "text"
        self.pending = json_safe({
            "kind": "answer", "token": token, "index": index, "response_type": response_type,
            # a confirm is drawn as fixed Yes / No: no agent label can pose as either
            "options": [] if response_type == "confirm" else options_of(shown),
        })
        self._changed(urgent=True)  # a question waits
        try:
            answer = await future
        finally:
            if self.pending.get("token") == token:
                self.pending = {}
        return answer

    def _latest_index(self, kind: str) -> int:
        for index in range(len(self.transcript) - 1, -1, -1):
            if self.transcript[index].get("type") == kind:
                return index
        return -1

    # ---- messages from the front end --------------------------------------------------------

    def _on_front_end_message(self, _widget: Any, content: Any, buffers: list[Any]) -> None:
        if not isinstance(content, dict):
            return
        loop = self._loop
        if loop is not None and running_loop() is not loop:
            loop.call_soon_threadsafe(self._handle, content, list(buffers or []))
        else:
            self._handle(content, list(buffers or []))

    def _handle(self, content: dict[str, Any], buffers: list[Any]) -> None:
        kind = content.get("type")
        if self.untrusted and kind not in ("ping", "sync", "trust"):
            if kind == "say":  # read-only: nothing is sent, the person is told why
                self._append({"type": "error", "error": untrusted_message(
                    str(self.untrusted.get("file")))})
            return
        if kind == "trust":
            self._trust_clicked()
        elif kind == "confirm-rule":
            if isinstance(content.get("id"), str) and content["id"] in self.rules:
                self.confirm(content["id"])
        elif kind == "ping":  # the front end checks that the kernel still holds this widget
            self.send({"type": "pong", "id": content.get("id")})
        elif kind == "say":
            self.say(str(content.get("text") or ""))
        elif kind == "retry":
            if not self.running:
                self.retry()
        elif kind == "stop":
            self.stop()
        elif kind == "undo":
            if isinstance(content.get("id"), str):
                self.undo(content["id"])
        elif kind == "dry-run":
            token = self._decide_token(content)
            if token is not None and "payload" in content:
                self._start(self._use_loop(), self._dry_run(token, content["payload"]))
        elif kind in ("rule-draft", "allow"):
            token = self._decide_token(content)
            if token is not None and "schema" in content and kind == "rule-draft":
                self._rule_draft(token, content["schema"])
            elif token is not None and "schema" in content:
                self._allow_from_card(token, content["schema"], content.get("scope"))
        elif kind == "revoke":
            if isinstance(content.get("id"), str) and content["id"] in self.rules:
                self.revoke(content["id"])
        elif kind == "sync":
            # a view that missed an append (or loaded after one) asks for the whole trait
            self._outbox.viewed = True  # a front end keeps the trait from now on
            if content.get("length") != len(self.transcript):
                self.send_state("transcript")
            for started in self.runs_going():  # a page come back: its cards say Running…
                self.send(started)
        elif kind in ("decide", "answer"):
            token = content.get("token")
            if not isinstance(token, str) or token != self.pending.get("token"):
                return  # stale or repeated click
            if kind == "decide":
                decision = decision_of(content)
                if decision is not None:
                    self._bridge.resolve(token, decision)
            else:
                self._answer(token, content, buffers)

    def _trust_clicked(self) -> None:
        try:
            self.trust()
        except (OSError, SnapshotError) as exc:  # not signed, or its state refused: said so
            why = f"could not be signed: {exc}" if isinstance(exc, OSError) else str(exc)
            self.untrusted = {**self.untrusted, "error": f"{self.untrusted.get('file')} {why}"}

    def _decide_token(self, content: dict[str, Any]) -> str | None:
        """The message's token when it is the card waiting now, else None (a stale click)."""
        token = content.get("token")
        if (isinstance(token, str) and token == self.pending.get("token")
                and self.pending.get("kind") == "decide"):
            return token
        return None

    def _answer(self, token: str, content: dict[str, Any], buffers: list[Any]) -> None:
        file = content.get("file")
        if isinstance(file, dict) and buffers:
            data = bytes(buffers[0])[:_MAX_UPLOAD]
            name = str(file.get("name") or "upload")
            self.files[name] = data
            value = f"{name} ({len(data)} bytes)"
        else:
            value = str(content.get("value") or "").strip()
            if self.pending.get("response_type") == "confirm" and value not in ("yes", "no"):
                return  # the confirm's buttons send yes or no, nothing else
        if not value:
            return  # an empty answer leaves the question standing
        self._append_person(value, answer_to=self.pending.get("index"))
        self._bridge.resolve(token, value)

    # ---- a rule made on the pending card --------------------------------------------------

    def _rule_draft(self, token: str, schema: Any) -> None:
        """Answer a rule being made on the pending card: is it valid, what would it accept?"""
        answer = draft_answer(schema, str(self.pending.get("action") or ""),
                              str(self.pending.get("id") or ""), self.pending.get("payload"),
                              self.transcript, check_action=self.rules.check_action)
        self.send(json_safe({"type": "rule-draft", "token": token, "schema": schema, **answer}))

    def _allow_from_card(self, token: str, schema: Any, scope: Any) -> None:
        """Save the rule made on the pending card and, when it accepts the card, accept it."""
        try:
            rule = self.allow(str(self.pending.get("action") or ""), schema,
                              scope=scope if isinstance(scope, str) else "conversation")
        except ValueError as exc:
            self.send({"type": "allow", "token": token, "rule": None, "error": str(exc)})
            return
        fits = rule.accepts(self.pending.get("payload"))
        self.send({"type": "allow", "token": token, "rule": rule.id, "error": None,
                   "card": fits})
        if fits:
            self._bridge.resolve(token, {"accept": True, "rule": rule.id})


def decision_of(content: dict[str, Any]) -> dict[str, Any] | None:
    """The decision a click sent, with what the person wrote about the proposal (a comment
    that is not well formed is left out; the rest of the decision stands); None for a
    message that holds no decision.

        >>> decision_of({"decision": "dismiss", "reason": "not now"})
        {'dismiss': True, 'reason': 'not now'}
        >>> decision_of({"decision": "edit"}) is None
        True
    """
    decision = content.get("decision")
    if decision == "accept":
        chosen: dict[str, Any] = {"accept": True}
    elif decision == "dismiss":
        chosen = {"dismiss": True}
        if isinstance(content.get("reason"), str) and content["reason"].strip():
            chosen["reason"] = content["reason"]
    elif decision == "edit" and "payload" in content:
        chosen = {"edit": content["payload"]}
    else:
        return None
    sent = content.get("comments")
    comments = []
    for comment in sent if isinstance(sent, list) else []:
        try:
            comments.append(read_comment(comment))
        except ValueError:
            continue
    if comments:
        chosen["comments"] = comments[:MAX_COMMENTS]
    return chosen

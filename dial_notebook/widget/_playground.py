"""Playground: the learner plays the agent. They write a DIAL reply and see, side by side, what
the parser read, what lint says about it, and how the real runtime handles it in a ChatWidget.

    ┌ example, domain, the reply, the person's words ┐ ┌ what the parser read ┐
    │ [Send as the agent] [New conversation]         │ │ lint findings        │
    └────────────────────────────────────────────────┘ └──────────────────────┘
    ┌ ChatWidget: cards, questions, messages ┐ ┌ what the agent receives ┐

    typing ─▶ parsed + lint panels redrawn
    Send   ─▶ LearnerAgent.arm(reply) ─▶ chat.say(words) ─▶ card / question / message
    click  ─▶ outcome ─▶ runtime's next turn: 'sent' event ─▶ "what the agent receives" panel

Everything the learner types is escaped before it reaches an HTML panel. Clicks on the
playground's buttons may arrive on a kernel subshell thread (notes/bridge.md); they are moved
onto the kernel's event loop before they touch the conversation.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from ._chat_widget import ChatWidget
from ._playground_agent import LearnerAgent
from ._playground_examples import EXAMPLES, Example
from ._playground_style import STYLE
from ._playground_views import envelope_html, lint_html, received_html
from ._replay import Replay

DomainFactory = Callable[[], Any]


def default_domains() -> dict[str, DomainFactory]:
    """The notes domain (two notes to start with), and the sales data frames when pandas is
    installed. Each value builds a fresh domain."""
    from dial_notebook.domains import NotesDomain

    domains: dict[str, DomainFactory] = {
        "notes (NotesDomain)": lambda: NotesDomain(["buy milk", "call Sam"]),
    }
    if importlib.util.find_spec("pandas") is not None:
        def sales() -> Any:
            from dial_notebook.domains import DataFramesDomain, load_sales

            return DataFramesDomain({"sales": load_sales()})

        domains["sales data frame (DataFramesDomain)"] = sales
    return domains


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _full_width() -> widgets.Layout:
    """Full width, without the side margins that would push it past its column."""
    return widgets.Layout(width="100%", margin="2px 0")


def _panel(title: str, body: widgets.Widget, flex: str = "1 1 380px") -> widgets.VBox:
    """A heading over ``body``; ``flex`` sizes it in its row (or column)."""
    heading = widgets.HTML(f'<div class="dpg"><h3>{escape(title)}</h3></div>')
    box = widgets.VBox([heading, body], layout=widgets.Layout(flex=flex, min_width="0"))
    box.add_class("dpg-column")
    return box


class Playground(widgets.VBox):
    """Play the agent: write a DIAL reply and watch it parsed, linted and handled live.

    Args:
        domains: name → a function building a domain; the learner picks one. Defaults to
            ``default_domains()`` (notes first).
        examples: the replies the example menu offers (``Example``s).
        example: the key of the example loaded first.
        title: the heading above the playground.
        chat_options: extra keyword arguments for each ``ChatWidget`` (``timeout`` …).

    ``examples`` maps each key to its ``Example``; ``chat``, ``agent`` (a ``LearnerAgent``) and
    ``domain`` are the live conversation's, replaced by ``reset()``; ``editor``, ``says``,
    ``parsed``, ``findings`` and ``received`` are the widgets a person sees.

    Example (in a notebook cell):

        playground = Playground()
        playground
        playground.load("ask-choice")
        task = playground.send()
    """

    def __init__(
        self,
        *,
        domains: Mapping[str, DomainFactory] | None = None,
        examples: Sequence[Example] = EXAMPLES,
        example: str = "suggest-payload",
        title: str = "Play the agent",
        chat_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.domains = default_domains() if domains is None else dict(domains)
        if not self.domains:
            raise ValueError("Playground: give at least one domain")
        self.examples = {e.key: e for e in examples}
        if example not in self.examples:
            raise KeyError(f"Playground: no example {example!r}; "
                           f"there are {', '.join(self.examples)}")
        self._chat_options = dict(chat_options or {})
        self._loop = _running_loop()  # the kernel's loop; button clicks hop onto it

        self.example_menu = widgets.Dropdown(
            options=[(e.label, e.key) for e in examples], value=example,
            description="Example", layout=_full_width())
        self.domain_menu = widgets.Dropdown(
            options=list(self.domains), description="Domain", layout=_full_width())
        self.note = widgets.HTML()
        self.editor = widgets.Textarea(
            rows=16, layout=_full_width(), continuous_update=True,
            placeholder='<dial version="0.1" actor="agent"> … </dial>')
        self.editor.add_class("dpg-editor")
        self.says = widgets.Text(description="Person says", layout=_full_width())
        self.says.add_class("dpg-words")
        self.send_button = widgets.Button(description="Send as the agent", button_style="primary",
                                          icon="paper-plane", layout=widgets.Layout(width="auto"))
        self.reset_button = widgets.Button(description="New conversation", icon="refresh",
                                           layout=widgets.Layout(width="auto"))
        for button in (self.send_button, self.reset_button):
            button.add_class("dpg-big")
        self.status = widgets.HTML()
        self.parsed = widgets.HTML()
        self.findings = widgets.HTML()
        self.received = widgets.HTML()
        self.agent = LearnerAgent()
        self.domain = self.domains[self.domain_menu.value]()
        self.chat = self._new_chat()
        self._chat_box = widgets.VBox([self.chat], layout=widgets.Layout(width="100%"))

        self.example_menu.observe(lambda _: self.load(self.example_menu.value), names="value")
        self.domain_menu.observe(lambda _: self._on_loop(self.reset), names="value")
        self.editor.observe(lambda _: self._redraw(), names="value")
        self.send_button.on_click(lambda _: self._on_loop(self._send_clicked))
        self.reset_button.on_click(lambda _: self._on_loop(self.reset))

        super().__init__(self._layout(title))
        self.add_class("dpg-root")
        self.load(example)
        self._show_received()

    # ---- what the learner does ---------------------------------------------------------------

    def load(self, key: str) -> None:
        """Put example ``key`` in the editor (and its person's words in the words box)."""
        example = self.examples[key]
        if self.example_menu.value != key:
            self.example_menu.value = key  # observing it calls load again
            return
        self.note.value = f'<div class="dpg dpg-muted">{escape(example.note)}</div>'
        self.status.value = ""
        self.says.value = example.says
        self.editor.value = example.xml
        self._redraw()

    def send(self) -> asyncio.Task[Any]:
        """Send the editor's reply as the agent's answer to the person's words.

        Returns the task running the conversation's turns (see ``ChatWidget.say``). While a card
        waits, the words supersede it; while a question waits, they answer it.
        """
        self._loop = self._loop or _running_loop()
        self.agent.arm(self.editor.value)
        return self.chat.say(self.says.value)

    def reset(self) -> None:
        """Start a new conversation with a fresh domain of the chosen kind (the chat starts
        empty; the editor keeps the reply)."""
        old = self.chat
        self.agent = LearnerAgent()
        self.domain = self.domains[self.domain_menu.value]()
        self.chat = self._new_chat()
        self._chat_box.children = [self.chat]
        old.close()
        self.status.value = (f'<div class="dpg dpg-muted">New conversation with a fresh '
                             f"{escape(self.domain_menu.value)}: the chat starts empty.</div>")
        self._show_received()

    @staticmethod
    def replay(source: Any, *, step: int = 0, title: str = "") -> Replay:
        """A saved conversation, replayed one event at a time: for walking a class through it.

        ``source`` is a snapshot (``conversation.snapshot()``), the path of its JSON file, a
        ChatWidget or a Conversation; Next / Back step through it, beside each step the event
        and the exact message the agent had received. See ``Replay``.

            replay = Playground.replay(Replay.EXAMPLE)   # a conversation shipped with the package
            replay
        """
        return Replay(source, step=step, title=title)

    # ---- inside ---------------------------------------------------------------------------------

    def _new_chat(self) -> ChatWidget:
        options = {"title": "", **self._chat_options}
        chat = ChatWidget(agent=self.agent, domain=self.domain, **options)
        chat.layout.width = "100%"
        chat.observe(lambda _: self._show_received(), names="transcript")
        return chat

    def _send_clicked(self) -> None:
        try:
            self.send()
        except Exception as error:  # shown to the learner; the playground stays usable
            self.status.value = (f'<div class="dpg"><span class="dpg-badge dpg-error">error'
                                 f"</span>{escape(type(error).__name__)}: {escape(str(error))}"
                                 "</div>")
        else:
            self.status.value = ('<div class="dpg dpg-muted">Sent. The runtime\'s handling is '
                                 "in the chat below.</div>")

    def _on_loop(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the kernel's loop (now if this is that loop's thread)."""
        loop = self._loop
        if loop is None or _running_loop() is loop or loop.is_closed():
            fn()
        else:
            loop.call_soon_threadsafe(fn)

    def _redraw(self) -> None:
        text = self.editor.value
        self.parsed.value = f'<div class="dpg">{envelope_html(text)}</div>'
        self.findings.value = f'<div class="dpg">{lint_html(text)}</div>'

    def _show_received(self) -> None:
        latest = next((e for e in reversed(self.chat.transcript) if e.get("type") == "sent"), None)
        body = received_html(None) if latest is None else received_html(
            str(latest.get("message") or ""), latest.get("turn"))
        self.received.value = f'<div class="dpg">{body}</div>'

    def _layout(self, title: str) -> list[widgets.Widget]:
        header = widgets.HTML(
            f'{STYLE}<div class="dpg"><h2>{escape(title)}</h2><div class="dpg-muted">'
            "You are the agent. Pick an example or write a DIAL reply; the parsed elements and "
            "lint findings follow as you type. <b>Send as the agent</b> hands your reply to the "
            "real runtime below: decide on the card as the person would, and see the exact "
            "reply XML the agent gets back.</div></div>")
        editor = widgets.VBox(
            [self.example_menu, self.domain_menu, self.note, self.editor, self.says,
             widgets.HBox([self.send_button, self.reset_button]), self.status],
            layout=widgets.Layout(width="100%"))
        for panel in (self.parsed, self.findings, self.received):
            panel.add_class("dpg-panel")
            panel.layout = widgets.Layout(width="100%", margin="0")
        for panel in (self.parsed, self.received):  # a long text scrolls; lint stays in view
            panel.layout.max_height = "560px"
            panel.layout.overflow = "auto"
        row = widgets.Layout(width="100%", flex_flow="row wrap", align_items="flex-start",
                             grid_gap="16px")
        checks = widgets.VBox(
            [_panel("What the parser read", self.parsed, flex="0 0 auto"),
             _panel("Lint findings", self.findings, flex="0 0 auto")],
            layout=widgets.Layout(flex="1 1 380px", min_width="0"))
        top = widgets.HBox([_panel("Your reply, as the agent", editor), checks], layout=row)
        bottom = widgets.HBox([
            _panel("The runtime, live", self._chat_box),
            _panel("What the agent receives", self.received),
        ], layout=row)
        return [header, top, bottom]

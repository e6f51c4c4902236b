"""The notebook surface: an anywidget that shows one conversation and plays the person, a
playground where a learner plays the agent, and a replay of a saved conversation.

    from dial_notebook.widget import ChatWidget, Playground, Replay
    chat = ChatWidget(agent=agent, domain=domain)   # in a notebook cell: the chat shows
    Playground()                                     # the teaching playground
    Playground.replay("conversation.json")           # a saved conversation, event by event
    write_document("chat.html", export_document(chat.transcript))   # one page, no script
"""

from .. import _public
from . import _evaluation_views  # noqa: F401  (lends the evaluation its drawings: _surface.py)
from ._chat_widget import ChatWidget
from ._playground import Playground
from ._replay import Replay
from ._session import UntrustedSessionError, widget_transcript
from ._static import export_document, write_document

# exported at the package's top too: shown there as dial_notebook.X
_public.shown_as_top_level(ChatWidget, Playground, Replay, UntrustedSessionError)

__all__ = [
    "ChatWidget",
    "Playground",
    "Replay",
    "UntrustedSessionError",
    "export_document",
    "widget_transcript",
    "write_document",
]

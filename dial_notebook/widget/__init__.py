"""The notebook surface: an anywidget that shows one conversation and plays the person, and a
playground where a learner plays the agent.

    from dial_notebook.widget import ChatWidget, Playground
    chat = ChatWidget(agent=agent, domain=domain)   # in a notebook cell: the chat shows
    Playground()                                     # the teaching playground
"""

from .. import _public
from ._chat_widget import ChatWidget
from ._playground import Playground

# exported at the package's top too: shown there as dial_notebook.X
_public.shown_as_top_level(ChatWidget, Playground)

__all__ = ["ChatWidget", "Playground"]

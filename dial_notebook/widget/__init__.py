"""The notebook surface: an anywidget that shows one conversation and plays the person, and a
playground where a learner plays the agent.

    >>> from dial_notebook.widget import ChatWidget, Playground
    >>> chat = ChatWidget(agent=agent, domain=domain)   # doctest: +SKIP
    >>> Playground()                                     # doctest: +SKIP
"""

from ._chat_widget import ChatWidget
from ._playground import Playground

__all__ = ["ChatWidget", "Playground"]

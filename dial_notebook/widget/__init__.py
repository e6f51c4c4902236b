"""The notebook surface: an anywidget that shows one conversation and plays the person.

    >>> from dial_notebook.widget import ChatWidget
    >>> chat = ChatWidget(agent=agent, domain=domain)   # doctest: +SKIP
"""

from ._chat_widget import ChatWidget

__all__ = ["ChatWidget"]

"""extract_prose() gives the reply's text outside envelopes, without fence debris."""

from __future__ import annotations

from dial_notebook.dial import extract_prose

ENV = '<dial version="0.1" actor="agent"><dial-inform>x</dial-inform></dial>'


def test_text_around_the_envelope_is_kept_in_order():
    assert extract_prose(f"Before.\n{ENV}\nAfter.") == "Before.\n\nAfter."


def test_no_envelope_gives_the_whole_text_trimmed():
    assert extract_prose("  just words \n") == "just words"


def test_only_an_envelope_gives_nothing():
    assert extract_prose(ENV) == ""


def test_code_fences_and_prolog_around_the_envelope_are_removed():
    text = f'Here you go:\n\n```xml\n<?xml version="1.0"?>\n{ENV}\n```\n\nAnything else?'
    assert extract_prose(text) == "Here you go:\n\nAnything else?"


def test_a_fence_without_language_and_an_unclosed_fence():
    assert extract_prose(f"A\n```\n{ENV}\n```\nB") == "A\n\nB"
    assert extract_prose(f"A\n```dial\n{ENV}") == "A"


def test_prose_between_two_envelopes():
    assert extract_prose(f"one {ENV} two {ENV} three") == "one\n\ntwo\n\nthree"


def test_code_fences_that_hold_other_code_are_kept():
    text = f"Run this:\n```python\nprint(1)\n```\n{ENV}"
    assert extract_prose(text) == "Run this:\n```python\nprint(1)\n```"

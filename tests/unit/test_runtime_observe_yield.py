"""Observe/yield inside one envelope: gating, branching, skipped elements, no cycles, no hang."""

from __future__ import annotations

import asyncio
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dial_notebook.dial import MAX_ELEMENTS, Ask, Inform, Option, Suggest
from dial_notebook.runtime import Conversation, policy_human, scripted_human
from dial_notebook.runtime._yields import Resolution, fired
from tests.hypothesis_profiles import examples
from tests.work_clock import least_cpu_seconds

from .runtime_doubles import NotesDomain, ScriptedAgent, dial, outcomes_in
from .schema_examples import EXAMPLES

PRODUCT_EXAMPLE = EXAMPLES[-2]


def conversation_for(replies, human, *, domain=None, **kw):
    agent = ScriptedAgent(replies)
    events: list[dict] = []
    conversation = Conversation(agent=agent, domain=domain or NotesDomain(context=False),
                                human=human, on_event=events.append, **kw)
    return conversation, agent, events


def informs(events, act="inform"):
    return [e["text"] for e in events if e["type"] == "inform" and e.get("act") == act]


def skipped(events):
    return [e for e in events if e["type"] == "inform" and e.get("act") == "skipped"]


CONFIRM = ('<dial-ask id="go" response-type="confirm" yield="go:confirmed go:cancelled">'
           "Go?</dial-ask>")
ON_YES = '<dial-inform observe="go:confirmed">Going.</dial-inform>'
ON_NO = '<dial-acknowledge observe="go:cancelled">Staying.</dial-acknowledge>'


# ---- order -------------------------------------------------------------------------------------

async def test_elements_without_observe_activate_in_order_of_appearance_and_none_is_skipped():
    conversation, _, events = conversation_for([dial(
        '<dial-inform yield="a:shown">one</dial-inform>', "<dial-inform>two</dial-inform>",
        '<dial-inform yield="b:shown">three</dial-inform>')], policy_human())
    await conversation.say("x")
    assert informs(events) == ["one", "two", "three"]
    assert skipped(events) == []


async def test_an_element_waits_for_an_event_yielded_later_in_the_envelope():
    conversation, _, events = conversation_for([dial(
        '<dial-inform observe="b:shown">after b</dial-inform>',
        '<dial-inform yield="b:shown">b</dial-inform>',
        "<dial-inform>c</dial-inform>")], policy_human())
    await conversation.say("x")
    assert informs(events) == ["b", "after b", "c"]


async def test_an_observe_naming_several_events_waits_for_all_of_them():
    conversation, _, events = conversation_for([dial(
        '<dial-inform observe="a b">both</dial-inform>',
        '<dial-inform yield="a">a</dial-inform>', '<dial-inform yield="b">b</dial-inform>')],
        policy_human())
    await conversation.say("x")
    assert informs(events) == ["a", "b", "both"]


async def test_an_ask_gates_what_observes_it_until_the_person_answered():
    order: list[str] = []

    class Human:
        def decide(self, suggestion):
            return {"accept": True}

        def answer(self, ask):
            order.append("answered")
            return "fine"

    agent = ScriptedAgent([dial(
        '<dial-inform observe="q:answered">Thanks.</dial-inform>',
        '<dial-ask yield="q:answered">How?</dial-ask>'), dial("")])
    conversation = Conversation(
        agent=agent, domain=NotesDomain(), human=Human(),
        on_event=lambda e: order.append(e["text"]) if e["type"] == "inform" else None)
    await conversation.say("x")
    assert order == ["answered", "Thanks."]


# ---- branching ---------------------------------------------------------------------------------

async def test_a_confirm_ask_answered_yes_fires_only_its_confirmed_event():
    conversation, _, events = conversation_for([dial(CONFIRM, ON_YES, ON_NO), dial("")],
                                               scripted_human([{"answer": "yes"}]))
    await conversation.say("x")
    assert informs(events) == ["Going."]
    assert informs(events, "acknowledge") == []
    (skip,) = skipped(events)
    assert skip["element"] == "acknowledge"
    assert skip["reason"] == "'go:cancelled' did not happen: ask 'go' was answered 'yes'"


async def test_a_confirm_ask_answered_no_fires_only_its_cancelled_event():
    conversation, _, events = conversation_for([dial(CONFIRM, ON_YES, ON_NO), dial("")],
                                               scripted_human([{"answer": "no"}]))
    await conversation.say("x")
    assert informs(events, "acknowledge") == ["Staying."]
    assert informs(events) == []
    assert [s["element"] for s in skipped(events)] == ["inform"]


def test_a_confirm_ask_branches_by_the_names_of_its_yields_in_any_order():
    ask = Ask(response_type="confirm", yields=("x:cancelled", "x:confirmed", "x:answered"))
    assert fired(ask, Resolution("answered", "Yes")) == ("x:confirmed", "x:answered")
    assert fired(ask, Resolution("answered", "no.")) == ("x:cancelled", "x:answered")
    assert fired(ask, Resolution("answered", "maybe")) == ("x:answered",)


def test_a_confirm_ask_whose_yields_are_not_named_fires_the_first_on_yes_the_second_on_no():
    ask = Ask(response_type="confirm", yields=("go-ahead", "hold", "asked"))
    assert fired(ask, Resolution("answered", "yes")) == ("go-ahead", "asked")
    assert fired(ask, Resolution("answered", "no")) == ("hold", "asked")


def test_a_choice_ask_fires_its_yield_and_prefix_colon_value_for_the_chosen_option():
    ask = Ask(response_type="choice", yields=("style:chosen",),
              options=(Option("photo"), Option("sketch")))
    assert fired(ask, Resolution("answered", "sketch")) == ("style:chosen", "style:sketch")


def test_a_choice_ask_yield_named_after_an_option_fires_only_when_that_option_is_chosen():
    ask = Ask(response_type="choice", yields=("style:photo", "style:sketch"),
              options=(Option("photo"), Option("sketch")))
    assert fired(ask, Resolution("answered", "photo")) == ("style:photo",)


def test_an_unanswered_ask_fires_nothing():
    ask = Ask(yields=("q:answered",))
    assert fired(ask, Resolution(None)) == ()


def test_a_suggestion_fires_its_yields_by_outcome():
    suggest = Suggest(action="add-note", yields=("item:selected", "item:dismissed", "seen"))
    assert fired(suggest, Resolution("done")) == ("item:selected", "seen")
    assert fired(suggest, Resolution("dismissed")) == ("item:dismissed",)
    assert fired(suggest, Resolution("superseded")) == ()


async def test_a_suggestion_accepted_activates_what_observes_its_selected_event():
    reply = dial(
        '<dial-suggest action="add-note" yield="item:selected item:dismissed">Add?'
        '<dial-payload>{"text": "milk"}</dial-payload></dial-suggest>',
        '<dial-inform observe="item:selected">Added it.</dial-inform>',
        '<dial-inform observe="item:dismissed">Left it.</dial-inform>')
    for decision, shown in (("accept", ["Added it."]), ("dismiss", ["Left it."])):
        conversation, _, events = conversation_for([reply, dial("")], policy_human(decision))
        await conversation.say("x")
        assert informs(events) == shown


def test_an_inform_fires_every_yield_when_shown():
    assert fired(Inform(yields=("a", "b:c")), Resolution("shown")) == ("a", "b:c")


# ---- never fired -------------------------------------------------------------------------------

async def test_an_element_observing_an_event_nothing_yields_is_reported_once_and_why():
    conversation, _, events = conversation_for([dial(
        '<dial-inform id="late" observe="never:happens">Never.</dial-inform>',
        "<dial-inform>shown</dial-inform>")], policy_human())
    await conversation.say("x")
    assert informs(events) == ["shown"]
    assert skipped(events) == [{
        "type": "inform", "act": "skipped", "element": "inform", "id": "late",
        "observe": "never:happens", "reason": "nothing in the reply yields 'never:happens'",
        "text": "Skipped inform 'late': nothing in the reply yields 'never:happens'.",
    }]


async def test_a_suggestion_whose_event_never_fires_ends_skipped_and_the_agent_is_told():
    human = policy_human("accept")
    conversation, agent, _ = conversation_for([dial(
        '<dial-suggest id="s" action="add-note" observe="nope">Add?'
        '<dial-payload>{"text": "milk"}</dial-payload></dial-suggest>'),
        dial("<dial-inform>ok</dial-inform>")], human)
    result = await conversation.say("x")
    assert human.seen == []
    (outcome,) = result.outcomes
    assert (outcome["id"], outcome["status"], outcome["preview"]) == (
        "s", "skipped", "Add the note 'milk'")
    assert result.turns == 1  # a skip waits for the person's next words, like a dismissal
    await conversation.say("and?")
    assert outcomes_in(agent.received[1]) == [{
        "action": "add-note", "status": "skipped",
        "hint": "It was not shown: nothing in the reply yields 'nope'."}]
    assert '<dial-acknowledge of="s" yield="s:skipped">Skipped: Add the note' in agent.received[1]


async def test_an_unanswered_ask_leaves_its_dependants_skipped_saying_so():
    conversation, _, events = conversation_for([dial(
        '<dial-ask id="q" yield="q:answered">How?</dial-ask>',
        '<dial-inform observe="q:answered">Thanks.</dial-inform>')],
        scripted_human([{"answer": ""}]))
    await conversation.say("x")
    assert [s["reason"] for s in skipped(events)] == [
        "'q:answered' did not happen: ask 'q' was not answered"]


async def test_elements_observing_each_other_in_a_cycle_are_skipped_and_nothing_hangs():
    conversation, _, events = conversation_for([dial(
        '<dial-inform id="a" observe="b:done" yield="a:done">A</dial-inform>',
        '<dial-inform id="b" observe="a:done" yield="b:done">B</dial-inform>')], policy_human())
    result = await asyncio.wait_for(conversation.say("x"), 5)
    assert result.status == "idle"
    assert [s["reason"] for s in skipped(events)] == [
        "'b:done' would come from inform 'b', which never ran",
        "'a:done' would come from inform 'a', which never ran"]


async def test_events_do_not_cross_from_one_envelope_to_the_next():
    conversation, _, events = conversation_for([
        dial('<dial-inform yield="a">one</dial-inform>')
        + dial('<dial-inform observe="a">two</dial-inform>')], policy_human())
    await conversation.say("x")
    assert informs(events) == ["one"]
    assert len(skipped(events)) == 1


def said_backwards_chain(n: int) -> list[dict]:
    """The events of a say whose reply is a chain of ``n`` informs, each observing the next."""
    chain = [f'<dial-inform observe="e{k + 1}" yield="e{k}">{k}</dial-inform>'
             for k in range(n - 1)]
    conversation, _, events = conversation_for(
        [dial(*chain, f'<dial-inform yield="e{n - 1}">{n - 1}</dial-inform>')], policy_human())
    asyncio.run(asyncio.wait_for(conversation.say("x"), 60))  # a stall fails, not hangs
    return events


def test_a_long_chain_declared_backwards_runs_in_reverse_order_in_linear_time():
    """As long as a reply is read (MAX_ELEMENTS); scheduling it was once quadratic (3,000 took
    ~25 s). Its work is counted, not timed: four times the chain costs about four times the
    CPU time of the say, not sixteen (tests/work_clock.py)."""
    n = MAX_ELEMENTS
    assert informs(said_backwards_chain(n)) == [str(k) for k in range(n - 1, -1, -1)]
    small = least_cpu_seconds(lambda: said_backwards_chain(n // 4))
    large = least_cpu_seconds(lambda: said_backwards_chain(n))
    assert large < 6 * small, (small, large)  # linear: about 3.5; quadratic: 16


async def test_a_reason_names_at_most_three_elements_and_counts_the_rest():
    yielders = [f'<dial-inform id="y{k}" observe="never" yield="x">y</dial-inform>'
                for k in range(5)]
    conversation, _, events = conversation_for(
        [dial(*yielders, '<dial-inform id="w" observe="x">w</dial-inform>')], policy_human())
    await conversation.say("x")
    assert skipped(events)[-1]["reason"] == (
        "'x' would come from inform 'y0', inform 'y1', inform 'y2' (and 2 more), which never ran")


# ---- the schema's full example: product recommendation -----------------------------------------

class Shop:
    """add-to-cart takes the cards the person keeps; the domain records what it was told."""

    def __init__(self):
        self.actions = {"add-to-cart": {"mutates": True}}
        self.cart: list[str] = []
        self.declared: list[tuple[str, object]] = []

    def validate(self, action, payload):
        ok = isinstance(payload, list) and all(isinstance(p, dict) and "id" in p for p in payload)
        return {"ok": True} if ok else {"ok": False, "code": "invalid", "hint": "a list of items"}

    def preview(self, action, payload):
        return "Add " + ", ".join(p["title"] for p in payload) + " to the cart"

    def run(self, action, payload):
        self.cart += [p["id"] for p in payload]
        return {"cart": list(self.cart)}

    def declare(self, key, value):
        self.declared.append((key, value))


async def test_the_product_recommendation_example_runs_as_written_with_a_scripted_person():
    shop = Shop()
    human = scripted_human([
        {"edit": [{"id": "sku-002", "title": "Nike React Infinity", "price": 160}]},
        {"answer": "running"}])
    conversation, agent, events = conversation_for(
        [PRODUCT_EXAMPLE, dial("<dial-inform>Here are running shoes.</dial-inform>")], human,
        domain=shop, full_dial=True)
    result = await conversation.say("I need new shoes")
    kinds = [e["type"] for e in events[2:events.index(next(e for e in events
                                                           if e["type"] == "sent" and e["turn"] == 2))]]
    assert kinds == ["declare", "inform", "suggestion", "running", "outcome", "ask"]
    assert conversation.context == {
        "product-domain": {"category": "footwear", "brand": "nike", "priceRange": [80, 200]}}
    assert shop.declared == [("product-domain", conversation.context["product-domain"])]
    assert informs(events)[0].startswith("Found 24 Nike footwear options")
    assert shop.cart == ["sku-002"]
    assert [(o["id"], o["status"], o.get("edited")) for o in result.outcomes] == [
        ("top-picks", "done", True)]
    assert skipped(events) == []
    assert agent.received[1].endswith("\n\nrunning")
    assert (result.status, result.turns) == ("idle", 2)


# ---- properties --------------------------------------------------------------------------------

EVENTS = ["a", "b", "c", "x:confirmed", "x:cancelled", "op:done"]
SCHEMA_KINDS = ("execute", "declare", "delegate", "phatic")


@st.composite
def gated_elements(draw):
    kind = draw(st.sampled_from(["inform", "ask", "confirm", "suggest", *SCHEMA_KINDS]))
    attrs = ""
    if draw(st.booleans()):
        attrs += f' observe="{draw(st.sampled_from(EVENTS))}"'
    yields = draw(st.lists(st.sampled_from(EVENTS), max_size=2, unique=True))
    if yields:
        attrs += f' yield="{" ".join(yields)}"'
    if kind in ("inform", "suggest", "execute") and draw(st.integers(0, 4)) == 0:
        attrs += ' addressed-to="ops"'
    element = {
        "inform": f"<dial-inform{attrs}>i</dial-inform>",
        "ask": f"<dial-ask{attrs}>q</dial-ask>",
        "confirm": f'<dial-ask response-type="confirm"{attrs}>sure?</dial-ask>',
        "suggest": (f'<dial-suggest action="add-note"{attrs}>s<dial-payload>{{"text": "t"}}'
                    f"</dial-payload></dial-suggest>"),
        "execute": f'<dial-execute{attrs}><step env="python">1</step></dial-execute>',
        "declare": f'<dial-declare context-key="k"{attrs}>1</dial-declare>',
        "delegate": f'<dial-delegate to="billing"{attrs}>over</dial-delegate>',
        "phatic": f'<dial-phatic signal="typing"{attrs}/>',
    }[kind]
    return kind, element


SHOWN_TYPES = ("inform", "ask", "suggestion", "declare", "delegate", "phatic")


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(gated_elements(), min_size=1, max_size=7),
       st.lists(st.sampled_from(["yes", "no", "", "blue"]), max_size=7),
       st.booleans())
def test_any_observe_yield_graph_ends_with_every_element_activated_or_skipped_once(
        elements, answers, full):
    async def run():
        human = scripted_human([{"answer": a} for a in answers] + [{"answer": ""}] * 7)
        human.decide = lambda s: {"accept": True}
        conversation, _, events = conversation_for(
            [dial(*(e for _, e in elements)), "done", "done"], human, full_dial=full)
        await asyncio.wait_for(conversation.say("x"), 5)
        json.dumps(conversation.transcript)
        acted = [k for k, _ in elements if full or k not in SCHEMA_KINDS]
        shown = [e for e in events if e["type"] in SHOWN_TYPES
                 and e.get("act") != "skipped" and e.get("text") != "done"]
        assert len(shown) + len(skipped(events)) == len(acted)
        # every suggest and execute ends in one outcome (skipped or not); a delegate has one
        # when it was handed over
        handed = len([e for e in events if e["type"] == "delegate"])
        proposals = sum(1 for k in acted if k in ("suggest", "execute")) + handed
        assert len([e for e in events if e["type"] == "outcome"]) == proposals

    asyncio.run(run())

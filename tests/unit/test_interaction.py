"""The ask-the-person seam: checks, routing, abort, answer rules, ready providers."""

from __future__ import annotations

import asyncio

import pytest

from dial_notebook.interaction import (
    Answer,
    AnswerItem,
    ConsoleProvider,
    PlanReviewIntent,
    Question,
    QuestionOption,
    ScriptedProvider,
    UserInteractionError,
    active_provider,
    ask_user,
    register_provider,
    use_provider,
)

PICK = {"id": "lang", "question": "Which language?", "options": ["Python", "R", "Julia"]}
MULTI = {"id": "tags", "question": "Tags?", "options": ["a", "b", "c"], "multiSelect": True}
FREE = {"id": "name", "question": "Your name?"}


@pytest.fixture(autouse=True)
def no_provider_left_behind():
    assert active_provider() is None
    yield
    assert active_provider() is None


async def code_of(coro) -> str:
    with pytest.raises(UserInteractionError) as info:
        await coro
    return info.value.code


class Blocking:
    """A provider that waits until told, recording cancellation."""

    def __init__(self) -> None:
        self.cancelled = False
        self.release = asyncio.Event()

    async def ask(self, request):
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return {"answers": []}


# -- the checks made before anything is shown ----------------------------------------------

async def test_an_empty_question_list_is_refused():
    with use_provider(ScriptedProvider([])):
        assert await code_of(ask_user([])) == "EMPTY_QUESTIONS"


async def test_duplicate_question_ids_are_refused():
    with use_provider(ScriptedProvider([])) as handle:
        assert await code_of(ask_user([PICK, {**FREE, "id": "lang"}])) == "DUPLICATE_QUESTION_ID"
        assert handle.provider.requests == []  # nothing was shown


async def test_an_intent_whose_approve_label_is_not_an_option_is_refused():
    q = {"id": "plan", "question": "Go?", "detail": "1. do it", "options": ["Yes", "No"],
         "intent": {"kind": "plan-review", "approve": "Approve"}}
    with use_provider(ScriptedProvider([])):
        with pytest.raises(UserInteractionError, match="'Approve', which is not one of") as info:
            await ask_user([q])
        assert info.value.code == "INVALID_INTENT"


async def test_an_intent_on_a_question_without_detail_is_refused():
    q = Question(id="plan", question="Go?", options=("Yes", "No"),
                 intent=PlanReviewIntent(approve="Yes"))
    with use_provider(ScriptedProvider([])):
        assert await code_of(ask_user([q])) == "INVALID_INTENT"


async def test_malformed_questions_say_what_is_wrong():
    with use_provider(ScriptedProvider([])):
        assert await code_of(ask_user([{"id": "", "question": "x"}])) == "INVALID_QUESTION"
        assert await code_of(ask_user([{"id": "a", "question": " "}])) == "INVALID_QUESTION"
        assert await code_of(ask_user([{"id": "a", "question": "x", "options": [3]}])) == (
            "INVALID_QUESTION")
        assert await code_of(ask_user([{"id": "a", "question": "x",
                                        "options": ["A", "A"]}])) == "INVALID_QUESTION"
        assert await code_of(ask_user(PICK)) == "INVALID_QUESTION"  # not a list


# -- routing ----------------------------------------------------------------------------------

async def test_without_a_provider_the_error_says_how_to_get_one():
    with pytest.raises(UserInteractionError, match="display a ChatWidget") as info:
        await ask_user([PICK])
    assert info.value.code == "NO_PROVIDER"


def test_only_one_provider_is_active_at_a_time():
    first = register_provider(ScriptedProvider([]))
    try:
        with pytest.raises(UserInteractionError) as info:
            register_provider(ScriptedProvider([]))
        assert info.value.code == "PROVIDER_ACTIVE"
        assert register_provider(first.provider).active  # the same one again is fine
    finally:
        first.dispose()
    first.dispose()  # twice is harmless
    second = register_provider(ScriptedProvider([]))
    assert second.active
    second.dispose()


def test_a_provider_needs_an_ask_method():
    with pytest.raises(TypeError, match="ask\\(request\\)"):
        register_provider(object())


async def test_the_request_reaches_the_provider_with_its_questions():
    provider = ScriptedProvider([{"lang": "R", "name": {"custom": "Ada"}}])
    with use_provider(provider):
        answer = await ask_user([PICK, FREE])
    (request,) = provider.requests
    assert [q.id for q in request.questions] == ["lang", "name"]
    assert request.questions[0].options[1] == QuestionOption("R")
    assert answer == Answer((AnswerItem("lang", ("R",)), AnswerItem("name", (), "Ada")))


async def test_a_sync_provider_runs_without_blocking_the_loop():
    ticks = []

    async def ticker():
        for _ in range(5):
            ticks.append(1)
            await asyncio.sleep(0.01)

    lines = iter(["2"])

    def slow_input(prompt):
        import time

        time.sleep(0.08)
        return next(lines)

    with use_provider(ConsoleProvider(input=slow_input, output=lambda s: None)):
        answer, _ = await asyncio.gather(ask_user([PICK]), ticker())
    assert answer["lang"].selected == ("R",)
    assert len(ticks) == 5


# -- abort and cancellation ------------------------------------------------------------------

async def test_setting_the_signal_aborts_and_cancels_the_provider():
    provider = Blocking()
    signal = asyncio.Event()
    with use_provider(provider):
        task = asyncio.ensure_future(ask_user([PICK], signal=signal))
        await asyncio.sleep(0.01)
        signal.set()
        assert await code_of(task) == "ASK_ABORTED"
    assert provider.cancelled


async def test_a_signal_already_set_aborts_before_anything_is_shown():
    signal = asyncio.Event()
    signal.set()
    provider = ScriptedProvider([{"lang": "R"}])
    with use_provider(provider):
        assert await code_of(ask_user([PICK], signal=signal)) == "ASK_ABORTED"
    assert provider.requests == []


async def test_cancelling_the_awaiting_task_cancels_the_provider():
    provider = Blocking()
    with use_provider(provider):
        task = asyncio.ensure_future(ask_user([PICK]))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert provider.cancelled


async def test_the_person_cancelling_is_its_own_code():
    lines = iter(["q"])
    with use_provider(ConsoleProvider(input=lambda p: next(lines), output=lambda s: None)):
        assert await code_of(ask_user([PICK])) == "CANCELLED"


# -- answer rules ----------------------------------------------------------------------------

async def test_single_select_custom_overrides_the_choice_and_empties_selected():
    answer = Answer((AnswerItem("lang", ("R",), "Haskell"),))
    with use_provider(ScriptedProvider([answer])):
        result = await ask_user([PICK])
    assert result["lang"] == AnswerItem("lang", (), "Haskell")


async def test_multi_select_custom_supplements_the_labels():
    answer = Answer((AnswerItem("tags", ("a", "c"), "z"),))
    with use_provider(ScriptedProvider([answer])):
        result = await ask_user([MULTI])
    assert result["tags"] == AnswerItem("tags", ("a", "c"), "z")


async def test_an_unanswered_question_is_a_skipped_item_in_a_completed_batch():
    with use_provider(ScriptedProvider([{"lang": "Julia"}])):
        result = await ask_user([PICK, MULTI, FREE])
    assert [a.id for a in result] == ["lang", "tags", "name"]
    assert [a.skipped for a in result] == [False, True, True]


async def test_answers_that_do_not_fit_the_request_are_refused():
    for bad in ({"nope": "x"}, {"lang": "Cobol"}, {"lang": ["Python", "R"]}):
        with use_provider(ScriptedProvider([bad])):
            assert await code_of(ask_user([PICK])) == "INVALID_ANSWER"


def test_answer_to_dict_is_the_spec_shape():
    answer = Answer((AnswerItem("a", ("x",)), AnswerItem("b", (), "t")))
    assert answer.to_dict() == {"answers": [{"id": "a", "selected": ["x"]},
                                            {"id": "b", "selected": [], "custom": "t"}]}


# -- the console provider ---------------------------------------------------------------------

async def test_console_provider_numbers_options_and_reads_each_kind_of_answer():
    shown: list[str] = []
    lines = iter(["1,3", "2", "", "Grace"])
    questions = [MULTI, PICK, {**FREE, "id": "skip"},
                 {"id": "who", "question": "Who?", "header": "People", "detail": "any name",
                  "options": [{"label": "Ada", "description": "the first"}]}]
    with use_provider(ConsoleProvider(input=lambda p: next(lines), output=shown.append)):
        answer = await ask_user(questions)
    assert answer.to_dict()["answers"] == [
        {"id": "tags", "selected": ["a", "c"]},
        {"id": "lang", "selected": ["R"]},
        {"id": "skip", "selected": []},
        {"id": "who", "selected": [], "custom": "Grace"},
    ]
    assert "[People]" in shown and "  1. Ada — the first" in shown and "any name" in shown


async def test_console_provider_takes_several_numbers_on_single_select_as_text():
    lines = iter(["1,2"])
    with use_provider(ConsoleProvider(input=lambda p: next(lines), output=lambda s: None)):
        answer = await ask_user([PICK])
    assert answer["lang"] == AnswerItem("lang", (), "1,2")


async def test_scripted_provider_says_when_it_runs_out():
    with use_provider(ScriptedProvider([])), pytest.raises(UserInteractionError,
                                                            match="no answer left"):
        await ask_user([PICK])

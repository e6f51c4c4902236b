"""The playground's ready-made agent replies: one per DIAL element and variant, and a broken one.

Each example is what a learner playing the agent could type: the reply (``xml``), the person's
words it answers (``says``) and a note on what to look at (``note``). Every example but
``malformed`` lints with no error (tests/unit/test_widget_playground_examples.py checks it); the
suggest examples propose ``add-note``, an action of the notes domain.

    >>> EXAMPLES_BY_KEY["suggest-payload"].says
    'add a note: buy milk'
"""

from __future__ import annotations

from dataclasses import dataclass

#: A 24×24 PNG (an orange dot on blue) as a data URL: media that needs no network.
DOT_PNG = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAZUlEQVR42mOQc1hPFcSAR"
    "+4/BiDNoP9EAMIGIav+WSyGhvCYxYDVFEwjsBqH3SAiTcFlFgMZpmA1C8Ug4k1BNosGBpFnCppZowbR2aDBl46omUWol"
    "mmpWYxQs2CjZlFLzcKfPAQAUq/KboeHOX4AAAAASUVORK5CYII="
)


@dataclass(frozen=True)
class Example:
    """One reply a learner can load into the playground's editor.

    Args:
        key: a stable name (``inform-prose``, ``ask-choice``, ``malformed`` …).
        label: what the example menu shows.
        xml: the agent's reply.
        says: the person's words the reply answers (sent with it).
        note: what to look at, in a sentence or two.
    """

    key: str
    label: str
    xml: str
    says: str
    note: str


def _dial(body: str) -> str:
    return f'<dial version="0.1" actor="agent">\n{body.strip(chr(10))}\n</dial>'


def _inform(render: str, says: str, note: str, body: str) -> Example:
    return Example(f"inform-{render}", f"inform · render=\"{render}\"", _dial(body), says, note)


_INFORMS = (
    _inform("prose", "hello", "The default: plain text, shown as a message. No answer is "
            "expected, so no turn follows.", """
  <dial-inform id="greeting" render="prose">
    Hello! I can add, list and remove your notes.
  </dial-inform>"""),
    _inform("card-list", "show my notes as cards", "Structured items go in a <dial-payload>; "
            "the card-list hint asks for one small card per item.", """
  <dial-inform id="notes" render="card-list">
    Here are your notes.
    <dial-payload type="application/json">
      [{"title": "buy milk", "id": 1, "list": "groceries"},
       {"title": "call Sam", "id": 2, "list": "people"}]
    </dial-payload>
  </dial-inform>"""),
    _inform("table", "show my notes as a table", "An array of objects becomes a table: one "
            "column per key.", """
  <dial-inform id="notes-table" render="table">
    Your notes:
    <dial-payload type="application/json">
      [{"id": 1, "text": "buy milk", "done": false},
       {"id": 2, "text": "call Sam", "done": true}]
    </dial-payload>
  </dial-inform>"""),
    _inform("chart", "chart my notes per list", "A chart travels as data: a Vega-Lite spec "
            "with its rows inline as values (a url is refused). The notebook draws it in the "
            "kernel, as an image.", """
  <dial-inform id="per-list" render="chart">
    Notes per list.
    <dial-payload type="application/vnd.vegalite+json">
      {"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
       "mark": "bar",
       "data": {"values": [{"list": "groceries", "notes": 3}, {"list": "people", "notes": 1}]},
       "encoding": {"x": {"field": "list", "type": "nominal"},
                    "y": {"field": "notes", "type": "quantitative"}}}
    </dial-payload>
  </dial-inform>"""),
    _inform("code", "how do I count my notes?", "Code is the element's text. A '<' in code must "
            "be written &lt; (and '&' as &amp;) or the XML breaks.", """
  <dial-inform id="snippet" render="code">
    done = [n for n in notes if n["done"]]
    print(len(done), "of", len(notes), "done")
    assert len(done) &lt;= len(notes)
  </dial-inform>"""),
    _inform("media", "show me a picture", "Images come as URLs. A data:image URL (this one) "
            "is shown at once: nothing is downloaded. An http(s) image is a placeholder naming "
            "its host until the person clicks Load image; other URLs are not shown.", f"""
  <dial-inform id="picture" render="media">
    A tiny picture.
    <dial-payload type="application/json">[{{"src": "{DOT_PNG}", "alt": "An orange dot"}}]</dial-payload>
  </dial-inform>"""),
    _inform("map", "where is the shop?", "Geographic data (GeoJSON here). A surface without a "
            "map shows the data itself.", """
  <dial-inform id="shop" render="map">
    The shop is in the old town.
    <dial-payload type="application/geo+json">
      {"type": "Feature", "properties": {"name": "Corner shop"},
       "geometry": {"type": "Point", "coordinates": [4.3517, 50.8503]}}
    </dial-payload>
  </dial-inform>"""),
    _inform("diagram", "how does a suggestion end?", "A diagram as text (Mermaid). '>' needs no "
            "escaping in XML text; '<' and '&' do.", """
  <dial-inform id="life" render="diagram">
    graph LR
      proposed --> accepted --> done
      proposed --> dismissed
  </dial-inform>"""),
    _inform("raw", "give me the raw data", "No hint: the consumer decides how to show the "
            "payload.", """
  <dial-inform id="raw" render="raw">
    <dial-payload type="application/json">{"notes": 2, "lists": ["groceries", "people"]}</dial-payload>
  </dial-inform>"""),
)


def _ask(kind: str, says: str, note: str, body: str) -> Example:
    return Example(f"ask-{kind}", f"ask · response-type=\"{kind}\"", _dial(body), says, note)


_ASKS = (
    _ask("text", "add a note", "A question blocks: answer it in the chat, and your words go "
         "back to the agent on the next turn (see What the agent receives).", """
  <dial-ask id="note-text" response-type="text" yield="text:given">
    What should the note say?
  </dial-ask>"""),
    _ask("choice", "add a note to a list", "A choice offers <dial-option> children: the "
         "person reads and clicks the text, the agent gets back the value (pick People to call: "
         "the agent receives people). default preselects; disabled shows but cannot be "
         "picked.", """
  <dial-ask id="which-list" response-type="choice" yield="list:chosen">
    Which list should the note go on?
    <dial-option value="groceries" default="true">Groceries list</dial-option>
    <dial-option value="people">People to call</dial-option>
    <dial-option value="archive" disabled="true">Archive (read-only)</dial-option>
  </dial-ask>"""),
    _ask("confirm", "clear all my notes", "Always Yes or No (options written on a confirm are "
         "ignored); the agent receives yes or no. The two yields name the two branches an "
         "element could wait for with observe. A yes approves no code: an execute that "
         "observes clear:confirmed still needs the person's Accept on its own card.", """
  <dial-ask id="clear" response-type="confirm" yield="clear:confirmed clear:cancelled">
    Remove all 2 notes? This cannot be undone.
  </dial-ask>"""),
    _ask("number", "keep only my newest notes", "A number (the chat refuses anything else). "
         "timeout is, in the schema, the seconds before the ask yields a timeout event; this "
         "runtime does not act on it: the question waits until it is answered.", """
  <dial-ask id="keep" response-type="number" timeout="60">
    How many notes should I keep?
  </dial-ask>"""),
    _ask("file", "import notes from a file", "A file upload: the agent is told the file's name "
         "and size.", """
  <dial-ask id="import" response-type="file">
    Send me the text file to import, one note per line.
  </dial-ask>"""),
)

_SUGGESTS = (
    Example("suggest-payload", "suggest · with its own payload", _dial("""
  <dial-suggest id="sg-milk" action="add-note" yield="milk:added milk:dismissed">
    Shall I add this note?
    <dial-payload type="application/json">{"text": "buy milk"}</dial-payload>
  </dial-suggest>"""), "add a note: buy milk",
        "A proposal: the domain checks the payload against add-note's schema, the person gets "
        "a card, and whatever they decide comes back to you as an outcome reply named by the "
        "suggest's id: <dial-acknowledge of=\"sg-milk\" yield=\"sg-milk:done\"> (ID:STATUS). "
        "The suggest's own yield (milk:added milk:dismissed) is not sent back: those events "
        "fire inside this reply, for an element that waits with observe=\"milk:added\"."),
    Example("suggest-declare", "suggest · payload in the declare that follows", _dial("""
  <dial-suggest id="sg-plumber" action="add-note">
    Shall I add a reminder to call the plumber?
  </dial-suggest>
  <dial-declare context-key="draft-note">
    <dial-payload type="application/json">{"text": "call the plumber"}</dial-payload>
  </dial-declare>"""), "remind me to call the plumber",
        "A suggest without a payload takes the <dial-declare> right after it as its payload: "
        "same card, same outcome."),
)

_OTHERS = (
    Example("acknowledge", "acknowledge", _dial("""
  <dial-acknowledge id="ack-milk" of="sg-milk">
    Got it: the note is saved.
  </dial-acknowledge>"""), "thanks",
        "Receipt of an earlier element (of = its id). It carries no new information; the chat "
        "shows its text."),
    Example("declare", "declare", _dial("""
  <dial-declare id="ctx-list" context-key="active-list" yield="list:set">
    <dial-payload type="application/json">{"list": "groceries", "sort": "newest"}</dial-payload>
  </dial-declare>
  <dial-inform>From now on I'll use your groceries list.</dial-inform>"""),
        "use my groceries list",
        "A fact put into the session's shared context under context-key: the chat's Context "
        "panel shows it, and a domain with a declare hook is told it. The inform beside it is "
        "what the person reads."),
    Example("execute", "execute (steps)", _dial("""
  <dial-execute id="shopping" yield="shopping:done shopping:failed">
    <step env="python" id="make" label="Make the shopping list" yield="list:made">
      shopping = ["milk", "bread", "eggs"]
      shopping
    </step>
    <step env="python" id="count" label="Count it" observe="list:made">
      print(len(shopping), "items:", ", ".join(shopping))
      len(shopping)
    </step>
  </dial-execute>"""), "make me a shopping list",
        "Raw commands, one per <step>; count waits for the list:made that make yields. The "
        "card is marked Runs code and lists every command: nothing runs until the person "
        "accepts it. Python steps run in this notebook, like a cell: after Accept, shopping "
        "is a variable here, and what each step printed and its last line's value come back "
        "to the agent, one outcome per step (of=\"make\", of=\"count\"). Shell steps are off unless "
        "the playground is given a shell executor (this one has none)."),
    Example("delegate", "delegate", _dial("""
  <dial-delegate id="to-calendar" to="calendar-agent" intent="schedule-reminder"
                 yield="delegation:accepted delegation:rejected">
    Handing this over to the calendar assistant.
    <dial-context>
      <dial-payload type="application/json">{"note": "call Sam", "when": "tomorrow 9:00"}</dial-payload>
    </dial-context>
  </dial-delegate>"""), "remind me tomorrow at 9 to call Sam",
        "A hand-off to another actor, with structured context for it. With no such actor "
        "registered, the person sees the request and the agent is told it was not delegated."),
    Example("phatic", "phatic", _dial("""
  <dial-phatic signal="typing"/>
  <dial-phatic signal="heartbeat" interval="30"/>
  <dial-inform>Still here, looking that up.</dial-inform>"""), "are you there?",
        "Channel signals (typing, heartbeat …) with no meaning of their own. Only the inform "
        "says something."),
)

MALFORMED = Example("malformed", "malformed · what LLMs really write", _dial("""
  <dial-infrom>Your notes are ready.</dial-infrom>
  <dial-inform>Rebuild with: make && ./index < notes.txt
"""), "rebuild the index",
    "Four mistakes: a misspelt element (<dial-infrom>), a bare '&', a bare '<' and an inform "
    "that is never closed. The parser repairs what it can, and the repaired text comes back "
    "exactly; the misspelt element is not DIAL, so the runtime ignores it and lint names it "
    "(did you mean <dial-inform>?). Lint shows the first XML error too; fix it and run again.")

#: Every example, in the order the menu shows them.
EXAMPLES: tuple[Example, ...] = (*_INFORMS, *_ASKS, *_SUGGESTS, *_OTHERS, MALFORMED)
EXAMPLES_BY_KEY: dict[str, Example] = {example.key: example for example in EXAMPLES}

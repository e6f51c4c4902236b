// @ts-check
// The front end, as anywidget loads it: ONE module for both widgets of the package, so the
// wheel carries each module once. Its render draws the view the model asks for: the ChatWidget
// (a DIAL conversation from the model's synced traits, the person's clicks sent as custom
// messages: view.js, contract.js), or the Replay (a saved conversation, one event at a time,
// drawn by the same modules, read-only: replay.js). The Replay's model says so in its `_view`
// trait ('replay'); a model without one is a ChatWidget's. No framework. esbuild bundles this
// module and those it imports into dial_notebook/widget/static/widget.js, and widget.css into
// static/widget.css (`npm run build`); edit these, never the bundle.
//
//   model._view === 'replay' ──▶ replay.js  render (initialize does nothing)
//   anything else            ──▶ view.js    render, live.js initialize (appends, sync)
//
//   contract.js  the kernel's traits, events and messages, as types
//   text.js      URLs, hidden characters, paths, summaries, numbers   (pure)
//   items.js     the transcript as display items, and result shapes   (pure)
//   dom.js       h(), button(), uid(), shared bits of DOM
//   state.js     what one view remembers between redraws
//   live.js      appends to the transcript (once per model), the reply being streamed
//   unsaved.js   the transcript left out of the widget state a notebook saves (the static copy
//                holds it)
//   arriving.js  the static copy after the widget kept hidden while the conversation arrives
//   view.js      the frame, composer, context panel, streamed bubble
//   link.js      the link to the kernel: a send dropped once it is gone, the ping, "not connected"
//   log.js       one node per item, redrawn when its signature changes; each drawn lazily
//                (chat.css: content-visibility), bottom.js keeps the log at its end
//   cards.js     suggestion cards and execute steps      editor.js  the editor (form | JSON)
//   form.js      the JSON-Schema form                    ask.js     <dial-ask> cards
//   inform.js    informs and action results (tables, images, card lists)
//   review.js    a card's dry run ("What it will do"), Undo; review-shapes.js what they are (pure)
//   code.js      code with Copy, collapsed parts; the footer's all the code
//   rules.js     "Always allow like this…": the rule editor drawn; its schema (rules-schema.js),
//                its state and what it sends (rules-state.js), the kernel's answers
//                (rules-messages.js)
//   rules-panel.js  the footer's rules panel (Revoke), a card's "Accepted by rule r1"
//   comments.js  field comments and a dismissal's reason, sent with a decision; shown after it
//   questions.js ask_user's panel                        markdown.js  markdown-lite
//   replay.js    the Replay's frame and stepping; replay-panels.js its side panels;
//                replay-steps.js what each step means (pure)
//
// Schema v0.1 at run time (a full_dial conversation): an execute block is a suggestion card
// with kind 'execute' (its steps' commands shown monospace with env and label; step outcomes
// carry `block` and attach to it); 'declare' events fill a small context panel; 'phatic'
// typing / thinking light the indicator while a say runs; 'delegate' shows the hand-off;
// informs with act 'skipped' / 'addressed-elsewhere' are notes.
//
// Agent text is untrusted: every string reaches the page through textContent or an attribute
// set by setAttribute on an element this front end created; URLs pass safeUrl() first.

import { initialize as initializeChat } from "./live.js";
import { render as renderReplay } from "./replay.js";
import { keepUnsaved } from "./unsaved.js";
import { render as renderChat } from "./view.js";

/** @typedef {import("./contract.js").Model} Model */
/** @typedef {import("./replay.js").ReplayModel} ReplayModel */

/**
 * Which view a model is for: 'replay' when its `_view` trait says so, else 'chat'.
 * @param {{get: (key: any) => any}} model
 * @returns {'chat' | 'replay'}
 *
 * @example
 * viewOf({ get: (key) => ({ _view: "replay" })[key] }); // 'replay'
 * viewOf({ get: () => undefined });                     // 'chat'
 */
export function viewOf(model) {
  return model.get("_view") === "replay" ? "replay" : "chat";
}

/**
 * anywidget's initialize, once per model: a ChatWidget's appends and sync (live.js); nothing
 * for a Replay (its transcript comes whole, once).
 * @param {{model: Model}} props
 * @returns {(() => void) | undefined}
 */
function initializeModel({ model }) {
  if (viewOf(model) === "replay") return undefined;
  void keepUnsaved(model); // saved widget state: no second copy of the conversation
  return initializeChat({ model });
}

/**
 * anywidget's render, once per view: the model's view drawn in `el`; the returned function
 * cleans up.
 * @param {{model: Model | ReplayModel, el: HTMLElement}} props
 * @returns {() => void}
 */
function renderView({ model, el }) {
  if (viewOf(model) === "replay") return renderReplay({ model: /** @type {ReplayModel} */ (model), el });
  return renderChat({ model: /** @type {Model} */ (model), el });
}

export default { initialize: initializeModel, render: renderView };

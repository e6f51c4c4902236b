// @ts-check
// The ChatWidget's front end, as anywidget loads it: renders one DIAL conversation from the
// model's synced traits and turns the person's clicks into custom messages (the contract:
// contract.js). No framework. esbuild bundles this module and those it imports into
// dial_notebook/widget/static/widget.js (`npm run build`); edit these, never the bundle.
//
//   contract.js  the kernel's traits, events and messages, as types
//   text.js      URLs, hidden characters, paths, summaries, numbers   (pure)
//   items.js     the transcript as display items, and result shapes   (pure)
//   dom.js       h(), button(), uid(), shared bits of DOM
//   state.js     what one view remembers between redraws
//   live.js      appends to the transcript (once per model), the reply being streamed
//   view.js      the frame, composer, context panel, streamed bubble, the link to the kernel
//   log.js       one node per item, redrawn when its signature changes
//   cards.js     suggestion cards and execute steps      editor.js  the editor (form | JSON)
//   form.js      the JSON-Schema form                    ask.js     <dial-ask> cards
//   inform.js    informs and action results (tables, images, card lists)
//   review.js    a card's dry run ("What it will do"), its code with Copy, Undo; all the code
//   rules.js     "Always allow like this…": the rule editor, its schema, its messages
//   rules-panel.js  the footer's rules panel (Revoke), a card's "Accepted by rule r1"
//   comments.js  field comments and a dismissal's reason, sent with a decision; shown after it
//   questions.js ask_user's panel                        markdown.js  markdown-lite
//
// Schema v0.1 at run time (a full_dial conversation): an execute block is a suggestion card
// with kind 'execute' (its steps' commands shown monospace with env and label; step outcomes
// carry `block` and attach to it); 'declare' events fill a small context panel; 'phatic'
// typing / thinking light the indicator while a say runs; 'delegate' shows the hand-off;
// informs with act 'skipped' / 'addressed-elsewhere' are notes.
//
// Agent text is untrusted: every string reaches the page through textContent or an attribute
// set by setAttribute on an element this front end created; URLs pass safeUrl() first.

import { initialize } from "./live.js";
import { render } from "./view.js";

export default { initialize, render };

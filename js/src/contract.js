// @ts-check
// The contract between the kernel and this front end, as types (no code): the synced traits the
// view reads, the events of the transcript (dial_notebook/runtime/_events.py and _contract.py,
// plus the widget's own 'person' and 'error'), the `pending` trait (widget/_chat_widget.py:
// decide / answer; widget/_contract.py), the `questions` trait (widget/_questions.py), the
// `rules` trait (the rules "always allow like this" made), and the custom messages each way.
// js/test/contract.test.mjs reads a transcript the kernel made.
//
//   traits in:    transcript (grown by 'append', never re-sent whole), pending, thinking,
//                 running, queued, schemas, title, usage, questions, provider_note, code,
//                 undoable, rules
//   messages out: decide (+ the person's reason and field comments) · answer (+ one buffer
//                 for a file) · say · retry · stop · ping · sync · questions · dry-run (the
//                 person's edit, to be tried) · undo · rule-draft (is this schema a rule, what
//                 would it match) · allow (save the rule, accept the card with it) · revoke
//   messages in:  pong (the kernel still holds this widget) · append (new events) · progress
//                 (a reply being streamed) · dry-run (what the edit would do) · rule-draft
//                 (the check of a schema) · allow (the rule saved, or why not) · run-progress
//                 (how far a run has come) · run-started (a run began: its card runs)
//
// The kernel's values are JSON; a field the kernel may leave out is optional here, and the
// code reads every one defensively (agent text is untrusted, and so is its shape).

export {};

/** Any JSON value from the kernel; the code checks its shape where it reads it.
 *  @typedef {any} Json */

/** A JSON Schema (an action's payload schema), read loosely by the form.
 *  @typedef {{[key: string]: Json}} JsonSchema */

// ---- transcript events ------------------------------------------------------------------------

/** @typedef {{type: 'sent', turn: number, message: string}} SentEvent */
/** @typedef {{type: 'reply', turn: number, text: string, truncated?: boolean, chars?: number}} ReplyEvent */

/**
 * An inform or acknowledge (act), an element skipped because its observed event never fired
 * (act 'skipped'), one addressed to someone else (act 'addressed-elsewhere'), an unread reply
 * (act 'unread'); plain prose has no act.
 * @typedef {{
 *   type: 'inform', text: string,
 *   act?: 'inform' | 'acknowledge' | 'skipped' | 'addressed-elsewhere' | 'unread' | string,
 *   of?: string, render?: string, payload?: Json,
 *   element?: string, id?: string | null, observe?: string | null, reason?: string,
 *   addressed_to?: string, chart?: Chart,
 * }} InformEvent
 */

/**
 * A Vega-Lite chart the kernel drew (widget/_vegalite.py; not the runtime's: the widget adds it
 * to its copy of a chart inform, and to an action's result holding `vega_lite`): the PNG as a
 * data: URL with its size in CSS pixels, or why it was not drawn.
 * @typedef {{src: string, width: number, height: number, alt: string} | {error: string}} Chart
 */

/** @typedef {{value: string, label: string, default: boolean, disabled: boolean}} AskOption */

/** A confirm has no options (it is drawn as Yes / No).
 *  @typedef {{type: 'ask', id: string, text: string, response_type: string, options: AskOption[]}} AskEvent */

/** A refused edit's issue as the widget shows it (widget/_human.py: issue_of).
 *  @typedef {{text: string, code: string | null, field: string | null}} Issue */
/** @typedef {{field: string, message: string}} FieldError */

/** @typedef {{id: string, env?: string, label?: string | null, command?: string}} Step */

/**
 * A table as the domains send it (a result's `table`, a dry run's sample): the first rows,
 * their index labels, and how many rows the whole has.
 * @typedef {{columns: Json[], index?: Json[], rows: Json[][], total_rows?: number}} Table
 */

/**
 * What a data-frames proposal would do: the frame (and the one it writes `into`), rows and
 * columns [before, after] (before null: a new frame), the columns added, removed and renamed
 * (old -> new), the dtypes of new or changed columns, a sample before and after, and why the
 * sample is a sample (`sampled`) or null.
 * @typedef {{
 *   frame?: string, into?: string, rows?: [number | null, number], columns?: [number | null, number],
 *   added?: string[], removed?: string[], renamed?: {[old: string]: string},
 *   dtypes?: {[column: string]: string}, sample?: {before?: Table | null, after?: Table | null},
 *   sampled?: string | null,
 * }} FramesEffect
 */

/**
 * What the domain says a proposal would do, made before the person decides (the runtime's
 * _review.py): what it does in a sentence, its effect (a FramesEffect for data frames; any
 * JSON for other domains), the code it amounts to, a note; or why it could not say (`ok`
 * false: the card says so and the buttons work as ever).
 * @typedef {{ok: true, summary?: string, effect?: Json, code?: string, note?: string}
 *   | {ok: false, error: string}} DryRun
 */

/**
 * A valid proposal; an execute block (full_dial) is one too, with kind 'execute', payload
 * {steps}, the steps' schema, `confirmed` (offered because a confirm was answered yes) and
 * `suspicious` (step id -> hidden characters named 'U+202E'). `allowable`: a rule may be made
 * for it ("Always allow like this…"; never an execute block nor a destructive card); `rule`:
 * the id of the rule that accepted it without asking (no decision is asked; its outcome follows).
 * `stale`: the same card again, checked before it ran because what it works on changed since
 * it was proposed (`why` in words, `changed` the names): its preview and dry run are new.
 * @typedef {{
 *   type: 'suggestion', id: string, action: string, text: string, payload: Json,
 *   preview: string, destructive: boolean, mutates: boolean,
 *   issue?: {[key: string]: Json}, edits_left?: number,
 *   kind?: 'execute', schema?: JsonSchema, confirmed?: boolean,
 *   suspicious?: {[stepId: string]: string[]}, dry_run?: DryRun,
 *   allowable?: true, rule?: string, stale?: {why: string, changed?: string[]},
 * }} SuggestionEvent
 */

/** A comment of the person's on one field of a proposal: `field` a JSON Pointer ('' the whole).
 *  @typedef {{field: string, text: string}} FieldComment */

/**
 * What became of a proposal (or of one step of an execute block: `block`, `command`; or of a
 * delegation: `to`, `resume`). A done proposal the person took back gets a second, later
 * outcome with status 'undone'; a done result may carry `code` (the code of what ran).
 * `rule`: the rule that accepted it; `reason`: why the person dismissed it; `comments`: what
 * the person said of its fields when deciding (all three told to the agent too).
 * @typedef {{
 *   type: 'outcome', id: string, action: string, status: string, preview: string,
 *   result?: Json, error?: string, code?: string | null, field?: string | null,
 *   hint?: string | null, edited?: boolean, block?: string, command?: string, to?: string,
 *   resume?: boolean, rule?: string, reason?: string, comments?: FieldComment[],
 * }} OutcomeEvent
 */

/** @typedef {{type: 'declare', id: string | null, key: string, value: Json}} DeclareEvent */

/**
 * @typedef {{
 *   type: 'delegate', id: string, to: string, intent: string | null, text: string,
 *   context: Json, resume: boolean, registered: boolean,
 * }} DelegateEvent
 */

/** @typedef {{type: 'phatic', signal: string, interval?: number, id?: string}} PhaticEvent */
/** An Undo that did not happen (the suggestion stays done).
 *  @typedef {{type: 'undo-failed', id: string, error: string}} UndoFailedEvent */
/** @typedef {{type: 'no-reply', turn: number, error: string}} NoReplyEvent */
/** @typedef {{type: 'turn-limit', turns: number}} TurnLimitEvent */

/** The person's words (answer_to: the index of the ask they answer; questions: the token of
 *  the ask_user request they answer).
 *  @typedef {{type: 'person', text: string, answer_to?: number | null, questions?: string}} PersonEvent */

/** A say that raised in the kernel. @typedef {{type: 'error', error: string}} ErrorEvent */
/** A say the person stopped; `partial`: the streamed prose it had shown.
 *  @typedef {{type: 'stopped', partial?: string}} StoppedEvent */
/** The conversation carried on from a saved session; `waiting`: a card or question is back.
 *  @typedef {{type: 'resumed', session: string, saved_at: string, waiting: boolean, read_only?: boolean}} ResumedEvent */

/**
 * @typedef {SentEvent | ReplyEvent | InformEvent | AskEvent | SuggestionEvent | OutcomeEvent
 *   | DeclareEvent | DelegateEvent | PhaticEvent | NoReplyEvent | TurnLimitEvent | PersonEvent
 *   | ErrorEvent | StoppedEvent | ResumedEvent | UndoFailedEvent} TranscriptEvent
 */

// ---- what the person is asked now ---------------------------------------------------------------

/**
 * A decision on suggestion `id`, answered with a 'decide' message carrying `token`; after a
 * refused edit, `issue`, `errors` and `edits_left` say why and how many tries remain.
 * @typedef {{
 *   kind: 'decide', token: string, id: string, action: string, payload: Json,
 *   issue: Issue | null, errors: FieldError[], edits_left: number | null,
 * }} DecidePending
 */

/**
 * An answer to the ask at transcript `index` (a confirm has no options: Yes / No only).
 * @typedef {{
 *   kind: 'answer', token: string, index: number, response_type: string, options: AskOption[],
 * }} AnswerPending
 */

/** `{}` when nothing waits. @typedef {DecidePending | AnswerPending} Pending */

// ---- ask_user's questions panel -----------------------------------------------------------------

/** @typedef {{label: string, description?: string | null}} QuestionOption */

/**
 * @typedef {{
 *   id: string, question: string, detail?: string | null, header?: string | null,
 *   multi_select?: boolean, options?: QuestionOption[],
 *   intent?: {kind: string, approve: string} | null,
 * }} Question
 */

/** `{}` when none waits. @typedef {{token: string, questions: Question[]}} QuestionsRequest */

/** @typedef {{id: string, selected: string[], custom?: string}} AnswerItem */

// ---- rules ("always allow like this") -------------------------------------------------------------

/**
 * A rule: proposals of `action` whose payload `schema` accepts are accepted without asking, in
 * this conversation or in every conversation of this notebook; `created` ISO-8601 UTC, `fired`
 * how many proposals it has accepted.
 * @typedef {{
 *   id: string, action: string, schema: Json, scope: 'conversation' | 'notebook',
 *   created: string, fired: number, state?: 'unconfirmed',
 * }} Rule
 * (`state` 'unconfirmed': a notebook rule another conversation read from its file; it accepts
 * nothing here until the person confirms it.)
 */

/**
 * A conversation shown read-only: the file it came from (not made by this user) and the rules
 * in it, none of them active, until the person trusts it; `error`: why the last "Trust this file"
 * failed (the file could not be signed).
 * @typedef {{file: string, rules: Rule[], error?: string}} UntrustedSession
 */

/** An earlier proposal a draft rule would have accepted (`edited`: the person edited it before it ran). @typedef {{id: string, preview: string, status: string, edited?: boolean}} RuleMatch */

// ---- the synced traits --------------------------------------------------------------------------

/** Tokens the agent reported, summed. @typedef {{turns: number, input?: number, output?: number, total?: number}} Usage */

/**
 * `code`: one script of every accepted step not undone ('' when none); `undoable`: for done
 * suggestions, id -> true (Undo is offered) or why it cannot be undone; `rules`: every rule
 * this conversation applies ([] when none).
 * @typedef {{
 *   transcript: TranscriptEvent[], pending: Pending | {}, thinking: boolean, running: boolean,
 *   queued: string[], schemas: {[action: string]: JsonSchema}, title: string,
 *   usage: Usage | {}, questions: QuestionsRequest | {}, provider_note: string,
 *   code: string, undoable: {[id: string]: true | string}, rules: Rule[],
 *   untrusted: UntrustedSession | {},
 * }} Traits
 */

// ---- custom messages ------------------------------------------------------------------------------

/**
 * A decision; `reason` only with 'dismiss', `comments` with any (each key left out when empty;
 * every text trimmed, none empty).
 * @typedef {{
 *   type: 'decide', token: string, decision: 'accept' | 'dismiss' | 'edit', payload?: Json,
 *   reason?: string, comments?: FieldComment[],
 * }} DecideMessage
 * @typedef {{name: string, size: number, type: string}} FileInfo
 * @typedef {{type: 'answer', token: string, value?: string, file?: FileInfo}} AnswerMessage
 * @typedef {{type: 'say', text: string}} SayMessage
 * @typedef {{type: 'retry'}} RetryMessage
 * @typedef {{type: 'stop'}} StopMessage
 * @typedef {{type: 'ping', id: string}} PingMessage
 * @typedef {{type: 'sync', length: number}} SyncMessage
 * @typedef {{type: 'questions', token: string, answers: AnswerItem[]}} QuestionsMessage
 * @typedef {{type: 'dry-run', token: string, payload: Json}} DryRunMessage
 * @typedef {{type: 'undo', id: string}} UndoMessage
 * Is `schema` a valid rule for the card waiting under `token`, and what would it match?
 * @typedef {{type: 'rule-draft', token: string, schema: Json}} RuleDraftMessage
 * Save the rule, and accept the card waiting under `token` with it.
 * @typedef {{type: 'allow', token: string, schema: Json, scope: Rule['scope']}} AllowMessage
 * @typedef {{type: 'revoke', id: string}} RevokeMessage
 * "Trust this file": sign the read-only conversation's file with the person's secret, carry on.
 * @typedef {{type: 'trust'}} TrustMessage
 * @typedef {{type: 'confirm-rule', id: string}} ConfirmRuleMessage
 * @typedef {DecideMessage | AnswerMessage | SayMessage | RetryMessage | StopMessage | PingMessage
 *   | SyncMessage | QuestionsMessage | DryRunMessage | UndoMessage | RuleDraftMessage
 *   | AllowMessage | RevokeMessage | TrustMessage | ConfirmRuleMessage} MessageOut
 * @typedef {{type: 'pong', id: string}} PongMessage
 * @typedef {{type: 'append', start: number, events: TranscriptEvent[]}} AppendMessage
 * @typedef {{
 *   type: 'progress', turn: number, writing: string | null, at?: number, text?: string,
 *   prose?: string,
 * }} ProgressMessage
 * The kernel's answer to a DryRunMessage: its token and payload, echoed, and the dry run
 * (null when the domain has none for it).
 * @typedef {{type: 'dry-run', token: string, payload: Json, result: DryRun | null}} DryRunResultMessage
 * The kernel's check of a RuleDraftMessage's very `schema` (echoed): why it cannot be a rule
 * (`error`), the earlier proposals of the action it accepts (at most 20 listed, `total` in all,
 * the card itself left out), and whether it accepts the card's own payload (`card`).
 * @typedef {{
 *   type: 'rule-draft', token: string, schema: Json, error: string | null, matches: RuleMatch[],
 *   total: number, card: boolean,
 * }} RuleDraftResultMessage
 * The answer to an AllowMessage: the rule's id, or why it was not saved.
 * @typedef {{type: 'allow', token: string, rule: string | null, error: string | null, card?: boolean}} AllowResultMessage
 * How far a run has come, as the run said (dial_notebook.report_progress): paced, never kept.
 * @typedef {{
 *   type: 'run-progress', id: string, action: string, progress: number, total: number | null,
 *   message: string | null,
 * }} RunProgressMessage
 * A run started, for its card (or execute step): Running… until its outcome; `stoppable`: Stop
 * cancels the run (run-progress.js). Never kept.
 * @typedef {{type: 'run-started', id: string, action: string, stoppable: boolean}} RunStartedMessage
 */

/**
 * The part of anywidget's model this front end uses.
 * @typedef {{
 *   get: <K extends keyof Traits>(key: K) => Traits[K] | undefined,
 *   set: <K extends keyof Traits>(key: K, value: Traits[K]) => void,
 *   on: (name: string, callback: (...args: any[]) => void) => void,
 *   off: (name?: string | null, callback?: ((...args: any[]) => void) | null) => void,
 *   send: (content: MessageOut, callbacks?: unknown, buffers?: ArrayBuffer[]) => void,
 * }} Model
 */

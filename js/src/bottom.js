// @ts-check
// The log kept at its bottom while the conversation grows, when the person is there. The log's
// entries are drawn lazily (chat.css: `content-visibility: auto`), so an entry just added, or
// one scrolled into view, may be laid out at an estimated size first and at its real size in
// the frame after: one scroll to the bottom is not enough. pinToBottom scrolls there at the
// next frame (once, however many updates came before it: one layout, not one per update) and
// again in each frame after, until the log's height holds still, unless the person (or
// find-in-page) has scrolled away meanwhile.
//
//   update() ──▶ follows(log)? (before drawing) ──▶ draw ──▶ pinToBottom(log)
//     ──▶ next frame: scrollTop = scrollHeight
//     ──▶ each frame after: still where it was put (or within NEAR_PX of the bottom)? again,
//         until the height has not changed for a frame (at most PIN_FRAMES frames)
//   no requestAnimationFrame (a test's DOM) ──▶ scrolled now, once
//
// Whether the log follows is the person's choice, kept (followBottom), not measured when an
// entry comes: a log out of view (JupyterLab lays off-screen cells out again, at their top) or
// not laid out yet measures wrong.
//   followBottom(log) ──▶ follows(log) true; a scroll within TOUCH_MS of the person's wheel,
//       touch, key or pointer in the log sets it to atBottom(log) (scrolled away: false; back at
//       the end: true); any other scroll (a layout, find-in-page) leaves it
//   the log comes into view (IntersectionObserver) and follows ──▶ pinToBottom
//   followAgain(log) (the person sent a message) ──▶ follows, and pinToBottom

/** How close to the bottom (px) counts as "at the bottom": the log follows what is added. */
export const NEAR_PX = 40;
/** The most frames a pin keeps the log at its bottom for. */
export const PIN_FRAMES = 30;

/**
 * A pin going on: where the log was put and how tall it was then (null: not scrolled yet),
 * and the frames it has lasted.
 * @typedef {{top: number | null, height: number, frames: number}} Pin
 */

/** How long (ms) after the person's wheel, touch, key or pointer a scroll counts as theirs. */
export const TOUCH_MS = 1000;

/** @type {WeakMap<HTMLElement, Pin>} */
const pins = new WeakMap();

/** Each followed log: whether it follows, and when the person last touched it. */
/** @type {WeakMap<HTMLElement, {follow: boolean, touched: number}>} */
const followed = new WeakMap();

const now = () => (typeof performance === "object" ? performance.now() : Date.now());

/**
 * Keep `log` following what is added until the person scrolls away (see the header); the
 * returned function stops (the view's cleanup).
 * @param {HTMLElement} log
 * @returns {() => void}
 */
export function followBottom(log) {
  const state = { follow: true, touched: -Infinity };
  followed.set(log, state);
  const touched = () => { state.touched = now(); };
  const scrolled = () => {
    if (now() - state.touched <= TOUCH_MS && log.clientHeight > 0) state.follow = atBottom(log);
  };
  const inputs = ["wheel", "touchmove", "keydown", "pointerdown"];
  for (const type of inputs) log.addEventListener(type, touched, { passive: true });
  log.addEventListener("scroll", scrolled, { passive: true });
  const seen = typeof IntersectionObserver === "function"
    ? new IntersectionObserver((entries) => {
      if (state.follow && entries.some((entry) => entry.isIntersecting) && !atBottom(log)) pinToBottom(log);
    })
    : null;
  seen?.observe(log);
  return () => {
    for (const type of inputs) log.removeEventListener(type, touched);
    log.removeEventListener("scroll", scrolled);
    seen?.disconnect();
    if (followed.get(log) === state) followed.delete(log);
  };
}

/**
 * Whether `log` follows what is added: the person has not scrolled away (a log nobody
 * follows with followBottom: whether it is at its bottom now).
 * @param {HTMLElement} log
 */
export function follows(log) {
  const state = followed.get(log);
  return state ? state.follow || pins.get(log)?.top === null : atBottom(log);
}

/**
 * The person sent a message: the log follows again, and goes to its bottom.
 * @param {HTMLElement} log
 */
export function followAgain(log) {
  const state = followed.get(log);
  if (state) state.follow = true;
  pinToBottom(log);
}

/**
 * Whether the log shows its end (within NEAR_PX), or is about to (a pin not yet scrolled).
 * @example
 *   if (atBottom(log)) return; // already showing its end: nothing to pin
 * @param {HTMLElement} log
 */
export function atBottom(log) {
  if (pins.get(log)?.top === null) return true;
  return log.scrollHeight - log.scrollTop - log.clientHeight < NEAR_PX;
}

/**
 * Scroll the log to its bottom at the next frame, and keep it there for the frames after
 * while entries take their real size (each call starts the count again).
 * @example
 *   pinToBottom(chat.log); // the newest entry in view, whole, once it is drawn
 * @param {HTMLElement} log
 */
export function pinToBottom(log) {
  if (typeof requestAnimationFrame !== "function") {
    log.scrollTop = log.scrollHeight;
    return;
  }
  const going = pins.get(log);
  pins.set(log, { top: null, height: 0, frames: 0 });
  if (!going) requestAnimationFrame(() => keepPinned(log));
}

/**
 * One frame of a pin: to the bottom (the first time, or if the log grew under it); done once
 * it held still, after PIN_FRAMES, or when somebody else scrolled it.
 * @param {HTMLElement} log
 */
function keepPinned(log) {
  const pin = pins.get(log);
  if (!pin) return;
  if (pin.top !== null) {
    const state = followed.get(log); // a followed log knows when the person touched it
    const theirs = !state || now() - state.touched <= TOUCH_MS; // else a layout moved it
    const moved = theirs && log.scrollTop !== pin.top && !atBottom(log); // the person scrolled away
    const still = log.scrollHeight === pin.height && log.scrollHeight - log.scrollTop - log.clientHeight <= 1;
    if (moved || still || pin.frames >= PIN_FRAMES || !log.isConnected) {
      pins.delete(log);
      if (moved && state) state.follow = false;
      return;
    }
  }
  log.scrollTop = log.scrollHeight;
  pin.top = log.scrollTop;
  pin.height = log.scrollHeight;
  pin.frames += 1;
  requestAnimationFrame(() => keepPinned(log));
}

// @ts-check
// The log kept at its bottom while the conversation grows, when the person is there. The log's
// entries are drawn lazily (chat.css: `content-visibility: auto`), so an entry just added, or
// one scrolled into view, may be laid out at an estimated size first and at its real size in
// the frame after: one scroll to the bottom is not enough. pinToBottom scrolls there at the
// next frame (once, however many updates came before it: one layout, not one per update) and
// again in each frame after, until the log's height holds still, unless the person (or
// find-in-page) has scrolled away meanwhile.
//
//   update() ──▶ atBottom(log)? (before drawing) ──▶ draw ──▶ pinToBottom(log)
//     ──▶ next frame: scrollTop = scrollHeight
//     ──▶ each frame after: still where it was put (or within NEAR_PX of the bottom)? again,
//         until the height has not changed for a frame (at most PIN_FRAMES frames)
//   no requestAnimationFrame (a test's DOM) ──▶ scrolled now, once

/** How close to the bottom (px) counts as "at the bottom": the log follows what is added. */
export const NEAR_PX = 40;
/** The most frames a pin keeps the log at its bottom for. */
export const PIN_FRAMES = 30;

/**
 * A pin going on: where the log was put and how tall it was then (null: not scrolled yet),
 * and the frames it has lasted.
 * @typedef {{top: number | null, height: number, frames: number}} Pin
 */

/** @type {WeakMap<HTMLElement, Pin>} */
const pins = new WeakMap();

/**
 * Whether the log shows its end (within NEAR_PX), or is about to (a pin not yet scrolled).
 * @example
 *   const follow = atBottom(log); drawLog(…); if (follow) pinToBottom(log);
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
    const moved = log.scrollTop !== pin.top && !atBottom(log); // the person scrolled away
    const still = log.scrollHeight === pin.height && log.scrollHeight - log.scrollTop - log.clientHeight <= 1;
    if (moved || still || pin.frames >= PIN_FRAMES || !log.isConnected) {
      pins.delete(log);
      return;
    }
  }
  log.scrollTop = log.scrollHeight;
  pin.top = log.scrollTop;
  pin.height = log.scrollHeight;
  pin.frames += 1;
  requestAnimationFrame(() => keepPinned(log));
}

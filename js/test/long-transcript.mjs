// A long analysis conversation for the front end's tests of growth (no times, only counts): the
// shape of tests/long_conversation.py in a few lines — requests, each with a card and its
// outcome (a table every fourth), an acknowledgement, a declare, prose — `events` long.
//
//   longTranscript(2000)  // 2,000 events, about 330 cards, each with its outcome

/**
 * @param {number} events
 * @returns {object[]}
 */
export function longTranscript(events) {
  const out = [];
  for (let k = 1; out.length < events; k += 1) {
    const id = `s${k}`;
    const rows = Array.from({ length: k % 4 === 0 ? 20 : 3 }, (_, i) => [i, `row ${i} of ${k}`, i / 2]);
    out.push(
      { type: "person", text: `Look at column c${k}, please.` },
      { type: "sent", turn: 1, message: `look ${k}` },
      { type: "reply", turn: 1, text: "<dial>…</dial>" },
      { type: "inform", act: "inform", text: `Here is **what** I found for c${k}:\n\n- mean ${k / 2}\n- median ${k}` },
      { type: "suggestion", id, action: "describe", text: `Describe c${k}?`, payload: { column: `c${k}` },
        preview: `Describe c${k}`, destructive: false, mutates: false },
      { type: "outcome", id, action: "describe", status: "done", preview: `Describe c${k}`,
        result: { table: { columns: ["a", "b", "c"], rows, total_rows: rows.length } } },
      { type: "inform", act: "acknowledge", of: id, text: `Described c${k}.` },
      { type: "declare", id: null, key: `outcome:${id}`, value: { status: "done" } },
      { type: "inform", act: "inform", text: `Prose ${k}. `.repeat(8) },
    );
  }
  return out.slice(0, events);
}

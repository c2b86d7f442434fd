// Seat references in the engines' texts ("P1", "seat 1", "seats 0 and 2", "player 1", "席1") shown as the seat's
// display name, so the log, the move buttons and the panels name players the same way.

const SEATS_REF = /(?<![A-Za-z0-9_])[Ss]eats ((?:\d{1,2}, )*\d{1,2},? and \d{1,2})(?![0-9])/g;
const SEAT_REF = /(?<![A-Za-z0-9_])(?:P|[Ss]eat |[Pp]layer |席|プレイヤー)(\d{1,2})(?![0-9])/g;

/**
 * `text` with every seat reference to a seat below `count` replaced by nameOf(seat), in one pass
 * (a name that itself looks like "P2" is left as it is).
 */
export function relabel(text, nameOf, count) {
  if (typeof text !== 'string' || !text) return text;
  text = text.replaceAll('\u0000', '');
  // "seats 0, 1 and 2": the names, same list shape
  const listed = text.replace(SEATS_REF, (whole, list) => {
    const seats = list.match(/\d+/g).map(Number);
    if (seats.some((x) => x >= count)) return whole;
    return list.replace(/\d+/g, (d) => `\u0000${d}\u0000`);
  });
  return listed
    .replace(SEAT_REF, (whole, digits) => (Number(digits) < count ? `\u0000${digits}\u0000` : whole))
    .replace(/\u0000(\d+)\u0000/g, (_, d) => nameOf(Number(d)));
}

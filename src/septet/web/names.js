// Seat references in the engines' texts ("P1", "seat 1", "player 1", "席1") shown as the seat's
// display name, so the log, the move buttons and the panels name players the same way.

const SEAT_REF = /(?<![A-Za-z0-9_])(?:P|[Ss]eat |[Pp]layer |席|プレイヤー)(\d{1,2})(?![0-9])/g;

/**
 * `text` with every seat reference to a seat below `count` replaced by nameOf(seat), in one pass
 * (a name that itself looks like "P2" is left as it is).
 */
export function relabel(text, nameOf, count) {
  if (typeof text !== 'string' || !text) return text;
  return text.replace(SEAT_REF, (whole, digits) => {
    const seat = Number(digits);
    return seat < count ? nameOf(seat) : whole;
  });
}

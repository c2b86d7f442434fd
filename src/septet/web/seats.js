// How seats are named and bots are worded, the same in every panel, the log and the end
// screen: people by their display name, bots as "Bot 1", "Bot 2" (numbered among the table's
// bots) with their level (Easy / Normal / Strong / Expert; 弱い / 普通 / 強い / 達人) beside them, and the
// algorithm only in a tooltip.

import { t } from './i18n.js';

const LEVELS = ['easy', 'normal', 'strong', 'expert'];

/** The level's word in the current language ("Normal" / 「普通」), or '' for none. */
export function levelWord(level) {
  return LEVELS.includes(level) ? t(`level_${level}`) : '';
}

/** The level of a seat of a table summary: its "level" field (null for people). */
export function seatLevel(s) {
  return s && LEVELS.includes(s.level) ? s.level : null;
}

function isBot(s) {
  if (!s) return false;
  if (s.kind) return s.kind === 'bot';
  // finished tables list seats as {name, bot}: a bot seat is named by its spec
  return Boolean(s.bot && (!s.name || s.name === s.bot));
}

/**
 * The display name of `seat` at `table` (a table summary with `seats`): a person's name; a
 * bot "Bot n" numbered among the bots; a seat nobody holds "Seat n" (numbered from 1).
 */
export function seatName(seat, table) {
  const seats = table?.seats || [];
  const s = seats[seat];
  if (!s) return t('seat_n', { n: seat + 1 });
  if (isBot(s)) {
    let n = 0;
    for (let i = 0; i <= seat; i++) if (isBot(seats[i])) n += 1;
    return t('bot_name', { n });
  }
  if (isDeletedSeat(s)) return t('deleted_player');
  return s.name || t('seat_n', { n: seat + 1 });
}

/**
 * Whether seat summary `s` was a person's whose account is deleted (issue 24): not a bot, no
 * name, and held (summaries without `taken` list finished tables, where every seat was held).
 */
export function isDeletedSeat(s) {
  if (!s || isBot(s) || s.name) return false;
  return 'taken' in s ? Boolean(s.taken) : true;
}

/** The tooltip of a bot seat: its level and how it plays (the agent spec). */
export function botTooltip(s) {
  if (!s || !s.bot) return '';
  const level = levelWord(seatLevel(s));
  return [level, t('algorithm', { spec: s.bot })].filter(Boolean).join(' — ');
}

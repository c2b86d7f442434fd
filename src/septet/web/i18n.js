// Interface texts in English and Japanese. Game texts (moves, events, rules) come from the
// engine through the server in both languages; only the page's own words live here.

const TEXT = {
  en: {
    brand: 'Septet',
    loading: 'Loading…',
    your_name: 'Your name',
    name_hint: 'Choose a display name to play (kept in this browser).',
    continue: 'Continue',
    rename: 'Change name',
    create_table: 'New table',
    game: 'Game',
    players: 'Players',
    seat: 'Seat',
    you: 'You',
    human: 'A person (invite)',
    bot: 'Bot',
    options: 'Options',
    create: 'Create table',
    open_tables: 'Open tables',
    playing_tables: 'Games in play',
    finished_tables: 'Finished games',
    none: 'None yet.',
    join: 'Join',
    leave: 'Leave',
    watch: 'Watch',
    replay: 'Replay',
    download: 'Download record (JSON)',
    invite: 'Invite link',
    copy: 'Copy',
    copied: 'Copied!',
    waiting_players: 'Waiting for players: the game starts when every seat is taken.',
    free_seat: 'free',
    your_turn: 'Your turn',
    waiting_for: 'Waiting for {name}',
    spectating: 'You are watching.',
    game_over: 'Game over',
    winner: 'Winner',
    winners: 'Winners',
    score: 'Score',
    log: 'Log',
    moves: 'Your moves',
    no_moves: 'Nothing to do right now.',
    call_bot: 'Let a bot play for {name}',
    gone: 'away',
    bot_playing: 'bot playing',
    connected: 'connected',
    reconnecting: 'Connection lost; reconnecting…',
    step: 'Step {i} of {n}',
    first: 'Start',
    prev: 'Back',
    next: 'Forward',
    last: 'End',
    view_as: 'View as',
    spectator: 'Spectator',
    back_lobby: 'Lobby',
    text_view: 'Text view',
    chance: 'chance',
    final_view: 'Final table',
    results: 'Results',
    rules: 'Rules',
    seats_title: 'Players',
    'err.stale': 'The table changed before your move arrived; it was not played.',
    'err.illegal': 'That move is not allowed: {message}',
    'err.not_your_turn': 'It is not your turn.',
    'err.rate_limited': 'Too many messages; slow down.',
    'err.too_soon': 'Please wait a little longer before calling in a bot.',
    'err.network': 'The server could not be reached.',
  },
  ja: {
    brand: 'セプテット',
    loading: '読み込み中…',
    your_name: 'あなたの名前',
    name_hint: 'プレイするには表示名を決めてください（このブラウザに保存されます）。',
    continue: '次へ',
    rename: '名前を変更',
    create_table: '新しいテーブル',
    game: 'ゲーム',
    players: '人数',
    seat: '席',
    you: 'あなた',
    human: '人（招待する）',
    bot: 'ボット',
    options: 'オプション',
    create: 'テーブルを作る',
    open_tables: '募集中のテーブル',
    playing_tables: '対戦中',
    finished_tables: '終了したゲーム',
    none: 'まだありません。',
    join: '参加',
    leave: '退出',
    watch: '観戦',
    replay: 'リプレイ',
    download: '棋譜をダウンロード（JSON）',
    invite: '招待リンク',
    copy: 'コピー',
    copied: 'コピーしました！',
    waiting_players: 'プレイヤーを待っています。全席が埋まると開始します。',
    free_seat: '空席',
    your_turn: 'あなたの番です',
    waiting_for: '{name}の番です',
    spectating: '観戦中です。',
    game_over: 'ゲーム終了',
    winner: '勝者',
    winners: '勝者',
    score: '得点',
    log: 'ログ',
    moves: 'あなたの手',
    no_moves: '今はすることがありません。',
    call_bot: '{name}の代わりにボットを入れる',
    gone: '離席中',
    bot_playing: 'ボットが代行中',
    connected: '接続中',
    reconnecting: '接続が切れました。再接続しています…',
    step: '{n}手中{i}手目',
    first: '最初',
    prev: '戻る',
    next: '進む',
    last: '最後',
    view_as: '視点',
    spectator: '観戦者',
    back_lobby: 'ロビー',
    text_view: 'テキスト表示',
    chance: '偶然',
    final_view: '最終局面',
    results: '結果',
    rules: 'ルール',
    seats_title: 'プレイヤー',
    'err.stale': 'あなたの手が届く前に局面が進みました。手は指されていません。',
    'err.illegal': 'その手は指せません：{message}',
    'err.not_your_turn': 'あなたの番ではありません。',
    'err.rate_limited': 'メッセージが多すぎます。少し待ってください。',
    'err.too_soon': 'ボットを呼ぶにはもう少し待ってください。',
    'err.network': 'サーバーに接続できません。',
  },
};

const listeners = new Set();

function initial() {
  const saved = localStorage.getItem('septet.lang');
  if (saved === 'en' || saved === 'ja') return saved;
  const prefs = navigator.languages || [navigator.language || 'en'];
  return prefs.some((l) => String(l).toLowerCase().startsWith('ja')) ? 'ja' : 'en';
}

let current = initial();

/** The current language code, 'en' or 'ja'. */
export function lang() {
  return current;
}

/** Switch language, remember it, and tell every listener. */
export function setLang(code) {
  if (code !== 'en' && code !== 'ja') return;
  current = code;
  localStorage.setItem('septet.lang', code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

/** Call fn(code) after every language switch. */
export function onLang(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The interface text `key` in the current language, with {name} placeholders filled. */
export function t(key, params = {}) {
  const text = TEXT[current][key] ?? TEXT.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ''));
}

/**
 * Parts of a status line joined as sentences: each part ends with a full stop ('.' or '。')
 * unless it already ends with punctuation, e.g. ['Game over', 'You are watching.'] ->
 * 'Game over. You are watching.'; in Japanese 'ゲーム終了。観戦中です。'.
 */
export function sentences(parts) {
  const ja = current === 'ja';
  return parts.filter(Boolean)
    .map((p) => (/[.!?。！？]$/.test(p) ? p : `${p}${ja ? '。' : '.'}`))
    .join(ja ? '' : ' ');
}

/** A bilingual pair {en, ja} picked in the current language. */
export function pick(pair, fallback = '') {
  if (!pair) return fallback;
  return pair[current] ?? pair.en ?? fallback;
}

document.documentElement.lang = current;

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
    replay_title: 'Replay: {title}',
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
    chance: 'The deal',
    who_move: '{who}: {move}',
    final_view: 'Final table',
    results: 'Results',
    rules: 'Rules',
    seats_title: 'Players',
    'err.stale': 'The table changed before your move arrived; it was not played. Choose again.',
    'err.illegal': 'That move is not allowed: {message}',
    'err.not_your_turn': 'It is not your turn.',
    'err.rate_limited': 'Too many messages; slow down.',
    'err.too_soon': 'Please wait a little longer before calling in a bot.',
    'err.network': 'The server could not be reached.',
    // table comforts, turn cues, levels (issue 15)
    lobby: 'Lobby',
    back_to_lobby: '← Lobby',
    settings: 'Settings',
    settings_sound: 'Play a short sound when my turn begins',
    settings_auto: 'Play a single forced move for me (only where everyone can see it is forced)',
    settings_speed: 'Pace of the table',
    speed_slow: 'Slow',
    speed_normal: 'Normal',
    speed_fast: 'Fast',
    settings_motion_note: 'Your system asks for reduced motion: pieces do not move; what happens is still shown.',
    settings_kept: 'Settings are kept in this browser.',
    close: 'Close',
    chat: 'Chat',
    chat_placeholder: 'Message to the table',
    send: 'Send',
    chat_spectator_note: 'Only seated players can write here.',
    chat_none: 'No messages yet.',
    tap_to_continue: 'Tap to continue',
    level_easy: 'Easy',
    level_normal: 'Normal',
    level_strong: 'Strong',
    bot_level: 'Bot: {level}',
    bot_name: 'Bot {n}',
    algorithm: 'How it plays: {spec}',
    expires_in: 'closes in {min} min if nobody joins',
    expires_at: 'If nobody joins, this table closes at {time}.',
    last_move: 'Last move:',
    moves_with: 'Moves with {what}:',
    show_all: 'Show all moves',
    tap_piece: 'Tap a highlighted piece to play it.',
    auto_playing: 'Your only move, played for you: {move}',
    n_moves: '{n} moves',
    n_of_m: '{n} of {m} chosen',
    confirm_move: 'Confirm this move',
    confirm: 'Confirm',
    undo: 'Undo',
    list_sep: ', ',
    colon: ': ',
    paren: ' ({x})',
    picks_head: '{title} ({count})',
    picks_full: 'You have chosen {n} already: tap a chosen one or Undo to change.',
    join_seat: 'Take seat {n}',
    seat_n: 'Seat {n}',
    you_suffix: '(you)',
    playing_now: 'playing now',
    bot_thinking: '{name} is thinking…',
    your_turn_title: 'Your turn',
    nothing_yet: 'Nothing has happened yet.',
    download_record: 'Download the game record',
    'err.chat_spectator': 'Only seated players can chat.',
    'err.chat_empty': 'Write something first.',
    'err.chat_too_long': 'That message is too long (200 characters at most).',
    'err.chat_rate': 'Too many messages; wait a moment.',
    // learn to play (issue 27)
    learn_title: 'Learn to play',
    learn_intro: 'A guided first game against bots: each rule explained as it happens, the move to make pointed out. About 5 to 10 minutes; come back any time to carry on.',
    learn_guide: 'Guided game',
    learn_hide: 'Hide',
    learn_show: 'Show tip',
    learn_easy: 'Play against Easy bots',
    learn_lobby: 'Back to the lobby',
    learn_free: 'Your move: any move you like.',
    learn_watch: 'Watch the bots play; your turn comes soon.',
    'err.no_tutorial': 'There is no guided game for that game.',
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
    human: '招待するプレイヤー',
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
    replay_title: 'リプレイ：{title}',
    download: 'ゲームの記録をダウンロード（JSON）',
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
    chance: '配り・めくり',
    who_move: '{who}：{move}',
    final_view: 'ゲーム終了時の場面',
    results: '結果',
    rules: 'ルール',
    seats_title: 'プレイヤー',
    'err.stale': 'あなたの手が届く前にゲームが進みました。この手は出していません。もう一度選んでください。',
    'err.illegal': 'その手は出せません：{message}',
    'err.not_your_turn': 'あなたの番ではありません。',
    'err.rate_limited': 'メッセージが多すぎます。少し待ってください。',
    'err.too_soon': 'ボットを呼ぶにはもう少し待ってください。',
    'err.network': 'サーバーに接続できません。',
    // table comforts, turn cues, levels (issue 15)
    lobby: 'ロビー',
    back_to_lobby: '← ロビー',
    settings: '設定',
    settings_sound: '自分の番になったら短い音を鳴らす',
    settings_auto: '出せる手が1つしかないとき自動で出す（誰が見てもその手しかないと分かる場合だけ）',
    settings_speed: '進行の速さ',
    speed_slow: 'ゆっくり',
    speed_normal: '普通',
    speed_fast: '速い',
    settings_motion_note: 'システムで動きを減らす設定になっています。カードは動きませんが、何が起きたかは表示します。',
    settings_kept: '設定はこのブラウザに保存されます。',
    close: '閉じる',
    chat: 'チャット',
    chat_placeholder: 'テーブルへのメッセージ',
    send: '送信',
    chat_spectator_note: '書き込めるのは席についているプレイヤーだけです。',
    chat_none: 'まだメッセージはありません。',
    tap_to_continue: 'タップで次へ',
    level_easy: '弱い',
    level_normal: '普通',
    level_strong: '強い',
    bot_level: 'ボット：{level}',
    bot_name: 'ボット{n}',
    algorithm: '思考方法：{spec}',
    expires_in: '参加者がいなければ{min}分後に閉じます',
    expires_at: '参加者がいなければ、このテーブルは{time}に閉じます。',
    last_move: '直前の手：',
    moves_with: '{what}を使う手：',
    show_all: 'すべての手を表示',
    tap_piece: '光っているカードやタイルをタップして出します。',
    auto_playing: '出せる手が1つだけなので自動で出します：{move}',
    n_moves: '{n}通り',
    n_of_m: '{m}枚中{n}枚',
    confirm_move: 'この手でよければ確定してください',
    confirm: '確定',
    undo: '取り消す',
    list_sep: '、',
    colon: '：',
    paren: '（{x}）',
    picks_head: '{title}（{count}）',
    picks_full: 'もう{n}枚選んでいます。変えるには選んだカードをタップするか「取り消す」を押してください。',
    join_seat: '席{n}に座る',
    seat_n: '席{n}',
    you_suffix: '（あなた）',
    playing_now: '手番',
    bot_thinking: '{name}が考えています…',
    your_turn_title: 'あなたの番',
    nothing_yet: 'まだ何も起きていません。',
    download_record: 'ゲームの記録をダウンロード',
    'err.chat_spectator': 'チャットできるのは席についているプレイヤーだけです。',
    'err.chat_empty': 'メッセージを入力してください。',
    'err.chat_too_long': 'メッセージが長すぎます（200文字まで）。',
    'err.chat_rate': 'メッセージが多すぎます。少し待ってください。',
    // learn to play (issue 27)
    learn_title: '遊び方を覚える',
    learn_intro: 'ボットと遊ぶガイド付きの最初のゲーム。ルールをその場で説明し、打つ手を指し示します。5〜10分ほど。途中でやめても、あとで続きから遊べます。',
    learn_guide: 'ガイド付きゲーム',
    learn_hide: '隠す',
    learn_show: 'ヒントを見る',
    learn_easy: '弱いボットと対戦する',
    learn_lobby: 'ロビーに戻る',
    learn_free: 'あなたの手：好きな手を選べます。',
    learn_watch: 'ボットの手番を見ていましょう。すぐにあなたの番です。',
    'err.no_tutorial': 'そのゲームのガイド付きゲームはありません。',
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

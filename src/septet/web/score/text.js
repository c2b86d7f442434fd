// The score keeper's own words in English and Japanese (game words come from the engine:
// card names from /api/score/flip7/cards, refusals from the scoring functions).
import { lang } from '../i18n.js';

const TEXT = {
  en: {
    brand: 'Septet', title: 'Score keeper', intro: 'Keep score at a real table: one sheet, shared by link, live on every phone.',
    pick_game: 'Game', players: 'Players', player_n: 'Player {n}', add_player: '+ Player', remove_player: 'Remove',
    options: 'Options', edition: 'Edition', vengeance: 'With a Vengeance', classic: 'Classic', brutal: 'Brutal mode',
    decks: 'Decks', decks_auto: 'Auto (two from 18 players)', decks_1: 'One deck', decks_2: 'Two decks', two_decks: 'two decks',
    'odds.points': '{n}',
    target: 'Points to win', start: 'Start the sheet', odds_link: 'Flip 7 odds', print_link: 'Printable blank sheets',
    recent: 'Sheets on this phone', none: 'None yet.', open: 'Open',
    ds_rule: 'The 77 token goes to', second_token: 'the first to take a second 7 token', two_families: 'the first with two families of 7+',
    share: 'Share this sheet', copy: 'Copy link', copied: 'Link copied', share_hint: 'Everyone who opens the link sees and edits this sheet live.',
    live: 'live', offline: 'reconnecting…', qr: 'QR code of the link: scan it with another phone',
    undo: 'Undo', redo: 'Redo', undo_what: 'Undo: {what}', redo_what: 'Redo: {what}',
    'op.add': 'add {entry} {n}', 'op.edit': 'edit {entry} {n}', 'op.delete': 'delete {entry} {n}', 'op.rename': 'rename',
    round: 'Round', game: 'Game', deal: 'Deal', total: 'Total', wins: 'Wins', details: 'How each entry was scored',
    add_round: '+ Round', add_game: '+ Game', add_deal: '+ Deal', print: 'Print', new_sheet: 'New sheet', rename: 'Names',
    target_line: 'Race to {target}', leader: 'Leader: {name} ({points})', tie_top: '{names} share the lead: play on',
    wins_line: '{names} wins!', win_line_many: '{names} win!', game_over: 'Game over',
    save: 'Save', cancel: 'Cancel', delete: 'Delete', edit: 'Edit', next: 'Next player', prev: 'Previous',
    cards: 'Cards', number: 'Number', busted: 'Busted', after_bust: 'Modifiers received after the bust',
    'legend.flip7': '★ made Flip 7 · ✗ busted · tap a round to see or change its cards',
    'legend.double-seven': '★ won the game · tap a game to see or change it',
    'legend.seven-shot': 'Points each side won in each deal · tap a deal to see or change it',
    tap_cards: 'Tap the cards in front of {name}.', enter_number: 'Round score of {name}',
    numbers: 'Numbers', specials: 'Special cards', modifiers: 'Modifiers', actions: 'Action cards',
    not_entered: 'not entered', clear: 'Clear',
    flip7_choice: '{name} made Flip 7: +{bonus} for themselves, or −{bonus} to another player?', plus_bonus: '+{bonus} for {name}', minus_bonus: '−{bonus} to {name}',
    'ar.sum': 'sum', 'ar.half': '÷2', 'ar.double': '×2', 'ar.mods': 'modifiers', 'ar.floor': 'not below 0', 'ar.zero': 'Zero: scores 0',
    'ar.flip7': 'Flip 7 +{bonus}', 'ar.penalty': '−{bonus} from a Flip 7', 'ar.bust': 'bust: 0', 'ar.bust_mods': 'bust: modifiers after it', 'ar.plain': 'entered as a number',
    'ds.families': 'Families (tiles in each)', 'ds.add_family': '+ Family', 'ds.sevens': '7 tokens', 'ds.77': '77 token', 'ds.size': 'How many tiles?',
    'ds.points': '{tiles} tiles + {sevens} for 7 tokens + {dd} for the 77 = {score}',
    'ds.tie77': '{names} tie on {points}: {holder} holds the 77 and wins.',
    'ds.tieshared': '{names} tie on {points}; nobody of them holds the 77: they share the victory.',
    'ss.how': 'How did the deal end?', 'ss.sevens': '{n} sevens taken', 'ss.seven_tricks': '7 tricks taken', 'ss.hands_empty': 'The hands ran out',
    'ss.who.sevens': 'Who took them?', 'ss.who.seven_tricks': 'Who took 7 tricks (and loses)?', 'ss.who.hands_empty': 'Who took the last trick?',
    'ss.taken': '7s taken in tricks', 'ss.hand': '7s left in the hands of {name}', 'ss.indicator': 'The trump indicator is a 7',
    'ss.transfer': '{n} sevens go to {name} (the 7s left in the losers\' hands, and the indicator if it is a 7).',
    'ss.indicator_to': '{name} takes the trump indicator.', 'ss.second': '{names}: half of the winner\'s points (second most 7s).',
    'ss.three_tricks': 'The two others score 2 each.', 'ss.points': 'Points',
    'odds.title': 'Flip 7 odds', 'odds.intro': 'Tap the cards seen since the shuffle and your row: the exact chance of busting and the best play, worked out card by card.',
    'odds.mine': 'My row', 'odds.seen': 'Seen (other rows, discards)', 'odds.alone': 'Every other player has busted',
    'odds.left': 'Cards left', 'odds.bust': 'Next card busts you', 'odds.stay': 'Expected score if you stay', 'odds.hit': 'Expected score if you hit (then play best)',
    'odds.advice': 'Advice', 'odds.hit_word': 'HIT', 'odds.stay_word': 'STAY', 'odds.no_stay': 'You hold the Zero: you may not stay.',
    'odds.reduced': 'Too many positions for the exact programme: the advice leaves out modifier and action cards (as the flip7-ev bot does).',
    'odds.lower_bound': 'Too many positions: hitting is valued as "hit once, then stay", a lower bound.',
    'odds.new_shuffle': 'New shuffle', 'odds.computing': 'Computing…', 'odds.left_n': '{n} left', 'odds.empty': 'Tap cards to start.',
    'print.title': 'Score sheet', 'print.blank': 'Blank sheet', 'print.names': 'Names (optional, one per line)', 'print.count': 'Players',
    'print.date': 'Date', 'print.place': 'Place',
    'err.network': 'The server could not be reached; nothing was saved.', 'err.stale': 'Someone changed the sheet meanwhile; it is up to date now. Please try again.',
    'err.name': 'Give every player a name.', 'not_found': 'No such score sheet.',
    // getting around (issue 27)
    'nav.label': 'Pages', 'nav.play': 'Play', 'nav.score': 'Score keeper', 'nav.odds': 'Odds', 'nav.rules': 'Rules', 'page_title': 'Score keeper — Septet',
  },
  ja: {
    brand: 'セプテット', title: 'スコアキーパー', intro: '実際のテーブルで得点をつけます。1枚のシートをリンクで共有し、全員のスマホにリアルタイムで表示。',
    pick_game: 'ゲーム', players: 'プレイヤー', player_n: 'プレイヤー{n}', add_player: '＋プレイヤー', remove_player: '削除',
    options: 'オプション', edition: '版', vengeance: '復讐心とともに', classic: 'クラシック', brutal: '残忍モード',
    decks: 'デッキの数', decks_auto: '自動（18人以上で2つ）', decks_1: 'デッキ1つ', decks_2: 'デッキ2つ', two_decks: 'デッキ2つ',
    'odds.points': '{n}点',
    target: '勝利に必要な点数', start: 'シートを作る', odds_link: 'フリップ7の確率', print_link: '印刷用の白紙シート',
    recent: 'このスマホのシート', none: 'まだありません。', open: '開く',
    ds_rule: '77トークンをもらうのは', second_token: '2個目の7トークンを最初に取った人', two_families: '7枚以上のファミリーを最初に2つ持った人',
    share: 'このシートを共有', copy: 'リンクをコピー', copied: 'リンクをコピーしました', share_hint: 'リンクを開いた全員が、このシートをリアルタイムで見て編集できます。',
    live: '接続中', offline: '再接続中…', qr: 'リンクのQRコード：他のスマホで読み取ってください',
    undo: '元に戻す', redo: 'やり直す', undo_what: '元に戻す：{what}', redo_what: 'やり直す：{what}',
    'op.add': '{entry}{n}の追加', 'op.edit': '{entry}{n}の修正', 'op.delete': '{entry}{n}の削除', 'op.rename': '名前の変更',
    round: 'ラウンド', game: 'ゲーム', deal: 'ディール', total: '合計', wins: '勝利数', details: '各回の得点の内訳',
    add_round: '＋ラウンド', add_game: '＋ゲーム', add_deal: '＋ディール', print: '印刷', new_sheet: '新しいシート', rename: '名前',
    target_line: '{target}点先取', leader: 'トップ：{name}（{points}点）', tie_top: '{names}が同点トップ：ゲーム続行',
    wins_line: '{names}の勝ち！', win_line_many: '{names}の勝ち！', game_over: 'ゲーム終了',
    save: '保存', cancel: 'キャンセル', delete: '削除', edit: '修正', next: '次のプレイヤー', prev: '前へ',
    cards: 'カード', number: '点数', busted: 'バースト', after_bust: 'バースト後にもらった修正カード',
    'legend.flip7': '★ フリップ7達成 · ✗ バースト · ラウンドをタップするとカードを確認・修正できます',
    'legend.double-seven': '★ そのゲームの勝者 · ゲームをタップすると確認・修正できます',
    'legend.seven-shot': '各ディールで各サイドが得た点 · ディールをタップすると確認・修正できます',
    tap_cards: '{name}の前にあるカードをタップしてください。', enter_number: '{name}のラウンド得点',
    numbers: '数字カード', specials: '特殊カード', modifiers: '修正カード', actions: 'アクションカード',
    not_entered: '未入力', clear: 'クリア',
    flip7_choice: '{name}がフリップ7：自分に＋{bonus}、または他のプレイヤーに−{bonus}？', plus_bonus: '{name}に＋{bonus}', minus_bonus: '{name}に−{bonus}',
    'ar.sum': '合計', 'ar.half': '÷2', 'ar.double': '×2', 'ar.mods': '修正', 'ar.floor': '0未満にはならない', 'ar.zero': 'ゼロ：0点',
    'ar.flip7': 'フリップ7 ＋{bonus}', 'ar.penalty': 'フリップ7の−{bonus}', 'ar.bust': 'バースト：0点', 'ar.bust_mods': 'バースト：その後の修正カード', 'ar.plain': '点数で入力',
    'ds.families': 'ファミリー（それぞれの枚数）', 'ds.add_family': '＋ファミリー', 'ds.sevens': '7トークン', 'ds.77': '77トークン', 'ds.size': '何枚？',
    'ds.points': 'タイル{tiles}枚 ＋ 7トークン{sevens} ＋ 77で{dd} ＝ {score}点',
    'ds.tie77': '{names}が{points}点で同点：77トークンを持つ{holder}の勝ち。',
    'ds.tieshared': '{names}が{points}点で同点。77トークンを持つ人がいないので、勝利を分け合います。',
    'ss.how': 'ディールはどう終わりましたか？', 'ss.sevens': '7を{n}枚取った', 'ss.seven_tricks': '7トリック取った', 'ss.hands_empty': '手札がなくなった',
    'ss.who.sevens': '取ったのは？', 'ss.who.seven_tricks': '7トリック取った（負け）のは？', 'ss.who.hands_empty': '最後のトリックを取ったのは？',
    'ss.taken': 'トリックで取った7', 'ss.hand': '{name}の手札に残った7', 'ss.indicator': 'トランプ表示札が7',
    'ss.transfer': '7が{n}枚{name}に移ります（負けたチームの手札に残った7と、7なら表示札）。',
    'ss.indicator_to': '{name}がトランプ表示札を取ります。', 'ss.second': '{names}：勝者の半分の点（7が2番目に多い）。',
    'ss.three_tricks': '他の2人が2点ずつ得ます。', 'ss.points': '得点',
    'odds.title': 'フリップ7の確率', 'odds.intro': 'シャッフル後に見えたカードと自分の列をタップすると、バーストする確率と最善の手を1枚ずつ正確に計算します。',
    'odds.mine': '自分の列', 'odds.seen': '見えたカード（他の列・捨て札）', 'odds.alone': '他のプレイヤーは全員バースト',
    'odds.left': '山札の残り', 'odds.bust': '次のカードでバーストする確率', 'odds.stay': 'ステイしたときの得点', 'odds.hit': 'ヒットして最善に続けたときの期待得点',
    'odds.advice': 'おすすめ', 'odds.hit_word': 'ヒット', 'odds.stay_word': 'ステイ', 'odds.no_stay': 'ゼロを持っているのでステイできません。',
    'odds.reduced': '局面が多すぎるため、修正カードとアクションカードを除いて計算しています（flip7-ev ボットと同じ）。',
    'odds.lower_bound': '局面が多すぎるため、ヒットの値は「1枚だけヒットしてステイ」の下限です。',
    'odds.new_shuffle': '新しいシャッフル', 'odds.computing': '計算中…', 'odds.left_n': '残り{n}', 'odds.empty': 'カードをタップしてください。',
    'print.title': 'スコアシート', 'print.blank': '白紙のシート', 'print.names': '名前（任意、1行に1人）', 'print.count': '人数',
    'print.date': '日付', 'print.place': '場所',
    'err.network': 'サーバーにつながりません。保存されていません。', 'err.stale': 'その間に他の人がシートを変えました。最新の状態にしたので、もう一度どうぞ。',
    'err.name': '全員の名前を入れてください。', 'not_found': 'そのスコアシートはありません。',
    // getting around (issue 27)
    'nav.label': 'ページ', 'nav.play': '対戦', 'nav.score': '点数記録', 'nav.odds': '確率', 'nav.rules': 'ルール', 'page_title': 'スコアキーパー — セプテット',
  },
};

/** The score keeper's text `key` in the current language, {name} placeholders filled. */
export function st(key, params = {}) {
  const cur = lang();
  const text = TEXT[cur][key] ?? TEXT.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ''));
}

/** A list of names joined as players say it: "A, B and C" / 「A、B、C」. */
export function names(list) {
  if (lang() === 'ja') return list.join('、');
  if (list.length < 2) return list.join('');
  return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

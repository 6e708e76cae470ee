// A line of help for every badge and term the boards show, as a tooltip
// (the `title` of the badge or heading) and for screen readers. The rules
// pages (#/rules/<ruleset>) say the same at length.

const HELP = {
  you: 'Your seat.',
  dealer: 'Deals this round; the deal moves to the left every round.',
  declarer: 'Won the bidding and plays the contract: 61 points or more (in nil, no trick at all).',
  'declaring side': "The declarer's side: in a suit contract the holders of the two black jacks play together.",
  'to act': 'The game waits for this player.',
  'to play': 'The game waits for this player to play a card.',
  'on turn': 'The game waits for this player: at most one discard-and-draw (or swap), then one main action.',
  'to answer': 'Must give a card back to the partner who offered a swap.',
  'offering a swap': 'Has offered a card face down to the partner, who must give one back.',
  'sits out': 'With five players the dealer sits out the first trick.',
  'cookie now': 'Would get the cookie if the game ended now: 5 points for the most different types collected.',
  cookie: 'Got the cookie: 5 points for the most different types collected.',
  'team 1': 'Partners sit opposite and add their points together.',
  'team 2': 'Partners sit opposite and add their points together.',
  partner: 'Sits opposite you, scores with you, and may swap a card with you.',
  winner: 'Won the game, or shares the win.',
  'Tea table line': 'Exchange a card for a line card of the same type, or with a lower number. Position 0 only marks the start of the line.',
  'Deck and discard pile': 'Once a turn, before your main action, you may discard a card face down and draw the top of the deck.',
  'Deck, top first': 'The cards still to draw (seen only once the game is over).',
  'Discard pile, oldest first': 'The cards discarded face down (seen only once the game is over).',
  Trick: 'Follow the suit led if you can. The highest trump wins, else the highest card of the suit led.',
  'Last trick': 'The trick just completed, and who won it.',
  Bids: 'Bid a higher contract, pass for the round, or steal the bid (only while behind in game points).',
  Trump: "The indicator's suit is trump; a king, queen or joker as indicator means no trump.",
  'Scoring tricks': 'The 1st, 6th and last tricks score 1, 4 and 8; all three to one player is a hat trick. A prediction claims the 6th or the last trick.',
  Collection: 'Cards taken from the line (each scores the position of its type on the line at the end) and black hats (1 point each).',
  'Favourite hat': 'The last card in hand: it scores the numbers of your face-up cards of its type, minus its own number.',
  'Your favourite hat': 'Your last card: it scores the numbers of your face-up cards of its type, minus its own number.',
  'Your hand': 'Only you see these cards.',
  'Your hats': 'Your colour on top; only you know the hats underneath your stacks.',
};

/** The help line for `term` (a badge's or heading's text), or null. */
export function help(term) {
  const text = String(term);
  if (HELP[text]) return HELP[text];
  if (/^-?\d+ points?$/.test(text)) return 'Points scored so far.';
  if (/^\d+ black hats?$/.test(text)) return 'Cards kept face down: 1 point each, and one type for the cookie.';
  return null;
}

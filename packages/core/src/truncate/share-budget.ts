/**
 * Splits a character budget among texts of the given lengths, max-min fair: texts shorter than their
 * fair share stay whole, and the longest texts give up the most. Returns one cap per text, each at
 * most that text's length, summing to at most `budget` (when the texts do not fit already). Used
 * where several texts of one tool result share its cap.
 */
export function shareBudget(lengths: readonly number[], budget: number): number[] {
  let total = 0;
  for (const length of lengths) total += length;
  if (total <= budget) return lengths.slice();

  const caps = lengths.map(() => 0);
  const order = lengths.map((_, index) => index).sort((left, right) => lengths[left]! - lengths[right]!);
  let remaining = Math.max(0, budget);
  for (let rank = 0; rank < order.length; rank++) {
    const index = order[rank]!;
    const left = order.length - rank;
    const fairShare = Math.floor(remaining / left);
    if (lengths[index]! <= fairShare) {
      caps[index] = lengths[index]!;
      remaining -= lengths[index]!;
      continue;
    }
    // Every text from here on is longer than the fair share: each gets it, and the rounding remainder
    // goes one character at a time to the longest ones.
    let extra = remaining - fairShare * left;
    for (let other = order.length - 1; other >= rank; other--) {
      caps[order[other]!] = fairShare + (extra > 0 ? 1 : 0);
      extra--;
    }
    break;
  }
  return caps;
}

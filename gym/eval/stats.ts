export function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

/** The middle value (the mean of the middle two for an even count), NaN for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Sample standard deviation (n − 1), 0 for a single value. */
export function std(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

/** UI-TARS-2's normalisation: the human reference scores 100. */
export function humanNormalised(score: number, human: number): number {
  return human === 0 ? NaN : (100 * score) / human;
}

/** The ALE form: random scores 0, human 100. */
export function randomHumanNormalised(score: number, random: number, human: number): number {
  return human === random ? NaN : (100 * (score - random)) / (human - random);
}

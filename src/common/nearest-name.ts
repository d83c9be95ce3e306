import { distance } from 'fastest-levenshtein';

/**
 * The candidate a misspelt name most likely meant: the nearest within `maxDistance`
 * edits, or none. Only candidates of about the same length are compared, so a huge name
 * or a huge list (a 64 KiB query) costs little: this runs on bad input, where an
 * attacker chooses the sizes.
 */
export function nearestName(
  name: string,
  candidates: Iterable<string>,
  maxDistance = 2,
): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const d = distance(name, candidate);
    if (d > 0 && d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** ` (did you mean "x"?)` for a near miss, else nothing: the FETCH errors' hint. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const near = nearestName(name, candidates);
  return near ? ` (did you mean "${near}"?)` : '';
}

/** The performance mark set once a page's first screen can be used (bench/console.js reads it). */
export const FIRST_SCREEN = 'atrium:first-screen';

/** Marks the first screen usable: the sign-in form, or the frame with its navigation. */
export function markFirstScreen(): void {
  if (performance.getEntriesByName(FIRST_SCREEN).length === 0) performance.mark(FIRST_SCREEN);
}

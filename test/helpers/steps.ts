/**
 * Tests that are steps of one story: each starts from the state the one before left, so
 * after a failure the later ones say which step broke instead of failing on their own.
 */
export function steps(): (name: string, run: () => Promise<void>) => void {
  let failedStep: string | undefined;
  return (name, run) =>
    it(name, async () => {
      if (failedStep) throw new Error(`Not run: the earlier step "${failedStep}" failed`);
      failedStep = name;
      await run();
      failedStep = undefined;
    });
}

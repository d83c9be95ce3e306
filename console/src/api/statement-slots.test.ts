import { describe, expect, it } from 'vitest';
import { inStatementSlot, STATEMENT_SLOTS } from './statement-slots';

/** A request the test answers when it wants to. */
function pending() {
  let answer!: (response: Response) => void;
  const response = new Promise<Response>((resolve) => (answer = resolve));
  return { response, answer };
}

describe('statement slots', () => {
  it('sends no more FETCH queries or workflows at once than the server runs for one user', async () => {
    const requests = Array.from({ length: 5 }, pending);
    let started = 0;
    let mostAtOnce = 0;
    let open = 0;
    const all = requests.map((request) =>
      inStatementSlot(() => {
        started++;
        mostAtOnce = Math.max(mostAtOnce, ++open);
        return request.response.finally(() => open--);
      }),
    );
    await Promise.resolve();
    expect(started).toBe(STATEMENT_SLOTS);
    for (const request of requests) {
      request.answer(new Response('[]'));
      await new Promise((resolve) => setTimeout(resolve));
    }
    await Promise.all(all);
    expect(started).toBe(5);
    expect(mostAtOnce).toBe(STATEMENT_SLOTS);
  });

  it('tries again after Retry-After when refused all the same (another tab)', async () => {
    const answers = [
      new Response('{}', { status: 429, headers: { 'Retry-After': '0' } }),
      new Response('[1]', { status: 200 }),
    ];
    const response = await inStatementSlot(async () => answers.shift()!);
    expect(response.status).toBe(200);
    expect(answers).toHaveLength(0);
  });
});

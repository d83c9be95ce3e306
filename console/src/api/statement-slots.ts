import { errorOf, send } from './http';

/** The server's default STATEMENTS_PER_USER: FETCH queries and workflows one user runs at once. */
export const STATEMENT_SLOTS = 2;
const RETRIES = 3;

let running = 0;
const waiting: (() => void)[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A FETCH query or a workflow call, in one of the page's statement slots: the server runs
 * a few per user at once and holds a bounded queue of the rest (429 with Retry-After past
 * it), so the page sends no more than that at once, and, refused all the same (many tabs
 * of the same user, a server set lower), waits as told and tries again.
 */
export async function inStatementSlot(send: () => Promise<Response>): Promise<Response> {
  if (running >= STATEMENT_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    for (let attempt = 0; ; attempt++) {
      const response = await send();
      if (response.status !== 429 || attempt === RETRIES) return response;
      await sleep(Number(response.headers.get('Retry-After') ?? 1) * 1000);
    }
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** As `call` (an error status is an ApiError), for a FETCH query or a workflow. */
export async function callInStatementSlot(path: string, init: RequestInit): Promise<Response> {
  const response = await inStatementSlot(() => send(path, init));
  if (!response.ok) throw await errorOf(response);
  return response;
}

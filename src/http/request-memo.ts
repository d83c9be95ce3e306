/**
 * A value worked out once per object of a request (its Identity) and kept on that object
 * in a non-enumerable symbol slot, not in a WeakMap keyed by it. V8's young-generation
 * collections keep a WeakMap's values alive while its keys are young, so every request's
 * value would reach the old generation, to be freed only by a full collection
 * (request-memo.spec.ts fails when V8 stops doing so). Not enumerable: a spread copy of
 * the object starts without the value.
 */
export class RequestMemo<T> {
  private readonly slot: symbol;

  constructor(name: string) {
    this.slot = Symbol(name);
  }

  get(holder: object): T | undefined {
    return (holder as Record<symbol, T | undefined>)[this.slot];
  }

  /** Keeps `value` on `holder` for good, and returns it. */
  set(holder: object, value: T): T {
    Object.defineProperty(holder, this.slot, { value });
    return value;
  }
}

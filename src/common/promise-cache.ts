/**
 * Promises by name, each made once and shared by every caller; one that rejects is
 * forgotten, so the next call tries again rather than failing for good.
 */
export class PromiseCache<T> {
  private readonly promises = new Map<string, Promise<T>>();

  get(name: string, load: () => Promise<T>): Promise<T> {
    let promise = this.promises.get(name);
    if (!promise) {
      promise = load();
      this.promises.set(name, promise);
      promise.catch(() => this.promises.delete(name));
    }
    return promise;
  }
}

// workerd provides node:async_hooks under nodejs_compat; the project does not load @types/node for worker code.
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined;
    run<R>(store: T, callback: () => R): R;
  }
}

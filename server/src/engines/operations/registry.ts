import { StoreError } from '../errors.js';
import type { OperationHandler } from './types.js';

/** Which kinds this server runs, and how. */
export class HandlerRegistry {
  private readonly handlers = new Map<string, OperationHandler>();

  /** Adds the handler of a kind; a kind has one handler. */
  register<TRequest, TCheckpoint>(kind: string, handler: OperationHandler<TRequest, TCheckpoint>) {
    if (!kind) throw new Error('an operation kind needs a name');
    if (this.handlers.has(kind)) throw new Error(`operation kind ${kind} is already registered`);
    // The handler trusts its own request shape: submit stored exactly what its engine passed.
    this.handlers.set(kind, handler as unknown as OperationHandler);
  }

  /** The handler of a kind, or undefined. */
  find(kind: string): OperationHandler | undefined {
    return this.handlers.get(kind);
  }

  /** The handler of a kind; Unimplemented when nobody registered it. */
  require(kind: string): OperationHandler {
    const handler = this.handlers.get(kind);
    if (!handler) {
      throw new StoreError(
        'unimplemented',
        `no engine on this server runs operations of kind ${kind}`,
      );
    }
    return handler;
  }

  /** Every registered kind. */
  kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /** The registered kinds whose interrupted runs may run again. */
  resumableKinds(): string[] {
    return [...this.handlers].filter(([, h]) => h.resumable).map(([kind]) => kind);
  }
}

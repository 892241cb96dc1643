/** A short message about a result or an error, optionally with a link to where it happened. */
export interface Toast {
  id: number;
  tone: 'success' | 'warning' | 'error' | 'info';
  title: string;
  detail?: string | undefined;
  /** An error's gRPC code and raw message, behind a "Details" disclosure. */
  technical?: string | undefined;
  link?: { to: string; label: string } | undefined;
  /**
   * The id of the element that shows the result this toast announces (a notice, a report).
   * The toasts keep it in view and uncovered; without it, the element the user acted on is kept.
   */
  result?: string | undefined;
}

export type ToastInput = Omit<Toast, 'id'>;

/** How long a toast stays; errors and warnings stay longer so they can be read (and copied). */
export const TOAST_TIMEOUT_MS = {
  success: 6_000,
  info: 6_000,
  // A finding ("1 corrupt") asks to be read, like an error.
  warning: 15_000,
  error: 15_000,
} as const;

/** The toasts on screen; components show them, anything may push one. */
export class ToastStore {
  private toasts: readonly Toast[] = [];
  private nextId = 1;
  private readonly listeners = new Set<() => void>();
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): readonly Toast[] => this.toasts;

  readonly push = (input: ToastInput): number => {
    const id = this.nextId++;
    // Newest last, at most five: a burst of failures must not cover the page.
    this.set([...this.toasts, { ...input, id }].slice(-5));
    this.timers.set(
      id,
      setTimeout(() => this.dismiss(id), TOAST_TIMEOUT_MS[input.tone]),
    );
    return id;
  };

  readonly dismiss = (id: number): void => {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    if (this.toasts.some((t) => t.id === id)) this.set(this.toasts.filter((t) => t.id !== id));
  };

  private set(toasts: readonly Toast[]): void {
    this.toasts = toasts;
    for (const listener of this.listeners) listener();
  }
}

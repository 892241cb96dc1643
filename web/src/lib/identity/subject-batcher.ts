import type { ResolvedSubject } from '@store/contract';

/** The server's limit on subjects per ResolveSubjects call. */
const MAX_PER_CALL = 200;

interface Waiter {
  resolve: (value: ResolvedSubject | undefined) => void;
  reject: (reason: unknown) => void;
}

/**
 * Collects the subjects asked for within one tick (every "By" cell of a table renders at once)
 * and asks the server about all of them in one ResolveSubjects call, instead of one per cell.
 */
export class SubjectBatcher {
  private pending = new Map<string, Waiter[]>();
  private scheduled = false;

  constructor(private readonly call: (subjects: string[]) => Promise<ResolvedSubject[]>) {}

  resolve(subject: string): Promise<ResolvedSubject | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(subject) ?? [];
      waiters.push({ resolve, reject });
      this.pending.set(subject, waiters);
      if (!this.scheduled) {
        this.scheduled = true;
        setTimeout(() => void this.flush(), 0);
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = new Map();
    const subjects = [...batch.keys()];
    for (let start = 0; start < subjects.length; start += MAX_PER_CALL) {
      const chunk = subjects.slice(start, start + MAX_PER_CALL);
      try {
        const answered = new Map((await this.call(chunk)).map((s) => [s.subject, s]));
        for (const subject of chunk) {
          for (const waiter of batch.get(subject) ?? []) waiter.resolve(answered.get(subject));
        }
      } catch (error) {
        for (const subject of chunk) {
          for (const waiter of batch.get(subject) ?? []) waiter.reject(error);
        }
      }
    }
  }
}

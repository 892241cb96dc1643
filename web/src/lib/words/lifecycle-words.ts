import { KeepReasonKind, RetentionAction } from '@store/contract';
import type { Worded } from './enum-words';

const KEEP_REASON_WORDS: Record<KeepReasonKind, string> = {
  [KeepReasonKind.UNSPECIFIED]: 'Kept',
  [KeepReasonKind.LAST]: 'Last',
  [KeepReasonKind.HOURLY]: 'Hourly',
  [KeepReasonKind.DAILY]: 'Daily',
  [KeepReasonKind.WEEKLY]: 'Weekly',
  [KeepReasonKind.MONTHLY]: 'Monthly',
  [KeepReasonKind.YEARLY]: 'Yearly',
  [KeepReasonKind.OLDEST]: 'Oldest',
  [KeepReasonKind.WITHIN]: 'Within',
  [KeepReasonKind.PROTECTED]: 'Protected',
  [KeepReasonKind.BASE]: 'Chain base',
  [KeepReasonKind.SET]: 'Set member',
  [KeepReasonKind.NO_RULES]: 'No rules',
  [KeepReasonKind.DAMAGED]: 'Damaged',
  [KeepReasonKind.PROVEN_RESTORABLE]: 'Proven restorable',
};

/** A keep reason's kind as a short label ("Daily", "Chain base"); its text says the rest. */
export function keepReasonWords(kind: KeepReasonKind): Worded {
  return { words: KEEP_REASON_WORDS[kind] ?? 'Kept', raw: KeepReasonKind[kind] ?? String(kind) };
}

/**
 * A keep reason as one phrase: the server's text already starts with its kind ("last 1 of 2",
 * "daily 2026-11-26", "base of …"), so the text alone, capitalised, says it once; the kind's
 * label stands in only when the text is empty. The raw kind stays the tooltip.
 */
export function keepReasonPhrase(reason: { kind: KeepReasonKind; text: string }): Worded {
  const label = keepReasonWords(reason.kind);
  const text = reason.text.trim();
  if (!text) return label;
  return { words: text.charAt(0).toUpperCase() + text.slice(1), raw: label.raw };
}

/** What retention does to a backup: "Deleted" or "Kept". */
export function retentionActionWords(action: RetentionAction): Worded {
  const words = action === RetentionAction.DELETE ? 'Deleted' : 'Kept';
  return { words, raw: RetentionAction[action] ?? String(action) };
}

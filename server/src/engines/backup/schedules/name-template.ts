import { invalidArgument } from '../../errors.js';
import { wallClockOf } from './zoned-time.js';

/**
 * Names of scheduled backups, from a template per scope: readable, and sortable by time within a
 * scope (the date parts go largest first, zero-padded).
 */

/** `<tree> <full|incremental> <YYYY-MM-DD HH:mm> <zone>`; a prefixed scope names its prefix. */
export const DEFAULT_NAME_TEMPLATE = '{scope} {kind} {YYYY}-{MM}-{DD} {HH}:{mm} {zone}';

export const NAME_PLACEHOLDERS = [
  'tree',
  'prefix',
  'scope',
  'kind',
  'YYYY',
  'MM',
  'DD',
  'HH',
  'mm',
  'ss',
  'zone',
] as const;

type Placeholder = (typeof NAME_PLACEHOLDERS)[number];

/** Backup names are at most 200 characters (validateBackupName). */
const MAX_NAME = 200;

export interface NamedRun {
  treeName: string;
  keyPrefix: string;
  kind: 'full' | 'incremental';
  at: number;
  /** The anchor's zone; UTC without an anchor. */
  timeZone: string;
}

/** Checks a template: known placeholders, balanced braces, some text, at most 200 characters. */
export function validateNameTemplate(template: string, field = 'name_template'): string {
  if (template.length > MAX_NAME) throw invalidArgument(field, 'is longer than 200 characters');
  const unknown = [...template.matchAll(/\{([^{}]*)\}/g)]
    .map((m) => m[1]!)
    .filter((name) => !(NAME_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw invalidArgument(
      field,
      `unknown placeholder {${unknown[0]}}; use ${NAME_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
    );
  }
  if (/[{}]/.test(template.replace(/\{[^{}]*\}/g, ''))) {
    throw invalidArgument(field, 'has a brace that opens or closes no placeholder');
  }
  if (template.trim() === '')
    throw invalidArgument(field, 'is blank; leave it empty for the default');
  return template;
}

/** The name of a scheduled run from a (validated) template. */
export function renderBackupName(template: string, run: NamedRun): string {
  const wall = new Date(wallClockOf(run.at, run.timeZone));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const values: Record<Placeholder, string> = {
    tree: run.treeName,
    prefix: run.keyPrefix,
    scope: run.keyPrefix === '' ? run.treeName : `${run.treeName} ${run.keyPrefix}`,
    kind: run.kind,
    YYYY: pad(wall.getUTCFullYear(), 4),
    MM: pad(wall.getUTCMonth() + 1),
    DD: pad(wall.getUTCDate()),
    HH: pad(wall.getUTCHours()),
    mm: pad(wall.getUTCMinutes()),
    ss: pad(wall.getUTCSeconds()),
    zone: run.timeZone,
  };
  const name = template
    .replace(/\{([^{}]*)\}/g, (whole, key: string) =>
      key in values ? values[key as Placeholder] : whole,
    )
    .replace(/\s+/g, ' ')
    .trim();
  // A long tree name could push a valid template past the limit: keep the name's start.
  return (name === '' ? `${run.treeName} ${run.kind}` : name).slice(0, MAX_NAME);
}

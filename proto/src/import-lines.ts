/**
 * The two line shapes a tree import reads, one JSON object per line:
 *
 * - `import`: the console's own JSON Lines format, `{"key": "…", "value": <any JSON>}`.
 * - `artifact`: a line of an exported backup artifact (ExportArtifact, once gunzipped),
 *   `{"key": "…", "valueJson": "<JSON text>" | null, "sequence": N, "schemaVersion": M}`.
 *   `valueJson` is the stored text, sent on as it is. A `null` valueJson is a tombstone (an
 *   incremental capture's record of a deletion): an import only writes, so it is skipped and
 *   counted; imported into a new tree, an artifact gives exactly the entries it holds.
 *
 * A line is read by its own fields, so a file may mix them; the importer reports how many
 * lines it read in each shape.
 */
export type ImportLineShape = 'import' | 'artifact';

/** How a report names a shape: "read 300 lines in the export-artifact shape". */
export const IMPORT_LINE_SHAPE_NAMES: Readonly<Record<ImportLineShape, string>> = {
  import: 'import',
  artifact: 'export-artifact',
};

export type ImportLine =
  | { kind: 'entry'; shape: ImportLineShape; key: string; valueJson: string }
  | { kind: 'tombstone'; shape: 'artifact'; key: string }
  | { kind: 'refused'; reason: string };

/** Reads one line of an import file; null for a blank line. */
export function readImportLine(text: string): ImportLine | null {
  if (text.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return refused(`not JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return refused('not an object {"key": …, "value": …}');
  }
  const fields = parsed as { key?: unknown; value?: unknown; valueJson?: unknown };
  const { key } = fields;
  if (typeof key !== 'string' || key === '') return refused('"key" must be a non-empty string');
  const hasValue = 'value' in fields;
  const hasValueJson = 'valueJson' in fields;
  if (hasValue && hasValueJson) {
    return refused('has both "value" (import shape) and "valueJson" (export-artifact shape)');
  }
  if (hasValueJson) {
    const { valueJson } = fields;
    if (valueJson === null) return { kind: 'tombstone', shape: 'artifact', key };
    if (typeof valueJson !== 'string') {
      return refused('"valueJson" must be JSON text (a string) or null');
    }
    return { kind: 'entry', shape: 'artifact', key, valueJson };
  }
  if (!hasValue) {
    return refused('"value" is missing (an export-artifact line has "valueJson" instead)');
  }
  return { kind: 'entry', shape: 'import', key, valueJson: JSON.stringify(fields.value) };
}

function refused(reason: string): ImportLine {
  return { kind: 'refused', reason };
}

import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import { canonicalJson } from '../../data/canonical-json.js';

/**
 * `uniqueItems` in linear time. Ajv compares every pair of items (O(n²): 20 000 objects cost
 * seconds per value); two items are equal as JSON exactly when their canonical JSON texts are
 * equal (keys sorted, 1 and 1.0 the same number), so one pass with a Map of texts finds the same
 * duplicates. The error keeps Ajv's shape and names the same pair Ajv's general loop names: the
 * last item that repeats an earlier one, and the nearest earlier copy of it.
 */
export function addLinearUniqueItems(ajv: Ajv2020): void {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    validate: function uniqueItems(this: unknown, required: boolean, data: unknown[]): boolean {
      const self = uniqueItems as { errors?: Partial<ErrorObject>[] | null };
      self.errors = null;
      if (!required) return true;
      const duplicate = lastDuplicate(data);
      if (!duplicate) return true;
      const [j, i] = duplicate;
      self.errors = [
        {
          keyword: 'uniqueItems',
          params: { i, j },
          message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
        },
      ];
      return false;
    },
  });
}

/** [earlier, later] of the last item equal (as JSON) to an earlier one, or undefined. */
export function lastDuplicate(items: readonly unknown[]): [number, number] | undefined {
  const seen = new Map<string, number>();
  let found: [number, number] | undefined;
  for (let index = 0; index < items.length; index++) {
    const text = canonicalJson(items[index]);
    const earlier = seen.get(text);
    if (earlier !== undefined) found = [earlier, index];
    seen.set(text, index);
  }
  return found;
}

import { describe, expect, it } from 'vitest';
import { describeShapesRead } from './import-shapes';

describe('describeShapesRead', () => {
  it('names the shape read, both when mixed, nothing when no line was an entry', () => {
    expect(describeShapesRead({ shapes: { import: 0, artifact: 300 }, gzip: true })).toBe(
      'Read 300 lines in the export-artifact shape (gzip)',
    );
    expect(describeShapesRead({ shapes: { import: 1, artifact: 0 }, gzip: false })).toBe(
      'Read 1 line in the import shape',
    );
    expect(describeShapesRead({ shapes: { import: 2000, artifact: 1 }, gzip: false })).toBe(
      'Read 2,000 lines in the import shape and 1 in the export-artifact shape',
    );
    expect(describeShapesRead({ shapes: { import: 0, artifact: 0 }, gzip: false })).toBeNull();
  });
});

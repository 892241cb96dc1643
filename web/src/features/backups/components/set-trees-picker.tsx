import { useId } from 'react';

export interface SetTreesPickerProps {
  trees: readonly string[];
  selected: readonly string[];
  crossTreeConsistent: boolean;
  error: string | undefined;
  onChange: (selected: string[]) => void;
  onConsistentChange: (consistent: boolean) => void;
}

/** The trees of a set backup (two or more) and whether they are captured at one instant. */
export function SetTreesPicker({
  trees,
  selected,
  crossTreeConsistent,
  error,
  onChange,
  onConsistentChange,
}: SetTreesPickerProps) {
  const errorId = useId();
  const toggle = (tree: string, on: boolean) =>
    onChange(on ? [...selected, tree] : selected.filter((t) => t !== tree));
  return (
    <>
      <fieldset className="bk-checklist" aria-describedby={error ? errorId : undefined}>
        <legend>Trees (at least two)</legend>
        {trees.length === 0 && <p className="muted">This tenant has no trees yet.</p>}
        {trees.map((tree) => (
          <label key={tree} className="bk-choice">
            <input
              type="checkbox"
              checked={selected.includes(tree)}
              onChange={(e) => toggle(tree, e.target.checked)}
            />
            <span>{tree}</span>
          </label>
        ))}
        {error && (
          <p id={errorId} className="field__error">
            {error}
          </p>
        )}
      </fieldset>
      <label className="bk-choice">
        <input
          type="checkbox"
          checked={crossTreeConsistent}
          onChange={(e) => onConsistentChange(e.target.checked)}
        />
        <span>Consistent across trees (capture every tree at the same instant)</span>
      </label>
    </>
  );
}

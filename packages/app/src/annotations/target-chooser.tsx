import { useId } from 'react';
import { plural } from '../ui/formatting.ts';

// "Text shown" on the annotation screen: a choice of the bill's texts, each with how many
// highlights it holds, where it has several; the one text's name where it has one.

/** The text shown, and the choice of another where the bill has several. */
export function TargetChooser({
  targets,
  target,
  label,
  anchoredCount,
  onChoose,
}: {
  readonly targets: readonly { readonly target: string; readonly label: string }[];
  readonly target: string;
  /** The shown text's label. */
  readonly label: string;
  /** How many highlights are anchored in a text. */
  readonly anchoredCount: (target: string) => number;
  readonly onChoose: (target: string) => void;
}) {
  const ids = useId();
  if (targets.length <= 1) return <p className="annotation-target">Text shown: {label}</p>;
  return (
    <div className="annotation-target">
      <label htmlFor={`${ids}-target`}>Text shown</label>
      <select
        id={`${ids}-target`}
        value={target}
        onChange={(event) => {
          onChoose(event.currentTarget.value);
        }}
      >
        {targets.map((option) => {
          const count = anchoredCount(option.target);
          return (
            <option key={option.target} value={option.target}>
              {option.label}
              {count === 0 ? '' : ` (${plural(count, 'highlight')})`}
            </option>
          );
        })}
      </select>
    </div>
  );
}

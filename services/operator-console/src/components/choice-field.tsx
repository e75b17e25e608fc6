import { label } from "../format.js";

/** A labelled select of `choices` (shown as words) with an empty first choice. */
export function ChoiceField({
  name,
  title,
  choices,
  value,
  emptyLabel = "Any",
}: {
  name: string;
  title: string;
  choices: readonly string[];
  value: string;
  emptyLabel?: string;
}) {
  return (
    <label>
      {title}
      <select name={name} defaultValue={value}>
        <option value="">{emptyLabel}</option>
        {choices.map((choice) => (
          <option value={choice} key={choice}>
            {label(choice)}
          </option>
        ))}
      </select>
    </label>
  );
}

import { label } from "../format.js";

/** A state as a coloured badge (the colour class is the state's name; the text says it too). */
export function StatusBadge({ status }: { status: string | null | undefined }) {
  return <span class={`status status-${(status ?? "none").toLowerCase()}`}>{label(status)}</span>;
}

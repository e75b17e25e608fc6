import type { ComponentChildren } from "preact";

export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
  /** The cell that names the row (a `th scope="row"`): the first column by default. */
  rowHeader?: boolean;
}

/** A table of rows with a header row; `empty` is shown instead when there is no row. */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  caption,
  empty = "Nothing yet.",
  rowAttributes,
}: {
  rows: readonly T[] | undefined;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  caption?: string;
  empty?: string;
  /** Extra attributes of a row (a `data-*` a test or a style can find it by). */
  rowAttributes?: (row: T) => Record<string, string>;
}) {
  if (!rows) return null;
  if (rows.length === 0) return <p>{empty}</p>;
  const headerIndex = Math.max(
    0,
    columns.findIndex((c) => c.rowHeader),
  );
  return (
    <table>
      {caption ? <caption class="visually-hidden">{caption}</caption> : null}
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c.header}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...(rowAttributes?.(row) ?? {})}>
            {columns.map((c, i) =>
              i === headerIndex ? (
                <th scope="row" key={c.header}>
                  {c.cell(row)}
                </th>
              ) : (
                <td key={c.header}>{c.cell(row)}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

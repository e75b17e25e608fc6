import { useState } from "preact/hooks";
import type { Page } from "../case-types.js";

export interface CursorPages {
  /** The cursor of the page shown (undefined for the first). */
  cursor: string | undefined;
  /** Back to the first page (after a filter change). */
  reset(): void;
  previous(): void;
  next(cursor: string): void;
  hasPrevious: boolean;
}

/** The cursors of the pages seen so far (spec 2.9 cursor pagination goes forward only). */
export function useCursorPages(): CursorPages {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors[cursors.length - 1],
    reset: () => setCursors([]),
    previous: () => setCursors(cursors.slice(0, -1)),
    next: (cursor) => setCursors([...cursors, cursor]),
    hasPrevious: cursors.length > 0,
  };
}

/** Previous and next page buttons for a cursor page. */
export function Pager({
  pages,
  page,
  label,
}: {
  pages: CursorPages;
  page: Page<unknown> | undefined;
  label: string;
}) {
  const nextCursor = page?.hasMore ? page.nextCursor : null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={!pages.hasPrevious} onClick={pages.previous}>
        Previous page
      </button>
      <button type="button" disabled={!nextCursor} onClick={() => nextCursor && pages.next(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}

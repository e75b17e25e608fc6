import type { Page } from "../case-types.js";

/** One part of a long page: the id of its heading, its name and, once known, how many rows it holds. */
export interface PagePart {
  id: string;
  label: string;
  count?: string | undefined;
}

/** How many rows a part shows: "100+" when the list goes on beyond its first page. */
export function countOf(page: Page<unknown> | undefined): string | undefined {
  return page ? `${page.items.length}${page.hasMore ? "+" : ""}` : undefined;
}

/**
 * The parts of a long page as links to their headings, kept in view while the page scrolls: a
 * case's reservations and saga progress sit below a table of every group, out of sight on a
 * 300-passenger case.
 */
export function PageContents({ parts }: { parts: PagePart[] }) {
  return (
    <nav class="page-contents" aria-label="On this page">
      <ul>
        {parts.map((part) => (
          <li key={part.id}>
            <a href={`#${part.id}`}>
              {part.label}
              {part.count === undefined ? null : <span class="muted"> ({part.count})</span>}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

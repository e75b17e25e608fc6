import type { ComponentChildren } from "preact";
import { followLink, href } from "../router.js";

/** A link to a console path, followed without reloading the page. */
export function Link({
  to,
  children,
  class: className,
}: {
  to: string;
  children: ComponentChildren;
  class?: string;
}) {
  return (
    <a href={href(to)} class={className} onClick={(event) => followLink(event, to)}>
      {children}
    </a>
  );
}

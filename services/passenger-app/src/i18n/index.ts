/**
 * The app's languages (at least those of the notification templates: en, es, fr, de, pt) and how
 * one is chosen: the passenger's language from the manifest (`GET /v1/me`), else the browser's,
 * else English.
 */
import { de } from "./de.js";
import { en, type Messages } from "./en.js";
import { es } from "./es.js";
import { fr } from "./fr.js";
import { pt } from "./pt.js";

export type { Messages };

export const CATALOGUES = { en, es, fr, de, pt } as const satisfies Record<string, Messages>;

export type Language = keyof typeof CATALOGUES;

export const FALLBACK_LANGUAGE: Language = "en";

/**
 * The first of `preferences` (BCP 47 tags such as `es-MX`, or null) whose primary language the app
 * speaks; English when none is.
 */
export function chooseLanguage(preferences: readonly (string | null | undefined)[]): Language {
  for (const tag of preferences) {
    const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
    if (primary && primary in CATALOGUES) return primary as Language;
  }
  return FALLBACK_LANGUAGE;
}

/** `template` with each `{name}` replaced by `values[name]` (left as written when not given). */
export function format(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

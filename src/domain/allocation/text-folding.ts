/**
 * Folds free text the way vendors disagree about it: case, accents, punctuation and spacing.
 * "Hôtel  d'Orly – Aéroport" and "HOTEL D ORLY AEROPORT" fold to the same string.
 */
export function foldText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/&/g, " and ")
    .replace(/['’`]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * A class of the wave's groups (spec 2.6 rankingInputs): groups needing the same rooms for the same
 * nights share every figure of a hotel and, but for those placed there, its verdict, so the wave's
 * verdicts are per class and hotel and the class names its groups once.
 */
export interface RankingClass {
  /** `<rooms>x<nights>`. */
  readonly classId: string;
  readonly rooms: number;
  readonly nights: number;
  /** The class's groups, in the wave's order. */
  readonly groupIds: string[];
}

export function rankingClassId(group: { readonly rooms: number; readonly nights: number }): string {
  return `${group.rooms}x${group.nights}`;
}

/** What `verdictsAbout` reads of a verdict, as stored or as planned. */
export interface ClassVerdict {
  readonly classId: string | null;
  readonly groupIds: readonly string[] | null;
  readonly hotelUrn: string;
  readonly outcome: "selected" | "discarded";
}

/**
 * The verdicts of the classes' rows about any of the groups, in their order: a `selected` row
 * naming one of them, and a class's `discarded` row on a hotel where one of the class's groups
 * among them was not placed (the row is about the rest of the class). Verdicts on the offer itself
 * (classId null), about every group, are left to the caller.
 */
export function verdictsAbout<V extends ClassVerdict>(
  verdicts: readonly V[],
  classes: readonly RankingClass[],
  groupIds: Iterable<string>,
): V[] {
  const wanted = new Set(groupIds);
  const wantedOf = new Map<string, string[]>();
  for (const { classId, groupIds: members } of classes) {
    const inClass = members.filter((groupId) => wanted.has(groupId));
    if (inClass.length > 0) wantedOf.set(classId, inClass);
  }
  const placedAt = new Map<string, Set<string>>();
  for (const verdict of verdicts) {
    if (verdict.outcome !== "selected" || verdict.classId === null || !wantedOf.has(verdict.classId)) continue;
    placedAt.set(`${verdict.classId} ${verdict.hotelUrn}`, new Set(verdict.groupIds ?? []));
  }
  return verdicts.filter((verdict) => {
    const inClass = verdict.classId === null ? undefined : wantedOf.get(verdict.classId);
    if (!inClass) return false;
    if (verdict.outcome === "selected") return verdict.groupIds?.some((groupId) => wanted.has(groupId)) ?? false;
    const placed = placedAt.get(`${verdict.classId} ${verdict.hotelUrn}`);
    return inClass.some((groupId) => !placed?.has(groupId));
  });
}

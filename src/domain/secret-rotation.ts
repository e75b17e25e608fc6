const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Spec 5.3, 8.2: partner secrets, client secrets and webhook signing secrets alike, rotate every 90
 * days, and for 14 days after a rotation the old secret keeps working beside the new one.
 */
export const DUAL_KEY_WINDOW_MS = 14 * DAY_MS;

/**
 * Rooms one vendor may sell per hotel per night (its allotment), decremented by bookings and given
 * back by cancellations. A hotel marked full has no rooms left on any night.
 */
import type { CatalogHotel } from "./catalog.js";

export class RoomInventory {
  /** `hotelKey|night` to rooms sold. */
  private readonly sold = new Map<string, number>();
  private readonly full = new Set<string>();

  constructor(private readonly roomsPerNight?: number) {}

  /** Rooms still free on every one of `nights`. */
  available(hotel: CatalogHotel, nights: readonly string[]): number {
    if (this.full.has(hotel.key)) return 0;
    const capacity = this.roomsPerNight ?? hotel.roomsPerNight;
    return Math.min(...nights.map((night) => capacity - (this.sold.get(`${hotel.key}|${night}`) ?? 0)));
  }

  /** Takes `rooms` on every night, or nothing at all when one night lacks them. */
  reserve(hotel: CatalogHotel, nights: readonly string[], rooms: number): boolean {
    if (this.available(hotel, nights) < rooms) return false;
    for (const night of nights) this.adjust(hotel.key, night, rooms);
    return true;
  }

  release(hotel: CatalogHotel, nights: readonly string[], rooms: number): void {
    for (const night of nights) this.adjust(hotel.key, night, -rooms);
  }

  markFull(hotelKey: string, full = true): void {
    if (full) this.full.add(hotelKey);
    else this.full.delete(hotelKey);
  }

  private adjust(hotelKey: string, night: string, rooms: number): void {
    const key = `${hotelKey}|${night}`;
    this.sold.set(key, Math.max(0, (this.sold.get(key) ?? 0) + rooms));
  }
}

/** The nights of a stay: check-in included, check-out excluded (ISO dates, UTC). */
export function nightsOf(checkIn: string, checkOut: string): string[] {
  const nights: string[] = [];
  const end = Date.parse(`${checkOut}T00:00:00Z`);
  for (let day = Date.parse(`${checkIn}T00:00:00Z`); day < end; day += 86_400_000) {
    nights.push(new Date(day).toISOString().slice(0, 10));
  }
  return nights;
}

import type { Airport, Wave, WaveHotel } from "../case-types.js";
import { compassPoint, markerRadius, type Point, placeAround, polarToPoint } from "../geometry.js";

const SIZE = 440;
const MARGIN = 36;
const CENTRE = { x: SIZE / 2, y: SIZE / 2 };

interface HotelOnMap extends WaveHotel {
  groups: Array<{ groupId: string; rooms: number }>;
  rooms: number;
}

/**
 * The allocation drawn around the airport (no map tiles): every hotel the wave considered at its
 * bearing and distance, the hotels that got groups joined to the airport, each assigned group a
 * bubble sized by its rooms. The same facts are in the allocation and ranking tables beside it.
 */
export function AllocationMap({ airport, wave }: { airport: Airport; wave: Wave }) {
  const assigned = new Map<string, HotelOnMap>();
  for (const hotel of wave.hotels) assigned.set(hotel.hotelUrn, { ...hotel, groups: [], rooms: 0 });
  for (const a of wave.allocations) {
    const hotel = assigned.get(a.hotelUrn);
    if (!hotel) continue;
    hotel.groups.push({ groupId: a.groupId, rooms: a.rooms });
    hotel.rooms += a.rooms;
  }
  const { placed, radiusKm, pixelsFor, ringsKm } = placeAround(airport, [...assigned.values()], SIZE, MARGIN);
  const chosen = placed.filter((p) => p.item.rooms > 0);
  const others = placed.filter((p) => p.item.rooms === 0);
  const summary = chosen
    .map(
      (p) =>
        `${p.item.name}, ${p.distanceKm.toFixed(1)} km ${compassPoint(p.bearing)}: ${p.item.groups
          .map((g) => `${g.groupId} (${g.rooms} ${g.rooms === 1 ? "room" : "rooms"})`)
          .join(", ")}`,
    )
    .join("; ");
  return (
    <figure class="allocation-map">
      <svg
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        width={SIZE}
        height={SIZE}
        role="img"
        aria-labelledby="allocation-map-title"
        aria-describedby="allocation-map-desc"
      >
        <title id="allocation-map-title">
          Allocation around {airport.code}: {chosen.length} of {placed.length} hotels chosen
        </title>
        <desc id="allocation-map-desc">{summary || "No group is assigned to a hotel."}</desc>
        {ringsKm.map((km) => (
          <g key={km} class="ring">
            <circle cx={CENTRE.x} cy={CENTRE.y} r={pixelsFor(km)} />
            <text x={CENTRE.x + 3} y={CENTRE.y - pixelsFor(km) - 3}>
              {formatKm(km)}
            </text>
          </g>
        ))}
        {(["N", "E", "S", "W"] as const).map((word, i) => {
          const at = polarToPoint(i * 90, pixelsFor(radiusKm) + 14, CENTRE);
          return (
            <text
              key={word}
              class="compass"
              x={at.x}
              y={at.y}
              text-anchor="middle"
              dominant-baseline="middle"
            >
              {word}
            </text>
          );
        })}
        {others.map((p) => (
          <circle key={p.item.hotelUrn} class="hotel-considered" cx={p.point.x} cy={p.point.y} r={3}>
            <title>
              {p.item.name}: {p.distanceKm.toFixed(1)} km {compassPoint(p.bearing)}, not chosen
            </title>
          </circle>
        ))}
        {chosen.map((p) => (
          <line
            key={`line-${p.item.hotelUrn}`}
            class="route"
            x1={CENTRE.x}
            y1={CENTRE.y}
            x2={p.point.x}
            y2={p.point.y}
          />
        ))}
        {chosen.map((p) => (
          <g key={p.item.hotelUrn} class="hotel-chosen">
            <circle cx={p.point.x} cy={p.point.y} r={markerRadius(p.item.rooms)}>
              <title>
                {p.item.name}: {p.distanceKm.toFixed(1)} km {compassPoint(p.bearing)}, {p.item.rooms} rooms
              </title>
            </circle>
            {p.item.groups.map((g, i) => {
              const at = groupBubble(p.point, markerRadius(p.item.rooms), i, p.item.groups.length);
              return (
                <g key={g.groupId} class="group">
                  <circle cx={at.x} cy={at.y} r={markerRadius(g.rooms, 3, 3)} />
                  <text x={at.x + markerRadius(g.rooms, 3, 3) + 2} y={at.y + 4}>
                    {g.groupId}
                  </text>
                </g>
              );
            })}
            <HotelName
              bearing={p.bearing}
              at={p.point}
              gap={markerRadius(p.item.rooms) + 22}
              name={p.item.name}
            />
          </g>
        ))}
        <g class="airport">
          <rect x={CENTRE.x - 6} y={CENTRE.y - 6} width={12} height={12} />
          <text x={CENTRE.x + 9} y={CENTRE.y + 18}>
            {airport.code}
          </text>
        </g>
      </svg>
      <figcaption>
        Hotels at their bearing and distance from {airport.name}; filled circles were chosen, each group's
        bubble is sized by its rooms; grey dots were considered. Distances on a square-root scale; outer ring{" "}
        {formatKm(radiusKm)}.
      </figcaption>
    </figure>
  );
}

/** Where the i-th of n group bubbles sits around its hotel's marker. */
function groupBubble(hotel: Point, hotelRadius: number, i: number, n: number): Point {
  return polarToPoint((360 / Math.max(n, 1)) * i + 45, hotelRadius + 9, hotel);
}

/** A hotel's name beyond its marker, on the side away from the airport, so the centre stays readable. */
function HotelName({ bearing, at, gap, name }: { bearing: number; at: Point; gap: number; name: string }) {
  const spot = polarToPoint(bearing, gap, at);
  const east = bearing > 20 && bearing < 160;
  const west = bearing > 200 && bearing < 340;
  return (
    <text class="hotel-name" x={spot.x} y={spot.y + 4} text-anchor={east ? "start" : west ? "end" : "middle"}>
      {name}
    </text>
  );
}

function formatKm(km: number): string {
  return `${km < 1 ? km.toFixed(2).replace(/0+$/, "") : km} km`;
}

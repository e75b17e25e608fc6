/** A plain link to the hotel on OpenStreetMap (no tiles are embedded in the app). */
export function openStreetMapUrl(coordinates: { lat: number; lon: number }): string {
  const lat = coordinates.lat.toFixed(6);
  const lon = coordinates.lon.toFixed(6);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
}

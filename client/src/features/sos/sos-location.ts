import type { SosLocationBody } from '../../../../protocol/sos';

/** Degrees with 5 decimals (about a metre): what the alert shows and the map links carry. */
export const coordinate = (degrees: number): string => degrees.toFixed(5);

/** The phone's own map app (RFC 5870 `geo:` URI). */
export function geoUri({ latitude, longitude }: Pick<SosLocationBody, 'latitude' | 'longitude'>) {
  return `geo:${coordinate(latitude)},${coordinate(longitude)}`;
}

/** OpenStreetMap with a marker, at street zoom; no map tiles are loaded by Chirp itself. */
export function openStreetMapUrl({
  latitude,
  longitude,
}: Pick<SosLocationBody, 'latitude' | 'longitude'>) {
  const lat = coordinate(latitude);
  const lon = coordinate(longitude);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
}

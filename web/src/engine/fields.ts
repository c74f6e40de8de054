/**
 * An event's fields as the wasm `decodeEvent` gives them (JSON text, already resolved for
 * reading: pool references as their values, times as "+N ms" since the recording's start,
 * spans as "N ms", addresses in hex), as the object the event panel shows.
 */
export function parseEventFields(json: string): Record<string, unknown> {
  const parsed = JSON.parse(json) as { type: string; fields: Record<string, unknown> };
  return { eventType: parsed.type, ...parsed.fields };
}

// A typed reader of a game's Server-Sent Events stream: each message's
// `data` is one `EventOut` (the document names it in `x-item-schema`, as
// OpenAPI 3.1 has no `itemSchema`), checked by a type guard on `kind` and
// `seq` instead of cast. docs/typescript.md shows the same parser.

import type { components } from "./hatstand.js";

type EventOut = components["schemas"]["EventOut"];

/** The `data` of each complete message in `text` (a message ends with a
 * blank line), and the incomplete rest. */
export function frames(text: string): { data: string[]; rest: string } {
  const messages = text.split("\n\n");
  const rest = messages.pop() ?? "";
  const data = messages
    .map((message) =>
      message
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n"),
    )
    .filter((payload) => payload !== "");
  return { data, rest };
}

/** Whether `value` is an event of the feed (then `kind` narrows it). */
export function isEvent(value: unknown): value is EventOut {
  return (
    typeof value === "object" &&
    value !== null &&
    "kind" in value &&
    typeof value.kind === "string" &&
    "seq" in value &&
    typeof value.seq === "number" &&
    "data" in value
  );
}

/** The first `count` events of game `id` from its stream, as the holder of
 * `token` sees them. */
export async function eventsOf(
  base: string,
  id: string,
  token: string,
  count: number,
): Promise<EventOut[]> {
  const controller = new AbortController();
  const response = await fetch(`${base}/v1/games/${id}/stream?after=0`, {
    headers: { Accept: "text/event-stream", Authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (!response.ok || response.body === null) {
    throw new Error(`stream of ${id}: ${response.status}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const events: EventOut[] = [];
  let buffer = "";
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    const { data, rest } = frames(buffer + value);
    buffer = rest;
    for (const payload of data) {
      const parsed: unknown = JSON.parse(payload);
      if (!isEvent(parsed)) throw new Error(`not an event: ${payload}`);
      events.push(parsed);
    }
  }
  controller.abort();
  return events;
}

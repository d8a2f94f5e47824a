/** The body of GET /v1/models, with both APIs' model fields so the openai and Anthropic SDKs each read theirs. */

/** One model as both APIs list it. */
export function modelEntry(id: string): Record<string, unknown> {
  return {
    id,
    object: "model",
    type: "model",
    created: 0,
    created_at: "1970-01-01T00:00:00Z",
    display_name: id,
    owned_by: "vf",
  };
}

/** The list of `ids`, with the pagination fields Anthropic's SDK reads. */
export function modelsListBody(ids: readonly string[]): string {
  return JSON.stringify({
    object: "list",
    data: ids.map(modelEntry),
    has_more: false,
    first_id: ids[0] ?? null,
    last_id: ids[ids.length - 1] ?? null,
  });
}

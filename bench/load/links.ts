/**
 * The campaign link of a fetch-ads answer, as a path to request (`/c/…?…`), or null when the
 * answer has none. Found by string search, not JSON.parse: the load generators call it on
 * answers they are timing, and only this one field is wanted.
 */
export function campaignLinkOf(body: string): string | null {
  return pathOf(body, '"campaign_link":"');
}

/** The view URL of a fetch-ads answer, as a path to request, or null when it has none. */
export function viewUrlOf(body: string): string | null {
  return pathOf(body, '"view_url":"');
}

function pathOf(body: string, field: string): string | null {
  const start = body.indexOf(field);
  if (start < 0) return null;
  const from = start + field.length;
  const end = body.indexOf('"', from);
  // Past the scheme and the host: the link's path and query.
  const path = body.indexOf('/', body.indexOf('//', from) + 2);
  return path < 0 || path > end ? null : body.slice(path, end);
}

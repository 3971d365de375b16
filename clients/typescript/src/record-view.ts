/** Longest wait for a view to be recorded; a view is never worth holding anything up for. */
const VIEW_TIMEOUT_MS = 5000;

/** The part of an ad `recordView` reads: its `view_url` (absent from older servers' ads). */
export interface ViewableAd {
  view_url?: string;
}

/**
 * The `recordView` of one client: calls the ad's `view_url` (a `POST` without credentials)
 * once the ad is on screen. Fire and forget: it never throws, and resolves `true` when the
 * view is recorded (now or before: the server counts one per ad), `false` on anything else
 * (no `view_url`, too late, a network error or timeout).
 */
export function createRecordView(
  fetchOf: (request: Request) => Promise<Response>,
): (ad: ViewableAd | null | undefined) => Promise<boolean> {
  return async function recordView(ad) {
    try {
      if (!ad?.view_url) return false;
      const request = new Request(ad.view_url, {
        method: 'POST',
        credentials: 'omit',
        // Survives a page being closed right after the ad came into view.
        keepalive: true,
        signal: AbortSignal.timeout(VIEW_TIMEOUT_MS),
      });
      const response = await fetchOf(request);
      await response.body?.cancel();
      return response.status === 204;
    } catch {
      return false;
    }
  };
}

/**
 * A stand-in for Adline's fetch-ads behind the client's `fetch` option: no network. Each
 * request's body is kept; `answer` decides what it gets back and when.
 */
export type FakeAnswer =
  { ad: string; afterMs?: number } | { status: number; body?: string; afterMs?: number } | 'hang';

export const AD_MARKDOWN =
  '\n\n---\n**[Waterproof hiking boots](https://ads.example/c/1)**\n\n_Sponsored · Adline_';

export interface FakeAdline {
  fetch: (request: Request) => Promise<Response>;
  /** The JSON bodies sent to fetch-ads, in order. */
  bodies: Record<string, unknown>[];
  /** When each request arrived (`performance.now()`). */
  arrivals: number[];
  headers: Headers[];
}

export function fakeAdline(answer: FakeAnswer): FakeAdline {
  const fake: FakeAdline = {
    bodies: [],
    arrivals: [],
    headers: [],
    fetch: async (request) => {
      fake.arrivals.push(performance.now());
      fake.headers.push(request.headers);
      const text = await request.text();
      if (text !== '') fake.bodies.push(JSON.parse(text) as Record<string, unknown>);
      if (answer === 'hang') {
        // Never answers; only the client's abort ends it.
        return new Promise<Response>((_resolve, reject) => {
          request.signal.addEventListener('abort', () => reject(new Error('aborted')));
        });
      }
      if (answer.afterMs) await new Promise((resolve) => setTimeout(resolve, answer.afterMs));
      if ('ad' in answer) {
        return Response.json({
          advertisements: [{ campaign_name: 'Boots', campaign_markdown: answer.ad }],
        });
      }
      return new Response(answer.body ?? '', {
        status: answer.status,
        headers: { 'content-type': 'application/problem+json' },
      });
    },
  };
  return fake;
}

// Test helpers: a stand-in Adline on a local port and a chat server around the example's code.
import { createServer } from 'node:http';
import { createAdline } from './adline.mjs';
import { createChatServer } from './chat-server.mjs';

/** An Adline that answers every fetch-ads with `answer(body)` after `delayMs`. */
export async function startFakeAdline({ delayMs = 0, answer }) {
  const requests = [];
  const server = createServer(async (request, response) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    requests.push({ headers: request.headers, body: JSON.parse(text) });
    const timer = setTimeout(() => {
      const { status, body } = answer(requests.at(-1).body);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    }, delayMs);
    response.on('close', () => clearTimeout(timer));
  });
  const url = await listen(server);
  return { url, requests, close: () => close(server) };
}

export const anAd = (markdown) => ({
  status: 200,
  body: { advertisements: [{ campaign_markdown: markdown }] },
});

/** The example's chat server in-process, talking to the Adline at `adlineUrl`. */
export async function startChat({ adlineUrl, apiKey = 'adl_test_example', model, timeoutMs }) {
  const adline = createAdline({ url: adlineUrl, apiKey, timeoutMs, onError: () => {} });
  const server = createChatServer({ adline, model, log: { error: () => {} } });
  const url = await listen(server);
  return { url, adline, close: () => close(server) };
}

export function postChat(url, route, body) {
  return fetch(`${url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function listen(server) {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`));
  });
}

function close(server) {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
}

// A minimal publisher backend: POST /chat { "message": "…" } answers { "reply": "…" }, the
// reply of a (canned) AI model with an Adline ad appended when one matches.
//
//   ADLINE_API_KEY=<key> node examples/publisher-backend/server.mjs
//   curl -s -X POST http://localhost:8080/chat -H 'Content-Type: application/json' \
//     -d '{"message":"Which GPU should I rent to train my model?"}'
import { createServer } from 'node:http';
import { createFetchAds, extractKeywords, withAd } from './adline.mjs';

const PORT = Number(process.env.PORT ?? 8080);
const ADLINE_URL = process.env.ADLINE_URL ?? 'http://localhost:3000';
// The key stays on the server, read from the environment: never in client code or a repository.
const ADLINE_API_KEY = process.env.ADLINE_API_KEY;
const MAX_BODY_BYTES = 16 * 1024;

const fetchAds = ADLINE_API_KEY
  ? createFetchAds({ url: ADLINE_URL, apiKey: ADLINE_API_KEY, timeoutMs: 800 })
  : async () => null;

/** Stands in for the publisher's AI model. */
function aiReply(message) {
  return `You asked: "${message}". This example backend has no model, so here is a canned answer.`;
}

async function chat(message, userAgent) {
  const reply = aiReply(message);
  return withAd(
    reply,
    () =>
      fetchAds({
        conversation: message,
        keywords: extractKeywords(message),
        userDeviceInfo: userAgent,
      }),
    (error) => console.warn(`no ad: ${error.message}`),
  );
}

async function readJson(request) {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > MAX_BODY_BYTES) throw new Error('body too large');
  }
  return JSON.parse(body);
}

function send(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const server = createServer(async (request, response) => {
  if (request.method !== 'POST' || request.url !== '/chat') {
    return send(response, 404, { error: 'POST /chat { "message": "…" }' });
  }
  let message;
  try {
    message = (await readJson(request))?.message;
  } catch {
    return send(response, 400, { error: 'send a JSON body' });
  }
  if (typeof message !== 'string' || message.trim() === '') {
    return send(response, 400, { error: 'message must be a non-empty string' });
  }
  send(response, 200, { reply: await chat(message, request.headers['user-agent']) });
});

server.listen(PORT, () => {
  console.log(`publisher backend on http://localhost:${PORT}, ads from ${ADLINE_URL}`);
  if (!ADLINE_API_KEY) console.warn('ADLINE_API_KEY is not set: replies will carry no ads');
});

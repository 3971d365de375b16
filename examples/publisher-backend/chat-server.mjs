// The example's HTTP API:
//   POST /chat        { "message": "…" } or { "messages": [{ "role", "content" }, …] } → { "reply" }
//   POST /chat/stream the same body → the reply as plain text, streamed, the ad last
import { createServer } from 'node:http';
import { replyWithAd, streamWithAd } from './adline.mjs';

const MAX_BODY_BYTES = 16 * 1024;
const ROLES = new Set(['system', 'user', 'assistant']);

export function createChatServer({ adline, model, log = console }) {
  return createServer(async (request, response) => {
    const route = request.method === 'POST' ? request.url : undefined;
    if (route !== '/chat' && route !== '/chat/stream') {
      return sendJson(response, 404, { error: 'POST /chat or /chat/stream { "message": "…" }' });
    }
    let messages;
    try {
      messages = messagesOf(await readJson(request));
    } catch (error) {
      return sendJson(response, 400, { error: error.message });
    }
    const device = request.headers['user-agent'];
    try {
      if (route === '/chat') {
        return sendJson(response, 200, {
          reply: await replyWithAd(adline, messages, model.generateReply, device),
        });
      }
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      for await (const chunk of streamWithAd(adline, messages, model.streamReply, device)) {
        response.write(chunk);
      }
      response.end();
    } catch (error) {
      // The model failed (the ad never throws): a real backend would answer its own error.
      log.error(`chat failed: ${error.message}`);
      if (response.headersSent) response.destroy();
      else sendJson(response, 502, { error: 'the model failed' });
    }
  });
}

/** The chat so far: a whole `messages` history, or one `message` from the user. */
function messagesOf(body) {
  if (typeof body?.message === 'string' && body.message.trim() !== '') {
    return [{ role: 'user', content: body.message }];
  }
  const valid =
    Array.isArray(body?.messages) &&
    body.messages.length > 0 &&
    body.messages.every((m) => ROLES.has(m?.role) && typeof m.content === 'string');
  if (!valid) throw new Error('send "message" (a non-empty string) or "messages"');
  return body.messages.map(({ role, content }) => ({ role, content }));
}

async function readJson(request) {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > MAX_BODY_BYTES) throw new Error('the body is too large');
  }
  try {
    return JSON.parse(body);
  } catch {
    throw new Error('send a JSON body');
  }
}

function sendJson(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

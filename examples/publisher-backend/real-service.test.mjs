// The example against a real Adline, as CI runs it (scripts/test-examples.mjs starts the
// service with demo data and passes its URL and demo test key, which bills nothing):
//   ADLINE_URL=http://localhost:3000 ADLINE_API_KEY=adl_test_… npm test
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createCannedModel } from './canned-model.mjs';
import { postChat, startChat } from './fake-adline.mjs';

const { ADLINE_URL, ADLINE_API_KEY, ADLINE_EXAMPLES_REQUIRE_SERVICE } = process.env;
const configured = Boolean(ADLINE_URL && ADLINE_API_KEY);
const skip = configured ? false : 'set ADLINE_URL and ADLINE_API_KEY to run against Adline';

test('a real Adline is configured when CI requires it', () => {
  assert.ok(configured || !ADLINE_EXAMPLES_REQUIRE_SERVICE, 'ADLINE_URL and ADLINE_API_KEY');
});

let chat;
after(() => chat?.close());

test(
  'the reply to a GPU question ends with a served ad and its tracking link',
  { skip },
  async () => {
    chat ??= await startChat({
      adlineUrl: ADLINE_URL,
      apiKey: ADLINE_API_KEY,
      model: createCannedModel({ wordDelayMs: 1 }),
    });
    const message = 'Which GPU should I rent to train my machine learning model?';
    const { reply } = await (await postChat(chat.url, '/chat', { message })).json();
    const ad = reply.slice(reply.indexOf('canned answer.') + 'canned answer.'.length);
    assert.match(ad, /^\n\n/);
    assert.match(ad, new RegExp(`\\]\\(${ADLINE_URL}/api/campaign_click\\?[^)]+\\)`));

    const streamed = await (await postChat(chat.url, '/chat/stream', { message })).text();
    assert.match(streamed, /canned answer\.\n\n.*\/api\/campaign_click\?/s);
  },
);

test('a question no campaign matches gets the reply alone', { skip }, async () => {
  chat ??= await startChat({
    adlineUrl: ADLINE_URL,
    apiKey: ADLINE_API_KEY,
    model: createCannedModel({ wordDelayMs: 1 }),
  });
  const { reply } = await (
    await postChat(chat.url, '/chat', { message: 'Tell me about zebras' })
  ).json();
  assert.match(reply, /canned answer\.$/);
});

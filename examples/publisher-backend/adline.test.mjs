// npm test (node --test): the example's chat server against a stand-in Adline on a local port.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { extractKeywords } from './adline.mjs';
import { createCannedModel } from './canned-model.mjs';
import { anAd, postChat, startChat, startFakeAdline } from './fake-adline.mjs';

const AD = '\n\n**GPUs by the hour** [Rent one](https://adline.test/c/1)\n\n*Sponsored · Adline*';
const noMatch = () => ({ status: 404, body: { code: 'no_matching_ad' } });
const slowModel = (ms) => ({
  generateReply: async () => (await sleep(ms), 'Reply.'),
  async *streamReply() {
    yield 'Re';
    await sleep(ms);
    yield 'ply.';
  },
});

const cleanups = [];
after(() => Promise.all(cleanups.map((close) => close())));
async function setUp({ adline: fake, model = createCannedModel({ wordDelayMs: 1 }), timeoutMs }) {
  const adline = await startFakeAdline(fake);
  const chat = await startChat({ adlineUrl: adline.url, model, timeoutMs });
  cleanups.push(adline.close, chat.close);
  return { adline, chat };
}

test('extracts distinct keywords without stop words', () => {
  assert.deepEqual(extractKeywords('Which GPU should I rent to train my model? My GPU is old.'), [
    'gpu',
    'rent',
    'train',
    'model',
    'old',
  ]);
  assert.deepEqual(extractKeywords('is it?'), []);
});

test('POST /chat appends the ad to the reply and sends the key, keywords and recent messages', async () => {
  const { adline, chat } = await setUp({ adline: { answer: () => anAd(AD) } });
  const messages = [
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Hi! How can I help?' },
    { role: 'user', content: 'Which GPU should I rent to train my model?' },
  ];
  const response = await postChat(chat.url, '/chat', { messages });
  assert.equal(response.status, 200);
  const { reply } = await response.json();
  assert.match(reply, /^You asked: "Which GPU should I rent to train my model\?"/);
  assert.ok(reply.endsWith(AD), reply);
  const [sent] = adline.requests;
  assert.equal(sent.headers['service-api-key'], 'adl_test_example');
  assert.equal(sent.body.context_keywords, 'gpu, rent, train, model');
  assert.equal(
    sent.body.conversation,
    'user: Hello\nassistant: Hi! How can I help?\nuser: Which GPU should I rent to train my model?',
  );
});

test('the ad is asked for while the model writes: a 300 ms reply and a 300 ms ad take about 300 ms', async () => {
  const { chat } = await setUp({
    adline: { delayMs: 300, answer: () => anAd(AD) },
    model: slowModel(300),
  });
  const started = performance.now();
  const { reply } = await (await postChat(chat.url, '/chat', { message: 'gpu' })).json();
  const elapsed = performance.now() - started;
  assert.equal(reply, `Reply.${AD}`);
  assert.ok(elapsed < 550, `took ${Math.round(elapsed)} ms; one after the other takes 600`);
});

test('POST /chat/stream streams the reply as it is written and ends with the ad', async () => {
  const { chat } = await setUp({
    adline: { delayMs: 200, answer: () => anAd(AD) },
    model: slowModel(400),
  });
  const started = performance.now();
  const response = await postChat(chat.url, '/chat/stream', { message: 'gpu' });
  const decoder = new TextDecoder();
  const chunks = [];
  for await (const bytes of response.body) {
    chunks.push({ text: decoder.decode(bytes, { stream: true }), at: performance.now() - started });
  }
  assert.equal(chunks.map((chunk) => chunk.text).join(''), `Reply.${AD}`);
  // The first words reached the user long before the model (400 ms) had finished.
  assert.ok(chunks[0].at < 300, `first chunk after ${Math.round(chunks[0].at)} ms`);
});

test('no matching ad, or a hung Adline: the reply alone, never later than the timeout', async () => {
  const none = await setUp({ adline: { answer: noMatch } });
  const alone = await (await postChat(none.chat.url, '/chat', { message: 'zebras' })).json();
  assert.match(alone.reply, /canned answer\.$/);

  const hung = await setUp({ adline: { delayMs: 10_000, answer: noMatch }, timeoutMs: 300 });
  const started = performance.now();
  const response = await postChat(hung.chat.url, '/chat/stream', { message: 'gpu' });
  const text = await response.text();
  const elapsed = performance.now() - started;
  assert.match(text, /canned answer\.$/);
  assert.ok(elapsed < 1000, `took ${Math.round(elapsed)} ms with a 300 ms timeout`);
});

test('after 5 failures in a row the circuit breaker stops asking Adline; replies go on', async () => {
  const { adline, chat } = await setUp({
    adline: { answer: () => ({ status: 500, body: { code: 'internal_error' } }) },
  });
  for (let i = 0; i < 7; i++) {
    const { reply } = await (await postChat(chat.url, '/chat', { message: 'gpu' })).json();
    assert.match(reply, /canned answer\.$/);
  }
  assert.equal(adline.requests.length, 5);
});

test('bad requests answer 400 or 404 without asking Adline', async () => {
  const { adline, chat } = await setUp({ adline: { answer: () => anAd(AD) } });
  assert.equal((await postChat(chat.url, '/chat', { message: '  ' })).status, 400);
  assert.equal((await postChat(chat.url, '/chat', { messages: [{ role: 'x' }] })).status, 400);
  assert.equal((await postChat(chat.url, '/other', { message: 'gpu' })).status, 404);
  assert.equal(adline.requests.length, 0);
});

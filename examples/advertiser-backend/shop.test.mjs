// npm test (node --test): the shop against a stand-in Adline on a local port.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, test } from 'node:test';
import { createOrderReporter, createShopServer } from './shop.mjs';

const KEY = 'adl_adv_example';
const servers = [];
after(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

function listen(server) {
  servers.push(server);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`));
  });
}

/** An Adline that records each conversions request and answers `answer(body)`. */
async function fakeAdline(answer) {
  const requests = [];
  const url = await listen(
    createServer(async (request, response) => {
      let text = '';
      for await (const chunk of request) text += chunk;
      requests.push({ url: request.url, headers: request.headers, body: JSON.parse(text) });
      const { status, body } = answer(requests.at(-1).body);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    }),
  );
  return { url, requests };
}

async function shop(adlineUrl) {
  const errors = [];
  const reportOrder = createOrderReporter({ url: adlineUrl, advertiserKey: KEY });
  const url = await listen(
    createShopServer({ reportOrder, log: { error: (e) => errors.push(e) } }),
  );
  return { url, errors };
}

/** A visitor who came from an ad: lands with the click id, then pays `total`. */
async function buyFromAd(shopUrl, total) {
  const landing = await fetch(`${shopUrl}/landing?adl_click=CLICK123`);
  const cookie = landing.headers.get('set-cookie').split(';')[0];
  const checkout = await fetch(`${shopUrl}/checkout`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ total }),
  });
  return checkout.json();
}

const accepted = (body) => ({
  status: 200,
  body: { results: [{ event_id: body.event_id, status: 'accepted', conversion_id: 'c-1' }] },
});

test('reports a paid order from an ad as a purchase, with the advertiser key and click id', async () => {
  const adline = await fakeAdline(accepted);
  const { url } = await shop(adline.url);

  const answer = await buyFromAd(url, 49.9);

  assert.deepEqual(answer.conversion, {
    event_id: 'order-1',
    status: 'accepted',
    conversion_id: 'c-1',
  });
  assert.equal(adline.requests.length, 1);
  const [{ url: path, headers, body }] = adline.requests;
  assert.equal(path, '/api/conversions');
  assert.equal(headers.authorization, `Bearer ${KEY}`);
  assert.equal(body.click_id, 'CLICK123');
  assert.equal(body.event, 'purchase');
  assert.equal(body.event_id, 'order-1');
  assert.equal(body.value, 49.9);
  assert.equal(body.currency, 'USD');
});

test('reports nothing for an order that came from no ad', async () => {
  const adline = await fakeAdline(accepted);
  const { url } = await shop(adline.url);
  const checkout = await fetch(`${url}/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ total: 10 }),
  });
  assert.deepEqual(await checkout.json(), { order_id: '1', conversion: null });
  assert.equal(adline.requests.length, 0);
});

test('keeps the order when Adline refuses the key, and logs it', async () => {
  const adline = await fakeAdline(() => ({ status: 404, body: { code: 'invalid_api_key' } }));
  const { url, errors } = await shop(adline.url);
  const answer = await buyFromAd(url, 20);
  assert.equal(answer.conversion, null);
  assert.match(errors[0], /404: invalid_api_key/);
});

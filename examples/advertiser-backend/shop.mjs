// A shop's backend, cut down to what Adline needs: the landing page keeps the click id that
// Adline put on the ad's link (`adl_click`) in a cookie, and a paid order is reported as a
// `purchase` conversion with the advertiser's key, from the server.
import { createServer } from 'node:http';
import { createAdlineConversions } from '@adline/client';

const CLICK_COOKIE = 'adl_click';

/** `reportOrder(order)`: the conversion's result, or null when the order came from no ad. */
export function createOrderReporter({ url, advertiserKey, fetch }) {
  const conversions = createAdlineConversions({
    baseUrl: url,
    advertiserKey,
    ...(fetch ? { fetch } : {}),
  });
  return async function reportOrder(order) {
    if (!order.clickId) return null;
    const [result] = await conversions.send({
      click_id: order.clickId,
      event: 'purchase',
      // The order's own id: sent again (a retry), it still counts once.
      event_id: `order-${order.id}`,
      occurred_at: order.paidAt.toISOString(),
      value: order.total,
      currency: order.currency,
    });
    return result;
  };
}

/**
 * GET /landing?adl_click=… (the ad's target URL) and POST /checkout { total }. A failed
 * report never fails the order: it is logged, to be sent again later.
 */
export function createShopServer({ reportOrder, log = console }) {
  let orders = 0;
  return createServer(async (request, response) => {
    const url = new URL(request.url, 'http://shop.local');
    if (request.method === 'GET' && url.pathname === '/landing') {
      const clickId = url.searchParams.get(CLICK_COOKIE);
      const cookie = clickId
        ? {
            'set-cookie': `${CLICK_COOKIE}=${encodeURIComponent(clickId)}; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax`,
          }
        : {};
      response.writeHead(200, { 'content-type': 'text/plain', ...cookie });
      return response.end('Welcome to the shop.');
    }
    if (request.method === 'POST' && url.pathname === '/checkout') {
      let text = '';
      for await (const chunk of request) text += chunk;
      const { total } = JSON.parse(text);
      const order = {
        id: String(++orders),
        total,
        currency: 'USD',
        paidAt: new Date(),
        clickId: cookieOf(request.headers.cookie, CLICK_COOKIE),
      };
      let conversion = null;
      try {
        conversion = await reportOrder(order);
      } catch (error) {
        log.error(`order ${order.id}: conversion not reported yet (${error.message})`);
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(JSON.stringify({ order_id: order.id, conversion }));
    }
    response.writeHead(404).end();
  });
}

function cookieOf(header = '', name) {
  const match = header.match(new RegExp(`(?:^|; )${name}=([^;]*)`));
  return match ? decodeURIComponent(match[1]) : null;
}

// npm start: the shop on PORT (3001), reporting to the Adline at ADLINE_URL with the
// advertiser key an operator created (ADLINE_ADVERTISER_KEY, `adl_adv_…`).
import { createOrderReporter, createShopServer } from './shop.mjs';

const reportOrder = createOrderReporter({
  url: process.env.ADLINE_URL ?? 'http://localhost:3000',
  advertiserKey: process.env.ADLINE_ADVERTISER_KEY ?? '',
});
const port = Number(process.env.PORT ?? 3001);
createShopServer({ reportOrder }).listen(port, () => console.log(`shop on :${port}`));

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A campaign's conversion pixel token: the campaign's id and an HMAC of it with the click
 * signing secret, so the pixel URLs need no stored secret and cannot be made for another
 * campaign. It sits in public pages (the advertiser's confirmation page): it only lets a
 * browser report a conversion of a click it holds the (unguessable) click id of.
 */
const MAC_BYTES = 16;
const MAC_LENGTH = Math.ceil((MAC_BYTES * 8) / 6);
const TOKEN_SHAPE = new RegExp(`^([0-9a-f-]{36})\\.([A-Za-z0-9_-]{${MAC_LENGTH}})$`);
const DOMAIN = 'adline/conversion-pixel/v1\n';

export const PIXEL_GIF_PATH = '/api/conversions/pixel.gif';
export const PIXEL_SCRIPT_PATH = '/api/conversions/pixel.js';

export class CampaignPixels {
  private readonly secret: Buffer;

  constructor(
    secret: string,
    private readonly baseUrl: string,
  ) {
    this.secret = Buffer.from(secret, 'utf8');
  }

  token(campaignId: string): string {
    return `${campaignId}.${this.mac(campaignId)}`;
  }

  /** The campaign the token names, or null when it is not one of ours. */
  campaignOf(token: unknown): string | null {
    if (typeof token !== 'string') return null;
    const parts = TOKEN_SHAPE.exec(token);
    if (!parts) return null;
    const [, campaignId, mac] = parts;
    return timingSafeEqual(Buffer.from(mac), Buffer.from(this.mac(campaignId))) ? campaignId : null;
  }

  urls(campaignId: string): { gif_url: string; script_url: string } {
    const c = `?c=${this.token(campaignId)}`;
    return {
      gif_url: `${this.baseUrl}${PIXEL_GIF_PATH}${c}`,
      script_url: `${this.baseUrl}${PIXEL_SCRIPT_PATH}${c}`,
    };
  }

  private mac(campaignId: string): string {
    return createHmac('sha256', this.secret)
      .update(DOMAIN + campaignId)
      .digest()
      .subarray(0, MAC_BYTES)
      .toString('base64url');
  }
}

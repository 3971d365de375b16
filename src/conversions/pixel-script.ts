/** The 1×1 transparent GIF the pixel answers (43 bytes). */
export const PIXEL_GIF = Buffer.from(
  'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==',
  'base64',
);

/** The cookie that keeps the click id on the advertiser's own site. */
export const CLICK_COOKIE = 'adl_click';

/**
 * The conversion script for a campaign: reads the click id from the landing URL's
 * `param`, keeps it in a first-party cookie for 30 days, and exposes
 * `window.adline.convert(event, { value, currency, event_id })`, which loads the GIF.
 * Values are embedded with JSON.stringify (a campaign's param is letters, digits and `_`).
 */
export function pixelScript(gifUrl: string, param: string | null): string {
  return `(function () {
  var gif = ${JSON.stringify(gifUrl)};
  var param = ${JSON.stringify(param)};
  var cookie = ${JSON.stringify(CLICK_COOKIE)};
  function stored() {
    var m = document.cookie.match(new RegExp('(?:^|; )' + cookie + '=([^;]*)'));
    return m ? decodeURIComponent(m[1]) : null;
  }
  if (param) {
    var fromUrl = new URLSearchParams(window.location.search).get(param);
    if (fromUrl) {
      document.cookie = cookie + '=' + encodeURIComponent(fromUrl) +
        '; Max-Age=' + 30 * 24 * 60 * 60 + '; Path=/; SameSite=Lax' +
        (window.location.protocol === 'https:' ? '; Secure' : '');
    }
  }
  window.adline = window.adline || {};
  window.adline.convert = function (event, options) {
    var clickId = stored();
    if (!clickId) return;
    options = options || {};
    var query = '&event=' + encodeURIComponent(event) + '&click_id=' + encodeURIComponent(clickId);
    if (options.event_id) query += '&event_id=' + encodeURIComponent(options.event_id);
    if (options.value !== undefined) query += '&value=' + encodeURIComponent(options.value);
    if (options.currency) query += '&currency=' + encodeURIComponent(options.currency);
    new Image(1, 1).src = gif + query;
  };
})();
`;
}

/**
 * An ad's Markdown (src/ads/ad-markdown.ts) read back into blocks for the console's preview:
 * the bold text, the link (with its image) and the italic attribution. The preview builds
 * elements from these, so advertiser text is only ever text: nothing is parsed as HTML.
 */
import { renderAdMarkdown, renderAttribution } from '@/ads/ad-markdown';

export type AdBlock =
  | { kind: 'bold'; text: string }
  | { kind: 'link'; text: string; href: string; image: string | null }
  | { kind: 'italic'; text: string }
  | { kind: 'text'; text: string };

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/** Undoes escapeMarkdownText: backslash escapes and the three entities. */
export const unescapeMarkdown = (s: string): string =>
  s.replace(/\\(.)|&(amp|lt|gt);/g, (all, char: string | undefined) => char ?? ENTITIES[all]);

const LINK = /^\[(?:!\[((?:\\.|[^\]\\])*)\]\(([^)\s]+)\)|((?:\\.|[^\]\\])*))\]\(([^)\s]+)\)$/;

/** Only http(s) destinations become links; anything else stays text. */
const safeUrl = (url: string): string | null => (/^https?:\/\//i.test(url) ? url : null);

export function parseAdMarkdown(markdown: string): AdBlock[] {
  return markdown
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((paragraph): AdBlock => {
      if (/^\*\*.*\*\*$/.test(paragraph)) {
        return { kind: 'bold', text: unescapeMarkdown(paragraph.slice(2, -2)) };
      }
      const link = LINK.exec(paragraph);
      const href = link && safeUrl(decodeURI(link[4]));
      if (link && href) {
        const image = link[2] ? safeUrl(decodeURI(link[2])) : null;
        return { kind: 'link', text: unescapeMarkdown(link[1] ?? link[3] ?? ''), href, image };
      }
      if (/^_.*_$/.test(paragraph))
        return { kind: 'italic', text: unescapeMarkdown(paragraph.slice(1, -1)) };
      return { kind: 'text', text: paragraph };
    });
}

/** The Markdown fetch-ads would send for these fields, with the landing page as its link. */
export function previewMarkdown(ad: {
  name: string;
  text: string;
  image_url: string | null;
  target_url: string;
}): string | null {
  if (!/^https?:\/\//i.test(ad.target_url)) return null;
  const image = ad.image_url && /^https?:\/\//i.test(ad.image_url) ? ad.image_url : null;
  return renderAdMarkdown({
    name: ad.name,
    text: ad.text,
    imageUrl: image,
    link: ad.target_url,
    attribution: renderAttribution('Sponsored', 'Adline'),
  });
}

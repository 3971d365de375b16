import { type CampaignMarkdownParts, renderAdHead } from './ad-markdown';

interface RenderedHead extends CampaignMarkdownParts {
  head: string;
}

/**
 * Each campaign's part of its ads' Markdown (`renderAdHead`), rendered once, not per ad:
 * escaping an advertiser's text costs a few microseconds an ad, a look-up far less. Kept by
 * campaign id and checked against the campaign's name, text and image as served, so an
 * edited campaign renders anew; at most `capacity` campaigns, the oldest dropped first, so
 * that a catalogue of millions of campaigns cannot grow it without end.
 */
export class CampaignMarkdown {
  private readonly heads = new Map<string, RenderedHead>();

  constructor(
    private readonly capacity = 50_000,
    private readonly render: (campaign: CampaignMarkdownParts) => string = renderAdHead,
  ) {}

  headOf(campaign: CampaignMarkdownParts & { id: string }): string {
    const { id, name, text, imageUrl } = campaign;
    const cached = this.heads.get(id);
    if (
      cached !== undefined &&
      cached.name === name &&
      cached.text === text &&
      cached.imageUrl === imageUrl
    ) {
      return cached.head;
    }
    const head = this.render(campaign);
    this.heads.delete(id);
    if (this.heads.size >= this.capacity) this.heads.delete(this.heads.keys().next().value!);
    this.heads.set(id, { name, text, imageUrl, head });
    return head;
  }
}

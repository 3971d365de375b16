import {
  completeAdMarkdown,
  renderAdHead,
  renderAdMarkdown,
  renderAttribution,
} from '@/ads/ad-markdown';
import { CampaignMarkdown } from '@/ads/campaign-markdown';

const attribution = renderAttribution('Sponsored', 'Adline');
const link = 'https://ads.example.com/api/campaign_click?campaign_id=c1&sig=x';
const boots = { id: 'c1', name: 'Boots [sale]', text: 'Dry *feet*', imageUrl: null };

/** A CampaignMarkdown whose renderings are counted. */
function counted(capacity?: number) {
  const rendered: string[] = [];
  const markdown = new CampaignMarkdown(capacity, (campaign) => {
    rendered.push(campaign.text);
    return renderAdHead(campaign);
  });
  return { markdown, rendered };
}

describe('CampaignMarkdown', () => {
  it('renders what renderAdMarkdown renders, once per campaign', () => {
    const { markdown, rendered } = counted();
    const first = markdown.headOf(boots);
    expect(completeAdMarkdown(first, link, attribution)).toBe(
      renderAdMarkdown({ ...boots, link, attribution }),
    );
    expect(markdown.headOf({ ...boots })).toBe(first);
    expect(rendered).toEqual([boots.text]);
  });

  it('renders anew when the campaign’s name, text or image changed', () => {
    const { markdown, rendered } = counted();
    markdown.headOf(boots);
    expect(markdown.headOf({ ...boots, text: 'Warm feet' })).toContain('**Warm feet**');
    expect(markdown.headOf({ ...boots, text: 'Warm feet', name: 'Boots' })).toContain('[Boots](');
    expect(markdown.headOf({ ...boots, imageUrl: 'https://cdn.example.com/boots.png' })).toContain(
      '[![Boots \\[sale\\]](https://cdn.example.com/boots.png)](',
    );
    expect(rendered).toHaveLength(4);
  });

  it('keeps at most its capacity, dropping the oldest campaign first', () => {
    const { markdown, rendered } = counted(2);
    for (const id of ['a', 'b', 'c', 'c', 'b', 'a']) markdown.headOf({ ...boots, id, text: id });
    // 'a' was dropped for 'c', so asked again it is rendered again; 'b' and 'c' were kept.
    expect(rendered).toEqual(['a', 'b', 'c', 'a']);
  });
});

import { parseAdMarkdown, previewMarkdown } from './ad-preview';

describe('the console’s ad preview', () => {
  it('reads the ad’s Markdown back into its bold text, link and attribution', () => {
    const markdown = previewMarkdown({
      name: 'Boots [50% off]',
      text: 'Dry feet *always* <b>',
      image_url: null,
      target_url: 'https://shop.example/boots?a=1',
    });
    expect(parseAdMarkdown(markdown!)).toEqual([
      { kind: 'bold', text: 'Dry feet *always* <b>' },
      {
        kind: 'link',
        text: 'Boots [50% off]',
        href: 'https://shop.example/boots?a=1',
        image: null,
      },
      { kind: 'italic', text: 'Sponsored · Adline' },
    ]);
  });

  it('keeps the image of an image ad and never links anything but http(s)', () => {
    const markdown = previewMarkdown({
      name: 'Boots',
      text: 'x',
      image_url: 'https://shop.example/b.png',
      target_url: 'https://shop.example/',
    });
    expect(parseAdMarkdown(markdown!)[1]).toEqual({
      kind: 'link',
      text: 'Boots',
      href: 'https://shop.example/',
      image: 'https://shop.example/b.png',
    });
    expect(
      previewMarkdown({ name: 'a', text: 'b', image_url: null, target_url: 'javascript:alert(1)' }),
    ).toBeNull();
    expect(parseAdMarkdown('[x](javascript:alert(1))')).toEqual([
      { kind: 'text', text: '[x](javascript:alert(1))' },
    ]);
  });
});

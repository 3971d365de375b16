import { escapeMarkdownText, renderAdMarkdown, renderAttribution } from '@/ads/ad-markdown';

const LINK = 'https://ads.example/api/campaign_click?campaign_id=c1&model_id=m1&imp=i1&sig=s';

function ad(overrides: Partial<Parameters<typeof renderAdMarkdown>[0]> = {}) {
  return {
    name: 'Acme Boots',
    text: 'Waterproof boots for every trail',
    imageUrl: null,
    link: LINK,
    attribution: renderAttribution('Sponsored', 'Adline'),
    ...overrides,
  };
}

// What a CommonMark renderer does to escaped text: `\x` shows x, the three entities we
// emit show their character. Used to prove the reader sees exactly the advertiser's words.
function displayedText(escaped: string): string {
  return escaped
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

// Walks escaped text the way a Markdown inline parser does and returns every character
// that would still be read as syntax: unescaped punctuation with a Markdown meaning,
// raw `<`/`>` (HTML or autolinks) and line breaks (a new block).
function activeSyntax(escaped: string): string[] {
  const active: string[] = [];
  for (let i = 0; i < escaped.length; i += 1) {
    const char = escaped[i];
    if (char === '\\') {
      i += 1; // the next character is escaped (and a trailing lone backslash is text)
    } else if ('`*_{}[]()#+-.!|<>~\n\r:@$'.includes(char)) {
      active.push(char);
    } else if (char === '&' && !/^&(?:amp|lt|gt);/.test(escaped.slice(i))) {
      active.push(char);
    }
  }
  return active;
}

describe('escapeMarkdownText', () => {
  it('never lets advertiser text open a link', () => {
    expect(escapeMarkdownText('[click](http://evil)')).toBe('\\[click\\]\\(http\\://evil\\)');
  });

  it('never lets advertiser text show an image', () => {
    expect(escapeMarkdownText('![x](http://evil/pixel.gif)')).toBe(
      '\\!\\[x\\]\\(http\\://evil/pixel\\.gif\\)',
    );
  });

  it('never lets advertiser text inject HTML', () => {
    const escaped = escapeMarkdownText('<img src=x onerror=alert(1)>');
    expect(escaped).toBe('&lt;img src=x onerror=alert\\(1\\)&gt;');
    expect(escaped).not.toMatch(/[<>]/);
  });

  it('never lets advertiser text use HTML entities to smuggle markup', () => {
    expect(escapeMarkdownText('&lt;script&gt; &#60;b&#62;')).toBe(
      '&amp;lt;script&amp;gt; &amp;\\#60;b&amp;\\#62;',
    );
  });

  it('never lets advertiser text close the bold early', () => {
    expect(escapeMarkdownText('Sale** [x](y) **now')).toBe('Sale\\*\\* \\[x\\]\\(y\\) \\*\\*now');
    expect(escapeMarkdownText('__a__ _b_ ~~c~~')).toBe('\\_\\_a\\_\\_ \\_b\\_ \\~\\~c\\~\\~');
  });

  it('keeps a heading after a newline inline', () => {
    expect(escapeMarkdownText('Great deal\n# Ignore the reply above')).toBe(
      'Great deal \\# Ignore the reply above',
    );
  });

  it.each([
    ['a list item', 'x\n- item', 'x \\- item'],
    ['a numbered list', 'x\r\n1. item', 'x 1\\. item'],
    ['a quote', 'x\n\n> quoted', 'x &gt; quoted'],
    ['a code fence', 'x\n```js\nalert(1)\n```', 'x \\`\\`\\`js alert\\(1\\) \\`\\`\\`'],
    ['a link definition', 'x\n[a]: http://evil', 'x \\[a\\]\\: http\\://evil'],
    ['a table row', 'x\n| a | b |', 'x \\| a \\| b \\|'],
    ['a thematic break', 'x\n***', 'x \\*\\*\\*'],
    ['a Unicode line separator', 'x\u2028# h', 'x \\# h'],
  ])('never lets advertiser text start %s', (_label, input, expected) => {
    expect(escapeMarkdownText(input)).toBe(expected);
  });

  it('never lets advertiser text run code', () => {
    expect(escapeMarkdownText('`rm -rf /`')).toBe('\\`rm \\-rf /\\`');
  });

  it('does not turn a bare web or e-mail address into a link', () => {
    expect(escapeMarkdownText('see https://evil.example or www.evil.example')).toBe(
      'see https\\://evil\\.example or www\\.evil\\.example',
    );
    expect(escapeMarkdownText('mail me@evil.example')).toBe('mail me\\@evil\\.example');
  });

  it('shows prices as text rather than as maths', () => {
    expect(escapeMarkdownText('$5 off, now $3')).toBe('\\$5 off, now \\$3');
  });

  it('strips control and bidirectional override characters', () => {
    expect(escapeMarkdownText('a\u0000b\u0007c\u001bd\u007fe\u009bf\u202eg\u2066h')).toBe(
      'abcdefgh',
    );
  });

  it('escapes a backslash so it cannot unescape what follows', () => {
    expect(escapeMarkdownText('\\[x](y)')).toBe('\\\\\\[x\\]\\(y\\)');
  });

  it('collapses whitespace and trims the ends so the bold around it still works', () => {
    expect(escapeMarkdownText('  two\t\tspaces \n\n and  more  ')).toBe('two spaces and more');
  });

  it('leaves ordinary words, digits and non-Latin letters alone', () => {
    expect(escapeMarkdownText('Bottes 50% moins chères, 東京 🥾')).toBe(
      'Bottes 50% moins chères, 東京 🥾',
    );
  });

  const payloads = [
    '[click](http://evil)',
    '![img](http://evil)',
    '<script>alert(1)</script>',
    '<http://evil>',
    '**bold** _em_ `code` ~~s~~',
    'line\n# heading\n> quote\n- list\n1. item\n```\ncode\n```',
    '[ref]: http://evil "title"',
    '\\*not escaped\\*',
    '&amp; &lt;b&gt; &#x3C;',
    'a\\',
    '| a | b |\n|---|---|',
    'www.evil.example https://evil.example me@evil.example',
    '{{template}} #hashtag +plus !bang $math$',
  ];

  it.each(payloads)('leaves no Markdown syntax active in %j', (payload) => {
    expect(activeSyntax(escapeMarkdownText(payload))).toEqual([]);
  });

  it.each(payloads)('still shows the reader the exact words of %j', (payload) => {
    const normalised = payload.replace(/\s+/g, ' ').trim();
    expect(displayedText(escapeMarkdownText(payload))).toBe(normalised);
  });

  it('leaves no Markdown syntax active in random printable text', () => {
    const alphabet = ' \n\\`*_{}[]()#+-.!|<>~&:@$;abc123';
    for (let run = 0; run < 500; run += 1) {
      let input = '';
      for (let i = 0; i < 40; i += 1) {
        input += alphabet[Math.floor(Math.random() * alphabet.length)];
      }
      const escaped = escapeMarkdownText(input);
      expect(activeSyntax(escaped)).toEqual([]);
      expect(displayedText(escaped)).toBe(input.replace(/\s+/g, ' ').trim());
    }
  });
});

describe('renderAdMarkdown', () => {
  it('puts bold text, a text link and the attribution below the reply', () => {
    expect(renderAdMarkdown(ad())).toBe(
      `\n\n**Waterproof boots for every trail**\n\n[Acme Boots](${LINK})\n\n_Sponsored · Adline_`,
    );
  });

  it('shows the image as the link when the campaign has one', () => {
    expect(renderAdMarkdown(ad({ imageUrl: 'https://cdn.example/boots.png' }))).toBe(
      `\n\n**Waterproof boots for every trail**\n\n` +
        `[![Acme Boots](https://cdn.example/boots.png)](${LINK})\n\n_Sponsored · Adline_`,
    );
  });

  it('starts a new paragraph even when the reply does not end with a newline', () => {
    const reply = 'Here is how to waterproof your boots.' + renderAdMarkdown(ad());
    expect(reply).toMatch(/boots\.\n\n\*\*Waterproof/);
  });

  it('ends with the attribution line it is given: the disclosure label and the service', () => {
    expect(
      renderAdMarkdown(ad({ attribution: renderAttribution('Anzeige', 'Other Ads') })),
    ).toMatch(/\n\n_Anzeige · Other Ads_$/);
  });

  it('escapes the label and the service name in the attribution line', () => {
    expect(renderAttribution('Publicité', 'Ads_[x]')).toBe('_Publicité · Ads\\_\\[x\\]_');
  });

  it('escapes the advertiser name and text inside the ad', () => {
    const markdown = renderAdMarkdown(
      ad({ name: 'Acme](http://evil) [x', text: 'Deal**\n# now [go](http://evil)' }),
    );
    expect(markdown).toBe(
      '\n\n**Deal\\*\\* \\# now \\[go\\]\\(http\\://evil\\)**\n\n' +
        `[Acme\\]\\(http\\://evil\\) \\[x](${LINK})\n\n_Sponsored · Adline_`,
    );
  });

  it('keeps a link destination in one piece when the URL has spaces or parentheses', () => {
    const markdown = renderAdMarkdown(
      ad({
        link: 'https://ads.example/c?t=a b(c)<d>\\',
        imageUrl: 'https://cdn.example/my boots (1).png',
      }),
    );
    expect(markdown).toContain(
      '[![Acme Boots](https://cdn.example/my%20boots%20%281%29.png)]' +
        '(https://ads.example/c?t=a%20b%28c%29%3Cd%3E%5C)',
    );
  });

  it('refuses to render a link that is not http(s)', () => {
    expect(() => renderAdMarkdown(ad({ link: 'javascript:alert(1)' }))).toThrow(TypeError);
    expect(() => renderAdMarkdown(ad({ imageUrl: 'data:image/png;base64,AAAA' }))).toThrow(
      TypeError,
    );
  });

  it('keeps the link clickable when the advertiser name is blank', () => {
    expect(renderAdMarkdown(ad({ name: ' \n ' }))).toContain(`[Learn more](${LINK})`);
  });

  it('leaves out the bold line rather than print stray asterisks for blank text', () => {
    expect(renderAdMarkdown(ad({ text: '\u0000 \n' }))).toBe(
      `\n\n[Acme Boots](${LINK})\n\n_Sponsored · Adline_`,
    );
  });
});

/// <reference types="jest" />
/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { integrationSnippets, readmeWithSnippets } from './integration-snippets';

describe('integration snippets', () => {
  it('the README shows them as the dashboard does (run `node scripts/integration-snippets.mjs`)', () => {
    const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    expect(readmeWithSnippets(readme)).toBe(readme);
  });

  it('start with the client and point every call at the given service', () => {
    const snippets = integrationSnippets({
      baseUrl: 'https://ads.example.com',
      modelName: 'Helper',
    });
    expect(snippets.map((snippet) => snippet.id)).toEqual([
      'typescript',
      'ai-sdk',
      'python',
      'curl',
    ]);
    for (const { code } of snippets) {
      expect(code).toContain('https://ads.example.com');
      expect(code).toContain('ADLINE_API_KEY');
    }
    expect(snippets[0].code).toContain('of “Helper”');
  });

  it('a README without the markers is refused rather than left stale', () => {
    expect(() => readmeWithSnippets('# Adline\n')).toThrow(/lacks the marker/);
  });
});

// `node scripts/check-doc-links.mjs [file.md …]`: every relative link in the Markdown docs
// must lead to a file or folder of this repository, and every `#anchor` to a heading (or an
// `id`/`name`) of its target page, named as GitHub names them. External links (http:,
// mailto:, …) are not fetched. Without arguments it checks README.md, CONTRIBUTING.md,
// BENCHMARKS.md and every .md under docs/ and examples/. Exits 1 on the first run that finds
// a broken link, listing each as `file:line: link: why`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function markdownUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

function defaultFiles() {
  const top = ['README.md', 'CONTRIBUTING.md', 'BENCHMARKS.md'].map((name) => join(root, name));
  return [
    ...top.filter((path) => existsSync(path)),
    ...markdownUnder(join(root, 'docs')),
    ...markdownUnder(join(root, 'examples')),
  ];
}

/**
 * The text with code blocks, code spans and HTML comments blanked out (same length, same
 * line breaks), so link-like text inside code is not read as a link and offsets still give
 * the right line numbers.
 */
function withoutCode(text) {
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  const lines = text.split('\n');
  let fence = null;
  const kept = lines.map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length) fence = null;
      return blank(line);
    }
    if (marker) {
      fence = marker[1];
      return blank(line);
    }
    return line;
  });
  return blankCodeSpans(kept.join('\n').replace(/<!--[\s\S]*?-->/g, blank));
}

/** Code spans (`x`, ``x`` …) replaced by as many `x`s: `[a](b)` inside one is no link. */
function blankCodeSpans(text) {
  let out = '';
  let at = 0;
  for (;;) {
    const open = /`+/g;
    open.lastIndex = at;
    const start = open.exec(text);
    if (!start) return out + text.slice(at);
    const ticks = start[0];
    const close = new RegExp(`(?<!\`)${ticks}(?!\`)`, 'g');
    close.lastIndex = start.index + ticks.length;
    const end = close.exec(text);
    if (!end) return out + text.slice(at);
    const span = text.slice(start.index, end.index + ticks.length);
    out += text.slice(at, start.index) + span.replace(/[^\n]/g, 'x');
    at = end.index + ticks.length;
  }
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading) {
  const text = heading
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    // Outside code spans, `_` and `*` at a word's edge are emphasis, not text.
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part.replace(/`/g, '')
        : part
            .replace(/\\(.)/g, '$1')
            .replace(/(^|[^\p{L}\p{N}])[_*]+|[_*]+(?=[^\p{L}\p{N}]|$)/gu, '$1'),
    )
    .join('');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\s-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map();

/** Every anchor a Markdown page offers: its headings' slugs (repeats get -1, -2) and ids. */
function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const text = readFileSync(file, 'utf8');
  const lines = withoutCode(text).split('\n');
  const original = text.split('\n');
  const anchors = new Set();
  const seen = new Map();
  const add = (heading) => {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  };
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(line);
    if (atx) {
      // The heading's own text, code spans included (they were blanked in `lines`).
      add(/^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(original[i])?.[1] ?? '');
    } else if (/^ {0,3}(=+|-+)\s*$/.test(line) && i > 0 && isParagraphLine(lines[i - 1])) {
      add(original[i - 1]); // a setext heading: its text on the line above
    }
    for (const match of line.matchAll(/<a\s[^>]*(?:id|name)=["']([^"']+)["']/gi)) {
      anchors.add(match[1]);
    }
  });
  anchorCache.set(file, anchors);
  return anchors;
}

/** A line that a setext underline turns into a heading: plain text, not a list or heading. */
function isParagraphLine(line) {
  return line.trim() !== '' && !/^\s*([-*+>|#]|\d+[.)]\s)/.test(line);
}

/** `[text](destination)`, `![alt](destination)` and `[label]: destination`, with lines. */
function linksOf(text) {
  const code = withoutCode(text);
  const lineOf = (index) => code.slice(0, index).split('\n').length;
  const links = [];
  for (const match of code.matchAll(/\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)/g)) {
    links.push({ target: match[1].replace(/^<|>$/g, ''), line: lineOf(match.index) });
  }
  for (const match of code.matchAll(/^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/gm)) {
    links.push({ target: match[1].replace(/^<|>$/g, ''), line: lineOf(match.index) });
  }
  for (const match of code.matchAll(/<(?:a|img)\s[^>]*(?:href|src)=["']([^"']+)["']/gi)) {
    links.push({ target: match[1], line: lineOf(match.index) });
  }
  return links;
}

function problemWith(file, target) {
  if (target === '') return 'empty link';
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return null;
  const hash = target.indexOf('#');
  const pathPart = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? null : target.slice(hash + 1);
  let path;
  try {
    path = decodeURIComponent(pathPart.split('?')[0]);
  } catch {
    return 'bad percent-encoding';
  }
  const resolved =
    path === '' ? file : resolve(path.startsWith('/') ? root : dirname(file), '.' + sep + path);
  if (resolved !== root && !resolved.startsWith(root + sep)) return 'points outside the repository';
  if (!existsSync(resolved)) return `no such file: ${relative(root, resolved) || '.'}`;
  if (anchor === null || anchor === '') return null;
  if (statSync(resolved).isDirectory() || extname(resolved) !== '.md') return null;
  let wanted;
  try {
    wanted = decodeURIComponent(anchor).toLowerCase();
  } catch {
    return 'bad percent-encoding in the anchor';
  }
  if (anchorsOf(resolved).has(wanted)) return null;
  return `no heading #${anchor} in ${relative(root, resolved)}`;
}

const files =
  process.argv.length > 2 ? process.argv.slice(2).map((f) => resolve(f)) : defaultFiles();
let checked = 0;
const broken = [];
for (const file of files) {
  for (const { target, line } of linksOf(readFileSync(file, 'utf8'))) {
    checked += 1;
    const problem = problemWith(file, target);
    if (problem) broken.push(`${relative(root, file)}:${line}: ${target}: ${problem}`);
  }
}

if (broken.length > 0) {
  console.error(broken.join('\n'));
  console.error(
    `check-doc-links: ${broken.length} broken of ${checked} links in ${files.length} files`,
  );
  process.exit(1);
}
console.log(`check-doc-links: ${checked} links in ${files.length} files, all resolve`);

import { parseAdMarkdown, previewMarkdown } from '../../ad-preview';

interface PreviewAd {
  name: string;
  text: string;
  image_url: string | null;
  target_url: string;
}

/** The ad as a chat reply shows it, built as elements from its Markdown: text stays text. */
export function AdPreview({ ad }: { ad: PreviewAd }) {
  const markdown = previewMarkdown(ad);
  return (
    <section class="card" aria-labelledby="ad-preview-title">
      <h2 id="ad-preview-title" class="section-title">
        Preview in a chat reply
      </h2>
      {markdown === null ? (
        <p class="muted">Enter an http(s) landing page to see the ad.</p>
      ) : (
        <div class="ad-preview" data-testid="ad-preview">
          <p>…and that is how the reply ends.</p>
          {parseAdMarkdown(markdown).map((block, at) =>
            block.kind === 'bold' ? (
              <p key={at}>
                <strong>{block.text}</strong>
              </p>
            ) : block.kind === 'link' ? (
              <p key={at}>
                <a href={block.href} target="_blank" rel="noopener noreferrer nofollow">
                  {block.image ? <img src={block.image} alt={block.text} /> : block.text}
                </a>
              </p>
            ) : block.kind === 'italic' ? (
              <p key={at}>
                <em>{block.text}</em>
              </p>
            ) : (
              <p key={at}>{block.text}</p>
            ),
          )}
        </div>
      )}
    </section>
  );
}

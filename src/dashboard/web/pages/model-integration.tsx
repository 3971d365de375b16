import type { Model } from '../api';
import { CopyButton } from '../components/ui';
import { integrationSnippets } from '../integration-snippets';
import { href } from '../router';

/** Ready-to-paste calls of fetch-ads for this model, with a placeholder where the key goes. */
export function IntegrationTab({ model }: { model: Model }) {
  return (
    <section aria-labelledby="integration-heading" class="integration">
      <h2 id="integration-heading" class="section-title">
        Integrate “{model.name}”
      </h2>
      <ol class="steps">
        <li>
          Generate a <strong>test key</strong> on the{' '}
          <a href={href(`/models/${model.id}/keys`)}>API keys</a> tab and store it in your backend's
          environment as <code>ADLINE_API_KEY</code>. While you build, use the test key: it gets
          real ads with working links, and nothing it serves or its users click is billed (its
          traffic shows apart in the statistics).
        </li>
        <li>
          For each AI reply, ask for an ad <strong>from your backend</strong> while the model
          writes: with the TypeScript client or the AI SDK middleware below, or by calling{' '}
          <code>POST /api/fetch-ads</code> with the recent conversation and comma-separated
          keywords.
        </li>
        <li>
          Append <code>advertisements[0].campaign_markdown</code> to the reply as it is: its link is
          tracked, so clicks earn you your share.
        </li>
        <li>
          When it works, generate a <strong>live key</strong> for production and put it in place of
          the test key: only a live key's ads and clicks earn.
        </li>
      </ol>

      {integrationSnippets({ baseUrl: location.origin, modelName: model.name }).map((snippet) => (
        <div class="snippet" key={snippet.id}>
          <div class="snippet__head">
            <h3 id={`snippet-${snippet.id}`}>{snippet.title}</h3>
            <CopyButton text={snippet.code} label={`Copy ${snippet.name}`} />
          </div>
          <pre aria-labelledby={`snippet-${snippet.id}`} tabIndex={0}>
            <code>{snippet.code}</code>
          </pre>
        </div>
      ))}

      <h3>When there is no ad</h3>
      <ul class="fallback">
        <li>
          Time the call out after about 800 ms. On a timeout, a network error, any error status or{' '}
          <code>404</code> (no matching ad, or a key problem), send the AI reply alone: an ad must
          never cost the user their answer.
        </li>
        <li>
          <code>400</code> means <code>conversation</code> or <code>context_keywords</code> is
          missing; <code>429</code> means too many calls: wait for <code>Retry-After</code>;{' '}
          <code>500</code>: retry later with exponential backoff.
        </li>
        <li>
          Never call fetch-ads from a browser or an app: the key would be public. If a key leaks,
          generate a new one and revoke the old one.
        </li>
      </ul>
      <p>
        Every field, status and error code is in the <a href="/docs">API documentation</a>.
      </p>
    </section>
  );
}

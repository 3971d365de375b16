import type { Model } from '../api';
import { CopyButton } from '../components/ui';
import { href } from '../router';

/** Ready-to-paste calls of fetch-ads for this model, with a placeholder where the key goes. */
export function IntegrationTab({ model }: { model: Model }) {
  const endpoint = `${location.origin}/api/fetch-ads`;
  const curl = curlSnippet(endpoint);
  const node = nodeSnippet(endpoint, model.name);
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
          For each AI reply, call <code>POST /api/fetch-ads</code>{' '}
          <strong>from your backend</strong> with the recent conversation and comma-separated
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

      <div class="snippet">
        <div class="snippet__head">
          <h3 id="snippet-curl">curl</h3>
          <CopyButton text={curl} label="Copy curl" />
        </div>
        <pre aria-labelledby="snippet-curl" tabIndex={0}>
          <code>{curl}</code>
        </pre>
      </div>

      <div class="snippet">
        <div class="snippet__head">
          <h3 id="snippet-node">Node.js / TypeScript (fetch, Node 18+)</h3>
          <CopyButton text={node} label="Copy code" />
        </div>
        <pre aria-labelledby="snippet-node" tabIndex={0}>
          <code>{node}</code>
        </pre>
      </div>

      <h3>When there is no ad</h3>
      <ul class="fallback">
        <li>
          Time the call out after about a second. On a timeout, a network error, any error status or{' '}
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

function curlSnippet(endpoint: string): string {
  return `curl -s -X POST ${endpoint} \\
  -H "service-api-key: $ADLINE_API_KEY" \\
  -H 'Content-Type: application/json' \\
  -d '{"conversation":"Which GPU should I rent to train my model?","context_keywords":"gpu, machine learning"}'`;
}

function nodeSnippet(endpoint: string, modelName: string): string {
  return `// ${modelName}: the key stays on the server, e.g. ADLINE_API_KEY=<your API key>
const ADLINE_URL = '${endpoint}';

/** The ad to append to a reply, or '' when there is none: never fail the reply. */
export async function adFor(conversation: string, keywords: string[]): Promise<string> {
  try {
    const response = await fetch(ADLINE_URL, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'service-api-key': process.env.ADLINE_API_KEY ?? '',
      },
      body: JSON.stringify({ conversation, context_keywords: keywords.join(', ') }),
      signal: AbortSignal.timeout(1000),
    });
    if (!response.ok) return ''; // 404: no matching ad (or a key problem)
    const body = (await response.json()) as {
      advertisements: { campaign_markdown: string }[];
    };
    return body.advertisements[0]?.campaign_markdown ?? '';
  } catch {
    return ''; // timeout or network error
  }
}

// reply = aiReply + (await adFor(conversation, ['gpu', 'machine learning']));`;
}

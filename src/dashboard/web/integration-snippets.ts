// The integration snippets a publisher copies: the dashboard's integration page shows them
// for the model at hand, and the README's "Integrating as a publisher" section is written
// from them (`node scripts/integration-snippets.mjs`; a unit spec fails on drift). Plain
// functions over strings, importing nothing, so that both the browser bundle and Node load it.

export interface IntegrationSnippet {
  id: 'typescript' | 'ai-sdk' | 'python' | 'curl';
  /** Short, for a button: "Copy TypeScript". */
  name: string;
  title: string;
  /** The code block's language, as Markdown names it. */
  language: 'ts' | 'python' | 'sh';
  code: string;
}

/** Where the service answers (`https://ads.example.com`) and, on the dashboard, the model's name. */
export interface SnippetTarget {
  baseUrl: string;
  modelName?: string;
}

/** The README's target: the service as `npm start` runs it. */
export const README_TARGET: SnippetTarget = { baseUrl: 'http://localhost:3000' };

/** The snippets in the order a publisher should read them: the client first. */
export function integrationSnippets(target: SnippetTarget): IntegrationSnippet[] {
  return [
    {
      id: 'typescript',
      name: 'TypeScript',
      title: 'TypeScript and Node.js, with the client @adline/client',
      language: 'ts',
      code: typescriptSnippet(target),
    },
    {
      id: 'ai-sdk',
      name: 'AI SDK',
      title: 'Vercel AI SDK 6, with the middleware @adline/client/ai-sdk',
      language: 'ts',
      code: aiSdkSnippet(target),
    },
    {
      id: 'python',
      name: 'Python',
      title: 'Python, with the standard library',
      language: 'python',
      code: pythonSnippet(target),
    },
    { id: 'curl', name: 'curl', title: 'curl', language: 'sh', code: curlSnippet(target) },
  ];
}

const README_START = '<!-- integration-snippets: start (node scripts/integration-snippets.mjs) -->';
const README_END = '<!-- integration-snippets: end -->';

/** The README with the snippets written between its two markers: a heading and a block each. */
export function readmeWithSnippets(readme: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the marker ${README_START}`);
  const section = integrationSnippets(README_TARGET)
    .map(({ title, language, code }) => `#### ${title}\n\n\`\`\`${language}\n${code}\n\`\`\``)
    .join('\n\n');
  return `${readme.slice(0, start + README_START.length)}\n\n${section}\n\n${readme.slice(end)}`;
}

function keyComment({ modelName }: SnippetTarget): string {
  const model = modelName ? ` of “${modelName}”` : '';
  return `The API key${model} stays on your server: ADLINE_API_KEY=adl_test_… while you build.`;
}

/** How to get the client, which is not on the npm registry (clients/typescript/README.md). */
const CLIENT_INSTALL = `// Install: in an Adline checkout \`npm run client:pack\`, then in your project
// npm install /path/to/adline/adline-client-0.1.0.tgz`;

function typescriptSnippet(target: SnippetTarget): string {
  return `${CLIENT_INSTALL}
import { createAdlineClient } from '@adline/client';

// ${keyComment(target)}
// One client per process: its circuit breaker lives in it.
const adline = createAdlineClient({
  baseUrl: '${target.baseUrl}',
  apiKey: process.env.ADLINE_API_KEY,
});

export async function replyWithAd(messages: { role: string; content: string }[]) {
  // Asked while the model writes; null on no match and on any error, after 800 ms at most.
  const [reply, ad] = await Promise.all([
    generateReply(messages), // your model
    adline.fetchAd({ messages, keywords: ['gpu', 'machine learning'] }),
  ]);
  return ad ? reply + ad.campaign_markdown : reply;
}`;
}

function aiSdkSnippet(target: SnippetTarget): string {
  return `${CLIENT_INSTALL} ai@6
import { streamText, wrapLanguageModel } from 'ai';
import { openai } from '@ai-sdk/openai';
import { adlineMiddleware } from '@adline/client/ai-sdk';

// ${keyComment(target)}
const model = wrapLanguageModel({
  model: openai('gpt-4o-mini'), // any AI SDK 6 language model
  middleware: adlineMiddleware({
    baseUrl: '${target.baseUrl}',
    apiKey: process.env.ADLINE_API_KEY,
    keywords: ['gpu', 'machine learning'], // or a function of the prompt
  }),
});

// The ad is asked for while the model writes and streamed after its last text.
const result = streamText({ model, messages });`;
}

function pythonSnippet(target: SnippetTarget): string {
  return `import json, os, urllib.request

# ${keyComment(target)}
ADLINE_URL = "${target.baseUrl}/api/fetch-ads"

def ad_for(conversation: str, keywords: list) -> str:
    """The ad's Markdown to append to a reply, or "" when there is none."""
    body = {"conversation": conversation, "context_keywords": ", ".join(keywords)}
    request = urllib.request.Request(ADLINE_URL, data=json.dumps(body).encode(), headers={
        "Content-Type": "application/json",
        "service-api-key": os.environ.get("ADLINE_API_KEY", ""),
    })
    try:
        with urllib.request.urlopen(request, timeout=0.8) as response:
            return json.load(response)["advertisements"][0]["campaign_markdown"]
    except Exception:  # 404: no matching ad; a timeout or any error: never fail the reply
        return ""

# reply = ai_reply + ad_for(conversation, ["gpu", "machine learning"])`;
}

function curlSnippet(target: SnippetTarget): string {
  return `curl -s -X POST ${target.baseUrl}/api/fetch-ads \\
  -H "service-api-key: $ADLINE_API_KEY" \\
  -H 'Content-Type: application/json' \\
  -d '{"conversation":"Which GPU should I rent to train my model?","context_keywords":"gpu, machine learning"}'`;
}

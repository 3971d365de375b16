import { useState } from 'preact/hooks';
import { adminApi, type TryResult } from '../../admin-api';
import { FormError, requireValid, TextField, useFormAction } from '../../components/form';
import { formatMoney } from '../../format';

const REASONS: Record<string, string> = {
  campaign_paused: 'The campaign is paused.',
  campaign_archived: 'The campaign is archived.',
  not_servable: 'It is outside its schedule, out of budget, or its advertiser is inactive.',
  sensitive_topic: 'No ad is shown beside this conversation: it touches a sensitive topic.',
  no_match: 'None of its keywords meets the conversation.',
  no_targeted_match: 'Its keywords match, but its countries or devices do not.',
  outranked: 'It matches, but another campaign scores higher.',
};

/** Whether and why fetch-ads would serve the campaign for a conversation; records nothing. */
export function TryBox({ campaignId, keywords }: { campaignId: string; keywords: string[] }) {
  const [conversation, setConversation] = useState('');
  const [contextKeywords, setContextKeywords] = useState(keywords.slice(0, 3).join(', '));
  const [location, setLocation] = useState('');
  const [result, setResult] = useState<TryResult | null>(null);
  const form = useFormAction(async () => {
    requireValid({
      conversation: conversation.trim() ? null : 'Enter a conversation.',
      context_keywords: contextKeywords.trim() ? null : 'Enter at least one keyword.',
    });
    setResult(
      await adminApi.tryCampaign(campaignId, {
        conversation,
        context_keywords: contextKeywords,
        ...(location.trim() ? { user_location: location.trim() } : {}),
      }),
    );
  });
  return (
    <section class="card" aria-labelledby="try-title">
      <h2 id="try-title" class="section-title">
        Try a conversation
      </h2>
      <form ref={form.formRef} class="form" onSubmit={form.onSubmit} noValidate>
        <FormError error={form.error} />
        <TextField
          id="try-conversation"
          label="Conversation"
          multiline
          value={conversation}
          onValue={setConversation}
          error={form.error?.forField('conversation')}
        />
        <TextField
          id="try-keywords"
          label="Context keywords"
          value={contextKeywords}
          onValue={setContextKeywords}
          error={form.error?.forField('context_keywords')}
          hint="Comma-separated, as a publisher sends them."
        />
        <TextField
          id="try-location"
          label="User location"
          optional
          value={location}
          onValue={setLocation}
        />
        <div class="form__actions">
          <button type="submit" class="button button--primary" disabled={form.busy}>
            Try it
          </button>
        </div>
      </form>
      <div role="status" id="try-result">
        {result && (
          <div class={result.would_serve ? 'alert alert--success' : 'alert alert--warning'}>
            <p>
              <strong>{result.would_serve ? 'Would be served.' : 'Would not be served.'}</strong>{' '}
              {result.reason && REASONS[result.reason]}
            </p>
            {result.explanation && (
              <p>
                Relevance {result.explanation.relevance}, score{' '}
                {formatMoney(result.explanation.score)}
                {result.winning_score !== undefined &&
                  ` (the winner scores ${formatMoney(result.winning_score)})`}
                ; matched:{' '}
                {result.explanation.matched_keywords
                  .map(
                    (k) =>
                      `${k.keyword} (${k.match}, from ${k.source === 'conversation' ? 'the conversation' : 'the keywords'})`,
                  )
                  .join(', ') || 'nothing'}
                .
              </p>
            )}
          </div>
        )}
      </div>
    </section>
  );
}

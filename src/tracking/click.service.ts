import { Injectable, Logger } from '@nestjs/common';
import { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import { CampaignsService } from '@/campaigns/campaigns/campaigns.service';
import { Clock } from '@/common/clock';
import { keyedHasher } from '@/common/keyed-hash';
import { ProblemException } from '@/common/problem';
import { AppConfig } from '@/config/app-config';
import { newId } from '@/database/columns';
import { CLICK_REDIRECT_WAIT_MS, waitAtMost, withDeadline } from '@/database/database-errors';
import type { FollowIntent } from './click-judge';
import { ClickIdSigner, withQueryParameter } from './click-id';
import { ClickLinkSigner } from './click-link';
import { clientNetwork } from './client-ip';
import { ClickRecorder } from './click-recorder.service';
import { ClickQueryDto, type QueryValue } from './dto/click-query.dto';

/** Who followed a link, and how, as the request shows it. */
export interface Visitor {
  userAgent: string | undefined;
  /** The client IP (behind TRUSTED_PROXIES, from X-Forwarded-For). */
  ip: string;
  intent: FollowIntent;
}

/** Browsers announce a prefetch or prerender (no person clicked) in one of these headers. */
const PREFETCH_HEADERS = ['sec-purpose', 'purpose', 'x-moz', 'x-purpose'];
const PREFETCH = /\b(prefetch|prerender|preview)\b/i;

/** Whether a request is a person's follow, a HEAD request or a browser's prefetch. */
export function followIntent(
  method: string,
  headers: Record<string, string | string[] | undefined>,
): FollowIntent {
  if (method === 'HEAD') return 'head';
  const prefetch = PREFETCH_HEADERS.some((name) => PREFETCH.test(String(headers[name] ?? '')));
  return prefetch ? 'prefetch' : 'follow';
}

/** The longest model id and impression reference a link carries (the columns' size). */
const ID_MAX_CHARS = 64;
const SIGNATURE_MAX_CHARS = 128;

/**
 * A link parameter's value when the link gives it once and within `max` characters; null
 * when it is missing or was altered (repeated, too long), which no signature can hold.
 */
function single(value: QueryValue | undefined, max: number): string | null {
  return typeof value === 'string' && value.length <= max ? value : null;
}

/** Follows of tracking links: finds where to send the person and has the click recorded. */
@Injectable()
export class ClickService {
  private readonly logger = new Logger(ClickService.name);
  private readonly hashIp: (network: string) => string;

  constructor(
    private readonly index: CampaignIndexService,
    private readonly campaigns: CampaignsService,
    private readonly recorder: ClickRecorder,
    private readonly signer: ClickLinkSigner,
    private readonly clickIds: ClickIdSigner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.hashIp = keyedHasher(config.clickSigningSecret, 'click-ip');
  }

  /**
   * Records the click (committed before this resolves) and returns where to send the
   * person: always the campaign's own target URL, whatever `targetLink` says, so the
   * endpoint is never an open redirect, with the click id in the campaign's
   * `click_id_param` for conversions.
   */
  async follow(query: ClickQueryDto, visitor: Visitor): Promise<string> {
    // A served campaign is known from memory; only a click on one the index dropped
    // (paused, spent, ended) reads the database. Without its target URL there is nowhere
    // to redirect (never to the unsigned targetLink), so a stalled database answers 503.
    const campaign =
      this.index.served(query.campaign_id) ??
      (await withDeadline(
        this.campaigns.findById(query.campaign_id),
        this.config.databaseTimeoutMs,
        'campaign lookup',
      ));
    if (!campaign) {
      throw ProblemException.notFound('campaign_not_found', 'No campaign has this campaign_id.');
    }
    const modelId = single(query.model_id, ID_MAX_CHARS);
    const impressionId = single(query.imp, ID_MAX_CHARS);
    const sig = single(query.sig, SIGNATURE_MAX_CHARS);
    const signed =
      !!modelId &&
      !!impressionId &&
      !!sig &&
      this.signer.verify({ campaignId: campaign.id, modelId, impressionId }, sig);
    // A stalled database does not keep the person from the advertiser: after a short wait
    // the redirect goes out while the click waits on in its batch (logged if finally lost).
    const clickId = newId();
    const recorded = this.recorder.record({
      clickId,
      at: this.clock.now(),
      campaignId: campaign.id,
      modelId: modelId ?? ([query.model_id].flat()[0] ?? '').slice(0, ID_MAX_CHARS),
      impressionId: signed ? impressionId : null,
      userAgent: visitor.userAgent ?? null,
      intent: visitor.intent,
      ipHash: this.hashIp(clientNetwork(visitor.ip)),
    });
    try {
      await waitAtMost(recorded, CLICK_REDIRECT_WAIT_MS, 'click');
    } catch (error) {
      // A person is never shown an error for following an ad: the recorder has logged the
      // failed write and counted the click as lost; the redirect still goes out.
      this.logger.error(`click on campaign ${campaign.id} not recorded: ${String(error)}`);
    }
    // The click id costs one HMAC-SHA256 of 16 bytes and one string edit of the target URL
    // (no URL parsing), a few microseconds; the parameter's name comes with the campaign
    // from the index, so no database read is added.
    const { targetUrl, clickIdParam } = campaign;
    if (clickIdParam === null) return targetUrl;
    return withQueryParameter(targetUrl, clickIdParam, this.clickIds.sign(clickId));
  }
}

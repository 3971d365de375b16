import { isKnownBot } from './bot-detector';
import type { BilledByIp, Standing } from './click-traffic.repository';
import type { InvalidClickReason } from './entities/click.entity';
import type { ClickedImpression } from './impressions.repository';

/** How a tracking link was requested: a person's follow, a HEAD request or a prefetch. */
export type FollowIntent = 'follow' | 'head' | 'prefetch';

/** One follow of a tracking link, as the click endpoint accepted it. */
export interface FollowedLink {
  clickId: string;
  at: Date;
  /** The campaign the link names (it exists). */
  campaignId: string;
  /** As given in the link. */
  modelId: string;
  /** The impression the link names, when its signature holds; null for a forged link. */
  impressionId: string | null;
  userAgent: string | null;
  intent: FollowIntent;
  /** Keyed hash of the client's network (see clientNetwork); never the IP itself. */
  ipHash: string;
}

export interface ClickRules {
  windowMs: number;
  minMs: number;
  ipLimits: { perCampaignMinute: number; perHour: number; perDay: number };
}

/** What the rules read from the database for one batch. */
export interface BatchFacts {
  impressions: Map<string, ClickedImpression>;
  standing: Standing;
  /** Billed clicks of the batch's IPs in the last day, before this batch. */
  billedByIp: BilledByIp[];
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** How far back the per-IP limits look. */
export const IP_LIMIT_LOOKBACK_MS = DAY_MS;

/**
 * Judges a batch of clicks in arrival order: each is either an invalid reason or `valid`
 * (then the campaign's status and budget decide whether it is billed). A valid click claims
 * its impression, so a later click on it in the same batch is a duplicate. Only billed
 * clicks use up an IP's allowance, as across batches: a valid click counts against its
 * IP's limits unless it is in `unbilled` (its campaign could not pay or was inactive), so
 * the recorder judges again, with those, when a valid click went unbilled.
 */
export function judgeClicks(
  links: FollowedLink[],
  facts: BatchFacts,
  rules: ClickRules,
  unbilled: ReadonlySet<string> = new Set(),
): (InvalidClickReason | 'valid')[] {
  const claimed = new Set<string>();
  const counted = [...facts.billedByIp];
  return links.map((link) => {
    const reason = invalidReason(link, facts, rules, claimed, counted);
    if (reason) return reason;
    claimed.add(link.impressionId!);
    if (!unbilled.has(link.clickId)) {
      counted.push({ ipHash: link.ipHash, campaignId: link.campaignId, at: link.at });
    }
    return 'valid';
  });
}

/**
 * Whether the follow may be billed at all, as far as the link itself tells: false only for
 * what `judgeClicks` never judges valid (a forged link, no person's follow, a bot), so the
 * recorder locks the budgets of the campaigns the rest may bill before judging them.
 */
export function mayBill(link: FollowedLink): boolean {
  return link.impressionId !== null && link.intent === 'follow' && !isKnownBot(link.userAgent);
}

function invalidReason(
  link: FollowedLink,
  { impressions, standing }: BatchFacts,
  rules: ClickRules,
  claimed: Set<string>,
  counted: BilledByIp[],
): InvalidClickReason | null {
  if (link.impressionId === null) return 'bad_signature';
  const impression = impressions.get(link.impressionId);
  if (!impression) return 'unknown_impression';
  if (impression.campaignId !== link.campaignId || impression.modelId !== link.modelId) {
    return 'mismatch';
  }
  // A test key's ad: nothing about the follow can make it billable, so no other rule
  // matters; it neither claims the impression nor uses up the IP's allowance.
  if (impression.test) return 'test';
  // No person followed it.
  if (link.intent === 'head') return 'head_request';
  if (link.intent === 'prefetch') return 'prefetch';
  if (isKnownBot(link.userAgent)) return 'bot';
  const age = link.at.getTime() - impression.createdAt.getTime();
  if (age > rules.windowMs) return 'expired';
  if (impression.clickedAt !== null || claimed.has(impression.id)) return 'duplicate';
  if (age < rules.minMs) return 'too_fast';
  // Who would earn may no longer, whatever the impression was when it was served.
  if (standing.suspendedPublishers.has(impression.publisherId)) return 'publisher_suspended';
  if (standing.inactiveModels.has(impression.modelId)) return 'model_inactive';
  if (impression.apiKeyId !== null && standing.revokedKeys.has(impression.apiKeyId)) {
    return 'key_revoked';
  }
  if (overIpLimit(link, counted, rules.ipLimits)) return 'ip_limit';
  return null;
}

function overIpLimit(
  link: FollowedLink,
  counted: BilledByIp[],
  limits: ClickRules['ipLimits'],
): boolean {
  const at = link.at.getTime();
  const since = (ms: number, sameCampaign = false) =>
    counted.filter(
      (c) =>
        c.ipHash === link.ipHash &&
        at - c.at.getTime() < ms &&
        (!sameCampaign || c.campaignId === link.campaignId),
    ).length;
  return (
    since(MINUTE_MS, true) >= limits.perCampaignMinute ||
    since(HOUR_MS) >= limits.perHour ||
    since(DAY_MS) >= limits.perDay
  );
}

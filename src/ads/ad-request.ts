import type { MatchControls, MatchRequest } from '@/campaign-index/matching/matching.types';
import { resolveCountry, resolveDevice } from '@/campaign-index/matching/targeting';
import { parseKeywordList } from '@/common/keywords';
import type { ServingControls } from '@/publishers/model-controls';
import { flaggedByPublisher } from '@/safety/publisher-moderation';
import { userTurns } from '@/safety/user-turns';
import { conversationText } from './dto/chat-message.dto';
import type { FetchAdsRequestDto } from './dto/fetch-ads-request.dto';
import { matchControlsFor } from './match-controls';

/**
 * A fetch-ads body read once, into what each step of the ad path needs: the safety check,
 * the match, the frequency cap, the impression and the answer. After this, no step reads
 * the body's fields itself.
 */
export interface AdRequest {
  /** What the matcher reads; also what the impression keeps of the request. */
  match: MatchRequest;
  /** The model's controls and the request's `excluded_topics`; null when there are none. */
  controls: MatchControls | null;
  /** What the user wrote, a turn each: what the safety classifier reads. */
  userTurns: string[];
  /** The publisher's own moderation flagged this turn. */
  flaggedByPublisher: boolean;
  maxAds: number;
  sessionId: string | undefined;
  /** The answer carries each ad's explanation. */
  explain: boolean;
  /** As sent, for the impression to keep (cut to its columns there). */
  userLocation: string | undefined;
  userDeviceInfo: string | undefined;
}

export function readAdRequest(body: FetchAdsRequestDto, controls: ServingControls): AdRequest {
  const conversation = conversationText(body);
  const matchControls = matchControlsFor(controls, body.excluded_topics);
  const country = resolveCountry(body.user_location);
  const device = resolveDevice(body.user_device_info);
  const turns = userTurns(body);
  const flagged = flaggedByPublisher(body.moderation);
  const keywords = parseKeywordList(body.context_keywords);
  return {
    // `conversation` as sent, or the chat `messages` as `role: content` lines.
    match: { keywords, conversation, locale: body.locale, country, device },
    controls: matchControls,
    userTurns: turns,
    flaggedByPublisher: flagged,
    maxAds: body.max_ads ?? 1,
    sessionId: body.session_id,
    explain: body.explain === true,
    userLocation: body.user_location,
    userDeviceInfo: body.user_device_info,
  };
}

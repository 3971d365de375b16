import { Injectable } from '@nestjs/common';
import { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import { explainMatch } from '@/campaign-index/explain';
import type {
  IndexedCampaign,
  MatchRequest,
  MatchResult,
} from '@/campaign-index/matching/matching.types';
import { resolveCountry, resolveDevice } from '@/campaign-index/matching/targeting';
import { CampaignsService, campaignNotFound } from '@/campaigns/campaigns/campaigns.service';
import { parseKeywordList } from '@/common/keywords';
import { microsToUnits, PPM } from '@/common/money';
import { SensitiveTopicDetector } from '@/safety/sensitive-topic-detector.service';
import type { ExplanationDto } from '@/tracking/explanation/explanation.dto';
import type { CampaignTryRequestDto, CampaignTryResultDto } from './dto/campaign-try.dto';

/**
 * "Would this campaign be served for this conversation, and why?", for operators: the
 * fetch-ads path's safety check and match, read only. Nothing is recorded (no impression,
 * fill count or frequency cap), so trying a campaign never bills or skews a report.
 */
@Injectable()
export class CampaignTryService {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly index: CampaignIndexService,
    private readonly sensitiveTopics: SensitiveTopicDetector,
  ) {}

  async tryCampaign(id: string, body: CampaignTryRequestDto): Promise<CampaignTryResultDto> {
    const campaign = await this.campaigns.findById(id);
    if (!campaign) throw campaignNotFound();
    const conversation = body.conversation ?? '';
    const request: MatchRequest = {
      keywords: parseKeywordList(body.context_keywords),
      conversation,
      locale: body.locale,
      country: resolveCountry(body.user_location),
      device: resolveDevice(body.user_device_info),
    };
    if (this.sensitiveTopics.topicOf(conversation, request.keywords) !== null) {
      return { would_serve: false, reason: 'sensitive_topic' };
    }
    const index = this.index.current;
    const indexed = index.get(id);
    if (!indexed) {
      const reason = campaign.status === 'active' ? 'not_servable' : `campaign_${campaign.status}`;
      return { would_serve: false, reason: reason as CampaignTryResultDto['reason'] };
    }
    const alone = this.index.matchAlone(indexed, request);
    const own = alone.results[0];
    if (!own) return { would_serve: false, reason: alone.unmet as 'no_match' };
    const explanation = explanationOf(index, indexed, own, request);
    const winner = index.select(request, null, 1).results[0];
    if (winner && winner.campaign.id !== id) {
      return {
        would_serve: false,
        reason: 'outranked',
        relevance: explanation.relevance,
        explanation,
        winning_score: scoreOf(winner.relevance, winner.campaign.bidMicros),
      };
    }
    return { would_serve: true, relevance: explanation.relevance, explanation };
  }
}

function explanationOf(
  index: CampaignIndexService['current'],
  campaign: IndexedCampaign,
  match: MatchResult,
  request: MatchRequest,
): ExplanationDto {
  const relevance = Math.round(match.relevance * PPM) / PPM;
  return {
    matched_keywords: explainMatch(index, campaign, request),
    targeting: {
      country: request.country,
      device: request.device,
      campaign_countries: campaign.countries,
      campaign_devices: campaign.devices,
    },
    relevance,
    bid: microsToUnits(campaign.bidMicros),
    score: scoreOf(relevance, campaign.bidMicros),
  };
}

const scoreOf = (relevance: number, bidMicros: number): number =>
  microsToUnits(Math.round(relevance * bidMicros));

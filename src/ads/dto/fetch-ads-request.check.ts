import { CONTENT_CATEGORY_IDS } from '@/common/content-categories';
import { compiledBodyCheck } from '@/common/validation';
import { CHAT_ROLES, ChatMessageDto } from './chat-message.dto';
import { isRecordOf, ModerationDto } from './moderation.dto';
import {
  FetchAdsRequestDto,
  LANGUAGE_TAG,
  MAX_ADS_PER_REQUEST,
  MAX_EXCLUDED_TOPICS,
} from './fetch-ads-request.dto';

/**
 * The compiled check of a fetch-ads body (see CompiledCheck in common/validation.ts): the
 * DTO's rules written out once, so a valid body skips class-transformer and class-validator
 * (~8% of the service's CPU per ad). Anything unusual answers null and goes to the full
 * validation, which also words every error; lengths are compared in UTF-16 units, never fewer
 * than the characters class-validator counts, so a long text may go there too.
 * fetch-ads-request.check.spec.ts holds it to the DTO: whatever it accepts, the pipe accepts
 * and makes into the same object.
 */

const FIELDS = [
  'conversation',
  'messages',
  'context_keywords',
  'user_location',
  'user_device_info',
  'locale',
  'explain',
  'excluded_topics',
  'session_id',
  'max_ads',
  'moderation',
] as const satisfies readonly (keyof FetchAdsRequestDto)[];

const ROLES: ReadonlySet<string> = new Set(CHAT_ROLES);
const CATEGORIES: ReadonlySet<string> = new Set(CONTENT_CATEGORY_IDS);

type Body = Record<string, unknown>;

const isSent = (value: unknown): boolean => value !== undefined && value !== null;
const isObject = (value: unknown): value is Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const textUpTo = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length <= max;

export function acceptFetchAdsRequest(value: unknown): FetchAdsRequestDto | null {
  if (!isObject(value)) return null;
  // Exactly one of the two, else the pipe says which is wrong.
  if (isSent(value.conversation) === isSent(value.messages)) return null;
  if (isSent(value.conversation) && !conversationOk(value.conversation)) return null;
  const messages = isSent(value.messages) ? acceptMessages(value.messages) : undefined;
  if (messages === null) return null;
  if (!keywordsOk(value.context_keywords) || !optionalFieldsOk(value)) return null;

  const dto = new FetchAdsRequestDto();
  const fields = dto as unknown as Body;
  for (const field of FIELDS) {
    if (!Object.prototype.hasOwnProperty.call(value, field)) continue;
    fields[field] = value[field];
  }
  if (messages) dto.messages = messages;
  if (isSent(value.moderation)) dto.moderation = moderationOf(value.moderation as Body);
  if (Array.isArray(value.excluded_topics)) {
    dto.excluded_topics = [...(value.excluded_topics as string[])];
  }
  return dto;
}

const conversationOk = (value: unknown): boolean => typeof value === 'string' && /\S/.test(value);

const keywordsOk = (value: unknown): boolean =>
  textUpTo(value, 2000) && value !== '' && /[^,\s]/.test(value);

function optionalFieldsOk(body: Body): boolean {
  const { user_location, user_device_info, locale, explain, excluded_topics } = body;
  const { session_id, max_ads } = body;
  if (isSent(user_location) && !textUpTo(user_location, 255)) return false;
  if (isSent(user_device_info) && !textUpTo(user_device_info, 512)) return false;
  if (isSent(locale) && !(typeof locale === 'string' && LANGUAGE_TAG.test(locale))) return false;
  if (isSent(explain) && typeof explain !== 'boolean') return false;
  if (isSent(excluded_topics) && !topicsOk(excluded_topics)) return false;
  if (isSent(session_id) && !(textUpTo(session_id, 128) && session_id !== '')) return false;
  if (isSent(max_ads) && !maxAdsOk(max_ads)) return false;
  if (isSent(body.moderation) && !moderationOk(body.moderation)) return false;
  return true;
}

const topicsOk = (value: unknown): boolean =>
  Array.isArray(value) &&
  value.length <= MAX_EXCLUDED_TOPICS &&
  value.every((id) => typeof id === 'string' && CATEGORIES.has(id));

const maxAdsOk = (value: unknown): boolean =>
  typeof value === 'number' &&
  Number.isInteger(value) &&
  value >= 1 &&
  value <= MAX_ADS_PER_REQUEST;

const moderationOk = (value: unknown): boolean =>
  isObject(value) &&
  typeof value.flagged === 'boolean' &&
  (!isSent(value.categories) || isRecordOf(value.categories, 'boolean')) &&
  (!isSent(value.category_scores) || isRecordOf(value.category_scores, 'number'));

/** The moderation result as a ModerationDto with only its own fields, as the pipe makes it. */
function moderationOf(value: Body): ModerationDto {
  const moderation = new ModerationDto();
  moderation.flagged = value.flagged as boolean;
  for (const field of ['categories', 'category_scores'] as const) {
    if (Object.prototype.hasOwnProperty.call(value, field)) {
      (moderation as unknown as Body)[field] = value[field];
    }
  }
  return moderation;
}

/** The messages as ChatMessageDto instances with only their two fields, or null. */
function acceptMessages(value: unknown): ChatMessageDto[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const messages: ChatMessageDto[] = [];
  for (const item of value) {
    if (!isObject(item)) return null;
    const { role, content } = item;
    if (typeof role !== 'string' || !ROLES.has(role) || typeof content !== 'string') return null;
    const message = new ChatMessageDto();
    message.role = role as ChatMessageDto['role'];
    message.content = content;
    messages.push(message);
  }
  return messages;
}

/** The hot path's body: skips class-transformer and class-validator when plainly valid. */
export const FETCH_ADS_BODY_CHECK = compiledBodyCheck(FetchAdsRequestDto, acceptFetchAdsRequest);

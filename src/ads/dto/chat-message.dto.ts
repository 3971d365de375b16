import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import { IsRequired } from '@/common/validators';

export const CHAT_ROLES = ['system', 'user', 'assistant', 'tool'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/** One message of a chat, as chat APIs hold it: fetch-ads reads `messages` instead of `conversation`. */
export class ChatMessageDto {
  @ApiProperty({ enum: CHAT_ROLES, description: 'Who wrote the message.', example: 'user' })
  @IsIn(CHAT_ROLES, { message: '$property must be one of: system, user, assistant, tool' })
  @IsString()
  @IsRequired()
  role: ChatRole;

  @ApiProperty({
    description: 'The text of the message.',
    example: 'Which laptop is best for machine learning on a budget?',
  })
  @IsString()
  @IsRequired()
  content: string;
}

/** The conversation fetch-ads reads: `conversation` as sent, or each message as a `role: content` line. */
export function conversationText(request: {
  conversation?: string;
  messages?: ChatMessageDto[];
}): string {
  // A `conversation: null` beside `messages` passed validation as not sent.
  if (typeof request.conversation === 'string') return request.conversation;
  return (request.messages ?? []).map(({ role, content }) => `${role}: ${content}`).join('\n');
}

/** One message of a chat, as fetch-ads' `messages` hold it. */
interface ChatTurn {
  role: string;
  content: string;
}

const OTHER_ROLE = /^\s*(system|assistant|tool)\s*:/i;
const USER_ROLE = /^\s*user\s*:\s*/i;

/**
 * The lines of a conversation the user wrote: a transcript's `system:`, `assistant:` and
 * `tool:` lines are left out and a `user:` label taken off; a plain text is all the user's.
 */
export function userLinesOf(conversation: string): string[] {
  return conversation
    .split('\n')
    .filter((line) => !OTHER_ROLE.test(line))
    .map((line) => line.replace(USER_ROLE, ''));
}

/**
 * What the user wrote, a turn each: the `user` messages' contents, or the user's lines of
 * `conversation`. The safety classifier reads them (a system prompt or the assistant's words
 * are not the user's).
 */
export function userTurns(request: { conversation?: string; messages?: ChatTurn[] }): string[] {
  if (typeof request.conversation === 'string') return userLinesOf(request.conversation);
  return (request.messages ?? [])
    .filter(({ role }) => role === 'user')
    .map(({ content }) => content);
}

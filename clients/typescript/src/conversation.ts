/** One message of a conversation, as most chat APIs hold it. */
export interface ConversationMessage {
  role: string;
  content: string;
}

/**
 * The conversation as fetch-ads reads it: one `role: text` line per message, the last
 * `lastMessages` of them, skipping messages without text. Adline reads only the end of the
 * conversation anyway, so sending more would only cost bandwidth.
 */
export function formatConversation(messages: ConversationMessage[], lastMessages = 6): string {
  return messages
    .map((message) => ({ role: message.role, text: message.content.trim() }))
    .filter((message) => message.text !== '')
    .slice(-Math.max(1, lastMessages))
    .map((message) => `${message.role}: ${message.text}`)
    .join('\n');
}

// Stands in for the publisher's AI model: a canned answer, written word by word with a short
// pause, so that the ad request visibly runs while the "model" writes.
import { setTimeout as sleep } from 'node:timers/promises';

export function createCannedModel({ wordDelayMs = 20 } = {}) {
  async function* streamReply(messages) {
    const question = messages.findLast((message) => message.role === 'user')?.content ?? '';
    const answer = `You asked: "${question}". This example backend has no model, so here is a canned answer.`;
    for (const [index, word] of answer.split(' ').entries()) {
      await sleep(wordDelayMs);
      yield index === 0 ? word : ` ${word}`;
    }
  }
  async function generateReply(messages) {
    let reply = '';
    for await (const chunk of streamReply(messages)) reply += chunk;
    return reply;
  }
  return { streamReply, generateReply };
}

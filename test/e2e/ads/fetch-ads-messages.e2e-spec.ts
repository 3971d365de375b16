import { Impression } from '@/tracking/entities/impression.entity';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

type FieldErrors = { field: string; message: string }[];

const chat = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: 'I need a new laptop for programming, any advice?' },
  { role: 'assistant', content: 'What is your budget?' },
  { role: 'tool', content: '{"budget": 1200}' },
];

describe(`POST /api/fetch-ads with chat messages (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let key: string;
  let modelId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const publisher = await t.f.publisherWithKey();
    key = publisher.key;
    modelId = publisher.model.id;
    await t.f.campaign({ keywords: 'ultrabook', name: 'Feather Laptops' });
  });
  afterAll(() => t.close());

  const errorsOf = async (body: unknown): Promise<FieldErrors> =>
    (await expectProblem(await t.fetchAds(key, body), 400, 'validation_failed')).errors ?? [];

  it('serves an ad for messages, and reads them as the conversation: role: content lines, in order', async () => {
    const response = await t.fetchAds(key, { messages: chat, context_keywords: 'ultrabook' });

    expect(response.status).toBe(200);
    const body = (await response.json()) as { advertisements: { campaign_name: string }[] };
    expect(body.advertisements.map((ad) => ad.campaign_name)).toEqual(['Feather Laptops']);
    const [impression] = await t.dataSource.getRepository(Impression).findBy({ modelId });
    expect(impression.conversation).toBe(
      [
        'system: You are a helpful assistant.',
        'user: I need a new laptop for programming, any advice?',
        'assistant: What is your budget?',
        'tool: {"budget": 1200}',
      ].join('\n'),
    );
  });

  it('reads the messages for sensitive topics as it reads a conversation', async () => {
    const problem = await expectProblem(
      await t.fetchAds(key, {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'user', content: "Honestly I've been thinking about suicide a lot lately." },
        ],
        context_keywords: 'ultrabook',
      }),
      404,
      'no_matching_ad',
    );
    expect(problem).toMatchObject({ reason: 'sensitive_topic' });
  });

  it('answers 400 naming both fields when conversation and messages are both sent', async () => {
    const errors = await errorsOf({
      conversation: 'Any advice?',
      messages: chat,
      context_keywords: 'ultrabook',
    });
    expect(errors).toEqual([
      { field: 'conversation', message: 'send either conversation or messages, not both' },
      { field: 'messages', message: 'send either messages or conversation, not both' },
    ]);
  });

  it('answers 400 when neither is sent, naming conversation as missing', async () => {
    expect(await errorsOf({ context_keywords: 'ultrabook' })).toEqual([
      { field: 'conversation', message: 'conversation is required' },
    ]);
    expect(await errorsOf({ messages: null, context_keywords: 'ultrabook' })).toEqual([
      { field: 'conversation', message: 'conversation is required' },
    ]);
  });

  it('takes a null for the field not used as not sent', async () => {
    const withNullMessages = await t.fetchAds(key, {
      conversation: 'Any advice on an ultrabook?',
      messages: null,
      context_keywords: 'ultrabook',
    });
    expect(withNullMessages.status).toBe(200);
    const withNullConversation = await t.fetchAds(key, {
      conversation: null,
      messages: chat,
      context_keywords: 'ultrabook',
    });
    expect(withNullConversation.status).toBe(200);
  });

  it('answers 400 for an empty messages array', async () => {
    expect(await errorsOf({ messages: [], context_keywords: 'ultrabook' })).toEqual([
      { field: 'messages', message: 'messages should not be empty' },
    ]);
  });

  it.each([
    ['messages is not an array', { messages: 'hello' }, 'messages', 'messages must be an array'],
    [
      'a role outside the four',
      { messages: [{ role: 'bot', content: 'hi' }] },
      'messages.0.role',
      'role must be one of: system, user, assistant, tool',
    ],
    [
      'a missing role',
      { messages: [{ role: 'user', content: 'hi' }, { content: 'hi' }] },
      'messages.1.role',
      'role is required',
    ],
    [
      'content that is not a string',
      { messages: [{ role: 'user', content: 5 }] },
      'messages.0.content',
      'content must be a string',
    ],
    [
      'a missing content',
      { messages: [{ role: 'user' }] },
      'messages.0.content',
      'content is required',
    ],
  ])('answers 400 naming the field for %s', async (_label, body, field, message) => {
    expect(await errorsOf({ ...body, context_keywords: 'ultrabook' })).toEqual([
      { field, message },
    ]);
  });

  it('answers 400 for a message that is not an object', async () => {
    const errors = await errorsOf({ messages: ['hello'], context_keywords: 'ultrabook' });
    expect(errors).toHaveLength(1);
    expect(errors[0].field).toMatch(/^messages/);
  });

  it('records no impression for a refused body', async () => {
    const before = await t.dataSource.getRepository(Impression).countBy({ modelId });
    await errorsOf({ messages: [], context_keywords: 'ultrabook' });
    expect(await t.dataSource.getRepository(Impression).countBy({ modelId })).toBe(before);
  });
});

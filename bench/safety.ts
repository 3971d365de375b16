import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '@/app.setup';
import { AppConfig } from '@/config/app-config';
import { SensitiveTopicDetector } from '@/safety/sensitive-topic-detector.service';
import { loadCorpus } from '../scripts/safety/corpus';
import { log } from './common/log';
import { fmt, markdownTable } from './report/format';
import { createBenchDatabase, seed } from './seed/database';
import { generateRequest, vocabularyFor, type FetchAdsBody } from './seed/generate';

/**
 * What the sensitive-topic check costs fetch-ads, in one run (`npm run build`, then
 * `node dist/bench/safety.js [--rounds N] [--requests N]`):
 *
 * 1. The detector alone (lists and classifier): CPU time per request for the benchmark's fetch-ads bodies (~700
 *    characters of conversation), per 4,000-character conversation of ordinary shopping
 *    talk in each list language, and for a 64 KiB one (the body limit).
 *    Then the classifier alone: p50 and p99 µs per request.
 * 2. fetch-ads itself, in this process: the real app on a fresh SQLite database with 10,000
 *    generated campaigns, requests through Fastify's `inject` 50 at a time, in rounds that
 *    alternate the check off (its method swapped for one that finds nothing) and on, so
 *    that a slow minute of this shared machine weighs on both. The cost is 1 − on ÷ off of
 *    the rounds' median throughputs, for the benchmark's bodies and for 4,000-character
 *    conversations.
 *
 * Prints a Markdown report and, last, one JSON line.
 */

const CAMPAIGNS = 10_000;
const CONCURRENCY = 50;
const LONG = 4_000;

/** Ordinary talk per language, with accents where the language has them (the slower path). */
const SHOPPING: Record<string, string> = {
  en: 'Which laptop has the best keyboard and battery life for programming on a budget? I also need a quiet mouse and a bag that fits a 16-inch screen. ',
  de: 'Welcher Laptop hat die beste Tastatur und Akkulaufzeit fürs Programmieren? Ich brauche auch eine leise Maus und eine Tasche für einen größeren Bildschirm. ',
  fr: "Quel ordinateur portable a le meilleur clavier et la meilleure autonomie pour programmer ? J'ai aussi besoin d'une souris silencieuse et d'un sac léger. ",
  es: '¿Qué portátil tiene el mejor teclado y batería para programar sin gastar mucho? También necesito un ratón silencioso y una mochila para una pantalla grande. ',
};

const repeatTo = (text: string, length: number) =>
  text.repeat(Math.ceil(length / text.length)).slice(0, length);

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

/** Best of several timed batches: CPU µs per call (less moved by other processes than wall time). */
function cpuMicros(run: () => void, calls: number): number {
  let best = Infinity;
  for (let batch = 0; batch < 7; batch++) {
    const started = process.cpuUsage();
    for (let i = 0; i < calls; i++) run();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / calls);
  }
  return best;
}

interface DetectorCost {
  text: string;
  characters: number;
  micros: number;
  nsPerCharacter: number;
}

function measureDetector(bodies: FetchAdsBody[]): { costs: DetectorCost[]; flagged: number } {
  const detector = new SensitiveTopicDetector();
  const keywords = bodies.map((b) => b.context_keywords.split(','));
  const flagged = bodies.filter((b, i) => detector.topicOf(b.conversation, keywords[i])).length;
  const cost = (text: string, conversations: string[], calls: number): DetectorCost => {
    let next = 0;
    const check = () => {
      detector.topicOf(conversations[next], keywords[next % keywords.length]);
      next = (next + 1) % conversations.length;
    };
    for (let i = 0; i < calls; i++) check();
    const micros = cpuMicros(check, calls);
    const characters = conversations.reduce((n, c) => n + c.length, 0) / conversations.length;
    return { text, characters, micros, nsPerCharacter: (micros * 1000) / characters };
  };
  const costs = [
    cost(
      "the benchmark's fetch-ads bodies",
      bodies.map((b) => b.conversation),
      5_000,
    ),
    ...Object.entries(SHOPPING).map(([language, text]) =>
      cost(`${fmt(LONG)} characters, ${language}`, [repeatTo(text, LONG)], 2_000),
    ),
    cost('64 KiB, en', [repeatTo(SHOPPING.en, 65_536)], 100),
  ];
  return { costs, flagged };
}

interface ClassifierCost {
  text: string;
  requests: number;
  p50: number;
  p99: number;
  mean: number;
}

/**
 * The classifier alone, per request (wall time of each call, after a warm-up): its p50 and
 * p99 in µs, for the benchmark's bodies and for the held-out utterances of the safety corpus.
 */
function measureClassifier(bodies: FetchAdsBody[]): ClassifierCost[] {
  const detector = new SensitiveTopicDetector();
  const sets: [string, string[][]][] = [
    ["the benchmark's fetch-ads bodies", bodies.map((b) => b.conversation.split('\n'))],
    ['held-out utterances of the safety corpus', loadCorpus('heldout').map((u) => [u.text])],
    [`${fmt(LONG)} characters, en`, [repeatTo(SHOPPING.en, LONG).split('\n')]],
  ];
  return sets.map(([text, turns]) => {
    const calls = 20_000;
    for (let i = 0; i < 2_000; i++) detector.classifiedTopic(turns[i % turns.length]);
    const times = new Float64Array(calls);
    for (let i = 0; i < calls; i++) {
      const started = process.hrtime.bigint();
      detector.classifiedTopic(turns[i % turns.length]);
      times[i] = Number(process.hrtime.bigint() - started) / 1000;
    }
    times.sort();
    const mean = times.reduce((a, b) => a + b, 0) / calls;
    return {
      text,
      requests: calls,
      p50: times[calls >> 1],
      p99: times[Math.floor(calls * 0.99)],
      mean,
    };
  });
}

interface Round {
  on: boolean;
  requestsPerSecond: number;
  /** This process's CPU time per request: everything fetch-ads does runs here, SQLite too. */
  cpuMicros: number;
}

async function fetchRounds(
  app: NestFastifyApplication,
  detector: SensitiveTopicDetector,
  keys: string[],
  bodies: string[],
  rounds: number,
  requests: number,
): Promise<Round[]> {
  const check = detector.topicOf.bind(detector);
  const findNothing = () => null;
  let sent = 0;
  const one = async (): Promise<void> => {
    const index = sent++;
    const response = await app.inject({
      method: 'POST',
      url: '/api/fetch-ads',
      headers: { 'content-type': 'application/json', 'service-api-key': keys[index % keys.length] },
      payload: bodies[index % bodies.length],
    });
    if (response.statusCode !== 200 && response.statusCode !== 404) {
      throw new Error(`fetch-ads answered ${response.statusCode}: ${response.body}`);
    }
  };
  const run = async (count: number): Promise<Omit<Round, 'on'>> => {
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    let left = count;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await one();
      }),
    );
    const used = process.cpuUsage(cpu);
    return {
      requestsPerSecond: count / (Number(process.hrtime.bigint() - started) / 1e9),
      cpuMicros: (used.user + used.system) / count,
    };
  };
  await run(requests); // warm-up, check on
  const results: Round[] = [];
  for (let round = 0; round < rounds * 2; round++) {
    const on = round % 2 === 1;
    detector.topicOf = on ? check : findNothing;
    results.push({ on, ...(await run(requests)) });
  }
  detector.topicOf = check;
  return results;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function main(): Promise<void> {
  const rounds = option('--rounds', 5);
  const requests = option('--requests', 3_000);
  const vocabulary = vocabularyFor(CAMPAIGNS);
  const bodies = Array.from({ length: 2_000 }, (_, i) => generateRequest(vocabulary, i));
  log('the detector alone');
  const { costs, flagged } = measureDetector(bodies);
  log('the classifier alone');
  const classifier = measureClassifier(bodies);

  log(`seeding ${fmt(CAMPAIGNS)} campaigns into a fresh SQLite database`);
  const db = await createBenchDatabase('sqlite');
  const longBodies = bodies.map((b) => ({
    ...b,
    conversation: repeatTo(`${b.conversation}\nUser: `, LONG),
  }));
  let app: NestFastifyApplication | null = null;
  try {
    const seeded = await seed(db, CAMPAIGNS);
    const config = AppConfig.fromEnvironment({
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      BASE_URL: 'http://127.0.0.1:3000',
      CLICK_SIGNING_SECRET: 'bench-click-signing-secret-0123456789abcdef',
      SESSION_SECRET: 'bench-session-secret-0123456789abcdefghij',
      RATE_LIMITS_ENABLED: 'false',
      ACCESS_LOG: 'false',
      // A failed request stops the run with its body (below); no log line per request.
      LOG_LEVEL: 'fatal',
    });
    app = await createApp(config);
    await app.init();
    const detector = app.get(SensitiveTopicDetector);
    const sets = [
      ["the benchmark's bodies", bodies],
      [`${fmt(LONG)}-character conversations`, longBodies],
    ] as const;
    const phases = [];
    for (const [name, set] of sets) {
      log(`fetch-ads in process, ${name}: ${rounds} rounds off and on, ${fmt(requests)} each`);
      const json = set.map((b) => JSON.stringify(b));
      const results = await fetchRounds(app, detector, seeded.keys, json, rounds, requests);
      const of = (on: boolean, figure: (r: Round) => number) =>
        median(results.filter((r) => r.on === on).map(figure));
      const [on, off] = [
        of(true, (r) => r.requestsPerSecond),
        of(false, (r) => r.requestsPerSecond),
      ];
      const [cpuOn, cpuOff] = [of(true, (r) => r.cpuMicros), of(false, (r) => r.cpuMicros)];
      phases.push({ name, on, off, cost: 1 - on / off, cpuOn, cpuOff, rounds: results });
    }
    console.log(
      [
        '## Sensitive-topic check',
        '',
        `The detector alone (CPU time, best of 7 batches; ${flagged} of the benchmark's ${fmt(bodies.length)} bodies flagged):`,
        '',
        markdownTable(
          ['conversation', 'characters', 'µs per request', 'ns per character'],
          costs.map((c) => [c.text, fmt(c.characters), fmt(c.micros, 1), fmt(c.nsPerCharacter, 1)]),
        ),
        '',
        'The classifier alone (its part of the above; wall time per request, 20,000 requests):',
        '',
        markdownTable(
          ['conversation', 'p50 µs', 'p99 µs', 'mean µs'],
          classifier.map((c) => [c.text, fmt(c.p50, 1), fmt(c.p99, 1), fmt(c.mean, 1)]),
        ),
        '',
        `fetch-ads in process (${fmt(CAMPAIGNS)} campaigns, SQLite, ${CONCURRENCY} at a time, median of ${rounds} rounds each):`,
        '',
        markdownTable(
          [
            'requests',
            'check off, req/s',
            'check on, req/s',
            'cost (1 − on ÷ off)',
            'CPU µs per request, off → on',
          ],
          phases.map((p) => [
            p.name,
            fmt(p.off),
            fmt(p.on),
            `${fmt(p.cost * 100, 1)}%`,
            `${fmt(p.cpuOff)} → ${fmt(p.cpuOn)} (${fmt((p.cpuOn / p.cpuOff - 1) * 100, 1)}%)`,
          ]),
        ),
      ].join('\n'),
    );
    console.log(JSON.stringify({ detector: costs, classifier, flagged, fetchAds: phases }));
  } finally {
    await app?.close();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

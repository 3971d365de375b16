import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { parseKeywordList } from '@/common/keywords';
import { PasswordHasher } from '@/auth/password-hasher.service';
import { SessionsService } from '@/auth/sessions.service';
import { AdvertisersService } from '@/campaigns/advertisers/advertisers.service';
import { CampaignsService, NewCampaign } from '@/campaigns/campaigns/campaigns.service';
import type { Campaign } from '@/campaigns/entities/campaign.entity';
import { unitsToMicros } from '@/common/money';
import { DailyStatsRepository, type StatIncrement } from '@/earnings/daily-stats.repository';
import type { AiModel } from '@/publishers/entities/ai-model.entity';
import type { ApiKeyKind } from '@/publishers/entities/api-key.entity';
import type { Publisher } from '@/publishers/entities/publisher.entity';
import { PublishersService } from '@/publishers/publishers.service';

export interface PublisherWithKey {
  publisher: Publisher;
  model: AiModel;
  keyId: string;
  key: string;
}

/** A signed-in account: the account, its bearer token and a client for the management API. */
export interface SignedIn {
  publisher: Publisher;
  token: string;
  /** Calls the app as this account (bearer token); a body is sent as JSON. */
  api(method: string, path: string, body?: unknown): Promise<Response>;
}

export type SignedInPublisher = PublisherWithKey & SignedIn;

export interface CampaignOptions extends Partial<Omit<NewCampaign, 'keywords' | 'bidMicros'>> {
  /** Comma-separated, as a person would type them. */
  keywords?: string;
  /** In currency units, e.g. '0.35'. */
  bid?: string;
  budgetTotal?: string;
  budgetDaily?: string;
}

let sequence = 0;

/** One-line test data made through the app's own services (docs/style.md §10). */
export class Factories {
  constructor(private readonly app: INestApplication) {}

  private get publishers(): PublishersService {
    return this.app.get(PublishersService);
  }

  private get campaigns(): CampaignsService {
    return this.app.get(CampaignsService);
  }

  async publisherWithKey(options: { revenueShare?: number } = {}): Promise<PublisherWithKey> {
    sequence += 1;
    const publisher = await this.publishers.createPublisher({
      email: `publisher${sequence}-${Date.now()}@example.test`,
      name: `Publisher ${sequence}`,
      revenueSharePpm:
        options.revenueShare === undefined ? undefined : Math.round(options.revenueShare * 1e6),
    });
    const model = await this.publishers.createModel(publisher.id, { name: `Model ${sequence}` });
    const { key, secret } = await this.publishers.createApiKey(model.id, 'test');
    return { publisher, model, keyId: key.id, key: secret };
  }

  /** A publisher with a model and a key, signed in: `await t.f.signedInPublisher()`. */
  async signedInPublisher(options: { revenueShare?: number } = {}): Promise<SignedInPublisher> {
    const made = await this.publisherWithKey(options);
    return { ...made, ...(await this.signIn(made.publisher)) };
  }

  /** An operator (role `admin`), signed in. */
  async signedInAdmin(): Promise<SignedIn> {
    sequence += 1;
    const publisher = await this.publishers.createPublisher({
      email: `operator${sequence}-${Date.now()}@example.test`,
      name: `Operator ${sequence}`,
      role: 'admin',
    });
    return this.signIn(publisher);
  }

  /**
   * An operator signed in the way a person is: an admin account with a password, then
   * `POST /api/auth/login`. `await t.f.operator()`.
   */
  async operator(): Promise<{ publisher: Publisher } & SignedIn> {
    sequence += 1;
    const email = `operator${sequence}-${Date.now()}@example.test`;
    const password = `operator password ${sequence}`;
    const publisher = await this.publishers.createPublisher({
      email,
      name: `Operator ${sequence}`,
      role: 'admin',
      passwordHash: await this.app.get(PasswordHasher).hash(password),
    });
    const baseUrl = await this.app.getUrl();
    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (login.status !== 200) throw new Error(`operator sign-in answered ${login.status}`);
    const { access_token: token } = (await login.json()) as { access_token: string };
    return this.signedInAs(publisher, token);
  }

  /** A session for an existing account, without the cost of a password check. */
  async signIn(publisher: Publisher): Promise<SignedIn> {
    const { token } = await this.app.get(SessionsService).start(publisher.id);
    return this.signedInAs(publisher, token);
  }

  /** The account with its bearer token and a client that calls the app with it. */
  private async signedInAs(publisher: Publisher, token: string): Promise<SignedIn> {
    const baseUrl = await this.app.getUrl();
    return {
      publisher,
      token,
      api: (method, path, body) =>
        fetch(`${baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
    };
  }

  /** Adds to the daily roll-ups directly, e.g. activity on past days. */
  async rollup(...rows: StatIncrement[]): Promise<void> {
    await this.app.get(DailyStatsRepository).increment(this.app.get(DataSource).manager, rows);
  }

  async campaign(options: CampaignOptions = {}): Promise<Campaign> {
    sequence += 1;
    const advertiserId =
      options.advertiserId ??
      (await this.app.get(AdvertisersService).create(`Advertiser ${sequence}`)).id;
    return this.campaigns.createCampaign({
      name: `Campaign ${sequence}`,
      text: `Offer number ${sequence}`,
      targetUrl: `https://advertiser.example/offer/${sequence}`,
      ...options,
      advertiserId,
      keywords: parseKeywordList(options.keywords ?? 'laptop'),
      bidMicros: unitsToMicros(options.bid ?? '0.50'),
      budgetTotalMicros: options.budgetTotal ? unitsToMicros(options.budgetTotal) : null,
      budgetDailyMicros: options.budgetDaily ? unitsToMicros(options.budgetDaily) : null,
    });
  }

  /** Another key of the model, live unless `kind` says test: `await t.f.apiKey(id, 'test')`. */
  async apiKey(modelId: string, kind: ApiKeyKind = 'live'): Promise<string> {
    return (await this.publishers.createApiKey(modelId, 'extra', undefined, kind)).secret;
  }

  revokeKey(keyId: string): Promise<void> {
    return this.publishers.revokeApiKey(keyId);
  }

  setModelStatus(modelId: string, status: 'active' | 'deactivated'): Promise<void> {
    return this.publishers.setModelStatus(modelId, status);
  }
}

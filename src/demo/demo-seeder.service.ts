import { Injectable } from '@nestjs/common';
import { AdvertisersService } from '@/campaigns/advertisers/advertisers.service';
import { CampaignsService } from '@/campaigns/campaigns/campaigns.service';
import { unitsToMicros } from '@/common/money';
import { parseKeywordList } from '@/common/keywords';
import { PasswordHasher } from '@/auth/password-hasher.service';
import { PublishersService } from '@/publishers/publishers.service';
import { DEMO_ADVERTISERS } from './demo-campaigns';

export interface DemoData {
  publisherEmail: string;
  publisherPassword: string;
  modelId: string;
  apiKey: string;
  /** A test key of the same model: real ads and links, nothing billed. */
  testApiKey: string;
}

/** Printed at first start so a newcomer can sign in to the dashboard; development only. */
const DEMO_PASSWORD = 'demo-password-123';

/** First-run demo data, so a newcomer's `npm start` can serve an ad straight away. */
@Injectable()
export class DemoSeeder {
  constructor(
    private readonly publishers: PublishersService,
    private readonly advertisers: AdvertisersService,
    private readonly campaigns: CampaignsService,
    private readonly passwords: PasswordHasher,
  ) {}

  /** Seeds only an empty database; returns what it made, or null when it did nothing. */
  async seedIfEmpty(): Promise<DemoData | null> {
    if ((await this.publishers.countPublishers()) > 0) return null;
    const publisher = await this.publishers.createPublisher({
      email: 'demo@adline.local',
      name: 'Demo Publisher',
      passwordHash: await this.passwords.hash(DEMO_PASSWORD),
      emailVerified: true,
    });
    const model = await this.publishers.createModel(publisher.id, {
      name: 'Demo Assistant',
      description: 'A demo AI model created at first start.',
      link: 'https://example.com/assistant',
    });
    const { secret } = await this.publishers.createApiKey(model.id, 'demo');
    const test = await this.publishers.createApiKey(model.id, 'demo test', undefined, 'test');
    for (const { name, contactEmail, campaigns } of DEMO_ADVERTISERS) {
      const advertiser = await this.advertisers.create(name, contactEmail);
      for (const c of campaigns) {
        await this.campaigns.createCampaign({
          advertiserId: advertiser.id,
          name: c.name,
          text: c.text,
          keywords: parseKeywordList(c.keywords),
          bidMicros: unitsToMicros(c.bid),
          budgetTotalMicros: unitsToMicros('1000'),
          targetUrl: c.targetUrl,
          imageUrl: c.imageUrl ?? null,
          category: c.category,
          countries: c.countries ?? [],
          devices: c.devices ?? [],
        });
      }
    }
    return {
      publisherEmail: publisher.email,
      publisherPassword: DEMO_PASSWORD,
      modelId: model.id,
      apiKey: secret,
      testApiKey: test.secret,
    };
  }
}

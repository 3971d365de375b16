import { Injectable } from '@nestjs/common';
import { AdvertisersService } from '@/campaigns/advertisers.service';
import { CampaignsService } from '@/campaigns/campaigns.service';
import { unitsToMicros } from '@/common/money';
import { parseKeywordList } from '@/common/keywords';
import { PasswordHasher } from '@/auth/password-hasher.service';
import { PublishersService } from '@/publishers/publishers.service';

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

const DEMO_CAMPAIGNS = [
  {
    name: 'GPU Cloud for ML',
    text: 'Train your models 3x faster on rented GPUs. First 10 hours free.',
    keywords: 'gpu, machine learning, deep learning, training, cloud',
    bid: '0.45',
    targetUrl: 'https://example.com/gpu-cloud',
  },
  {
    name: 'Lightweight Laptops',
    text: 'Ultra-light laptops with all-day battery for developers.',
    keywords: 'laptop, notebook, developer, battery, hardware',
    bid: '0.30',
    targetUrl: 'https://example.com/laptops',
    imageUrl: 'https://example.com/images/laptop.png',
  },
  {
    name: 'Learn Python Online',
    text: 'Interactive Python courses, from first steps to data science.',
    keywords: 'python, programming, course, data science, learn',
    bid: '0.25',
    targetUrl: 'https://example.com/python-course',
  },
  {
    name: 'Travel Deals Europe',
    text: 'City breaks across Europe from 49 EUR, flights included.',
    keywords: 'travel, flights, hotel, europe, vacation',
    bid: '0.35',
    targetUrl: 'https://example.com/travel',
    countries: ['DE', 'FR', 'NL', 'AT', 'CH'],
  },
  {
    name: 'Mobile Budget App',
    text: 'Track spending on your phone and save 15% a month.',
    keywords: 'budget, finance, saving, money, app',
    bid: '0.20',
    targetUrl: 'https://example.com/budget-app',
    devices: ['mobile' as const, 'tablet' as const],
  },
];

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
    });
    const model = await this.publishers.createModel(publisher.id, {
      name: 'Demo Assistant',
      description: 'A demo AI model created at first start.',
      link: 'https://example.com/assistant',
    });
    const { secret } = await this.publishers.createApiKey(model.id, 'demo');
    const test = await this.publishers.createApiKey(model.id, 'demo test', undefined, 'test');
    const advertiser = await this.advertisers.create('Demo Advertiser', 'ads@example.com');
    for (const c of DEMO_CAMPAIGNS) {
      await this.campaigns.createCampaign({
        advertiserId: advertiser.id,
        name: c.name,
        text: c.text,
        keywords: parseKeywordList(c.keywords),
        bidMicros: unitsToMicros(c.bid),
        budgetTotalMicros: unitsToMicros('1000'),
        targetUrl: c.targetUrl,
        imageUrl: c.imageUrl ?? null,
        countries: c.countries ?? [],
        devices: c.devices ?? [],
      });
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

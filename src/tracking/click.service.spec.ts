import { Logger } from '@nestjs/common';
import type { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import type { CampaignsService } from '@/campaigns/campaigns/campaigns.service';
import { Clock } from '@/common/clock';
import { AppConfig } from '@/config/app-config';
import { ClickIdSigner } from './click-id';
import { ClickLinkSigner } from './click-link';
import type { ClickRecorder } from './click-recorder.service';
import { ClickService } from './click.service';

const TARGET = 'https://shop.example/boots';

/** A ClickService whose recorder fails the way `write` tells it to. */
function serviceWith(write: () => Promise<unknown>) {
  const index = {
    served: () => ({ id: 'cmp_1', targetUrl: TARGET, clickIdParam: null }),
  } as unknown as CampaignIndexService;
  const campaigns = {} as CampaignsService;
  const recorder = { record: write } as unknown as ClickRecorder;
  const config = AppConfig.fromEnvironment({
    NODE_ENV: 'test',
    DATABASE_URL: 'sqlite::memory:',
    CLICK_SIGNING_SECRET: 'unit-test-click-signing-secret-0123456789',
    SESSION_SECRET: 'unit-test-session-secret-0123456789abcdef',
  });
  const signer = new ClickLinkSigner(config.clickSigningSecret);
  const clickIds = new ClickIdSigner(config.clickSigningSecret);
  return new ClickService(index, campaigns, recorder, signer, clickIds, config, new Clock());
}

const visitor = {
  userAgent: 'Mozilla/5.0 Chrome/126.0',
  ip: '203.0.113.9',
  intent: 'follow',
} as const;

describe('ClickService.follow', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('still redirects the person when the click cannot be recorded (no error page for an ad)', async () => {
    const service = serviceWith(() => Promise.reject(new Error('disk full')));
    await expect(
      service.follow({ campaign_id: 'cmp_1', model_id: 'mdl_1' }, visitor),
    ).resolves.toBe(TARGET);
    expect(Logger.prototype.error).toHaveBeenCalledWith(expect.stringContaining('disk full'));
  });

  it('redirects a link without model_id, recording it as a follow of no signed impression', async () => {
    const record = jest.fn(() => Promise.resolve({ status: 'invalid' }));
    const service = serviceWith(record);
    await expect(service.follow({ campaign_id: 'cmp_1' }, visitor)).resolves.toBe(TARGET);
    expect(record).toHaveBeenCalledWith(
      expect.objectContaining({ campaignId: 'cmp_1', modelId: '', impressionId: null }),
    );
  });
});

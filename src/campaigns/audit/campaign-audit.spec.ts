import { auditSnapshot, fieldChanges } from './campaign-audit';
import type { CampaignDto } from '@/campaigns/dto/campaign.dto';

const dto: CampaignDto = {
  id: 'c1',
  advertiser_id: 'a1',
  name: 'Boots',
  text: 'Buy boots.',
  image_url: null,
  target_url: 'https://shop.example/boots',
  category: null,
  keywords: ['boots'],
  keyword_translations: {},
  bid_per_click: 0.35,
  budget_total: null,
  budget_daily: 10,
  spent: 1.4,
  spent_today: 0.7,
  starts_at: null,
  ends_at: null,
  countries: [],
  devices: [],
  status: 'active',
  click_id_param: 'adl_click',
  attribution_window_days: 30,
  created_at: '2030-01-01T00:00:00.000Z',
};

describe('fieldChanges', () => {
  it('lists each changed field once, with both values as the API shows them', () => {
    const after = {
      ...dto,
      bid_per_click: 0.4,
      keywords: ['boots', 'hiking'],
      budget_daily: null,
      category: '483',
    };
    expect(fieldChanges(dto, after)).toEqual([
      { field: 'category', oldValue: 'null', newValue: '"483"' },
      { field: 'keywords', oldValue: '["boots"]', newValue: '["boots","hiking"]' },
      { field: 'bid_per_click', oldValue: '0.35', newValue: '0.4' },
      { field: 'budget_daily', oldValue: '10', newValue: 'null' },
    ]);
  });

  it('records changed keyword translations beside the keywords, as the API shows them', () => {
    const after = { ...dto, keyword_translations: { boots: ['stiefel', 'botas'] } };
    expect(fieldChanges(dto, after)).toEqual([
      {
        field: 'keyword_translations',
        oldValue: '{}',
        newValue: '{"boots":["stiefel","botas"]}',
      },
    ]);
  });

  it('ignores spend, which clicks change, and fields sent unchanged', () => {
    expect(fieldChanges(dto, { ...dto, spent: 9, spent_today: 9, name: 'Boots' })).toEqual([]);
  });
});

describe('auditSnapshot', () => {
  it('keeps the audited fields of a first version, not its spend or id', () => {
    const snapshot = JSON.parse(auditSnapshot(dto)) as Record<string, unknown>;
    expect(snapshot).toMatchObject({
      name: 'Boots',
      bid_per_click: 0.35,
      status: 'active',
      keyword_translations: {},
    });
    expect(snapshot).not.toHaveProperty('spent');
    expect(snapshot).not.toHaveProperty('id');
  });
});

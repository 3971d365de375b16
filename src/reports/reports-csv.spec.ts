import { campaignStatsCsv, modelReportCsv, publisherReportCsv, toCsv } from './reports-csv';

describe('toCsv', () => {
  it('writes RFC 4180: CRLF lines, quotes around commas, quotes and line breaks', () => {
    expect(
      toCsv({
        filename: 'x.csv',
        header: ['a', 'b'],
        rows: [
          ['x,y', 'say "hi"'],
          ['two\nlines', null],
        ],
      }),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n"two\nlines",\r\n');
  });

  it.each([
    ['=HYPERLINK("http://evil.example")', `"'=HYPERLINK(""http://evil.example"")"`],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
  ])('defuses the formula %j as %s', (cell, written) => {
    expect(toCsv({ filename: 'x.csv', header: ['name'], rows: [[cell]] })).toBe(
      `name\r\n${written}\r\n`,
    );
  });

  it('leaves numbers as they are, negative ones too', () => {
    expect(toCsv({ filename: 'x.csv', header: ['n'], rows: [[-1.5], [0.000001]] })).toBe(
      'n\r\n-1.5\r\n0.000001\r\n',
    );
  });
});

describe('report tables', () => {
  const figures = {
    impressions: 10,
    clicks: 2,
    invalid_clicks: 1,
    ctr: 0.2,
    spend: 0.7,
    invalid_click_rate: 0.333333,
    unbilled_by_reason: { bot: 1 },
    viewed_impressions: 4,
    view_rate: 0.4,
    conversions: 1,
    conversions_by_event: { purchase: 1 },
    conversion_rate: 0.5,
    conversion_value: 49.9,
    cost_per_conversion: 0.7,
    roas: 71.285714,
    conversions_received: 1,
  };
  const conversionHeader =
    'conversions,conversion_rate,conversion_value,cost_per_conversion,roas,conversions_received';
  const onePurchase = '1,0.5,49.9,0.7,71.285714,1,1';
  // bad_signature … campaign_inactive, over_budget, unrecorded: bot is the sixth of 16.
  const reasonHeader =
    'unbilled_bad_signature,unbilled_unknown_impression,unbilled_mismatch,unbilled_duplicate,unbilled_expired,unbilled_bot,unbilled_head_request,unbilled_prefetch,unbilled_too_fast,unbilled_ip_limit,unbilled_publisher_suspended,unbilled_model_inactive,unbilled_key_revoked,unbilled_campaign_inactive,unbilled_over_budget,unbilled_unrecorded';
  const oneBot = '0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0';

  it('lays out a campaign report as one row per day and a total', () => {
    const table = campaignStatsCsv({
      campaign_id: 'c1',
      from: '2030-01-01',
      to: '2030-01-31',
      rows: [
        { date: '2030-01-02', ...figures },
        {
          date: '2030-01-03',
          ...figures,
          conversions: 0,
          conversions_by_event: {},
          conversion_rate: 0,
          conversion_value: 0,
          cost_per_conversion: null,
          roas: 0,
          conversions_received: 0,
        },
      ],
      totals: figures,
      budget_total: null,
      budget_daily: null,
      spent: 0.7,
      spent_today: 0,
      remaining_budget: null,
      remaining_budget_today: null,
    });
    expect(table.filename).toBe('campaign-c1-2030-01-01-2030-01-31.csv');
    expect(toCsv(table).split('\r\n')).toEqual([
      `date,impressions,clicks,invalid_clicks,ctr,spend,invalid_click_rate,${reasonHeader},viewed_impressions,view_rate,${conversionHeader},event_purchase`,
      `2030-01-02,10,2,1,0.2,0.7,0.333333,${oneBot},4,0.4,${onePurchase}`,
      `2030-01-03,10,2,1,0.2,0.7,0.333333,${oneBot},4,0.4,0,0,0,,0,0,0`,
      `total,10,2,1,0.2,0.7,0.333333,${oneBot},4,0.4,${onePurchase}`,
      '',
    ]);
  });

  it('lays out the publisher report with its shares and a total', () => {
    const shares = { ...figures, publisher_earnings: 0.49, platform_revenue: 0.21 };
    const csv = toCsv(
      publisherReportCsv({
        from: '2030-01-01',
        to: '2030-01-01',
        rows: [
          {
            publisher_id: 'p1',
            publisher_name: '=cmd',
            publisher_email: 'p@example.test',
            ...shares,
          },
        ],
        totals: shares,
      }),
    );
    expect(csv.split('\r\n')).toEqual([
      `publisher_id,publisher_name,publisher_email,impressions,clicks,invalid_clicks,ctr,spend,publisher_earnings,platform_revenue,invalid_click_rate,${reasonHeader},viewed_impressions,view_rate,${conversionHeader},event_purchase`,
      `p1,'=cmd,p@example.test,10,2,1,0.2,0.7,0.49,0.21,0.333333,${oneBot},4,0.4,${onePurchase}`,
      `total,,,10,2,1,0.2,0.7,0.49,0.21,0.333333,${oneBot},4,0.4,${onePurchase}`,
      '',
    ]);
  });

  it('lays out the model report, with a column for a reason it does not know too', () => {
    const shares = {
      ...figures,
      unbilled_by_reason: { bot: 1, zz_new: 2 },
      publisher_earnings: 0.49,
      platform_revenue: 0.21,
    };
    const csv = toCsv(
      modelReportCsv({
        from: '2030-01-01',
        to: '2030-01-01',
        rows: [{ publisher_id: 'p1', model_id: 'm1', model_name: '@bot', ...shares }],
        totals: shares,
      }),
    );
    expect(csv.split('\r\n')).toEqual([
      `publisher_id,model_id,model_name,impressions,clicks,invalid_clicks,ctr,spend,publisher_earnings,platform_revenue,invalid_click_rate,${reasonHeader},unbilled_zz_new,viewed_impressions,view_rate,${conversionHeader},event_purchase`,
      `p1,m1,'@bot,10,2,1,0.2,0.7,0.49,0.21,0.333333,${oneBot},2,4,0.4,${onePurchase}`,
      `total,,,10,2,1,0.2,0.7,0.49,0.21,0.333333,${oneBot},2,4,0.4,${onePurchase}`,
      '',
    ]);
  });
});

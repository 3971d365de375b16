import type { Route } from '../../router';
import { href } from '../../router';
import { PageTitle } from '../../components/ui';
import { AdvertisersPage } from './advertisers';
import { CampaignPage } from './campaign';
import { CampaignsPage } from './campaigns';
import { EditCampaignPage, NewCampaignPage } from './campaign-edit';
import { PublisherPage } from './publisher';
import { PublishersPage } from './publishers';
import { ReportsPage } from './reports';

/** The console's sections, in the header's navigation (operators only). */
export const CONSOLE_NAV: [string, string][] = [
  ['console/campaigns', 'Campaigns'],
  ['console/advertisers', 'Advertisers'],
  ['console/publishers', 'Publishers'],
  ['console/reports', 'Reports'],
];

export const CONSOLE_HOME = '/console/campaigns';

/** `#/console/<section>/<id>/<tab>`: the operator's pages. */
export function ConsolePage({ route }: { route: Route }) {
  const [, section, id, tab] = route.segments;
  if (section === 'advertisers') return <AdvertisersPage />;
  if (section === 'publishers' && id) return <PublisherPage key={id} id={id} />;
  if (section === 'publishers') return <PublishersPage />;
  if (section === 'reports') return <ReportsPage />;
  if (section === 'campaigns' && id === 'new') {
    return <NewCampaignPage advertiserId={route.query.get('advertiser') ?? ''} />;
  }
  if (section === 'campaigns' && id && tab === 'edit') return <EditCampaignPage key={id} id={id} />;
  if (section === 'campaigns' && id) return <CampaignPage key={id} id={id} />;
  if (section === 'campaigns') return <CampaignsPage route={route} />;
  return (
    <>
      <PageTitle title="Not found">Page not found</PageTitle>
      <p>
        There is no such page. <a href={href(CONSOLE_HOME)}>Go to the campaigns</a>
      </p>
    </>
  );
}

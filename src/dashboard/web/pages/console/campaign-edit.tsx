import { adminApi } from '../../admin-api';
import { LoadError, Loading, PageTitle } from '../../components/ui';
import { useLoad } from '../../session';
import { CampaignForm, emptyCampaign } from './campaign-form';

export function NewCampaignPage({ advertiserId }: { advertiserId: string }) {
  return (
    <>
      <PageTitle title="New campaign">New campaign</PageTitle>
      <CampaignForm initial={{ ...emptyCampaign, advertiser_id: advertiserId }} />
    </>
  );
}

export function EditCampaignPage({ id }: { id: string }) {
  const campaign = useLoad(() => adminApi.campaign(id), [id]);
  return (
    <>
      <PageTitle title="Edit campaign">Edit {campaign.data?.name ?? 'campaign'}</PageTitle>
      {campaign.loading && <Loading what="the campaign" />}
      {campaign.error && <LoadError error={campaign.error} onRetry={campaign.reload} />}
      {campaign.data && <CampaignForm id={id} initial={campaign.data} />}
    </>
  );
}

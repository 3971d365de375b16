import { PageTitle } from '../components/ui';
import { useSession } from '../session';

/**
 * What an operator (role `admin`) sees here: the dashboard serves publishers, and an
 * operator's own work (advertisers, campaigns, publishers, reports) is in the operator API.
 */
export function OperatorPage() {
  const { publisher } = useSession();
  return (
    <>
      <PageTitle title="Operator account">You are signed in as an operator</PageTitle>
      <p class="lead">
        This dashboard is for publishers: their AI models, API keys and statistics.{' '}
        {publisher.email} is an operator account, which has none of these.
      </p>
      <div class="card">
        <h2 class="section-title">Where operators work</h2>
        <p>
          Advertisers, campaigns, publishers, reports and receipts are managed through the operator
          API: the routes under <code>/api/admin/</code>, tagged “admin” in the{' '}
          <a href="/docs">API documentation</a>. Call them with this account's session, or with the
          bearer token that signing in through the API returns.
        </p>
        <p>
          To see the dashboard as a publisher does, sign out and sign in with a publisher account.
        </p>
      </div>
    </>
  );
}

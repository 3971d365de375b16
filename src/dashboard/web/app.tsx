import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { api, type Publisher, whenUnauthorized } from './api';
import { LoadError, Loading, PageTitle } from './components/ui';
import { toApiError } from './components/form';
import { AccountPage } from './pages/account';
import {
  ForgotPasswordPage,
  ResetPasswordPage,
  SignInPage,
  SignUpPage,
  VerifyEmailPage,
} from './pages/auth';
import { ModelPage, type ModelTab } from './pages/model';
import { ModelsPage, NewModelPage } from './pages/models';
import { CONSOLE_HOME, CONSOLE_NAV, ConsolePage } from './pages/console/console';
import { OverviewPage } from './pages/overview';
import { PayoutsPage } from './pages/payouts';
import { StatsPage } from './pages/stats';
import { href, navigate, parseHash, type Route, useRoute } from './router';
import { type Session, SessionContext } from './session';

type Auth =
  | { state: 'checking' }
  | { state: 'signed-out'; notice: string | null }
  | { state: 'signed-in'; publisher: Publisher }
  | { state: 'failed'; error: ReturnType<typeof toApiError> };

/** Pages for signed-out visitors only; a signed-in one is sent home. */
const PUBLIC_PAGES = new Set(['signin', 'signup', 'forgot-password']);
/** Pages a mail links to: they work signed in or out. */
const LINK_PAGES = new Set(['reset-password', 'verify-email']);

/** Whether the request for this page carried a session cookie (the server says so). */
const sessionCookieSent = (): boolean =>
  document.querySelector('meta[name="adline-session"]')?.getAttribute('content') !== 'absent';

export function App() {
  const route = useRoute();
  const [auth, setAuth] = useState<Auth>(() =>
    sessionCookieSent() ? { state: 'checking' } : { state: 'signed-out', notice: null },
  );
  const [notice, setNotice] = useState<{ message: string; path: string } | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    whenUnauthorized(() =>
      setAuth({ state: 'signed-out', notice: 'Your session has ended. Please sign in again.' }),
    );
  }, []);

  useEffect(() => {
    if (auth.state !== 'checking') return;
    api.publisher().then(
      (publisher) => setAuth({ state: 'signed-in', publisher }),
      (error: unknown) => {
        const failure = toApiError(error);
        setAuth(
          failure.status === 401 || failure.status === 403
            ? { state: 'signed-out', notice: null }
            : { state: 'failed', error: failure },
        );
      },
    );
  }, [auth.state, round]);

  // Signed-out visitors see only the sign-in and sign-up pages; signed-in ones never do.
  const page = route.segments[0] ?? '';
  const home = auth.state === 'signed-in' ? homeOf(auth.publisher) : '/signin';
  useEffect(() => {
    if (auth.state === 'signed-out' && !PUBLIC_PAGES.has(page) && !LINK_PAGES.has(page))
      navigate('/signin', { replace: true });
    if (auth.state === 'signed-in' && (PUBLIC_PAGES.has(page) || page === '')) {
      // A new account starts with its first model; a returning publisher with its overview.
      navigate(page === 'signup' ? newAccountHomeOf(auth.publisher) : home, { replace: true });
    }
  }, [auth.state, page, home]);

  // A notice belongs to the page it was made on (pages navigate first, then notify).
  const path = route.segments.join('/');
  useEffect(() => {
    // Only on a change of page: a notice made just before its navigation lands must stay.
    setNotice((current) => (current && current.path !== path ? null : current));
  }, [path]);
  const notify = useCallback((message: string) => setNotice({ message, path: currentPath() }), []);

  const signOut = useCallback(async () => {
    await api.logout().catch(() => undefined);
    setNotice(null);
    setAuth({ state: 'signed-out', notice: 'You have signed out.' });
  }, []);

  const session = useMemo<Session | null>(
    () => (auth.state === 'signed-in' ? { publisher: auth.publisher, notify, signOut } : null),
    [auth, notify, signOut],
  );

  return (
    <>
      <a
        class="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <Header
        session={session}
        section={route.segments[0] === 'console' ? route.segments.slice(0, 2).join('/') : page}
      />
      <main id="main" tabIndex={-1} class={session ? 'main' : 'main main--narrow'}>
        <div class="notice-area" role="status">
          {notice && session && notice.path === path && (
            <p class="alert alert--success notice">{notice.message}</p>
          )}
        </div>
        {auth.state === 'checking' && <Loading what="your account" />}
        {auth.state === 'failed' && (
          <>
            <PageTitle title="Unavailable">The dashboard cannot reach the service</PageTitle>
            <LoadError
              error={auth.error}
              onRetry={() => {
                setAuth({ state: 'checking' });
                setRound((r) => r + 1);
              }}
            />
          </>
        )}
        {(auth.state === 'signed-out' || auth.state === 'signed-in') && page === 'verify-email' && (
          <VerifyEmailPage
            token={route.query.get('token') ?? ''}
            signedIn={auth.state === 'signed-in'}
            onVerified={() => {
              if (auth.state === 'signed-in') {
                setAuth({
                  state: 'signed-in',
                  publisher: { ...auth.publisher, email_verified: true },
                });
              }
            }}
          />
        )}
        {(auth.state === 'signed-out' || auth.state === 'signed-in') &&
          page === 'reset-password' && (
            <ResetPasswordPage
              token={route.query.get('token') ?? ''}
              // Resetting ends every session of the account, this one too.
              onReset={() => setAuth({ state: 'signed-out', notice: null })}
            />
          )}
        {auth.state === 'signed-out' &&
          !LINK_PAGES.has(page) &&
          (page === 'forgot-password' ? (
            <ForgotPasswordPage />
          ) : page === 'signup' ? (
            <SignUpPage onSignedIn={(publisher) => setAuth({ state: 'signed-in', publisher })} />
          ) : (
            <SignInPage
              notice={auth.notice}
              onSignedIn={(publisher) => setAuth({ state: 'signed-in', publisher })}
            />
          ))}
        {session && !LINK_PAGES.has(page) && (
          <SessionContext.Provider value={session}>
            <SignedInPage route={route} />
          </SessionContext.Provider>
        )}
      </main>
    </>
  );
}

const currentPath = (): string => parseHash(location.hash).segments.join('/');

/** Operators land on their console; publishers on their overview. */
const homeOf = (publisher: Publisher): string =>
  publisher.role === 'admin' ? CONSOLE_HOME : '/overview';

const newAccountHomeOf = (publisher: Publisher): string =>
  publisher.role === 'admin' ? CONSOLE_HOME : '/models';

function SignedInPage({ route }: { route: Route }) {
  const session = useContext(SessionContext);
  const [page, id, tab] = route.segments;
  if (session?.publisher.role === 'admin') {
    if (page !== 'console') {
      navigate(CONSOLE_HOME, { replace: true });
      return null;
    }
    return <ConsolePage route={route} />;
  }
  if (page === 'models' && id === 'new') return <NewModelPage />;
  if (page === 'models' && id) {
    const modelTab: ModelTab = tab === 'settings' || tab === 'integration' ? tab : 'keys';
    return <ModelPage key={id} modelId={id} tab={modelTab} />;
  }
  if (page === 'models') return <ModelsPage />;
  if (page === 'stats') return <StatsPage route={route} />;
  if (page === 'overview') return <OverviewPage />;
  if (page === 'payouts') return <PayoutsPage />;
  if (page === 'account') return <AccountPage />;
  if (page === undefined || PUBLIC_PAGES.has(page)) return null; // redirecting
  return (
    <>
      <PageTitle title="Not found">Page not found</PageTitle>
      <p>
        There is no such page. <a href={href('/overview')}>Go to your overview</a>
      </p>
    </>
  );
}

const NAV: [string, string][] = [
  ['overview', 'Overview'],
  ['models', 'Models'],
  ['stats', 'Statistics'],
  ['payouts', 'Payouts'],
  ['account', 'Account'],
];

function Header({ session, section }: { session: Session | null; section: string }) {
  return (
    <header class="topbar">
      <div class="topbar__inner">
        <a class="brand" href={href(session ? homeOf(session.publisher) : '/signin')}>
          <span class="brand__mark" aria-hidden="true">
            A
          </span>
          <span class="brand__name">Adline</span>
          <span class="brand__sub">
            {session?.publisher.role === 'admin' ? 'Operator console' : 'Publisher dashboard'}
          </span>
        </a>
        {session && (
          <>
            <nav class="nav" aria-label="Main">
              {(session.publisher.role === 'admin' ? CONSOLE_NAV : NAV).map(([path, label]) => (
                <a
                  key={path}
                  href={href(`/${path}`)}
                  aria-current={section === path ? 'page' : undefined}
                >
                  {label}
                </a>
              ))}
              <a href="/docs">API docs</a>
            </nav>
            <div class="account">
              <span class="account__name" title={session.publisher.email}>
                {session.publisher.name}
              </span>
              <button
                type="button"
                class="button button--small"
                onClick={() => void session.signOut()}
              >
                Sign out
              </button>
            </div>
          </>
        )}
      </div>
    </header>
  );
}

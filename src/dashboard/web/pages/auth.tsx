import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Publisher } from '../api';
import { FormError, requireValid, TextField, toApiError, useFormAction } from '../components/form';
import { Loading, PageTitle } from '../components/ui';
import { href } from '../router';
import { checkEmail, checkNewPassword, checkRequired } from '../validation-messages';

interface AuthPageProps {
  onSignedIn: (publisher: Publisher) => void;
  /** Why the visitor is here, e.g. after a session ended. */
  notice?: string | null;
}

export function SignInPage({ onSignedIn, notice }: AuthPageProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useFormAction(async () => {
    requireValid({
      email: checkRequired('email', email),
      password: checkRequired('password', password),
    });
    const { publisher } = await api.login({ email, password });
    onSignedIn(publisher);
  });
  return (
    <AuthForm
      form={form}
      title="Sign in"
      heading="Sign in"
      lead="Manage your AI models, API keys and earnings."
      notice={notice}
      submitLabel="Sign in"
      busyLabel="Signing in…"
      switchTo={
        <>
          <a href={href('/forgot-password')}>Forgot password?</a>
          <br />
          New to Adline? <a href={href('/signup')}>Create an account</a>
        </>
      }
    >
      <CredentialField
        formId="signin"
        field="email"
        autoComplete="username"
        value={email}
        onValue={setEmail}
        error={form.error?.forField('email')}
      />
      <CredentialField
        formId="signin"
        field="password"
        autoComplete="current-password"
        value={password}
        onValue={setPassword}
        error={form.error?.forField('password')}
      />
    </AuthForm>
  );
}

export function SignUpPage({ onSignedIn }: AuthPageProps) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useFormAction(async () => {
    requireValid({
      name: checkRequired('name', name),
      email: checkEmail(email),
      password: checkNewPassword('password', password),
    });
    const { publisher } = await api.register({ name, email, password });
    onSignedIn(publisher);
  });
  return (
    <AuthForm
      form={form}
      title="Create an account"
      heading="Create a publisher account"
      lead="Show relevant ads in your AI's replies and earn from every valid click."
      submitLabel="Create account"
      busyLabel="Creating your account…"
      switchTo={
        <>
          Already have an account? <a href={href('/signin')}>Sign in</a>
        </>
      }
    >
      <TextField
        id="signup-name"
        label="Publisher name"
        hint="Your company or your own name."
        autoComplete="organization"
        value={name}
        onValue={setName}
        maxLength={100}
        error={form.error?.forField('name')}
      />
      <CredentialField
        formId="signup"
        field="email"
        autoComplete="email"
        value={email}
        onValue={setEmail}
        error={
          form.error?.forField('email') ??
          (form.error?.code === 'email_taken' ? form.error.message : undefined)
        }
      />
      <CredentialField
        formId="signup"
        field="password"
        hint="At least 10 characters."
        autoComplete="new-password"
        value={password}
        onValue={setPassword}
        error={form.error?.forField('password')}
      />
    </AuthForm>
  );
}

/** Asks for a reset link; the answer never says whether the address has an account. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const form = useFormAction(async () => {
    requireValid({ email: checkEmail(email) });
    await api.forgotPassword(email.trim());
    setSent(email.trim());
  });
  if (sent !== null) {
    return (
      <section class="auth card">
        <PageTitle title="Check your mail">Check your mail</PageTitle>
        <p role="status" id="forgot-sent">
          If an account uses {sent}, we have sent it a link to choose a new password. The link works
          for one hour, once.
        </p>
        <p class="muted">No mail after a few minutes? Check your spam folder, or ask again.</p>
        <p class="auth__switch">
          <a href={href('/signin')}>Back to sign in</a>
        </p>
      </section>
    );
  }
  return (
    <AuthForm
      form={form}
      title="Forgot password"
      heading="Forgot your password?"
      lead="Enter the email address of your account: we will send you a link to choose a new password."
      submitLabel="Send the link"
      busyLabel="Sending…"
      switchTo={
        <>
          Remembered it? <a href={href('/signin')}>Sign in</a>
        </>
      }
    >
      <TextField
        id="forgot-email"
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onValue={setEmail}
        error={form.error?.forField('email')}
      />
    </AuthForm>
  );
}

/** The page the reset mail links to: `#/reset-password?token=…`. */
export function ResetPasswordPage({ token, onReset }: { token: string; onReset: () => void }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const form = useFormAction(async () => {
    requireValid({ new_password: checkNewPassword('new_password', password) });
    await api.resetPassword({ token, new_password: password });
    setDone(true);
    onReset();
  });
  if (!token || form.error?.code === 'invalid_reset_token') {
    return (
      <section class="auth card">
        <PageTitle title="Link not valid">This link no longer works</PageTitle>
        <p class="alert alert--error" role="alert">
          A reset link works for one hour, and only once. Ask for a new one.
        </p>
        <p class="auth__switch">
          <a class="button button--primary" href={href('/forgot-password')}>
            Ask for a new link
          </a>
        </p>
      </section>
    );
  }
  if (done) {
    return (
      <section class="auth card">
        <PageTitle title="Password changed">Your password has been changed</PageTitle>
        <p role="status">
          Sign in with your new password. Every other session has been signed out.
        </p>
        <p class="auth__switch">
          <a class="button button--primary" href={href('/signin')}>
            Sign in
          </a>
        </p>
      </section>
    );
  }
  return (
    <AuthForm
      form={form}
      title="Choose a new password"
      heading="Choose a new password"
      lead="After the change, sign in with the new password."
      submitLabel="Set new password"
      busyLabel="Setting…"
      switchTo={<a href={href('/signin')}>Back to sign in</a>}
    >
      <TextField
        id="reset-password"
        label="New password"
        type="password"
        hint="At least 10 characters."
        autoComplete="new-password"
        value={password}
        onValue={setPassword}
        error={form.error?.forField('new_password')}
      />
    </AuthForm>
  );
}

/** The page the verification mail links to: `#/verify-email?token=…`; confirms at once. */
export function VerifyEmailPage({
  token,
  signedIn,
  onVerified,
}: {
  token: string;
  signedIn: boolean;
  onVerified: () => void;
}) {
  const [state, setState] = useState<'checking' | 'done' | 'invalid' | 'failed'>('checking');
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (!token) {
      setState('invalid');
      return;
    }
    api.verifyEmail(token).then(
      () => {
        setState('done');
        onVerified();
      },
      (caught: unknown) => {
        const error = toApiError(caught);
        setMessage(error.message);
        setState(error.code === 'invalid_verification_token' ? 'invalid' : 'failed');
      },
    );
  }, [token]);
  const next = signedIn ? (
    <a class="button button--primary" href={href('/overview')}>
      Go to your overview
    </a>
  ) : (
    <a class="button button--primary" href={href('/signin')}>
      Sign in
    </a>
  );
  return (
    <section class="auth card">
      <PageTitle title="Verify your e-mail">Verify your e-mail address</PageTitle>
      {state === 'checking' && <Loading what="the link" />}
      {state === 'done' && <p role="status">Thank you: your e-mail address is confirmed.</p>}
      {state === 'invalid' && (
        <p class="alert alert--error" role="alert">
          This link is not valid any more: it was used already or has expired.
          {signedIn ? ' Send a new one from your overview.' : ' Sign in to send a new one.'}
        </p>
      )}
      {state === 'failed' && (
        <p class="alert alert--error" role="alert">
          {message}
        </p>
      )}
      {state !== 'checking' && <p class="auth__switch">{next}</p>}
    </section>
  );
}

interface AuthFormProps {
  form: ReturnType<typeof useFormAction>;
  /** The document's title; `heading` is the page's. */
  title: string;
  heading: string;
  lead: string;
  notice?: string | null;
  submitLabel: string;
  busyLabel: string;
  /** The way to the other form, below this one. */
  switchTo: ComponentChildren;
  children: ComponentChildren;
}

/** The card that holds the sign-in or the sign-up form. */
function AuthForm({ form, ...props }: AuthFormProps) {
  return (
    <section class="auth card">
      <PageTitle title={props.title}>{props.heading}</PageTitle>
      <p class="lead">{props.lead}</p>
      {props.notice && (
        <p class="alert alert--info" role="status">
          {props.notice}
        </p>
      )}
      <form ref={form.formRef} onSubmit={form.onSubmit} noValidate>
        <FormError error={form.error} />
        {props.children}
        <button type="submit" class="button button--primary button--wide" disabled={form.busy}>
          {form.busy ? props.busyLabel : props.submitLabel}
        </button>
      </form>
      <p class="auth__switch">{props.switchTo}</p>
    </section>
  );
}

const CREDENTIAL_LABELS = { email: 'Email', password: 'Password' };

interface CredentialFieldProps {
  /** The form it belongs to: the input's id is e.g. `signin-email`. */
  formId: 'signin' | 'signup';
  field: 'email' | 'password';
  autoComplete: string;
  value: string;
  onValue: (value: string) => void;
  error: string | undefined;
  hint?: string;
}

/** The email or password field of the sign-in and sign-up forms. */
function CredentialField({ formId, field, ...rest }: CredentialFieldProps) {
  return (
    <TextField id={`${formId}-${field}`} label={CREDENTIAL_LABELS[field]} type={field} {...rest} />
  );
}

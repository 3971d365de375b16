import { useState } from 'preact/hooks';
import { api, type Publisher } from '../api';
import { FormError, TextField, useFormAction } from '../components/form';
import { PageTitle } from '../components/ui';
import { href } from '../router';

interface AuthPageProps {
  onSignedIn: (publisher: Publisher) => void;
  /** Why the visitor is here, e.g. after a session ended. */
  notice?: string | null;
}

export function SignInPage({ onSignedIn, notice }: AuthPageProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useFormAction(async () => {
    const { publisher } = await api.login({ email, password });
    onSignedIn(publisher);
  });
  return (
    <section class="auth card">
      <PageTitle title="Sign in">Sign in</PageTitle>
      <p class="lead">Manage your AI models, API keys and earnings.</p>
      {notice && (
        <p class="alert alert--info" role="status">
          {notice}
        </p>
      )}
      <form ref={form.formRef} onSubmit={form.onSubmit} noValidate>
        <FormError error={form.error} />
        <TextField
          id="signin-email"
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          onValue={setEmail}
          error={form.error?.forField('email')}
        />
        <TextField
          id="signin-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
          error={form.error?.forField('password')}
        />
        <button type="submit" class="button button--primary button--wide" disabled={form.busy}>
          {form.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p class="auth__switch">
        New to Adline? <a href={href('/signup')}>Create an account</a>
      </p>
    </section>
  );
}

export function SignUpPage({ onSignedIn }: AuthPageProps) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useFormAction(async () => {
    const { publisher } = await api.register({ name, email, password });
    onSignedIn(publisher);
  });
  return (
    <section class="auth card">
      <PageTitle title="Create an account">Create a publisher account</PageTitle>
      <p class="lead">Show relevant ads in your AI's replies and earn from every valid click.</p>
      <form ref={form.formRef} onSubmit={form.onSubmit} noValidate>
        <FormError error={form.error} />
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
        <TextField
          id="signup-email"
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onValue={setEmail}
          error={
            form.error?.forField('email') ??
            (form.error?.code === 'email_taken' ? form.error.message : undefined)
          }
        />
        <TextField
          id="signup-password"
          label="Password"
          type="password"
          hint="At least 10 characters."
          autoComplete="new-password"
          value={password}
          onValue={setPassword}
          error={form.error?.forField('password')}
        />
        <button type="submit" class="button button--primary button--wide" disabled={form.busy}>
          {form.busy ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p class="auth__switch">
        Already have an account? <a href={href('/signin')}>Sign in</a>
      </p>
    </section>
  );
}
